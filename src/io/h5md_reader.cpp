// One frame of an H5MD 1.1 file (this program's or another's; nongnu.org/h5md): from the
// particle group (particles/all, else the only one) the position at the frame asked for, and
// the box, species, id, velocity, image and mass at the same step where the file holds them.
// An element is a time-dependent group (step, time, value) or a time-independent dataset.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include <unistd.h>

#include "io/hdf5_util.hpp"
#include "io/particle_file.hpp"

namespace mdremap::io {

namespace {

struct Bad : std::runtime_error {  // a problem with a dataset, named in the message
  using std::runtime_error::runtime_error;
};

bool is_group(hid_t loc, const std::string& name) {
  h5::Handle obj(H5Oopen(loc, name.c_str(), H5P_DEFAULT), H5Oclose);
  if (!obj.valid()) throw Bad("cannot open '" + name + "'");
  return H5Iget_type(obj.get()) == H5I_GROUP;
}

// A string attribute (scalar or [k]), fixed- or variable-length (h5py writes the latter).
std::vector<std::string> string_attr(hid_t loc, const std::string& name) {
  h5::Handle attr(H5Aopen(loc, name.c_str(), H5P_DEFAULT), H5Aclose);
  if (!attr.valid()) throw Bad("missing attribute '" + name + "'");
  h5::Handle type(H5Aget_type(attr.get()), H5Tclose);
  if (H5Tget_class(type.get()) != H5T_STRING) throw Bad("attribute '" + name + "' is not text");
  if (H5Tis_variable_str(type.get()) <= 0) return h5::read_attr_strings(loc, name);
  h5::Handle space(H5Aget_space(attr.get()), H5Sclose);
  const hssize_t count = H5Sget_simple_extent_npoints(space.get());
  if (count < 0 || count > 1000) throw Bad("attribute '" + name + "' has an odd size");
  h5::Handle mem(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(mem.get(), H5T_VARIABLE);
  H5Tset_cset(mem.get(), H5Tget_cset(type.get()));  // HDF5 converts no character sets
  std::vector<char*> raw(static_cast<std::size_t>(count), nullptr);
  if (H5Aread(attr.get(), mem.get(), raw.data()) < 0)
    throw Bad("unreadable attribute '" + name + "'");
  std::vector<std::string> out;
  for (char* c : raw) out.emplace_back(c != nullptr ? c : "");
  H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, raw.data());
  return out;
}

std::vector<hsize_t> dims_of(hid_t set) {
  h5::Handle space(h5::check(H5Dget_space(set), "unreadable dataspace"), H5Sclose);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) throw Bad("unreadable dataspace");
  std::vector<hsize_t> d(static_cast<std::size_t>(rank));
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), d.data(), nullptr);
  return d;
}

