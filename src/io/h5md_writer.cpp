#include "io/h5md_writer.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "comm/runtime.hpp"
#include "io/hdf5_util.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::io {

namespace {

const char* const kFieldNames[] = {"position", "velocity", "force",           "species",
                                   "id",       "image",    "potential_energy"};
// Unit strings of the observables (H5MD units module, system "lj"), in kObservableNames' order.
const char* const kObservableUnits[] = {"epsilon kB-1", "epsilon", "epsilon", "epsilon",
                                        "epsilon sigma-3"};
const char* const kObservableNames[] = {"temperature", "potential_energy", "kinetic_energy",
                                        "total_energy", "pressure"};

// Frames of per-atom data are chunked one frame per chunk (a frame is written and read whole);
// small series get bigger chunks so a long run does not create one chunk per sample.
constexpr hsize_t kSmallSeriesChunk = 256;

// Why H5Fcreate failed on `path`, found from the file system (HDF5 keeps errno to itself): a
// device or pipe (HDF5 seeks back to write its header), a missing or read-only directory.
std::string why_not_created(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const char* what = S_ISCHR(st.st_mode)    ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISFIFO(st.st_mode) ? "a pipe"
                       : S_ISDIR(st.st_mode)  ? "a directory"
                                              : "not a regular file";
    return fmt::format(
        "it is {}, and HDF5 could not write its header there: an H5MD file needs a "
        "regular file",
        what);
  }
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  if (::stat(dir.c_str(), &st) != 0) return fmt::format("its directory '{}' does not exist", dir);
  if (!S_ISDIR(st.st_mode)) return fmt::format("'{}' is not a directory", dir);
  if (::access(dir.c_str(), W_OK) != 0)
    return fmt::format("its directory '{}' is not writable ({})", dir, std::strerror(errno));
  return "HDF5 could not create it";
}

// Fills `order` so that order[k] is the slot of the k-th smallest id. Ids 0..n-1 (the usual
// case) take a linear scatter; anything else is sorted. Duplicate ids are an engine bug.
void order_by_id(const std::vector<std::int64_t>& id, std::vector<std::size_t>& order) {
  const std::size_t n = id.size();
  const std::size_t unset = std::numeric_limits<std::size_t>::max();
  order.assign(n, unset);
  bool dense = true;
  for (std::size_t i = 0; i < n && dense; ++i) {
    const std::int64_t k = id[i];
    if (k < 0 || static_cast<std::size_t>(k) >= n || order[k] != unset) {
      dense = false;
    } else {
      order[k] = i;
    }
  }
  if (dense) return;
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return id[a] < id[b]; });
  for (std::size_t k = 1; k < n; ++k)
    if (id[order[k]] == id[order[k - 1]])
      throw Error("duplicate atom id " + std::to_string(id[order[k]]) + " in frame");
}

template <class T>
void gather(const std::vector<T>& src, const std::vector<std::size_t>& order, int width,
            std::vector<T>& dst) {
  dst.resize(order.size() * width);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int c = 0; c < width; ++c) dst[k * width + c] = src[order[k] * width + c];
}

// A file shared by the ranks of the run (HDF5's MPI flavour; hdf5.h then includes mpi.h).
#if MDREMAP_PARALLEL_HDF5
void shared_file_access(hid_t fapl) {
  h5::check_status(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL),
                   "cannot open the file through MPI-IO");
}
void collective_transfers(hid_t xfer) {
  h5::check_status(H5Pset_dxpl_mpio(xfer, H5FD_MPIO_COLLECTIVE),
                   "cannot ask for collective transfers");
}
#else
void shared_file_access(hid_t) {
  throw h5::Failure("this build has no parallel HDF5");
}
void collective_transfers(hid_t) {
  throw h5::Failure("this build has no parallel HDF5");
}
#endif

}  // namespace

bool H5mdWriter::collective_available() {
  return MDREMAP_PARALLEL_HDF5 != 0;
}

H5mdFields H5mdFields::from_names(const std::vector<std::string>& names) {
  H5mdFields f{false, false, false, false, false, false, false};
  bool* flags[] = {&f.position, &f.velocity, &f.force,           &f.species,
                   &f.id,       &f.image,    &f.potential_energy};
  for (const auto& name : names) {
    auto it = std::find(std::begin(kFieldNames), std::end(kFieldNames), name);
    if (it == std::end(kFieldNames))
      throw Error("unknown trajectory field '" + name +
                  "' (valid: position, velocity, force, species, id, image, "
                  "potential_energy)");
    *flags[it - std::begin(kFieldNames)] = true;
  }
  return f;
}

