// A frame of a GSD file in HOOMD-blue's schema ("hoomd"; gsd.readthedocs.io "HOOMD Schema"):
// configuration/step and box, particles/N, types, typeid, mass, position, velocity, image.
// A chunk absent from the frame takes frame 0's value, and the schema's default where frame 0
// lacks it too. Positions are relative to the box centre (the box spans [-L/2, L/2)).
#include <fmt/format.h>

#include <cmath>

#include "io/gsd_file.hpp"
#include "io/particle_file.hpp"

namespace mdremap::io {

namespace {
constexpr std::int64_t kMaxImage = std::int64_t{1} << 30;  // box lengths an atom may have crossed
}  // namespace

ParticleFile read_gsd_frame(std::istream& in, const std::string& name, std::int64_t frame) {
  gsd::Reader r(in, name);
  if (r.schema() != "hoomd")
    r.fail("schema '" + r.schema() + "' (HOOMD-blue's files have schema 'hoomd')");
  const std::int64_t k =
      resolve_frame(frame, static_cast<std::int64_t>(r.frames()), name, "GSD frame");
  ParticleFile f;
  f.path = name;
  f.format = "GSD";
  f.frame = k;
  f.frames = static_cast<std::int64_t>(r.frames());
  f.named_types = true;
  f.atom_dataset = fmt::format("frame {} particles/position", k);
  f.box_dataset = fmt::format("frame {} configuration/box", k);
  const std::uint64_t fk = static_cast<std::uint64_t>(k);
  auto entry = [&](const std::string& chunk) {
    const gsd::Entry* e = r.find(fk, chunk);
    return e != nullptr ? e : r.find(0, chunk);
  };
  // A chunk of `rows` x `cols` values as T (the tag's type: double, or std::int64_t for integer
  // data, which a float chunk must then hold as whole numbers), or empty where no frame has it.
  auto values = [&](const std::string& chunk, std::uint64_t rows, std::uint32_t cols, auto tag) {
    using T = decltype(tag);
    const gsd::Entry* e = entry(chunk);
    if (e == nullptr) return std::vector<T>{};
    if (e->n != rows || e->m != cols)
      r.fail(fmt::format("chunk {} is {} x {}, expected {} x {}", chunk, e->n, e->m, rows, cols));
    return r.read<T>(*e, chunk);
  };

  if (const gsd::Entry* e = entry("configuration/dimensions")) {
    const auto d = r.read<std::int64_t>(*e, "configuration/dimensions");
    if (d.size() != 1 || d[0] != 3)
      r.fail(fmt::format("configuration/dimensions is {}: only 3D systems are read",
                         d.empty() ? 0 : d[0]));
  }
  if (const gsd::Entry* e = entry("configuration/step")) {
    const auto s = r.read<std::int64_t>(*e, "configuration/step");
    if (s.size() != 1 || s[0] < 0) r.fail("configuration/step is not one step");
    f.step = s[0];
  }
  std::vector<double> box = values("configuration/box", 6, 1, double{});
  if (box.empty()) box = {1, 1, 1, 0, 0, 0};  // the schema's default
  for (int t = 3; t < 6; ++t)
    if (box[t] != 0.0)
      throw f.at_box(fmt::format("tilt factor {} = {}: only orthogonal boxes are read",
                                 t == 3   ? "xy"
                                 : t == 4 ? "xz"
                                          : "yz",
                                 box[t]));
  for (int d = 0; d < 3; ++d) {
    f.len[d] = box[d];
    f.lo[d] = -0.5 * box[d];
  }

  std::uint64_t n = 0;
  if (const gsd::Entry* e = entry("particles/N")) {
    const auto v = r.read<std::int64_t>(*e, "particles/N");
    if (v.size() != 1 || v[0] < 0) r.fail("particles/N is not one count");
    n = static_cast<std::uint64_t>(v[0]);
  }
  if (n == 0) r.fail(fmt::format("frame {} holds no particles (particles/N is 0)", k));
  std::vector<std::string> names = {"A"};
  if (const gsd::Entry* e = entry("particles/types")) names = r.read_strings(*e, "particles/types");
  if (names.empty()) r.fail("particles/types is empty");
  for (const auto& s : names) f.types.push_back({s, 0.0, 0});

  // The schema lets positions default to the origin; a run cannot start from N atoms on one
  // point, and the chunk's size (bounded by the file's) bounds the allocations below.
  f.x = values("particles/position", n, 3, double{});
  if (f.x.empty())
    r.fail(
        fmt::format("frame {} has no particles/position (nor frame 0): {} particles all at the "
                    "origin",
                    k, n));
  f.v = values("particles/velocity", n, 3, double{});
  const auto image = values("particles/image", n, 3, std::int64_t{});
  for (std::size_t i = 0; i < image.size(); ++i) {
    if (image[i] < -kMaxImage || image[i] > kMaxImage)
      throw InputError(name, 0,
                       fmt::format("frame {} particles/image row {}: image count {} (at most "
                                   "2^30 box lengths)",
                                   k, i / 3, image[i]));
    f.image.push_back(static_cast<std::int32_t>(image[i]));
  }
  const auto typeid_ = values("particles/typeid", n, 1, std::int64_t{});
  f.type.assign(n, 0);
  for (std::uint64_t i = 0; i < typeid_.size(); ++i) {
    if (typeid_[i] < 0 || typeid_[i] >= static_cast<std::int64_t>(names.size()))
      throw InputError(name, 0,
                       fmt::format("frame {} particles/typeid row {}: type id {} outside the {} "
                                   "particles/types",
                                   k, i, typeid_[i], names.size()));
    f.type[i] = static_cast<std::int32_t>(typeid_[i]);
  }
  // Masses are per particle in the schema and per type here: they must agree within a type.
  const std::vector<double> mass = values("particles/mass", n, 1, double{});
  for (std::uint64_t i = 0; i < mass.size(); ++i) {
    ParticleType& t = f.types[f.type[i]];
    if (!(mass[i] > 0))
      throw InputError(name, 0,
                       fmt::format("frame {} particles/mass row {}: mass {} must be "
                                   "positive",
                                   k, i, mass[i]));
    if (t.mass > 0 && t.mass != mass[i])
      throw InputError(name, 0,
                       fmt::format("frame {} particles/mass row {}: mass {} differs from {} of "
                                   "another particle of type {} (masses are per type)",
                                   k, i, mass[i], t.mass, t.name));
    t.mass = mass[i];
  }
  if (mass.empty())
    for (auto& t : f.types) t.mass = 1.0;  // the schema's default
  f.id.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) f.id[i] = static_cast<std::int64_t>(i) + 1;
  return f;
}

}  // namespace mdremap::io
