// The engine behind make_engine (md/engine.hpp): its construction, set-up, the step loop, the
// minimiser's entry, thermo sampling and the box a barostat moves. Its other parts are in the
// md/engine_*.cpp files.
#include "md/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "md/engine.hpp"
#include "md/engine_choices.hpp"
#include "md/engine_kernels.hpp"
#include "md/minimize/minimizer.hpp"
#include "md/pair/lj.hpp"
#include "mdremap/error.hpp"
#include "mdremap/thermo_columns.hpp"

namespace mdremap::md {

namespace detail {

namespace {

constexpr bool kHostBackend = std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>;

}  // namespace

template <class S, class C>
Simulation<S, C>::Simulation(const MdParams& p, const HostSystem& s, std::int64_t first_step)
    : p_(p), step_(first_step), natoms_(s.n()) {
  const EngineChoices c = choose_engine(p);
  box_s_ = Box<S>::make(s.lo, s.len);
  box_c_ = Box<C>::make(s.lo, s.len);
  box_d_ = Box<double>::make(s.lo, s.len);
  load_atoms(s, c.decomposed ? decompose(s, c.rlist) : std::vector<std::int64_t>{});
  half_ = c.half;
  p_.sort = c.sort;
  column_major_ = c.column_major;
  builder_ = std::make_unique<neighbor::VerletListBuilder<C>>(c.rlist, half_, column_major_, c.bin);
  cluster_ = c.cluster;
  if (cluster_)
    cluster_builder_ = std::make_unique<neighbor::ClusterListBuilder<C>>(c.rlist, p.cluster_size);
  make_integrator(s);
  if (domain_ && virial_every_)
    throw Error(fmt::format(
        "integrator {}: the box changes, which the ranks' fixed sub-boxes do not follow; run "
        "it on one process without parallel.ghosts",
        p_.integrator.style()));
  force_ = make_pair_force<C, S>(c.pair);
  // compute: (read_md_params refuses them where ranks exchange ghosts)
  if (p_.computes.rdf.enabled)
    rdf_ = std::make_unique<RdfCompute>(p_.computes.rdf.bins, p_.computes.rdf.r_max);
  if (p_.computes.msd.enabled) msd_ = std::make_unique<MsdCompute<S>>();
  if (domain_ && (rdf_ || msd_))
    throw Error("compute.rdf and compute.msd run on one process without parallel.ghosts");
  if (domain_) {
    overlap_ = c.overlap_wanted && force_->runs_parts();
    if (c.overlap_required && !overlap_)
      throw Error("parallel.overlap=on: the force engine (remap " + force_->name() +
                  ") runs all of its atoms at once");
    domain_->overlap(overlap_);
  }
}

template <class S, class C>
ThermoSample Simulation<S, C>::setup() {
  // A restart keeps the checkpoint's order: the run it continues sorted at that step already
  // if it sorts periodically (see maybe_rebuild), and a re-sort would change the lists.
  if (p_.sort != neighbor::AtomSort::None && !restored_) sort_atoms();
  // A checkpoint that kept its list's build: that list again, and the next sort when the
  // checkpointed run's is due. An older one was sorted at its step if sorts are periodic.
  if (restored_) last_sort_step_ = list_restored_ ? restore_build_.sort_step : step_;
  if (list_restored_)
    rebuild_as_checkpointed();
  else
    rebuild();
  // --reorder: permute the atoms (threads), then rebuild; a restart keeps the checkpoint's order
  if (p_.remap.reorder != Reorder::None && !restored_) {
    reorder_atoms();
    rebuild();
  }
  last_ = compute_forces(true);
  if (!restore_f_.empty()) load_forces();
  if (!restored_) find_overlaps();
  check_atoms(displacement_check());
  start_computes();
  const ThermoSample t = sample();
  check_thermo(t);
  return t;
}

template <class S, class C>
RunStats Simulation<S, C>::run(std::int64_t nsteps, RunObserver* obs) {
  RunStats st;
  st.atoms = natoms_;
  const std::int64_t first = step_;
  const std::int64_t last_step = first + nsteps;
  const int builds0 = builds_, dangerous0 = dangerous_, sorts0 = sorts_;
  const int regrows0 = list_regrows();
  const int candidates0 = candidate_rebuilds();
  integrator_->begin_run(first, last_step);
  clock_.settle();  // phases timed before this run (set-up, restarts) count where they were
  split_ = TimeSplit{};
  const double mpi0 = domain_ ? domain_->mpi_seconds() : 0.0;
  const double hidden0 = domain_ ? domain_->overlapped_seconds() : 0.0;
  Kokkos::fence();
  Kokkos::Timer loop;
  // A step nobody looks at defers its final kick into the next step's initial integrate (one
  // pass over the atoms instead of two); the last step and every thermo/output step finish.
  bool kick_pending = false;
  for (std::int64_t s = 0; s < nsteps; ++s) {
    ++step_;
    const OutputRequest out = obs ? obs->output_at(step_) : OutputRequest{};
    timed(split_.integrate, [&] {
      if (kick_pending)
        integrator_->final_and_initial(atoms_, step_);
      else
        integrator_->initial_integrate(atoms_, step_);
    });
    timed(split_.neighbor, [&] { maybe_rebuild(out); });
    const bool thermo_step = step_ == last_step || (p_.thermo > 0 && step_ % p_.thermo == 0);
    const bool ev = thermo_step || out.write || out.restart_point;
    last_ = compute_forces(ev || virial_every_, ev);
    // A compute's step is a whole step as well: its positions and box are the step's end.
    const bool computed = compute_due(step_);
    kick_pending = !ev && !computed && s + 1 < nsteps;
    timed(split_.integrate, [&] {
      integrator_->post_force(atoms_, step_);
      if (!kick_pending) integrator_->final_integrate(atoms_, step_);
    });
    if (computed) timed(split_.other, [&] { run_computes(obs); });
    if (ev) {
      ThermoSample ts;
      timed(split_.other, [&] { ts = sample(); });
      check_thermo(ts);  // before anything sees it: no NaN line, no NaN checkpoint
      st.last = ts;
      if (obs && thermo_step) obs->thermo(ts);
      if (out.write || out.restart_point) timed(split_.other, [&] { obs->output(ts); });
    }
    if (obs) obs->progress(s + 1, nsteps, loop.seconds());
  }
  Kokkos::fence();
  st.loop_seconds = loop.seconds();
  clock_.settle();
  st.steps = nsteps;
  st.atom_steps_per_s = st.loop_seconds > 0 ? double(natoms_) * nsteps / st.loop_seconds : 0;
  if (domain_) {
    split_.exchange_mpi = domain_->mpi_seconds() - mpi0;
    split_.exchange_overlapped = domain_->overlapped_seconds() - hidden0;
    split_.exchange += split_.exchange_rebuild;
  }
  st.split = split_;
  st.list_builds = builds_ - builds0;
  st.dangerous_builds = dangerous_ - dangerous0;
  st.sorts = sorts_ - sorts0;
  st.list_regrows = list_regrows() - regrows0;
  st.candidate_rebuilds = candidate_rebuilds() - candidates0;
  if (cluster_) {
    // The masks' pairs per atom (the plain full list's neighbours); the longest row in atoms.
    st.mean_neighbors = double(neighbor::count_cluster_atom_pairs(clist_)) / double(atoms_.n);
    st.max_neighbors = clist_.max_count * clist_.m;
    st.cluster_size = clist_.m;
    st.cluster_pairs_per_icluster = double(clist_.cluster_pairs) / std::max(1, clist_.n_iclusters);
    st.cluster_mask_fill = double(clist_.atom_pairs) /
                           std::max(1.0, double(clist_.cluster_pairs) * clist_.m * clist_.m);
    st.cluster_slots_per_atom = double(clist_.n_clusters) * clist_.m / double(atoms_.n);
    st.cluster_rows_per_atom = double(clist_.atom_rows) / double(atoms_.n);
    st.cluster_padding =
        double(clist_.padding) / std::max(1.0, double(clist_.n_iclusters) * clist_.m);
  } else {
    st.mean_neighbors = list_.mean_count();
    st.max_neighbors = list_.max_count;
  }
  if (domain_) {
    // Over all ranks; the atoms counted where they are, which migration must conserve.
    st.mean_neighbors = comm::sum(st.mean_neighbors * atoms_.n) / natoms_;
    st.max_neighbors = static_cast<int>(comm::max(st.max_neighbors));
    st.atoms = comm::sum(atoms_.n);
    st.migrations = comm::sum(domain_->migrated());
    st.migrations_through_mpi = comm::sum(domain_->migrated_through_mpi());
    st.near_face_atoms = overlap_ ? comm::sum(atoms_.n - nfar_) : -1;
    st.near_face_reorders = comm::sum(domain_->near_face_reorders());
    st.transfer = domain_->transfer();
    check_conserved();
  }
  if (nsteps == 0) st.last = sample();
  return st;
}

template <class S, class C>
ThermoSample Simulation<S, C>::thermo_now() {
  last_ = compute_forces(true);
  return sample();
}

template <class S, class C>
MinimizeResult Simulation<S, C>::minimize(const MinimizeSettings& settings, MinimizeObserver* obs,
                                          ThermoSample& after) {
  if (domain_)
    throw Error(
        "minimize: runs on one process (the minimiser's per-atom vectors do not "
        "migrate between MPI ranks)");
  minimizing_ = true;
  Kokkos::fence();
  Kokkos::Timer clock;
  MinimizeResult r = md::minimize<S>(*this, settings, p_.dt, obs);
  Kokkos::fence();
  r.seconds = clock.seconds();
  minimizing_ = false;
  // The dynamics starts from here: the lists built and the forces computed as at setup.
  rebuild();
  last_ = compute_forces(true);
  find_overlaps();
  check_atoms(displacement_check());
  start_computes();  // the dynamics starts here
  after = sample();
  check_thermo(after);
  return r;
}

template <class S, class C>
double Simulation<S, C>::energy_forces() {
  refresh_for_check();
  const double d2 = displacement_check();
  check_atoms(d2);
  wrapped_ = d2 > 0.25 * p_.skin * p_.skin;
  if (wrapped_) rebuild();
  last_ = compute_forces(true);
  return p_.tail ? last_.e_pair + etail_ / box_d_.volume() : last_.e_pair;
}

template <class S, class C>
void Simulation<S, C>::total_momentum(double p[3]) const {
  auto v = atoms_.v;
  auto type = atoms_.type;
  const auto mass = mass_;
  double px = 0, py = 0, pz = 0;
  Kokkos::parallel_reduce(
      "Thermo::momentum", Kokkos::RangePolicy<ExecSpace>(0, atoms_.n),
      KOKKOS_LAMBDA(const int i, double& a, double& b, double& c) {
        const double m = mass[type(i)];
        a += m * v(i, 0);
        b += m * v(i, 1);
        c += m * v(i, 2);
      },
      px, py, pz);
  p[0] = px, p[1] = py, p[2] = pz;
  if (domain_) comm::sum_in_place(p, 3);
}

template <class S, class C>
std::string Simulation<S, C>::describe() const {
  const std::string list =
      cluster_ ? fmt::format("cluster-pair (clusters of {}{})", cluster_builder_->cluster_size(),
                             p_.cluster_newton ? ", each pair once" : "")
               : fmt::format("{} {}", half_ ? "half" : "full",
                             column_major_ ? "column-major" : "row-major");
  return fmt::format("{} neighbor list, atom order {}, precision {}, {}, {}, remap {}{}{}", list,
                     neighbor::to_string(p_.sort), to_string(p_.precision), potential_note(),
                     integrator_->describe(), force_->name(), reorder_note(), domain_note());
}

template <class S, class C>
void Simulation<S, C>::make_integrator(const HostSystem& s) {
  integrators::IntegratorSettings is = integrator_settings(p_, natoms_);
  if (domain_) is.sum_over_ranks = [](double v) { return comm::sum(v); };
  mass_ = integrators::mass_table<S>(is.type_mass);
  dof_ = is.dof;
  integrator_ = integrators::make_integrator<S>(is);
  integrator_->attach_cell(this);
  virial_every_ = integrator_->virial_needed() != integrators::Virial::None;
  tensor_every_ = integrator_->virial_needed() == integrators::Virial::Tensor;
  std::vector<std::int64_t> count(p_.types.size(), 0);
  for (auto t : s.type) ++count[t];
  tail_correction(p_.pairs, count, etail_, ptail_);
  tail_per_type_ = tail_energy_per_type(p_.pairs, count);
  total_mass_ = 0;
  for (std::size_t t = 0; t < count.size(); ++t) total_mass_ += count[t] * is.type_mass[t];
  tensor_on_thermo_ = thermo_columns_need_tensor(p_.thermo_columns);
}

template <class S, class C>
std::string Simulation<S, C>::domain_note() const {
  if (!domain_) return "";
  return fmt::format(", {} MPI rank{} (grid {}, ghosts exchanged{})", comm::size(),
                     comm::size() > 1 ? "s" : "", p_.grid.text(),
                     (comm::size() > 1 && !kHostBackend ? " by " + domain_->transfer() : "") +
                         (overlap_ ? ", the step's update beside the forces of the atoms away "
                                     "from the faces"
                                   : ""));
}

template <class S, class C>
RemapStats Simulation<S, C>::remap_stats(bool with_transactions) {
  RemapStats st = force_->stats(with_transactions && !list_.half);
  clock_.settle();
  st.realised_ms = remap_ms_ + 1e3 * force_s_;
  st.executions = force_evals_;
  return st;
}

template <class S, class C>
std::string Simulation<S, C>::potential_note() const {
  if (p_.potential == "wca") return "potential wca (cut-off 2^(1/6) sigma, shifted)";
  return fmt::format("potential {} (cut-off {:g}{}{})", p_.potential, p_.pairs.max_cutoff(),
                     p_.shift ? ", shifted" : "", p_.tail ? ", tail correction" : "");
}

template <class S, class C>
std::array<double, 6> Simulation<S, C>::virial() const {
  const double tail = p_.tail ? ptail_ / box_d_.volume() : 0.0;
  std::array<double, 6> w{};
  // The tensor only for a per-axis barostat: an isotropic one reads the force kernels' trace
  // whether or not the thermo columns computed the tensor at this step.
  if (tensor_every_) {
    for (int a = 0; a < 6; ++a) w[a] = wtensor_[a];
  } else {
    for (int a = 0; a < 3; ++a) w[a] = last_.virial / 3.0;
  }
  for (int a = 0; a < 3; ++a) w[a] += tail;
  return w;
}

template <class S, class C>
void Simulation<S, C>::dilate(const std::array<double, 3>& f) {
  double lo[3], len[3], ctr[3];
  for (int d = 0; d < 3; ++d) {
    ctr[d] = box_d_.lo[d] + 0.5 * box_d_.len[d];
    lo[d] = ctr[d] + (box_d_.lo[d] - ctr[d]) * f[d];
    len[d] = box_d_.len[d] * f[d];
  }
  box_d_ = Box<double>::make(lo, len);
  box_s_ = Box<S>::make(lo, len);
  box_c_ = Box<C>::make(lo, len);
  dilate_positions<S>(atoms_.x, atoms_.n, ctr, f.data());
}

template <class S, class C>
void Simulation<S, C>::dilate_drift(const std::array<double, 3>& f1, double dt,
                                    const std::array<double, 3>& f2) {
  double ctr[2][3];
  for (int k = 0; k < 2; ++k) {
    const auto& f = k == 0 ? f1 : f2;
    double lo[3], len[3];
    for (int d = 0; d < 3; ++d) {
      ctr[k][d] = box_d_.lo[d] + 0.5 * box_d_.len[d];
      lo[d] = ctr[k][d] + (box_d_.lo[d] - ctr[k][d]) * f[d];
      len[d] = box_d_.len[d] * f[d];
    }
    box_d_ = Box<double>::make(lo, len);
    box_s_ = Box<S>::make(lo, len);
    box_c_ = Box<C>::make(lo, len);
  }
  dilate_drift_positions<S>(atoms_.x, atoms_.v, atoms_.n, ctr[0], f1.data(), dt, ctr[1], f2.data());
}

template <class S, class C>
ThermoSample Simulation<S, C>::sample() {
  const double n = double(natoms_);
  const double vol = box_d_.volume();
  // Kinetic energy, pair energy and virial: sums over this rank's atoms, then over the ranks.
  double sums[3] = {integrators::twice_kinetic_energy(atoms_, mass_), last_.e_pair, last_.virial};
  if (domain_) comm::sum_in_place(sums, 3);
  const double ke2 = sums[0];
  double epair = sums[1], virial = sums[2];
  if (p_.tail) {
    epair += etail_ / vol;
    virial += 3.0 * ptail_ / vol;  // P += ptail / V^2
  }
  ThermoSample t;
  t.step = step_;
  t.time = step_ * p_.dt;
  t.temp = dof_ > 0 ? ke2 / dof_ : 0.0;
  t.e_pair = epair / n;
  t.ke = 0.5 * ke2 / n;
  t.etotal = t.e_pair + t.ke;
  t.press = (ke2 + virial) / (3.0 * vol);
  t.volume = vol;
  t.density = total_mass_ / vol;
  t.enthalpy = t.etotal + t.press * vol / n;
  if (tensor_now_) pressure_tensor(t.ptensor);
  t.has_ptensor = tensor_now_;
  if (msd_) {
    const std::array<double, 4> m = msd_->sample(atoms_, image_, box_d_, natoms_);
    for (int k = 0; k < 4; ++k) t.msd[k] = m[k];
    t.has_msd = true;
  }
  return t;
}

template <class S, class C>
void Simulation<S, C>::pressure_tensor(double p[6]) const {
  const std::array<double, 6> k = integrators::kinetic_tensor(atoms_, mass_);
  double s[12];
  for (int a = 0; a < 6; ++a) s[a] = k[a], s[6 + a] = wtensor_[a];
  if (domain_) comm::sum_in_place(s, 12);
  const double vol = box_d_.volume();
  for (int a = 0; a < 6; ++a) {
    double w = s[6 + a];
    if (p_.tail && a < 3) w += ptail_ / vol;
    p[a] = (s[a] + w) / vol;
  }
}

}  // namespace detail

std::unique_ptr<MdEngine> make_engine(const MdParams& p, const HostSystem& s,
                                      std::int64_t first_step) {
  switch (p.precision) {
    case Precision::Double:
      return std::make_unique<detail::Simulation<double, double>>(p, s, first_step);
    case Precision::Mixed:
      return std::make_unique<detail::Simulation<double, float>>(p, s, first_step);
    case Precision::Single:
      return std::make_unique<detail::Simulation<float, float>>(p, s, first_step);
  }
  throw Error("unknown precision");
}

}  // namespace mdremap::md