// Sample `index` (or all of a time-independent dataset: index < 0) of dataset `path`, whose
// sample has `per` dims (e.g. {n, 3}); `per` entries of 0 take what the file has.
template <class T>
std::vector<T> sample(hid_t root, const std::string& path, std::int64_t index,
                      std::vector<hsize_t>& per) {
  h5::Handle set(H5Dopen2(root, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set.valid()) throw Bad(path + ": missing dataset");
  const auto d = dims_of(set.get());
  const std::size_t lead = index >= 0 ? 1 : 0;
  if (d.size() != per.size() + lead)
    throw Bad(fmt::format("{}: {} dimensions, expected {}", path, d.size(), per.size() + lead));
  if (index >= 0 && static_cast<hsize_t>(index) >= d[0])
    throw Bad(fmt::format("{}: no sample {} (it holds {})", path, index, d[0]));
  std::vector<hsize_t> start(d.size(), 0), count(d);
  std::size_t total = 1;
  for (std::size_t k = 0; k < per.size(); ++k) {
    if (per[k] != 0 && per[k] != d[lead + k])
      throw Bad(
          fmt::format("{}: dimension {} is {}, expected {}", path, lead + k, d[lead + k], per[k]));
    per[k] = d[lead + k];
    total *= per[k];
  }
  if (index >= 0) start[0] = static_cast<hsize_t>(index), count[0] = 1;
  // A dataset may declare any size at no cost on disk: one never written (all fill values) is
  // refused, and so is a sample larger than this machine's memory, before it is allocated.
  H5D_space_status_t status = H5D_SPACE_STATUS_ERROR;
  if (total > 0 &&
      (H5Dget_space_status(set.get(), &status) < 0 || status == H5D_SPACE_STATUS_NOT_ALLOCATED))
    throw Bad(fmt::format("{}: its values were never written", path));
  const double bytes = static_cast<double>(total) * sizeof(T);
  const double host = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                      static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  if (host > 0 && bytes > host)
    throw Bad(fmt::format("{}: a sample of {} values needs {:.3g} GB; this machine has {:.3g} GB",
                          path, total, bytes / 1e9, host / 1e9));
  std::vector<T> out(total);
  h5::Handle file_space(H5Dget_space(set.get()), H5Sclose);
  if (!d.empty())
    h5::check_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr,
                                         count.data(), nullptr),
                     path + ": cannot select");
  h5::Handle mem = h5::dataspace(count);
  if (total > 0 && H5Dread(set.get(), h5::Type<T>::mem(), mem.get(), file_space.get(), H5P_DEFAULT,
                           out.data()) < 0)
    throw Bad(path + ": unreadable (not numbers of a readable type?)");
  return out;
}

// The steps of a time-dependent element (H5MD: a dataset [T], or a scalar interval with an
// optional offset attribute for regular sampling).
std::vector<std::int64_t> steps_of(hid_t root, const std::string& element, std::int64_t frames) {
  const std::string path = element + "/step";
  h5::Handle set(H5Dopen2(root, path.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set.valid()) throw Bad(path + ": missing (a time-dependent element needs its steps)");
  const auto d = dims_of(set.get());
  std::vector<hsize_t> none;
  if (d.empty()) {
    const std::int64_t every = sample<std::int64_t>(root, path, -1, none).at(0);
    std::int64_t offset = 0;
    if (h5::has_attr(set.get(), "offset"))
      offset = h5::read_attr<std::int64_t>(set.get(), "offset");
    std::vector<std::int64_t> s(static_cast<std::size_t>(frames));
    for (std::int64_t k = 0; k < frames; ++k) s[k] = offset + k * every;
    return s;
  }
  if (d.size() != 1) throw Bad(path + ": not one-dimensional");
  set.reset();
  std::vector<hsize_t> all = {0};
  return sample<std::int64_t>(root, path, -1, all);
}

struct Element {
  bool present = false;
  bool timed = false;
  std::string value;  // the dataset holding the values
  std::int64_t index = -1;
};

// Element `name` of `group` at step `step`: its value dataset and the sample to read.
Element element_at(hid_t root, const std::string& group, const std::string& name,
                   std::int64_t step) {
  Element e;
  const std::string path = group + "/" + name;
  if (!h5::has_link(root, path)) return e;
  e.present = true;
  if (!is_group(root, path)) {
    e.value = path;
    return e;
  }
  e.timed = true;
  e.value = path + "/value";
  h5::Handle set(H5Dopen2(root, e.value.c_str(), H5P_DEFAULT), H5Dclose);
  if (!set.valid()) throw Bad(e.value + ": missing");
  const auto d = dims_of(set.get());
  if (d.empty()) throw Bad(e.value + ": a scalar (expected one sample per step)");
  const auto steps = steps_of(root, path, static_cast<std::int64_t>(d[0]));
  auto it = std::find(steps.begin(), steps.end(), step);
  if (it == steps.end())
    throw Bad(fmt::format("{}: no sample at step {} (the position's frame)", path, step));
  e.index = it - steps.begin();
  return e;
}

}  // namespace

