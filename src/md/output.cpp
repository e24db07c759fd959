#include "md/output.hpp"

#include <fmt/format.h>

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "comm/runtime.hpp"
#include "io/background_writer.hpp"
#include "io/checkpoint.hpp"
#include "io/gsd_writer.hpp"
#include "io/h5md_writer.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "io/vtk_writer.hpp"  // the class only; it is constructed in VTK builds alone
#include "md/gather_frame.hpp"
#include "md/system_file.hpp"
#include "mdremap/error.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::md {

namespace {

constexpr const char* kVtkBasename = "traj";

void check_path(const std::string& key, const std::string& path) {
  try {
    io::check_writable(path);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(key, 0, e.what());
  }
}

// Opens an output, naming its deck key when another run holds it (exit 2, before any step).
template <class F>
auto open_output(const std::string& key, F&& open) {
  try {
    return open();
  } catch (const io::OutputBusy& e) {
    throw InputError(key, 0, e.what());
  } catch (const io::CannotContinue& e) {
    throw InputError(key, 0, e.what());
  }
}

#if MDREMAP_HAS_VTK
// VTK points in id order, like the H5MD rows, so point k is the same atom in every frame.
// Ids are 0..n-1 (a permutation) in every engine: an O(n) scatter; anything else is sorted.
void order_by_id(const Frame& in, Frame& out) {
  const std::size_t n = in.n();
  std::vector<std::size_t> slot(n, n);
  bool dense = true;
  for (std::size_t i = 0; i < n && dense; ++i) {
    const auto k = in.id[i];
    if (k < 0 || static_cast<std::size_t>(k) >= n || slot[k] != n)
      dense = false;
    else
      slot[k] = i;
  }
  if (!dense) {
    std::iota(slot.begin(), slot.end(), std::size_t{0});
    std::sort(slot.begin(), slot.end(), [&](auto a, auto b) { return in.id[a] < in.id[b]; });
  }
  out.step = in.step;
  out.time = in.time;
  std::copy(in.box_lo, in.box_lo + 3, out.box_lo);
  std::copy(in.box_len, in.box_len + 3, out.box_len);
  auto gather = [&](const auto& src, auto& dst, int width) {
    dst.resize(src.empty() ? 0 : n * width);
    if (src.empty()) return;
    for (std::size_t k = 0; k < n; ++k)
      for (int c = 0; c < width; ++c) dst[k * width + c] = src[slot[k] * width + c];
  };
  gather(in.x, out.x, 3);
  gather(in.v, out.v, 3);
  gather(in.f, out.f, 3);
  gather(in.type, out.type, 1);
  gather(in.id, out.id, 1);
}
#endif

}  // namespace

void check_output_paths(const MdParams& p) {
  if (!p.thermo_csv.empty()) check_path("output.thermo_csv", p.thermo_csv);
  if (!p.h5md_file.empty()) check_path("output.h5md.file", p.h5md_file);
  if (!p.h5md_topology.empty()) check_path("output.h5md.topology", p.h5md_topology);
  if (!p.gsd_file.empty()) check_path("output.gsd.file", p.gsd_file);
  if (!p.vtk_dir.empty()) check_path("output.vtk.dir", p.vtk_dir + "/" + kVtkBasename + ".pvd");
  if (!p.computes.rdf.file.empty()) check_path("compute.rdf.file", p.computes.rdf.file);
  if (!p.computes.msd.file.empty()) check_path("compute.msd.file", p.computes.msd.file);
  if (!p.restart_file.empty()) {
    check_path("restart.file", p.restart_file);
    // written there, then renamed
    check_path("restart.file", io::StagedFile::staging_name(p.restart_file));
  }
}

std::vector<io::PathUse> output_path_uses(const MdParams& p) {
  std::vector<io::PathUse> uses;
  uses.push_back({"output.thermo_csv", p.thermo_csv, true, ""});
  uses.push_back({"output.h5md.file", p.h5md_file, true, ""});
  uses.push_back({"output.h5md.topology", p.h5md_topology, true, ""});
  uses.push_back({"output.gsd.file", p.gsd_file, true, ""});
  uses.push_back({"output.vtk.dir", p.vtk_dir, true, kVtkBasename});
  uses.push_back({"restart.file", p.restart_file, true, ""});
  uses.push_back({"compute.rdf.file", p.computes.rdf.file, true, ""});
  uses.push_back({"compute.msd.file", p.computes.msd.file, true, ""});
  return uses;
}