namespace {
// An existing trajectory a continued run cannot append to (other atoms, fields or layout).
struct Mismatch : h5::Failure {
  using h5::Failure::Failure;
};
}  // namespace

struct H5mdWriter::Impl {
  // One time-dependent element's value dataset; its step/time live in a shared Clock.
  struct Series {
    h5::Handle value;
    std::vector<hsize_t> frame_dims;  // dims of one sample's value (empty = scalar)
    hid_t mem_type = H5I_INVALID_HID;
  };
  // The step/time datasets hard-linked into every element of one group.
  struct Clock {
    h5::Handle step, time;
  };

  std::string path;
  H5mdOptions options;
  bool root = true;          // writes the clocks, box, observables (rank 0; the one process)
  hid_t xfer = H5P_DEFAULT;  // collective data transfers where the file is shared
  h5::Handle xfer_props;
  std::unique_ptr<StagedFile> staged;  // written as path.partial, renamed over path at close
  h5::Handle file, parameters;
  Clock particle_clock, observable_clock;
  Series edges, position, velocity, force, species, id, image, potential_energy;
  std::vector<Series> observables;
  Series rdf;  // observables/rdf (compute.rdf), on the observables' clock
  std::int64_t frames = 0;
  std::int64_t samples = 0;
  bool mass_pending = false;  // particles/all/mass, written with the first frame's types
  bool failed = false;        // a write failed: the file is closed, the run is failing
  // Reused per frame: the permutation ordering atoms by id and the gather buffers.
  std::vector<std::size_t> order;
  std::vector<double> vec_buf;
  std::vector<std::int32_t> species_buf, image_buf;
  std::vector<std::int64_t> id_buf, given_ids;

  // The observables/ series of one value a sample, in order: the fixed ones, then the deck's
  // thermo columns (run.thermo_columns).
  std::vector<std::string> observable_names() const {
    std::vector<std::string> names(std::begin(kObservableNames), std::end(kObservableNames));
    for (const auto& c : options.thermo_columns) names.push_back(find_thermo_column(c).h5md);
    return names;
  }

  static h5::Handle create_extensible(hid_t group, const std::string& name, hid_t file_type,
                                      const std::vector<hsize_t>& frame_dims,
                                      hsize_t chunk_frames) {
    std::vector<hsize_t> dims{0}, maxdims{H5S_UNLIMITED}, chunk{chunk_frames};
    for (hsize_t d : frame_dims) {
      dims.push_back(d);
      maxdims.push_back(d);
      chunk.push_back(d);
    }
    h5::Handle space = h5::dataspace(dims, maxdims);
    h5::Handle props(h5::check(H5Pcreate(H5P_DATASET_CREATE), "cannot create property list"),
                     H5Pclose);
    h5::check_status(H5Pset_chunk(props.get(), static_cast<int>(chunk.size()), chunk.data()),
                     "cannot set chunking for '" + name + "'");
    return h5::Handle(h5::check(H5Dcreate2(group, name.c_str(), file_type, space.get(), H5P_DEFAULT,
                                           props.get(), H5P_DEFAULT),
                                "cannot create dataset '" + name + "'"),
                      H5Dclose);
  }

  static Clock create_clock(hid_t element) {
    Clock c;
    c.step = create_extensible(element, "step", H5T_STD_I64LE, {}, kSmallSeriesChunk);
    c.time = create_extensible(element, "time", H5T_IEEE_F64LE, {}, kSmallSeriesChunk);
    return c;
  }

  static Series make_series(hid_t element, hid_t file_type, hid_t mem_type,
                            const std::vector<hsize_t>& frame_dims, hsize_t chunk_frames) {
    Series s;
    s.value = create_extensible(element, "value", file_type, frame_dims, chunk_frames);
    s.frame_dims = frame_dims;
    s.mem_type = mem_type;
    return s;
  }

  static void link_clock(hid_t from_element, hid_t to_element) {
    for (const char* name : {"step", "time"})
      h5::check_status(
          H5Lcreate_hard(from_element, name, to_element, name, H5P_DEFAULT, H5P_DEFAULT),
          std::string("cannot link '") + name + "'");
  }