ParticleFile read_h5md_frame(const std::string& path, std::int64_t frame) {
  h5::QuietErrors quiet;
  ParticleFile f;
  f.path = path;
  f.format = "H5MD";
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(path, 0, "not an HDF5 (H5MD) file");
  h5::Handle fapl = h5::fapl_without_locking();
  h5::Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!file.valid()) throw InputError(path, 0, "cannot open the HDF5 file (truncated or corrupt?)");
  const hid_t root = file.get();
  try {
    if (!h5::has_link(root, "h5md") || !h5::has_link(root, "particles"))
      throw Bad("not an H5MD file (no h5md and particles groups)");
    // The particle group: particles/all, else the only one.
    std::string group = "particles/all";
    if (!h5::has_link(root, group)) {
      h5::Handle particles = h5::open_group(root, "particles");
      H5G_info_t info;
      h5::check_status(H5Gget_info(particles.get(), &info), "unreadable group 'particles'");
      if (info.nlinks != 1)
        throw Bad(fmt::format("particles holds {} groups and no 'all': which one is the system?",
                              info.nlinks));
      char name[256] = {};
      H5Lget_name_by_idx(particles.get(), ".", H5_INDEX_NAME, H5_ITER_INC, 0, name,
                         sizeof(name) - 1, H5P_DEFAULT);
      group = std::string("particles/") + name;
    }
    const std::string pos = group + "/position";
    if (!h5::has_link(root, pos)) throw Bad(pos + ": missing");
    std::int64_t step = 0;
    std::int64_t index = -1;
    if (is_group(root, pos)) {
      h5::Handle set(H5Dopen2(root, (pos + "/value").c_str(), H5P_DEFAULT), H5Dclose);
      if (!set.valid()) throw Bad(pos + "/value: missing");
      const auto d = dims_of(set.get());
      if (d.empty()) throw Bad(pos + "/value: a scalar");
      f.frames = static_cast<std::int64_t>(d[0]);
      index = resolve_frame(frame, f.frames, path, "position frame");
      step = steps_of(root, pos, f.frames).at(static_cast<std::size_t>(index));
    } else if (frame != 0 && frame != -1) {
      throw Bad(fmt::format("{} is time-independent: there is no frame {}", pos, frame));
    }
    f.frame = std::max<std::int64_t>(index, 0);
    f.step = step;
    const std::string pvalue = index >= 0 ? pos + "/value" : pos;
    f.atom_dataset = index >= 0 ? fmt::format("{} frame {}", pvalue, index) : pvalue;
    std::vector<hsize_t> per = {0, 3};
    f.x = sample<double>(root, pvalue, index, per);
    const hsize_t n = per[0];
    if (n == 0) throw Bad(pvalue + ": no particles");

    // The box: dimension 3, boundary per axis, edges (a 3-vector or a diagonal 3x3 matrix).
    const std::string box = group + "/box";
    if (!h5::has_link(root, box)) throw Bad(box + ": missing");
    h5::Handle bg = h5::open_group(root, box);
    if (h5::read_attr<std::int32_t>(bg.get(), "dimension") != 3)
      throw Bad(box + ": dimension is not 3 (only 3D systems are read)");
    const auto boundary = string_attr(bg.get(), "boundary");
    if (boundary.size() != 3) throw Bad(box + ": boundary needs three entries");
    for (int d = 0; d < 3; ++d) {
      if (boundary[d] == "periodic")
        f.periodic[d] = true;
      else if (boundary[d] == "none")
        f.periodic[d] = false;
      else
        throw Bad(box + ": boundary '" + boundary[d] + "' is not periodic or none");
    }
    if (h5::has_attr(bg.get(), "mdremap_origin")) {
      const auto lo = h5::read_attr_array<double>(bg.get(), "mdremap_origin", 3);
      std::copy(lo.begin(), lo.end(), f.lo);
    }
    const Element edges = element_at(root, box, "edges", step);
    if (!edges.present) throw Bad(box + "/edges: missing");
    f.box_dataset =
        edges.timed ? fmt::format("{} sample {}", edges.value, edges.index) : edges.value;
    h5::Handle es(H5Dopen2(root, edges.value.c_str(), H5P_DEFAULT), H5Dclose);
    const auto ed = dims_of(es.get());
    es.reset();
    const bool matrix = ed.size() == (edges.timed ? 3u : 2u);
    std::vector<hsize_t> eper = matrix ? std::vector<hsize_t>{3, 3} : std::vector<hsize_t>{3};
    const auto e = sample<double>(root, edges.value, edges.index, eper);
    for (int a = 0; a < 3; ++a) {
      f.len[a] = matrix ? e[4 * a] : e[a];
      for (int b = 0; b < 3 && matrix; ++b)
        if (a != b && e[3 * a + b] != 0.0)
          throw Bad(f.box_dataset + ": a triclinic box (only orthogonal boxes are read)");
    }

    auto per_atom = [&](const std::string& name, hsize_t width, auto tag) {
      using T = decltype(tag);
      const Element el = element_at(root, group, name, step);
      std::vector<T> out;
      if (!el.present) return out;
      std::vector<hsize_t> dims =
          width == 1 ? std::vector<hsize_t>{n} : std::vector<hsize_t>{n, width};
      out = sample<T>(root, el.value, el.index, dims);
      return out;
    };
    f.v = per_atom("velocity", 3, double{});
    const auto image = per_atom("image", 3, std::int64_t{});
    for (std::size_t i = 0; i < image.size(); ++i) {
      constexpr std::int64_t kMaxImage = std::int64_t{1} << 30;  // box lengths crossed
      if (image[i] < -kMaxImage || image[i] > kMaxImage)
        throw Bad(fmt::format("{}/image row {}: image count {} (at most 2^30 box lengths)", group,
                              i / 3, image[i]));
      f.image.push_back(static_cast<std::int32_t>(image[i]));
    }
    f.id = per_atom("id", 1, std::int64_t{});
    if (f.id.empty())
      for (hsize_t i = 0; i < n; ++i) f.id.push_back(static_cast<std::int64_t>(i) + 1);
    const auto species = per_atom("species", 1, std::int64_t{});
    std::vector<std::string> names;
    const std::string sg = group + "/species";
    if (!species.empty() && is_group(root, sg)) {
      h5::Handle g = h5::open_group(root, sg);
      if (h5::has_attr(g.get(), "names")) names = string_attr(g.get(), "names");
    }
    f.named_types = !names.empty();
    std::int64_t top = 0;
    for (auto s : species) top = std::max(top, s);
    f.type.assign(n, 0);
    for (hsize_t i = 0; i < species.size(); ++i) {
      if (species[i] < 0 ||
          (f.named_types && species[i] >= static_cast<std::int64_t>(names.size())))
        throw Bad(fmt::format("{} row {}: species {} has no type (0..{})", sg, i, species[i],
                              f.named_types ? names.size() - 1 : top));
      f.type[i] = static_cast<std::int32_t>(species[i]);
    }
    if (top > 1000) throw Bad(fmt::format("{}: species {} (at most 1000 types)", sg, top));
    if (f.named_types) {
      for (const auto& s : names) f.types.push_back({s, 0.0, 0});
    } else {
      for (std::int64_t t = 0; t <= top; ++t) f.types.push_back({std::to_string(t), 0.0, 0});
    }
    const auto mass = per_atom("mass", 1, double{});
    for (hsize_t i = 0; i < mass.size(); ++i) {
      ParticleType& t = f.types[f.type[i]];
      if (!(mass[i] > 0)) throw Bad(fmt::format("{}/mass row {}: mass {}", group, i, mass[i]));
      if (t.mass > 0 && t.mass != mass[i])
        throw Bad(
            fmt::format("{}/mass row {}: mass {} differs from {} of another atom of type {} "
                        "(masses are per type)",
                        group, i, mass[i], t.mass, t.name));
      t.mass = mass[i];
    }
  } catch (const Bad& e) {
    throw InputError(path, 0, e.what());
  } catch (const h5::Failure& e) {
    throw InputError(path, 0, std::string(e.what()) + " (not an H5MD file this reads?)");
  }
  return f;
}

}  // namespace mdremap::io