RunOutput::RunOutput(const MdParams& p, const MdEngine& engine, const OutputInfo& info,
                     std::int64_t last_step)
    : p_(p), engine_(engine), info_(info), last_step_(last_step) {
  if (!p.vtk_dir.empty()) atom_ids_ = given_atom_ids(p);
  // In a run decomposed over MPI ranks rank 0 writes every file (the frames are gathered onto it,
  // md/gather_frame.hpp); the others take part in the gathers only.
  if (!p.h5md_file.empty()) {  // every rank: what the frames' gathers hold
    const auto fields = io::H5mdFields::from_names(p.h5md_fields);
    h5md_velocity_ = fields.velocity;
    h5md_force_ = fields.force;
    h5md_energy_ = fields.potential_energy;
  }
  if (!p.gsd_file.empty()) gsd_velocity_ = io::GsdFields::from_names(p.gsd_fields).velocity;
  // Decomposed, with parallel HDF5: every rank opens the trajectory and writes its block of
  // atom ids into it (io/h5md_writer.hpp); else rank 0 writes the gathered frames.
  h5md_collective_ =
      !p.h5md_file.empty() && engine.gathers() && io::H5mdWriter::collective_available();
  if (h5md_collective_) {
    auto o = h5md_options(p, engine, info);
    o.collective = true;
    comm::broadcast(o.author);  // attributes are written by every rank: rank 0's values
    h5md_ = open_output("output.h5md.file",
                        [&] { return std::make_unique<io::H5mdWriter>(p.h5md_file, o); });
  }
  comm::on_root([&] { open_files(p, engine, info); });
#if MDREMAP_HAS_VTK
  // Decomposed: every rank writes its own atoms as a piece of each VTK frame (rank 0 opened
  // the set above, after removing what a stopped run left, so no rank's piece is removed).
  vtk_pieces_ = !p.vtk_dir.empty() && engine.gathers();
  if (vtk_pieces_ && comm::rank() != 0)
    vtk_ = std::make_unique<io::VtkTrajectoryWriter>(p.vtk_dir, kVtkBasename, comm::rank(),
                                                     comm::size());
#endif
  writer_ = std::make_unique<io::BackgroundWriter>(2);
}

io::H5mdOptions RunOutput::h5md_options(const MdParams& p, const MdEngine& engine,
                                        const OutputInfo& info) {
  io::H5mdOptions o;
  o.fields = io::H5mdFields::from_names(p.h5md_fields);
  o.author = info.author;
  if (o.author.empty()) {
    const char* user = std::getenv("USER");
    if (user == nullptr || *user == '\0') user = std::getenv("LOGNAME");
    // Without either (a batch job, a container): the account the run belongs to.
    const passwd* pw = user == nullptr || *user == '\0' ? ::getpwuid(::getuid()) : nullptr;
    if (pw != nullptr && pw->pw_name != nullptr && *pw->pw_name != '\0') user = pw->pw_name;
    o.author = user != nullptr && *user != '\0' ? user : "unknown";
  }
  o.creator_name = "mdremap";
  o.creator_version = info.creator_version;
  o.deck_yaml = info.deck_yaml;
  o.dt = p.dt;
  o.thermo_columns = p.thermo_columns;
  // The MSD goes with the observables whether or not the thermo shows it.
  if (p.computes.msd.enabled && !thermo_columns_need_msd(o.thermo_columns))
    o.thermo_columns.push_back("msd");
  if (p.computes.rdf.enabled) {
    const RdfSettings& r = p.computes.rdf;
    for (int b = 0; b < r.bins; ++b) o.rdf_r.push_back((b + 0.5) * r.r_max / r.bins);
  }
  for (int d = 0; d < 3; ++d) o.box_len[d] = p.box_len(d), o.box_lo[d] = p.box_lo(d);
  o.n_atoms = static_cast<std::size_t>(engine.natoms());
  for (const auto& t : p.types) {
    o.type_names.push_back(t.name);
    o.type_mass.push_back(t.mass);
  }
  o.atom_ids = given_atom_ids(p);
  o.continue_at = info.continue_at;
  return o;
}