  // Sample `index` of `set`: rows [first, first + rows) of its first frame dimension (all of
  // it where rows < 0) from `data`; `write` false: extended only (a rank with nothing to write
  // in a shared file, which still takes part in the collective calls).
  void extend_and_write(const h5::Handle& set, const std::vector<hsize_t>& frame_dims,
                        std::int64_t index, hid_t mem_type, const void* data,
                        const std::string& what, std::int64_t first = 0, std::int64_t rows = -1,
                        bool write = true) const {
    std::vector<hsize_t> dims{static_cast<hsize_t>(index) + 1}, start{static_cast<hsize_t>(index)},
        count{1};
    for (std::size_t k = 0; k < frame_dims.size(); ++k) {
      dims.push_back(frame_dims[k]);
      start.push_back(k == 0 ? static_cast<hsize_t>(first) : 0);
      count.push_back(k == 0 && rows >= 0 ? static_cast<hsize_t>(rows) : frame_dims[k]);
    }
    h5::check_status(H5Dset_extent(set.get(), dims.data()), "cannot extend " + what);
    h5::Handle file_space(h5::check(H5Dget_space(set.get()), "cannot get space of " + what),
                          H5Sclose);
    h5::Handle mem_space = h5::dataspace(count);
    std::size_t elements = 1;
    for (hsize_t c : count) elements *= c;
    if (write && elements > 0) {
      h5::check_status(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr,
                                           count.data(), nullptr),
                       "cannot select in " + what);
    } else {
      if (xfer == H5P_DEFAULT) return;  // one process: nothing to write
      h5::check_status(H5Sselect_none(file_space.get()), "cannot select in " + what);
      h5::check_status(H5Sselect_none(mem_space.get()), "cannot select in " + what);
    }
    h5::check_status(H5Dwrite(set.get(), mem_type, mem_space.get(), file_space.get(), xfer, data),
                     "cannot write " + what);
  }

  void append_clock(Clock& clock, std::int64_t index, std::int64_t step, double time,
                    const std::string& group) {
    extend_and_write(clock.step, {}, index, H5T_NATIVE_INT64, &step, group + " step", 0, -1, root);
    extend_and_write(clock.time, {}, index, H5T_NATIVE_DOUBLE, &time, group + " time", 0, -1, root);
  }

  void append(Series& s, std::int64_t index, const void* data, const std::string& what) {
    extend_and_write(s.value, s.frame_dims, index, s.mem_type, data, what, 0, -1, root);
  }
  void append_rows(Series& s, std::int64_t index, const void* data, const std::string& what,
                   std::int64_t first, std::int64_t rows) {
    extend_and_write(s.value, s.frame_dims, index, s.mem_type, data, what, first, rows, true);
  }

  void flush() {
    h5::check_status(H5Fflush(file.get(), H5F_SCOPE_GLOBAL), "cannot flush the file");
  }

  // The extent of `set` along each dimension.
  static std::vector<hsize_t> extent(const h5::Handle& set) {
    h5::Handle space(h5::check(H5Dget_space(set.get()), "cannot read a dataspace"), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    std::vector<hsize_t> dims(rank > 0 ? static_cast<std::size_t>(rank) : 0);
    if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
    return dims;
  }

  // Opens element `group`'s value and checks its shape per frame (`frame_dims`).
  Series open_series(const std::string& group, hid_t mem_type,
                     const std::vector<hsize_t>& frame_dims) const {
    if (!h5::has_link(file.get(), group) || !h5::has_link(file.get(), group + "/value"))
      throw Mismatch("it has no '" + group + "'");
    Series s;
    s.value = h5::open_dataset(file.get(), group + "/value");
    s.frame_dims = frame_dims;
    s.mem_type = mem_type;
    const auto dims = extent(s.value);
    if (dims.size() != frame_dims.size() + 1 ||
        !std::equal(frame_dims.begin(), frame_dims.end(), dims.begin() + 1))
      throw Mismatch("'" + group + "' holds another number of atoms or another shape");
    return s;
  }

  // Samples of `clock` before `step` (the steps only grow), and every series on it cut there.
  static std::int64_t cut(Clock& clock, const std::vector<Series*>& series, std::int64_t step,
                          const std::string& what) {
    std::vector<std::int64_t> steps(static_cast<std::size_t>(extent(clock.step).at(0)));
    if (!steps.empty())
      h5::check_status(
          H5Dread(clock.step.get(), H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, steps.data()),
          "cannot read the steps of " + what);
    std::int64_t keep = 0;
    while (keep < static_cast<std::int64_t>(steps.size()) && steps[keep] < step) ++keep;
    auto shrink = [&](const h5::Handle& set) {
      auto dims = extent(set);
      if (dims.empty() || static_cast<std::int64_t>(dims[0]) < keep)
        throw Mismatch(what + " has fewer values than steps");
      dims[0] = static_cast<hsize_t>(keep);
      h5::check_status(H5Dset_extent(set.get(), dims.data()), "cannot cut " + what);
    };
    shrink(clock.step);
    shrink(clock.time);
    for (Series* s : series) shrink(s->value);
    return keep;
  }

  // A continued run's file: its layout checked against this run's options, every element cut
  // to the frames and samples before `step` (the continued run writes that step again).
  void reopen(std::int64_t step) {
    const H5mdFields& f = options.fields;
    const hsize_t n = options.n_atoms;
    const std::string all = "particles/all/";
    particle_clock.step = h5::open_dataset(file.get(), all + "box/edges/step");
    particle_clock.time = h5::open_dataset(file.get(), all + "box/edges/time");
    edges = open_series(all + "box/edges", H5T_NATIVE_DOUBLE, {3, 3});
    struct Element {
      bool on;
      const char* name;
      Series* series;
      hid_t mem_type;
      std::vector<hsize_t> frame_dims;
    } elements[] = {
        {f.position, "position", &position, H5T_NATIVE_DOUBLE, {n, 3}},
        {f.velocity, "velocity", &velocity, H5T_NATIVE_DOUBLE, {n, 3}},
        {f.force, "force", &force, H5T_NATIVE_DOUBLE, {n, 3}},
        {f.species, "species", &species, H5T_NATIVE_INT32, {n}},
        {f.id, "id", &id, H5T_NATIVE_INT64, {n}},
        {f.image, "image", &image, H5T_NATIVE_INT32, {n, 3}},
        {f.potential_energy, "potential_energy", &potential_energy, H5T_NATIVE_DOUBLE, {n}}};
    std::vector<Series*> per_frame{&edges};
    for (auto& e : elements) {
      const bool there = h5::has_link(file.get(), all + e.name);
      if (there != e.on)
        throw Mismatch(std::string(there ? "it holds '" : "it lacks '") + e.name +
                       "' (output.h5md.fields differ)");
      if (!e.on) continue;
      *e.series = open_series(all + e.name, e.mem_type, e.frame_dims);
      per_frame.push_back(e.series);
    }
    frames = cut(particle_clock, per_frame, step, "the frames");
    mass_pending = !options.type_mass.empty() && !h5::has_link(file.get(), all + "mass");

    const std::string obs = "observables/";
    observable_clock.step = h5::open_dataset(file.get(), obs + kObservableNames[0] + "/step");
    observable_clock.time = h5::open_dataset(file.get(), obs + kObservableNames[0] + "/time");
    std::vector<Series*> per_sample;
    for (const std::string& name : observable_names())
      observables.push_back(open_series(obs + name, H5T_NATIVE_DOUBLE, {}));
    for (auto& s : observables) per_sample.push_back(&s);
    if (h5::has_link(file.get(), obs + "rdf") != !options.rdf_r.empty())
      throw Mismatch(options.rdf_r.empty() ? "it holds 'observables/rdf' (compute.rdf differs)"
                                           : "it lacks 'observables/rdf' (compute.rdf differs)");
    if (!options.rdf_r.empty()) {
      rdf = open_series(obs + "rdf", H5T_NATIVE_DOUBLE, {options.rdf_r.size()});
      per_sample.push_back(&rdf);
    }
    samples = cut(observable_clock, per_sample, step, "the observables");

    if (!h5::has_link(file.get(), "parameters")) throw Mismatch("it has no 'parameters'");
    parameters = h5::open_group(file.get(), "parameters");
    h5::Handle attr(h5::check(H5Aopen(parameters.get(), "mdremap_complete", H5P_DEFAULT),
                              "cannot open the completion marker"),
                    H5Aclose);
    const std::int32_t zero = 0;
    h5::check_status(H5Awrite(attr.get(), H5T_NATIVE_INT32, &zero),
                     "cannot write the completion marker");
  }

  // Every identifier closed, the file last (an object left open keeps the file open); the
  // status of each close is returned by the file's.
  herr_t close_all() {
    for (Series* s :
         {&edges, &position, &velocity, &force, &species, &id, &image, &potential_energy, &rdf})
      s->value.reset();
    observables.clear();
    for (Clock* c : {&particle_clock, &observable_clock}) {
      c->step.reset();
      c->time.reset();
    }
    parameters.reset();
    xfer_props.reset();
    xfer = H5P_DEFAULT;
    return file.close();
  }

  // After a failed write or flush: the file is closed now, so nothing of it is left for HDF5's
  // exit handler to flush (which crashed on a file whose flush had failed). The staging file
  // stays as the partial output; later writes are refused.
  void abandon() {
    h5::QuietErrors quiet;
    static_cast<void>(close_all());
    failed = true;
  }
};

