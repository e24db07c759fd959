#include "md/run.hpp"

#include <ostream>

#include "comm/runtime.hpp"
#include "io/checkpoint.hpp"
#include "io/csv_rows.hpp"
#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "io/staged_output.hpp"
#include "io/thermo_csv.hpp"
#include "md/deck_diff.hpp"
#include "md/reorder.hpp"
#include "mdremap/error.hpp"

namespace mdremap::md {

namespace {

// output.thermo_csv: every thermo sample a row.
class ThermoRows : public RunObserver {
 public:
  explicit ThermoRows(io::ThermoCsv* csv) : csv_(csv) {}
  void thermo(const ThermoSample& t) override {
    if (csv_) csv_->write(t);
  }

 private:
  io::ThermoCsv* csv_;
};

// compute.msd.file: a row every compute.msd.every steps.
class MsdRows : public RunObserver {
 public:
  explicit MsdRows(io::CsvRows* csv) : csv_(csv) {}
  void msd(const MsdSample& m) override {
    if (csv_) csv_->write(m.step, {m.time, m.msd[3], m.msd[0], m.msd[1], m.msd[2]});
  }

 private:
  io::CsvRows* csv_;
};

// compute.rdf.file: the run's average g(r), LAMMPS' compute rdf columns.
void write_rdf(io::StagedFile& file, const RdfTable& t) {
  io::write_staged(file, [&](std::ostream& out) {
    out << "r,g,coord\n";
    for (std::size_t b = 0; b < t.r.size(); ++b) {
      std::string line;
      io::append_csv_number(line, t.r[b]);
      line += ',';
      io::append_csv_number(line, t.g[b]);
      line += ',';
      io::append_csv_number(line, t.coord[b]);
      out << line << '\n';
    }
  });
}

}  // namespace

Run::Run(const std::function<io::Deck()>& make_deck, const RunRequest& request) {
  comm::on_every_rank([&] {
    deck_ = make_deck();
    p_ = read_md_params(deck_);
    // A strategy the force kernel cannot use (padding) is bad input, refused before any work;
    // compare reads such a deck to show the refusal, so read_md_params lets it through.
    if (const auto a = p_.remap.mode.applies(remap_options(p_)); !a.ok)
      deck_.root().section("remap").fail("mode", "'" + p_.remap.mode.name() + "' does not apply: " +
                                                     a.why + "; use dup or sharing");
  });
  // The ranks of one run must run the same deck: one given other flags (--steps, --set) or
  // another deck file would wait forever in a collective the others never reach.
  if (comm::size() > 1)
    comm::on_every_rank([&] {
      const std::string mine = deck_.resolved_yaml();
      std::string root = mine;
      comm::broadcast(root);
      const std::string diff = first_difference(mine, root, "rank 0");
      if (!diff.empty())
        throw InputError("command line", 0,
                         "this rank's deck and flags resolve to another run than rank 0's: " +
                             diff + " (start every rank with the same deck and flags)");
    });
  comm::on_every_rank([&] { check_paths(request); });
  restarted_ = !request.restart.path.empty();
  if (restarted_) open_restart(request.restart.path);
  lock_outputs(request);
  engine_ =
      checkpoint_ ? restart_engine(p_, *checkpoint_, request.restart.path) : create_engine(p_);
  OutputInfo info = request.info;
  info.deck_yaml = deck_.resolved_yaml();
  if (checkpoint_) info.continue_at = engine_->step();
  output_ = std::make_unique<RunOutput>(p_, *engine_, info, engine_->step() + p_.steps);
}

Run::~Run() = default;

// Every output path is checked before any work, so a typo fails now, not after the run; no
// output may overwrite an input or another output of this run.
void Run::check_paths(const RunRequest& request) const {
  check_output_paths(p_);
  std::vector<io::PathUse> paths{{"the deck", request.deck, false, ""},
                                 {"system.file", p_.system_file, false, ""}};
  // A chain of jobs writes the checkpoint back to the file it continued from: read whole at the
  // start, replaced whole (renamed over) at the end. Checked as restart.file against the rest.
  if (!io::same_path(request.restart.path, p_.restart_file)) paths.push_back(request.restart);
  for (const auto& u : output_path_uses(p_)) paths.push_back(u);
  for (const auto& u : request.extra_outputs) paths.push_back(u);
  io::check_outputs(paths);
}

void Run::open_restart(const std::string& path) {
  // a killed checkpoint write leaves one; every rank then reads the checkpoint
  comm::on_root([&] { io::remove_stale_partial(path); });
  checkpoint_ = comm::on_every_rank([&] {
    auto c = std::make_unique<io::Checkpoint>(io::read_checkpoint(path));
    check_restart(p_, *c, path);
    return c;
  });
}

// Outputs are locked now, before the run: one another run is writing is refused (exit 2).
void Run::lock_outputs(const RunRequest& request) {
  extra_.resize(request.extra_outputs.size());
  comm::on_root([&] {
    for (std::size_t i = 0; i < extra_.size(); ++i) {
      const io::PathUse& u = request.extra_outputs[i];
      if (u.path.empty()) continue;
      try {
        extra_[i] = std::make_unique<io::StagedFile>(u.path);
      } catch (const io::OutputBusy& e) {
        throw InputError(u.role, 0, e.what());
      }
    }
    // A computes' file is not continued by a restarted run: it starts anew.
    try {
      if (!p_.computes.rdf.file.empty())
        rdf_file_ = std::make_unique<io::StagedFile>(p_.computes.rdf.file);
    } catch (const io::OutputBusy& e) {
      throw InputError("compute.rdf.file", 0, e.what());
    }
    try {
      if (!p_.computes.msd.file.empty())
        msd_file_ =
            std::make_unique<io::CsvRows>(p_.computes.msd.file, "step,time,msd,msd_x,msd_y,msd_z");
    } catch (const io::OutputBusy& e) {
      throw InputError("compute.msd.file", 0, e.what());
    }
    if (!p_.thermo_csv.empty()) {
      try {
        csv_ = std::make_unique<io::ThermoCsv>(p_.thermo_csv, p_.thermo_columns,
                                               checkpoint_ ? checkpoint_->step : -1);
      } catch (const io::OutputBusy& e) {
        throw InputError("output.thermo_csv", 0, e.what());
      } catch (const io::CannotContinue& e) {
        throw InputError("output.thermo_csv", 0, e.what());
      }
    }
  });
}

RunResult Run::execute(RunConsole& console) {
  checkpoint_.reset();
  ThermoRows rows(csv_.get());
  MsdRows msd_rows(msd_file_.get());
  ObserverList obs{&rows, &msd_rows, &console, output_.get()};
  RunResult r;
  r.initial = engine_->setup();
  // A restart continues dynamics that began after any minimisation.
  if (p_.minimize.enabled && !restarted_) {
    r.minimize = engine_->minimize(p_.minimize, &console, r.initial);
    r.minimized = true;
    console.minimized(r.minimize);
  }
  rows.thermo(r.initial);
  console.thermo(r.initial);
  if (r.initial.has_msd && r.initial.step % p_.computes.msd.every == 0) {
    MsdSample m;  // the start: 0
    m.step = r.initial.step;
    m.time = r.initial.time;
    msd_rows.msd(m);
  }
  output_->start(r.initial);
  r.stats = engine_->run(p_.steps, &obs);
  console.steps_done();
  output_->finish();
  if (csv_) csv_->close();
  if (rdf_file_) write_rdf(*rdf_file_, engine_->rdf_average());
  if (msd_file_) msd_file_->close();
  r.remap = engine_->remap_stats(false);
  return r;
}

}  // namespace mdremap::md