io::GsdOptions RunOutput::gsd_options(const MdParams& p, const MdEngine& engine,
                                      const OutputInfo& info) {
  io::GsdOptions o;
  o.fields = io::GsdFields::from_names(p.gsd_fields);
  for (const auto& t : p.types) {
    o.type_names.push_back(t.name);
    o.type_mass.push_back(t.mass);
  }
  o.n_atoms = static_cast<std::size_t>(engine.natoms());
  o.application = "mdremap " + info.creator_version;
  return o;
}

void RunOutput::open_files(const MdParams& p, const MdEngine& engine, const OutputInfo& info) {
  if (!p.h5md_file.empty() && !h5md_collective_) {
    const auto o = h5md_options(p, engine, info);
    h5md_ = open_output("output.h5md.file",
                        [&] { return std::make_unique<io::H5mdWriter>(p.h5md_file, o); });
  }
  if (!p.gsd_file.empty()) {
    const auto o = gsd_options(p, engine, info);
    gsd_ = open_output("output.gsd.file",
                       [&] { return std::make_unique<io::GsdTrajectoryWriter>(p.gsd_file, o); });
  }
  if (!p.h5md_topology.empty()) {
    auto o = gsd_options(p, engine, info);
    o.fields = io::GsdFields{true, false, true};
    topology_ = open_output("output.h5md.topology", [&] {
      return std::make_unique<io::GsdTrajectoryWriter>(p.h5md_topology, o);
    });
  }
#if MDREMAP_HAS_VTK
  if (!p.vtk_dir.empty())
    vtk_ = open_output("output.vtk.dir", [&] {
      return engine.gathers() ? std::make_unique<io::VtkTrajectoryWriter>(p.vtk_dir, kVtkBasename,
                                                                          0, comm::size())
                              : std::make_unique<io::VtkTrajectoryWriter>(p.vtk_dir, kVtkBasename);
    });
#endif
  // The checkpoint's staging file stays locked for the whole run (each checkpoint is renamed
  // over the previous one), so no other run writes the same checkpoint meanwhile.
  if (!p.restart_file.empty())
    checkpoint_file_ = open_output(
        "restart.file", [&] { return std::make_unique<io::StagedFile>(p.restart_file); });
}

RunOutput::~RunOutput() {
  writer_.reset();  // joins the writer thread before the files close
  // Without finish() the run failed: the trajectory stays FILE.partial with
  // parameters/mdremap_complete = 0; the last checkpoint written stays the checkpoint.
  if (h5md_) {
    try {
      h5md_->close(false);
    } catch (...) {
    }
  }
  if (checkpoint_file_) checkpoint_file_->discard();
}

// From the deck, not from the open files: every rank asks for the same steps (the gathers).
bool RunOutput::h5md_due(std::int64_t step) const {
  return !p_.h5md_file.empty() && step % p_.h5md_every == 0;
}
bool RunOutput::gsd_due(std::int64_t step) const {
  return !p_.gsd_file.empty() && step % p_.gsd_every == 0;
}
bool RunOutput::vtk_due(std::int64_t step) const {
  return MDREMAP_HAS_VTK && !p_.vtk_dir.empty() && step % p_.vtk_every == 0;
}
bool RunOutput::checkpoint_due(std::int64_t step) const {
  return !p_.restart_file.empty() &&
         (step == last_step_ || (p_.restart_every > 0 && step % p_.restart_every == 0));
}

OutputRequest RunOutput::output_at(std::int64_t step) const {
  OutputRequest r;
  // A checkpoint keeps the list's build (a restart builds that list again); an H5MD frame with
  // velocities is a state a run may start from (system.file) without it: its lists are rebuilt
  // at that step, so that run continues as this one does.
  r.checkpoint = checkpoint_due(step);
  r.restart_point = h5md_due(step) && h5md_velocity_;
  r.write = r.checkpoint || r.restart_point || h5md_due(step) || gsd_due(step) || vtk_due(step);
  return r;
}