H5mdWriter::H5mdWriter(const std::string& path, const H5mdOptions& options)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.path = path;
  m.options = options;
  const H5mdFields& f = options.fields;
  if (options.n_atoms == 0) fail("no atoms to write");
  if (!(f.position || f.velocity || f.force || f.species || f.id || f.image || f.potential_energy))
    fail("no trajectory fields selected");
  if (!options.atom_ids.empty() && options.atom_ids.size() != options.n_atoms)
    fail("atom id table of the wrong size");

  if (options.collective && !collective_available())
    fail("a shared (collective) file needs HDF5's MPI flavour, which this build lacks");
  const bool shared = options.collective && comm::size() > 1;
  m.root = comm::rank() == 0 || !shared;
  // Lock first, then truncate (the staging file, never the target): a second run given the
  // same path is refused before it touches anything. Shared: rank 0
  // stages it, every rank learns how that went and where the staging file is.
  // A continued run (continue_at >= 0) keeps what the interrupted run wrote, or a copy of the
  // complete file, and appends to it (StagedFile::Start::Continue).
  const auto start =
      options.continue_at >= 0 ? StagedFile::Start::Continue : StagedFile::Start::Empty;
  std::string staging, held;
  auto stage = [&] {
    m.staged = std::make_unique<StagedFile>(path, start);
    staging = m.staged->staging();
    held = m.staged->held() == StagedFile::Held::Nothing ? "" : "yes";
  };
  if (shared) {
    comm::on_root(stage);
    comm::broadcast(staging);
    comm::broadcast(held);
  } else {
    stage();
  }
  const bool continuing = !held.empty();
  // What a failure leaves: an interrupted run's file is kept whatever happens.
  const bool keep_on_failure = m.staged && m.staged->held() == StagedFile::Held::Interrupted;
  h5::QuietErrors quiet;
  try {
    h5::Handle fapl = h5::fapl_without_locking();
    if (shared) {
      shared_file_access(fapl.get());
      m.xfer_props = h5::Handle(H5Pcreate(H5P_DATASET_XFER), H5Pclose);
      collective_transfers(m.xfer_props.get());
      m.xfer = m.xfer_props.get();
    }
    if (continuing) {
      m.file = h5::Handle(H5Fopen(staging.c_str(), H5F_ACC_RDWR, fapl.get()), H5Fclose);
      if (!m.file.valid()) throw Mismatch("it is not an HDF5 file");
      m.reopen(options.continue_at);
      m.flush();
      return;
    }
    m.file =
        h5::Handle(H5Fcreate(staging.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!m.file.valid()) throw h5::Failure("cannot create the file: " + why_not_created(staging));
    const hid_t root = m.file.get();

    h5::Handle h5md = h5::create_group(root, "h5md");
    const std::int32_t version[2] = {1, 1};
    h5::write_attr(h5md.get(), "version", version, {2});
    h5::Handle author = h5::create_group(h5md.get(), "author");
    h5::write_attr_string(author.get(), "name", options.author);
    h5::Handle creator = h5::create_group(h5md.get(), "creator");
    h5::write_attr_string(creator.get(), "name", options.creator_name);
    h5::write_attr_string(creator.get(), "version", options.creator_version);
    h5::Handle modules = h5::create_group(h5md.get(), "modules");
    h5::Handle units = h5::create_group(modules.get(), "units");
    const std::int32_t units_version[2] = {1, 0};
    h5::write_attr(units.get(), "version", units_version, {2});
    h5::write_attr_string(units.get(), "system", "lj");

    h5::Handle particles = h5::create_group(root, "particles");
    h5::Handle all = h5::create_group(particles.get(), "all");
    h5::Handle box = h5::create_group(all.get(), "box");
    h5::write_attr(box.get(), "dimension", std::int32_t{3});
    h5::write_attr_strings(box.get(), "boundary", {"periodic", "periodic", "periodic"});
    h5::write_attr(box.get(), "mdremap_origin", options.box_lo.data(), {3});

    // Box edges own the particle clock; every per-atom element hard-links to it.
    const hsize_t n = options.n_atoms;
    h5::Handle edges = h5::create_group(box.get(), "edges");
    m.particle_clock = Impl::create_clock(edges.get());
    m.edges = Impl::make_series(edges.get(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {3, 3},
                                kSmallSeriesChunk);
    h5::write_attr_string(m.edges.value.get(), "unit", "sigma");
    auto per_atom = [&](const char* name, hid_t file_type, hid_t mem_type,
                        std::vector<hsize_t> frame_dims) {
      h5::Handle group = h5::create_group(all.get(), name);
      Impl::link_clock(edges.get(), group.get());
      return Impl::make_series(group.get(), file_type, mem_type, frame_dims, 1);
    };
    if (f.position) m.position = per_atom("position", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n, 3});
    if (f.velocity) m.velocity = per_atom("velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n, 3});
    if (f.force) m.force = per_atom("force", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n, 3});
    if (f.species) {
      m.species = per_atom("species", H5T_STD_I32LE, H5T_NATIVE_INT32, {n});
      if (!options.type_names.empty()) {
        h5::Handle species = h5::open_group(all.get(), "species");
        h5::write_attr_strings(species.get(), "names", options.type_names);
      }
    }
    if (f.id) m.id = per_atom("id", H5T_STD_I64LE, H5T_NATIVE_INT64, {n});
    if (f.image) m.image = per_atom("image", H5T_STD_I32LE, H5T_NATIVE_INT32, {n, 3});
    if (f.potential_energy) {
      m.potential_energy = per_atom("potential_energy", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {n});
      h5::write_attr_string(m.potential_energy.value.get(), "unit", "epsilon");
    }
    if (!options.type_mass.empty()) {
      // Time-independent: each atom's mass, from its type; written with the first frame.
      m.mass_pending = true;
    }

    // Observables: the first series owns their clock, the others hard-link to it.
    h5::Handle observables = h5::create_group(root, "observables");
    h5::Handle clock_owner;
    // The fixed observables, then the deck's thermo columns (run.thermo_columns).
    std::vector<std::pair<std::string, std::string>> series;
    for (std::size_t k = 0; k < std::size(kObservableNames); ++k)
      series.emplace_back(kObservableNames[k], kObservableUnits[k]);
    for (const auto& c : options.thermo_columns) {
      const ThermoColumn& col = find_thermo_column(c);
      series.emplace_back(col.h5md, col.unit);
    }
    for (const auto& [name, unit] : series) {
      h5::Handle group = h5::create_group(observables.get(), name);
      if (clock_owner.valid()) {
        Impl::link_clock(clock_owner.get(), group.get());
      } else {
        m.observable_clock = Impl::create_clock(group.get());
      }
      m.observables.push_back(
          Impl::make_series(group.get(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, kSmallSeriesChunk));
      h5::write_attr_string(m.observables.back().value.get(), "unit", unit);
      if (!clock_owner.valid()) {
        h5::write_attr_string(m.observable_clock.time.get(), "unit", "tau");
        clock_owner = std::move(group);
      }
    }
    if (!options.rdf_r.empty()) {
      // g(r) of the bins (dimensionless) at each sample; the bin centres as the group's `r`.
      const hsize_t bins = options.rdf_r.size();
      h5::Handle group = h5::create_group(observables.get(), "rdf");
      Impl::link_clock(clock_owner.get(), group.get());
      m.rdf = Impl::make_series(group.get(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {bins},
                                kSmallSeriesChunk);
      h5::write_attr(group.get(), "r", options.rdf_r.data(), {bins});
      h5::write_attr_string(group.get(), "r_unit", "sigma");
    }

    m.parameters = h5::create_group(root, "parameters");
    h5::write_attr_string(m.parameters.get(), "units", "lj");
    h5::write_attr(m.parameters.get(), "dt", options.dt);
    h5::write_attr(m.parameters.get(), "mdremap_complete", std::int32_t{0});
    h5::write_string_dataset(m.parameters.get(), "mdremap_deck", options.deck_yaml);
    m.flush();
  } catch (const Mismatch& e) {
    m.abandon();
    if (m.staged && !keep_on_failure) m.staged->discard();
    throw CannotContinue(path, 0,
                         std::string("cannot continue this trajectory: ") + e.what() +
                             " (give the continued run another output.h5md.file, or move the file "
                             "away)");
  } catch (const h5::Failure& e) {
    m.abandon();
    if (m.staged && !keep_on_failure) m.staged->discard();
    fail(e.what());
  }
}

H5mdWriter::~H5mdWriter() {
  try {
    close(false);  // not closed by its owner: the run did not finish
  } catch (...) {
    // Destructors must not throw; close() explicitly to see the error.
  }
}

const std::string& H5mdWriter::path() const {
  return impl_->path;
}
std::int64_t H5mdWriter::frames_written() const {
  return impl_->frames;
}
std::int64_t H5mdWriter::samples_written() const {
  return impl_->samples;
}

void H5mdWriter::fail(const std::string& what) const {
  throw Error("H5MD file '" + impl_->path + "': " + what);
}

// One frame: rows [first_row, first_row + rows) of the per-atom values (all of them from one
// process, a block of consecutive ids from each rank of a shared file), the clock and the box.
void H5mdWriter::write_frame(const Frame& frame, std::int64_t first_row) {
  Impl& m = *impl_;
  if (!m.file.valid()) fail(m.failed ? "write after a failed write" : "write after close");
  const H5mdFields& f = m.options.fields;
  const bool shared = m.xfer != H5P_DEFAULT;
  const std::int64_t n = static_cast<std::int64_t>(m.options.n_atoms);
  const std::int64_t rows = shared ? static_cast<std::int64_t>(frame.id.size()) : n;
  if (!shared) first_row = 0;
  const std::string at = " at step " + std::to_string(frame.step);
  if (!shared && static_cast<std::int64_t>(frame.id.size()) != n)
    fail("frame" + at + " has " + std::to_string(frame.id.size()) + " atom ids, the file holds " +
         std::to_string(n) + " atoms");
  if (first_row < 0 || first_row + rows > n)
    fail("block of rows " + std::to_string(first_row) + "+" + std::to_string(rows) + at +
         " outside the file's " + std::to_string(n) + " atoms");
  auto require = [&](bool on, std::size_t size, std::int64_t want, const char* what) {
    if (on && static_cast<std::int64_t>(size) != want)
      fail(std::string(what) + at + " has " + std::to_string(size) + " values, expected " +
           std::to_string(want));
  };
  require(f.position, frame.x.size(), 3 * rows, "position array (Frame::x)");
  require(f.velocity, frame.v.size(), 3 * rows, "velocity array (Frame::v)");
  require(f.force, frame.f.size(), 3 * rows, "force array (Frame::f)");
  require(f.species, frame.type.size(), rows, "type array (Frame::type)");
  require(f.image, frame.image.size(), 3 * rows, "image array (Frame::image)");
  require(f.potential_energy, frame.pe.size(), rows, "potential energy array (Frame::pe)");

  // One process: atoms reordered by id into the buffers. A rank's block: in order already.
  if (shared) {
    for (std::int64_t k = 0; k < rows; ++k)
      if (frame.id[k] != first_row + k)
        fail("block" + at + " is not ids " + std::to_string(first_row) + " on in order");
  } else {
    try {
      order_by_id(frame.id, m.order);
    } catch (const Error& e) {
      fail(e.what() + at);
    }
  }
  auto by_id = [&](const auto& src, int width, auto& buf) -> const void* {
    if (shared) return src.data();
    gather(src, m.order, width, buf);
    return buf.data();
  };

  const bool has_box = frame.box_len[0] > 0 || frame.box_len[1] > 0 || frame.box_len[2] > 0;
  const double* len = has_box ? frame.box_len : m.options.box_len.data();
  const double edges[9] = {len[0], 0, 0, 0, len[1], 0, 0, 0, len[2]};

  h5::QuietErrors quiet;
  try {
    // Clock first: a reader that finds more steps than values still reads every value.
    const std::int64_t index = m.frames;
    m.append_clock(m.particle_clock, index, frame.step, frame.time, "particles");
    m.append(m.edges, index, edges, "box edges");
    auto rows_of = [&](Impl::Series& s, const void* data, const char* what) {
      m.append_rows(s, index, data, what, first_row, rows);
    };
    if (f.position) rows_of(m.position, by_id(frame.x, 3, m.vec_buf), "position");
    if (f.velocity) rows_of(m.velocity, by_id(frame.v, 3, m.vec_buf), "velocity");
    if (f.force) rows_of(m.force, by_id(frame.f, 3, m.vec_buf), "force");
    if (f.species) rows_of(m.species, by_id(frame.type, 1, m.species_buf), "species");
    if (f.id) {
      const auto* ids = static_cast<const std::int64_t*>(by_id(frame.id, 1, m.id_buf));
      const auto& table = m.options.atom_ids;
      if (!table.empty()) {
        m.given_ids.resize(static_cast<std::size_t>(rows));
        for (std::int64_t k = 0; k < rows; ++k) {
          if (ids[k] < 0 || static_cast<std::size_t>(ids[k]) >= table.size())
            fail("atom id " + std::to_string(ids[k]) + at + " outside the id table");
          m.given_ids[k] = table[static_cast<std::size_t>(ids[k])];
        }
        ids = m.given_ids.data();
      }
      rows_of(m.id, ids, "id");
    }
    if (f.image) rows_of(m.image, by_id(frame.image, 3, m.image_buf), "image");
    if (f.potential_energy)
      rows_of(m.potential_energy, by_id(frame.pe, 1, m.vec_buf), "potential_energy");
    if (m.mass_pending) {
      // Each atom's mass from its type: a time-independent element, written once.
      const auto* type = static_cast<const std::int32_t*>(by_id(frame.type, 1, m.species_buf));
      std::vector<double> mass(static_cast<std::size_t>(rows));
      for (std::int64_t k = 0; k < rows; ++k) {
        if (type[k] < 0 || static_cast<std::size_t>(type[k]) >= m.options.type_mass.size())
          fail("atom type " + std::to_string(type[k]) + at + " outside the mass table");
        mass[k] = m.options.type_mass[static_cast<std::size_t>(type[k])];
      }
      h5::Handle all = h5::open_group(m.file.get(), "particles/all");
      h5::Handle space = h5::dataspace({static_cast<hsize_t>(n)});
      h5::Handle set(h5::check(H5Dcreate2(all.get(), "mass", H5T_IEEE_F64LE, space.get(),
                                          H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                               "cannot create dataset 'mass'"),
                     H5Dclose);
      h5::write_attr_string(set.get(), "unit", "m");
      const hsize_t start = static_cast<hsize_t>(first_row), count = static_cast<hsize_t>(rows);
      h5::Handle file_space(h5::check(H5Dget_space(set.get()), "cannot get space of mass"),
                            H5Sclose);
      h5::Handle mem_space = h5::dataspace({count});
      if (count > 0) {
        h5::check_status(
            H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr),
            "cannot select in mass");
      } else {
        h5::check_status(H5Sselect_none(file_space.get()), "cannot select in mass");
        h5::check_status(H5Sselect_none(mem_space.get()), "cannot select in mass");
      }
      h5::check_status(H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, mem_space.get(), file_space.get(),
                                m.xfer, mass.data()),
                       "cannot write mass");
      m.mass_pending = false;
    }
    m.flush();
  } catch (const h5::Failure& e) {
    m.abandon();
    fail(e.what() + at + " (disk full?)");
  }
  ++m.frames;
}

void H5mdWriter::write_observables(const ThermoSample& s, const std::vector<double>& rdf) {
  Impl& m = *impl_;
  if (!m.file.valid()) fail(m.failed ? "write after a failed write" : "write after close");
  if (rdf.size() != m.options.rdf_r.size())
    fail("g(r) at step " + std::to_string(s.step) + " has " + std::to_string(rdf.size()) +
         " bins, the file " + std::to_string(m.options.rdf_r.size()));
  std::vector<double> values = {s.temp, s.e_pair, s.ke, s.etotal, s.press};
  std::vector<const char*> names(std::begin(kObservableNames), std::end(kObservableNames));
  for (const auto& c : m.options.thermo_columns) {
    const ThermoColumn& col = find_thermo_column(c);
    values.push_back(col.value(s));
    names.push_back(col.h5md);
  }
  h5::QuietErrors quiet;
  try {
    const std::int64_t index = m.samples;
    m.append_clock(m.observable_clock, index, s.step, s.time, "observables");
    for (std::size_t k = 0; k < m.observables.size(); ++k)
      m.append(m.observables[k], index, &values[k], names[k]);
    if (!rdf.empty()) m.append(m.rdf, index, rdf.data(), "rdf");
    m.flush();
  } catch (const h5::Failure& e) {
    m.abandon();
    fail(std::string(e.what()) + " at step " + std::to_string(s.step) + " (disk full?)");
  }
  ++m.samples;
}

void H5mdWriter::close(bool complete) {
  Impl& m = *impl_;
  if (!m.file.valid()) return;
  h5::QuietErrors quiet;
  std::string error;
  if (complete) {
    try {
      h5::Handle attr(h5::check(H5Aopen(m.parameters.get(), "mdremap_complete", H5P_DEFAULT),
                                "cannot open completion marker"),
                      H5Aclose);
      const std::int32_t one = 1;
      h5::check_status(H5Awrite(attr.get(), H5T_NATIVE_INT32, &one),
                       "cannot write completion marker");
    } catch (const h5::Failure& e) {
      error = e.what();
    }
  }
  // Every object must be closed before the file, or H5Fclose leaves the file open.
  if (m.close_all() < 0 && error.empty()) error = "cannot close the file (disk full?)";
  if (!error.empty()) fail(error);
  // Complete: replaces the target whole. Not: the staging file stays as the partial output.
  // (Shared: rank 0's; every rank has closed the file, H5Fclose being collective.)
  if (complete && m.staged) {
    m.staged->commit();
  }
  m.staged.reset();
}

}  // namespace mdremap::io