void RunOutput::start(const ThermoSample& t0) {
  // A trajectory opens with its first state. The starting point needs no checkpoint unless the
  // run has no steps.
  const bool checkpoint = checkpoint_due(t0.step) && t0.step == last_step_;
  const bool h5md = !p_.h5md_file.empty(), vtk = MDREMAP_HAS_VTK && !p_.vtk_dir.empty();
  const bool gsd = !p_.gsd_file.empty() || !p_.h5md_topology.empty();
  if (h5md || gsd || vtk || checkpoint) write(t0, h5md, gsd, vtk, checkpoint);
}

void RunOutput::output(const ThermoSample& t) {
  const bool h = h5md_due(t.step), g = gsd_due(t.step), v = vtk_due(t.step),
             c = checkpoint_due(t.step);
  if (h || g || v || c) write(t, h, g, v, c);
}

void RunOutput::given_ids(Frame& fr) const {
  for (auto& id : fr.id)
    if (id >= 0 && static_cast<std::size_t>(id) < atom_ids_.size()) id = atom_ids_[id];
}

std::shared_ptr<Frame> RunOutput::take_frame() {
  std::lock_guard<std::mutex> lock(pool_mutex_);
  if (pool_.empty()) return std::make_shared<Frame>();
  auto f = std::move(pool_.back());
  pool_.pop_back();
  return f;
}

void RunOutput::write(const ThermoSample& t, bool h5md, bool gsd, bool vtk, bool checkpoint) {
  // On the loop thread: only the device-to-host copy (and the thermostat state) of this step.
  // A decomposed run's VTK frame is written as one piece per rank, from the rank's own atoms;
  // the rest is gathered onto rank 0, which writes it.
  const bool piece = vtk && vtk_pieces_;
  const bool shared_h5md = h5md && h5md_collective_;
  const bool gathered = (h5md && !shared_h5md) || gsd || checkpoint || (vtk && !piece);
  auto frame = take_frame();
  engine_.snapshot_slots(*frame,
                         checkpoint || vtk || (h5md && h5md_velocity_) || (gsd && gsd_velocity_),
                         checkpoint || vtk || (h5md && h5md_force_),
                         /*gather=*/!(piece || shared_h5md), /*energies=*/h5md && h5md_energy_);
  // compute.rdf: the average so far goes with the frame's observables.
  std::vector<double> rdf;
  if (h5md && p_.computes.rdf.enabled) rdf = engine_.rdf_average().g;
  std::shared_ptr<Frame> mine;  // this rank's atoms, for its piece or its rows
  if (piece || shared_h5md) {
    mine = frame;
    frame = nullptr;
    if (gathered) {
      frame = take_frame();
      *frame = *mine;
      engine_.gather_frame(*frame);
    }
  }
  if (shared_h5md) {
    // On the loop thread of every rank: the file's writes are collective (MPI calls of one
    // thread), each rank's block of ids in its rows.
    // HDF5 is not thread-safe: the background thread's jobs (checkpoints) end first.
    writer_->finish();
    Frame block = *mine;
    const std::int64_t first = distribute_frame_by_id(block, engine_.natoms());
    h5md_->write_frame(block, first);
    h5md_->write_observables(t, rdf);
  }
  integrators::IntegratorState integrator;
  ListBuild list;
  if (checkpoint) {
    integrator = engine_.integrator_state();
    engine_.list_build(list);  // collective, gathered as the frame
  }
  if (h5md || gsd || vtk) ++frames_;
  if (checkpoint) ++checkpoints_;
  auto recycle = [this](std::shared_ptr<Frame>& f) {
    if (!f) return;
    std::lock_guard<std::mutex> lock(pool_mutex_);
    pool_.push_back(std::move(f));
  };
#if MDREMAP_HAS_VTK
  if (piece)
    writer_->submit([this, mine, recycle]() mutable {
      order_by_id(*mine, vtk_frame_);
      given_ids(vtk_frame_);
      vtk_->write_frame(vtk_frame_);
      recycle(mine);
    });
#endif
  if (mine && !piece) recycle(mine);
  if (!frame) return;
  if (comm::rank() != 0) {  // gathered onto rank 0, which writes
    recycle(frame);
    return;
  }
  writer_->submit([this, frame, t, h5md = h5md && !shared_h5md, gsd, vtk = vtk && !piece,
                   checkpoint, recycle, integrator = std::move(integrator),
                   rdf = std::move(rdf), list = std::move(list)]() mutable {
    if (h5md) {
      h5md_->write_frame(*frame);
      h5md_->write_observables(t, rdf);  // same steps as the frames (MDAnalysis reads them so)
    }
    if (gsd && gsd_) gsd_->write_frame(*frame);
    if (gsd && topology_ && topology_->frames_written() == 0) topology_->write_frame(*frame);
#if MDREMAP_HAS_VTK
    if (vtk) {
      order_by_id(*frame, vtk_frame_);
      given_ids(vtk_frame_);
      vtk_->write_frame(vtk_frame_);
    }
#endif
    if (checkpoint) {
      io::Checkpoint c;
      c.frame = std::move(*frame);  // slot order: a restart rebuilds the same lists
      c.step = t.step;
      c.deck_yaml = info_.deck_yaml;
      c.precision = to_string(p_.precision);
      c.backend = info_.backend;
      c.thermostat_state = std::move(integrator.thermostat);
      c.rng_seed = integrator.rng_seed;
      c.rng_counter = static_cast<std::uint64_t>(t.step);  // counter-based noise: the step
      c.list_x = std::move(list.x);  // a restart builds the same list from these
      for (int d = 0; d < 3; ++d)
        c.list_box_lo[d] = list.box_lo[d], c.list_box_len[d] = list.box_len[d];
      c.list_step = list.step;
      c.sort_step = list.sort_step;
      // The last checkpoint of the run releases the lock; earlier ones keep it.
      io::write_checkpoint(*checkpoint_file_, c, /*again=*/t.step != last_step_);
      return;  // the frame's buffers went into the checkpoint
    }
    recycle(frame);
  });
}

void RunOutput::finish() {
  writer_->finish();
  if (h5md_) h5md_->close();
  if (gsd_) gsd_->close();
  if (topology_) topology_->close();
#if MDREMAP_HAS_VTK
  if (vtk_pieces_) {  // every rank's pieces in place before rank 0's summaries name them
    vtk_->finish_pieces();
    comm::barrier();
  }
  if (vtk_) vtk_->finish();
#endif
  if (checkpoint_file_) checkpoint_file_->discard();  // committed already (at last_step)
}

std::string RunOutput::describe() const {
  std::vector<std::string> parts;
  if (h5md_) {
    std::string fields;
    for (const auto& f : p_.h5md_fields) fields += (fields.empty() ? "" : " ") + f;
    parts.push_back(fmt::format("h5md {} every {} steps ({}){}", p_.h5md_file, p_.h5md_every,
                                fields,
                                h5md_collective_ ? fmt::format(", written by all {} ranks "
                                                               "(parallel HDF5)",
                                                               comm::size())
                                                 : ""));
  }
  if (topology_) parts.push_back(fmt::format("h5md topology {} (GSD)", p_.h5md_topology));
  if (gsd_) {
    std::string fields;
    for (const auto& f : p_.gsd_fields) fields += (fields.empty() ? "" : " ") + f;
    parts.push_back(fmt::format("gsd {} every {} steps ({})", p_.gsd_file, p_.gsd_every, fields));
  }
  if (vtk_)
    parts.push_back(fmt::format("vtk {}/{}.pvd every {} steps{}", p_.vtk_dir, kVtkBasename,
                                p_.vtk_every,
                                vtk_pieces_ ? " (.pvtp frames, a piece per rank)" : ""));
  if (!p_.restart_file.empty())
    parts.push_back(p_.restart_every > 0 ? fmt::format("restart {} every {} steps and at the end",
                                                       p_.restart_file, p_.restart_every)
                                         : fmt::format("restart {} at the end", p_.restart_file));
  const RdfSettings& rdf = p_.computes.rdf;
  if (rdf.enabled)
    parts.push_back(fmt::format("rdf {} bins to r_max {:g} every {} steps{}", rdf.bins, rdf.r_max,
                                rdf.every, rdf.file.empty() ? "" : " to " + rdf.file));
  if (!p_.computes.msd.file.empty())
    parts.push_back(
        fmt::format("msd {} every {} steps", p_.computes.msd.file, p_.computes.msd.every));
  std::string s;
  for (const auto& part : parts) s += (s.empty() ? "" : "; ") + part;
  return s;
}

}  // namespace mdremap::md
