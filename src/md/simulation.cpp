#include "md/simulation.hpp"

#include <fmt/format.h>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "comm/domain_exchange.hpp"
#include "comm/runtime.hpp"
#include "integrators/integrator.hpp"
#include "md/compute/msd.hpp"
#include "md/compute/rdf.hpp"
#include "md/engine_choices.hpp"
#include "md/engine_kernels.hpp"
#include "md/force.hpp"
#include "md/gather_frame.hpp"
#include "md/minimize/minimizer.hpp"
#include "md/overlap_hint.hpp"
#include "md/pair/lj.hpp"
#include "md/phase_clock.hpp"
#include "md/reorder.hpp"
#include "md/system_file.hpp"
#include "mdremap/error.hpp"
#include "mdremap/fenced_ms.hpp"
#include "mdremap/thermo_columns.hpp"
#include "neighbor/cluster_builder.hpp"
#include "neighbor/neighbor_list.hpp"
#include "neighbor/periodic.hpp"
#include "neighbor/row_order.hpp"
#include "neighbor/spatial_order.hpp"
#include "neighbor/verlet_builder.hpp"

namespace mdremap::md {

namespace {

constexpr bool kHostBackend = std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>;

template <class S, class C>
class Simulation final : public MdEngine, public EnergySurface<S>, public integrators::Cell {
 public:
  Simulation(const MdParams& p, const HostSystem& s, std::int64_t first_step)
      : p_(p), step_(first_step), natoms_(s.n()) {
    const EngineChoices c = choose_engine(p);
    box_s_ = Box<S>::make(s.lo, s.len);
    box_c_ = Box<C>::make(s.lo, s.len);
    box_d_ = Box<double>::make(s.lo, s.len);
    load_atoms(s, c.decomposed ? decompose(s, c.rlist) : std::vector<std::int64_t>{});
    half_ = c.half;
    p_.sort = c.sort;
    column_major_ = c.column_major;
    builder_ =
        std::make_unique<neighbor::VerletListBuilder<C>>(c.rlist, half_, column_major_, c.bin);
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

  ThermoSample setup() override {
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

  RunStats run(std::int64_t nsteps, RunObserver* obs) override {
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
      st.cluster_pairs_per_icluster =
          double(clist_.cluster_pairs) / std::max(1, clist_.n_iclusters);
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

  ThermoSample thermo_now() override {
    last_ = compute_forces(true);
    return sample();
  }

  MinimizeResult minimize(const MinimizeSettings& settings, MinimizeObserver* obs,
                          ThermoSample& after) override {
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

  // The minimisers' view of the engine (md/minimize/surface.hpp).
  AtomArrays<S>& atoms() override { return atoms_; }
  const TypeTable<S>& masses() const override { return mass_; }
  Box<double> box() const override { return box_d_; }
  bool wrapped() const override { return wrapped_; }
  double energy_forces() override {
    refresh_for_check();
    const double d2 = displacement_check();
    check_atoms(d2);
    wrapped_ = d2 > 0.25 * p_.skin * p_.skin;
    if (wrapped_) rebuild();
    last_ = compute_forces(true);
    return p_.tail ? last_.e_pair + etail_ / box_d_.volume() : last_.e_pair;
  }

  Frame snapshot(bool with_forces) const override {
    if (gathers()) {  // every rank's atoms onto rank 0, in id order
      Frame fr;
      snapshot_slots(fr, true, with_forces, true, false);
      return fr;
    }
    Frame fr;
    fr.step = step_;
    fr.time = step_ * p_.dt;
    for (int d = 0; d < 3; ++d) fr.box_lo[d] = box_d_.lo[d], fr.box_len[d] = box_d_.len[d];
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.x);
    auto hv = vectors_to_host<S>(atoms_.v);  // padded components (vectors_layout)
    auto hf = vectors_to_host<S>(atoms_.f);
    auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.type);
    auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
    auto him = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), image_);
    const std::int64_t n = atoms_.n;
    fr.image.resize(3 * n);
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return hi(a) < hi(b); });
    fr.x.resize(3 * n);
    fr.v.resize(3 * n);
    if (with_forces) fr.f.resize(3 * n);
    fr.type.resize(n);
    fr.id.resize(n);
    for (std::int64_t k = 0; k < n; ++k) {
      const auto i = order[k];
      fr.x[3 * k] = hx(i).x;
      fr.x[3 * k + 1] = hx(i).y;
      fr.x[3 * k + 2] = hx(i).z;
      for (int d = 0; d < 3; ++d) {
        fr.v[3 * k + d] = hv(i, d);
        if (with_forces) fr.f[3 * k + d] = hf(i, d);
        fr.image[3 * k + d] = him(hi(i), d);
      }
      fr.type[k] = ht(i);
      fr.id[k] = hi(i);
    }
    return fr;
  }

  void snapshot_slots(Frame& fr, bool velocities, bool forces, bool gather,
                      bool energies) const override {
    const std::int64_t n = atoms_.n;
    fr.step = step_;
    fr.time = step_ * p_.dt;
    for (int d = 0; d < 3; ++d) fr.box_lo[d] = box_d_.lo[d], fr.box_len[d] = box_d_.len[d];
    fr.x.resize(3 * n);
    fr.v.resize(velocities ? 3 * n : 0);
    fr.f.resize(forces ? 3 * n : 0);
    fr.type.resize(n);
    fr.id.resize(n);
    if (pack_.extent(0) < static_cast<size_t>(3 * n))
      pack_ = Kokkos::View<double*>(
          Kokkos::view_alloc("snapshot_pack", Kokkos::WithoutInitializing), 3 * n);
    auto pack = pack_;
    using HostDoubles = Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>;
    auto copy_out = [&](std::vector<double>& dst) {
      Kokkos::deep_copy(HostDoubles(dst.data(), 3 * n),
                        Kokkos::subview(pack, std::make_pair(std::int64_t(0), 3 * n)));
    };
    pack_positions<S>(pack, atoms_.x);
    copy_out(fr.x);
    if (velocities) {
      pack_vectors<S>(pack, atoms_.v);
      copy_out(fr.v);
    }
    if (forces) {
      pack_vectors<S>(pack, atoms_.f);
      copy_out(fr.f);
    }
    Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          reinterpret_cast<int*>(fr.type.data()), n),
                      atoms_.type);
    Kokkos::deep_copy(
        Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(fr.id.data(), n),
        atoms_.id);
    slot_images(fr);
    fr.pe.clear();
    if (energies) atom_energies(fr.pe);
    if (gather) gather_frame(fr);
  }

  // Each local atom's potential energy in slot order: its pairs' halves, and with
  // potential.tail its type's share of the tail correction (md/compute/pe_atom.hpp).
  void atom_energies(std::vector<double>& out) const {
    const std::int64_t n = atoms_.n;
    if (pe_.extent(0) < static_cast<size_t>(n))
      pe_ = Kokkos::View<double*>(Kokkos::view_alloc("pe_atom", Kokkos::WithoutInitializing), n);
    const auto e = Kokkos::subview(pe_, std::make_pair(std::int64_t(0), n));
    force_->atom_energies(e);
    if (p_.tail) {
      TypeTable<double> tail;
      tail.ntypes = static_cast<int>(tail_per_type_.size());
      for (int t = 0; t < tail.ntypes; ++t) tail.value[t] = tail_per_type_[t] / box_d_.volume();
      add_type_values(e, atoms_.type, tail);
    }
    out.resize(n);
    Kokkos::deep_copy(
        Kokkos::View<double*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(out.data(), n), e);
  }

  RdfTable rdf_average() const override { return rdf_ ? rdf_->average(natoms_) : RdfTable{}; }

  // The image counts of the frame's slots (by their ids): on one process packed on the device;
  // decomposed (each rank counted its own wraps) summed over the ranks, where outputs want them.
  void slot_images(Frame& fr) const {
    const std::int64_t n = atoms_.n;
    if (domain_ && comm::size() > 1) {
      fr.image.clear();
      if (!p_.output_images) return;
      auto him = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), image_);
      std::vector<double> total(3 * natoms_);
      for (std::int64_t i = 0; i < natoms_; ++i)
        for (int d = 0; d < 3; ++d) total[3 * i + d] = him(i, d);
      comm::sum_in_place(total.data(), static_cast<int>(total.size()));
      fr.image.resize(3 * n);
      for (std::int64_t k = 0; k < n; ++k)
        for (int d = 0; d < 3; ++d)
          fr.image[3 * k + d] = static_cast<std::int32_t>(total[3 * fr.id[k] + d]);
      return;
    }
    if (image_pack_.extent(0) < static_cast<size_t>(3 * n))
      image_pack_ =
          Kokkos::View<int*>(Kokkos::view_alloc("image_pack", Kokkos::WithoutInitializing), 3 * n);
    pack_images(image_pack_, image_, atoms_.id, n);
    fr.image.resize(3 * n);
    Kokkos::deep_copy(Kokkos::View<int*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                          reinterpret_cast<int*>(fr.image.data()), 3 * n),
                      Kokkos::subview(image_pack_, std::make_pair(std::int64_t(0), 3 * n)));
  }
  void gather_frame(Frame& fr) const override {
    if (gathers()) gather_frame_by_id(fr);
  }

  integrators::IntegratorState integrator_state() const override {
    return integrator_->checkpoint_state();
  }

  void restore(const std::vector<double>& forces,
               const integrators::IntegratorState& state) override {
    if (forces.size() != static_cast<size_t>(3 * natoms_))
      throw Error(fmt::format("restart: {} force values for {} atoms", forces.size(), natoms_));
    const std::size_t keeps = integrator_->checkpoint_state().thermostat.size();
    if (state.thermostat.size() != keeps)
      throw Error(fmt::format("{} thermostat values, {} keeps {}", state.thermostat.size(),
                              integrator_->describe(), keeps));
    integrator_->restore_state(state);
    restore_f_ = forces;
    restored_ = true;
  }

  void list_build(ListBuild& b, bool gather) const override {
    const std::int64_t n = atoms_.n;
    Frame fr;  // the build's positions by slot, gathered like a snapshot
    fr.x.resize(3 * n);
    auto put = [&](const auto& hold) {
      auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hold);
      for (std::int64_t i = 0; i < n; ++i) {
        fr.x[3 * i] = static_cast<double>(hx(i).x);
        fr.x[3 * i + 1] = static_cast<double>(hx(i).y);
        fr.x[3 * i + 2] = static_cast<double>(hx(i).z);
      }
    };
    // In storage precision: xhold_ where it is that (force and storage precision agree),
    // else the storage-precision copy the build keeps.
    if constexpr (std::is_same_v<S, C>)
      put(xhold_);
    else
      put(xhold_s_);
    fr.id.resize(n);
    Kokkos::deep_copy(
        Kokkos::View<std::int64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(fr.id.data(), n),
        atoms_.id);
    if (gather) gather_frame(fr);
    b.x = std::move(fr.x);
    for (int d = 0; d < 3; ++d) b.box_lo[d] = box_hold_.lo[d], b.box_len[d] = box_hold_.len[d];
    b.step = last_build_step_;
    b.sort_step = last_sort_step_;
  }

  void restore_list(const ListBuild& build, std::vector<double> positions_by_id) override {
    if (positions_by_id.size() != static_cast<size_t>(3 * natoms_))
      throw Error(
          fmt::format("restart: {} position values for {} atoms", positions_by_id.size(), natoms_));
    restore_build_ = build;
    restore_build_.x.clear();  // the engine was made from them
    restore_x_ = std::move(positions_by_id);
    list_restored_ = true;
  }

  void total_momentum(double p[3]) const override {
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

  double thermostat_energy() const override { return integrator_->thermostat_energy(); }
  std::int64_t step() const override { return step_; }
  std::int64_t natoms() const override { return natoms_; }
  std::string describe() const override {
    const std::string list =
        cluster_ ? fmt::format("cluster-pair (clusters of {}{})", cluster_builder_->cluster_size(),
                               p_.cluster_newton ? ", each pair once" : "")
                 : fmt::format("{} {}", half_ ? "half" : "full",
                               column_major_ ? "column-major" : "row-major");
    return fmt::format("{} neighbor list, atom order {}, precision {}, {}, {}, remap {}{}{}", list,
                       neighbor::to_string(p_.sort), to_string(p_.precision), potential_note(),
                       integrator_->describe(), force_->name(), reorder_note(), domain_note());
  }

 private:
  // The step's phases fence the default instance only (the engine's kernels, and dup's pipeline,
  // which joins it): a plan running on an instance of its own (sharing, remap.plan_overlap) is
  // not waited for.
  template <class F>
  static double fenced_ms(F&& f) {
    return mdremap::fenced_ms(ExecSpace(), "mdremap::phase", std::forward<F>(f));
  }
  // A decomposed run: the exchange, and the atoms of this rank's sub-box (every rank
  // built the same whole system, so nothing is sent to start).
  std::vector<std::int64_t> decompose(const HostSystem& s, double rlist) {
    domain_ = std::make_unique<comm::DomainExchange<S, C>>(p_.grid, comm::rank(), box_d_, rlist,
                                                           p_.transfer);
    domain_->keep_ids(p_.row_order == neighbor::RowOrder::Id);
    std::vector<std::int64_t> mine;
    for (std::int64_t i = 0; i < natoms_; ++i) {
      double w[3];
      for (int d = 0; d < 3; ++d) {
        const double r = s.x[3 * i + d] - s.lo[d];
        w[d] = s.lo[d] + (r - s.len[d] * std::floor(r / s.len[d]));
      }
      if (domain_->owns(w[0], w[1], w[2])) mine.push_back(i);
    }
    return mine;
  }

  // The atoms onto the device: all of them, or those of this rank (`mine`, decomposed).
  void load_atoms(const HostSystem& s, const std::vector<std::int64_t>& mine) {
    const std::int64_t n = domain_ ? static_cast<std::int64_t>(mine.size()) : natoms_;
    for (const std::int64_t id : s.id) id_sum_ += id;
    atoms_.allocate(n);
    auto hx = Kokkos::create_mirror_view(atoms_.x);
    auto hv = vectors_host<S>("velocities_host", n);
    auto ht = Kokkos::create_mirror_view(atoms_.type);
    auto hi = Kokkos::create_mirror_view(atoms_.id);
    for (std::int64_t k = 0; k < n; ++k) {
      const std::int64_t i = domain_ ? mine[k] : k;
      hx(k) = Vec4<S>{S(s.x[3 * i]), S(s.x[3 * i + 1]), S(s.x[3 * i + 2]), S(s.type[i])};
      for (int d = 0; d < 3; ++d) hv(k, d) = S(s.v[3 * i + d]);
      ht(k) = s.type[i];
      hi(k) = s.id[i];
    }
    Kokkos::deep_copy(atoms_.x, hx);
    vectors_from_host<S>(atoms_.v, hv);  // padded components (vectors_layout)
    Kokkos::deep_copy(atoms_.type, ht);
    Kokkos::deep_copy(atoms_.id, hi);
    // Image counts by atom id, moved as the wraps move the atoms. Decomposed: each rank counts
    // its own wraps (rank 0 starts with the system's), a snapshot sums them.
    image_ = Kokkos::View<int* [3]>("image", natoms_);
    if (!s.image.empty() && comm::rank() == 0) {
      auto him = Kokkos::create_mirror_view(image_);
      for (std::int64_t i = 0; i < natoms_; ++i)
        for (int d = 0; d < 3; ++d) him(s.id[i], d) = s.image[3 * i + d];
      Kokkos::deep_copy(image_, him);
    }
  }

  // The integrator, masses and degrees of freedom, and the pair potential's tail correction.
  void make_integrator(const HostSystem& s) {
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

  // A step phase's time into acc (seconds): on a GPU by events, without waiting (phase_clock.hpp).
  template <class F>
  void timed(double& acc, F&& f) {
    clock_.time(&acc, nullptr, std::forward<F>(f));
  }

  // The checkpoint's forces replace the freshly computed pair forces: they include the
  // thermostat terms (Langevin) that the next step's first half kick uses.
  void load_forces() {
    auto hf = vectors_host<S>("forces_host", atoms_.n);
    // Decomposed: the atoms moved to their ranks since; the checkpoint's forces come by id.
    auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
    for (std::int64_t i = 0; i < atoms_.n; ++i) {
      const std::int64_t row = domain_ ? hid(i) : i;
      for (int d = 0; d < 3; ++d) hf(i, d) = static_cast<S>(restore_f_[3 * row + d]);
    }
    vectors_from_host<S>(atoms_.f, hf);  // padded components (vectors_layout)
    restore_f_.clear();
  }

  // Force-kernel positions: local atoms (converted to C) followed by their periodic ghosts.
  void pack_gather_positions() {
    if (domain_) {  // ghosts from the ranks' exchange: their positions through the send lists
      timed(split_.exchange, [&] {
        Kokkos::Profiling::ScopedRegion r("mdremap::ghost_forward");
        if (overlap_) {  // joined in compute_forces, after the forces of the atoms away from faces
          domain_->forward_begin(atoms_.x, atoms_.n, xg_);
          ghosts_in_flight_ = true;
        } else {
          domain_->forward(atoms_.x, atoms_.n, xg_);
        }
      });
      return;
    }
    const size_t need = atoms_.n + ghosts_.nghost;
    if constexpr (std::is_same_v<S, C>) {
      // Storage and force precision agree (double, single): the local positions are the head
      // of the force kernel's array itself, so a step rewrites only the ghost images (a 4M-atom
      // single-precision step copied 64 MB for nothing). A sort replaces atoms_.x; the next
      // call then moves it back into a fresh array.
      if (atoms_.x.data() != xg_.data() || xg_.extent(0) < need) {
        Kokkos::View<Vec4<C>*> all(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                   need + need / 8);
        const auto local = std::make_pair(std::int64_t(0), atoms_.n);
        Kokkos::deep_copy(Kokkos::subview(all, local), atoms_.x);
        xg_ = all;
        atoms_.x = Kokkos::subview(all, local);
      }
      neighbor::update_positions<S, C>(atoms_.x, ghosts_, box_c_, xg_, atoms_.n);
      return;
    }
    if (xg_.extent(0) < need)
      xg_ = Kokkos::View<Vec4<C>*>(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                   need + need / 8);
    neighbor::update_positions<S, C>(atoms_.x, ghosts_, box_c_, xg_);
  }

  void sort_atoms() {
    auto perm = neighbor::spatial_order<S>(atoms_.x, sort_box(), p_.sort, builder_->bin_size());
    permute_atoms(atoms_, perm);
    ++sorts_;
    last_sort_step_ = step_;
  }

  // The box whose cells order the atoms: the one the list build bins. A decomposed run bins its
  // sub-box, and the cells of the whole box (another count per axis, so other faces) spread the
  // atoms of one list cell over up to eight runs of the atom order: the list build's column-major
  // stores of a cell's rows no longer coalesced (the per-rank build measured slower for it;
  // docs/benchmarks.md).
  // Made from the builder's box in force precision, so that both count the same cells.
  Box<S> sort_box() const {
    if (!domain_) return box_s_;
    const Box<C> sub = domain_->sub_box();
    double lo[3], len[3];
    for (int d = 0; d < 3; ++d) lo[d] = sub.lo[d], len[d] = sub.len[d];
    return Box<S>::make(lo, len);
  }

  void rebuild() {
    timed(split_.rebuild, [&] { rebuild_now(); });
  }

  void set_box(const double lo[3], const double len[3]) {
    box_d_ = Box<double>::make(lo, len);
    box_s_ = Box<S>::make(lo, len);
    box_c_ = Box<C>::make(lo, len);
  }

  // setup() of a restart from a checkpoint that kept its list's build (restore_list): the atoms
  // hold the build's positions (wrapped then, in the slot order of the checkpoint, which no
  // build changed since), so the build here in the box of then, without a wrap or a sort, is
  // the checkpointed run's: the same ghosts, pairs and order, the same xhold. Then the
  // checkpoint's positions (by id: a decomposed run's atoms came to their ranks by the build's
  // positions, as that run's last migration had moved them) and box come back.
  void rebuild_as_checkpointed() {
    const Box<double> now = box_d_;
    set_box(restore_build_.box_lo, restore_build_.box_len);
    rebuilding_restored_ = true;
    rebuild();
    rebuilding_restored_ = false;
    last_build_step_ = restore_build_.step;
    set_box(now.lo, now.len);
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.x);
    auto hid = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
    for (std::int64_t i = 0; i < atoms_.n; ++i) {
      const std::int64_t k = hid(i);
      hx(i).x = static_cast<S>(restore_x_[3 * k]);
      hx(i).y = static_cast<S>(restore_x_[3 * k + 1]);
      hx(i).z = static_cast<S>(restore_x_[3 * k + 2]);
    }
    Kokkos::deep_copy(atoms_.x, hx);
    restore_x_ = {};
    pack_gather_positions();
  }

  void rebuild_now() {
    force_->release_pattern();  // the sort and the build below overwrite the list it reads
    if (domain_) {
      rebuild_decomposed();
      return;
    }
    // A minimiser holds per-atom vectors in the atoms' order: no sort meanwhile. A restart's
    // build of the checkpoint's list starts from positions wrapped and sorted then.
    if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0 && !minimizing_ &&
        !rebuilding_restored_ && step_ - last_sort_step_ >= p_.sort_every)
      sort_atoms();
    if (!rebuilding_restored_) neighbor::wrap_positions<S>(atoms_.x, box_s_, atoms_.id, image_);
    neighbor::build_ghosts<S>(atoms_.x, atoms_.n, box_s_, builder_->list_cutoff(), ghosts_);
    pack_gather_positions();
    if (cluster_) {
      cluster_builder_->build(xg_, ghosts_, box_c_, clist_);
    } else {
      builder_->build(xg_, ghosts_, box_c_, list_);
      if (p_.row_order == neighbor::RowOrder::Id)
        neighbor::order_rows_by_key(list_, image_ids(atoms_.id, ghosts_));
    }
    hold_positions();
    // Last: a strategy that plans in the background (sharing, remap.plan_overlap) runs its plan
    // while the next steps run, so nothing after it may wait for the whole device.
    remap_ms_ += fenced_ms([&] {
      if (cluster_)
        force_->plan_clusters(clist_, ghosts_);
      else
        force_->plan(list_, ghosts_);
    });
    ++builds_;
    last_build_step_ = step_;
    box_hold_ = box_d_;
  }

  // A decomposed run's rebuild: atoms wrapped into the box and moved to their sub-box's rank,
  // sorted if due, the ghost shell exchanged, the list built over the sub-box.
  void rebuild_decomposed() {
    if (!rebuilding_restored_) neighbor::wrap_positions<S>(atoms_.x, box_s_, atoms_.id, image_);
    Kokkos::Profiling::ScopedRegion region("mdremap::rebuild_decomposed");
    clock_.time(&split_.exchange_rebuild, &split_.exchange_migrate, [&] {
      Kokkos::Profiling::ScopedRegion r("mdremap::migrate");
      domain_->migrate(atoms_);
    });
    if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0 && !rebuilding_restored_ &&
        step_ - last_sort_step_ >= p_.sort_every)
      sort_atoms();
    // parallel.overlap: the atoms near a face last, the forces of the others run beside the
    // ghost update.
    if (overlap_) nfar_ = domain_->near_faces_last(atoms_);
    ghosts_.nlocal = atoms_.n;
    timed(split_.exchange_rebuild, [&] {
      Kokkos::Profiling::ScopedRegion r("mdremap::borders");
      ghosts_.nghost = domain_->borders(atoms_.x, atoms_.id, atoms_.n, xg_);
    });
    ghosts_.images = false;
    ghosts_in_flight_ = false;  // borders() wrote them (and joined any update still travelling)
    // Storage and force precision agree: the local positions are the head of the force
    // kernel's array (as pack_gather_positions keeps them on one process).
    if constexpr (std::is_same_v<S, C>)
      atoms_.x = Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n));
    {
      Kokkos::Profiling::ScopedRegion r("mdremap::list_build");
      builder_->build(xg_, ghosts_, domain_->sub_box(), list_);
      if (p_.row_order == neighbor::RowOrder::Id)
        neighbor::order_rows_by_key(list_, domain_->ids());
    }
    hold_positions();
    remap_ms_ += fenced_ms([&] {
      Kokkos::Profiling::ScopedRegion r("mdremap::remap_plan");
      force_->plan(list_, ghosts_);
    });
    ++builds_;
    last_build_step_ = step_;
    box_hold_ = box_d_;
  }

  // The build's positions into xhold_ (the displacement check's), sized to the atoms here over
  // a kept allocation: a decomposed run's count changes at every migration, and a fresh
  // allocation is a device-wide wait. Storage and force precision differing (mixed), also in
  // storage precision (xhold_s_): what a checkpoint keeps of the build (list_build).
  void hold_positions() {
    const auto local = std::make_pair(std::int64_t(0), atoms_.n);
    if (xhold_store_.extent(0) < static_cast<size_t>(atoms_.n))
      xhold_store_ = Kokkos::View<Vec4<C>*>(
          Kokkos::view_alloc("xhold", Kokkos::WithoutInitializing), atoms_.n + atoms_.n / 16 + 64);
    xhold_ = Kokkos::subview(xhold_store_, local);
    Kokkos::deep_copy(ExecSpace(), xhold_, Kokkos::subview(xg_, local));
    if constexpr (!std::is_same_v<S, C>) {
      if (xhold_s_store_.extent(0) < static_cast<size_t>(atoms_.n))
        xhold_s_store_ =
            Kokkos::View<Vec4<S>*>(Kokkos::view_alloc("xhold_s", Kokkos::WithoutInitializing),
                                   atoms_.n + atoms_.n / 16 + 64);
      xhold_s_ = Kokkos::subview(xhold_s_store_, local);
      Kokkos::deep_copy(ExecSpace(), xhold_s_, atoms_.x);
    }
  }

  // Atoms counted over the ranks and their ids summed: a migration that lost or doubled an
  // atom fails here (every rank reaches it with the same sums).
  void check_conserved() const {
    const std::int64_t count = comm::sum(atoms_.n);
    const std::int64_t ids = comm::sum(id_sum(atoms_.id, atoms_.n));
    if (count != natoms_ || ids != id_sum_)
      throw comm::CollectiveError(
          fmt::format("step {}: the ranks hold {} atoms (id sum {}), the system has {} (id sum "
                      "{}): atoms were lost or doubled in migration",
                      step_, count, ids, natoms_, id_sum_),
          1);
  }

  // What the displacement check reads: the local atoms only. A decomposed run refreshes its
  // ghosts after it, and only if the list stays (a build replaces them).
  void refresh_for_check() {
    if (domain_)
      domain_->locals(atoms_.x, atoms_.n, xg_);
    else
      pack_gather_positions();
  }

  void maybe_rebuild(const OutputRequest& out) {
    // An H5MD frame with velocities: the state the setup() of a run from it sees (sorted if
    // sorts are periodic, the lists built from it).
    if (out.restart_point) {
      refresh_for_check();
      check_atoms(displacement_check());  // a blown-up state is never written
      if (p_.sort != neighbor::AtomSort::None && p_.sort_every > 0) sort_atoms();
      rebuild();
      return;
    }
    // A box that changed since the build moves the periodic images as well: the atoms may move
    // only what the skin leaves after the box faces' movement (LAMMPS' check with a changing
    // box).
    double trigger = 0.5 * p_.skin;
    if (virial_every_) {
      double dlo = 0, dhi = 0;
      for (int d = 0; d < 3; ++d) {
        const double a = box_d_.lo[d] - box_hold_.lo[d];
        const double b = a + box_d_.len[d] - box_hold_.len[d];
        dlo += a * a;
        dhi += b * b;
      }
      trigger = std::max(0.0, 0.5 * (p_.skin - (std::sqrt(dlo) + std::sqrt(dhi))));
    }
    const double half_skin_sq = trigger * trigger;
    bool need = false;
    const bool scheduled = step_ % p_.every == 0;
    if (scheduled || out.checkpoint) {
      refresh_for_check();
      const double d2 = displacement_check();
      check_atoms(d2);  // a checkpoint's too: a blown-up state never becomes a checkpoint
      if (scheduled && p_.check) {
        need = d2 > half_skin_sq;
      } else if (scheduled) {
        need = true;
        if (d2 > half_skin_sq) ++dangerous_;
      }
    }
    if (need)
      rebuild();
    else
      pack_gather_positions();
  }

  int list_regrows() const { return cluster_ ? cluster_builder_->regrows() : builder_->regrows(); }
  int candidate_rebuilds() const { return cluster_ ? 0 : builder_->candidate_rebuilds(); }

  Kokkos::View<const Vec4<C>*> local_positions() const {
    return Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n));
  }

  // The rebuild decision's one reduction, which also finds blow-ups (see
  // max_displacement_sq_or_inf). Call after pack_gather_positions().
  double displacement_check() const {
    const double d2 =
        max_displacement_sq_or_inf<C, S>(local_positions(), xhold_, atoms_.v, box_c_, atoms_.n);
    return domain_ ? comm::max(d2) : d2;  // every rank rebuilds, or none
  }

  // LAMMPS stops on "Lost atoms"; here an atom is lost when its position or velocity is not
  // finite, or when it moved farther than the list cutoff (the ghost shell) since the list was
  // built: its list and ghost images then no longer describe its surroundings at all.
  void check_atoms(double d2) const {
    // d2 and the thermo are reduced over the ranks: every rank stops here at once.
    if (!(d2 < Kokkos::Experimental::infinity_v<double>))
      throw comm::CollectiveError(
          fmt::format(
              "step {}: atoms with non-finite positions or velocities: the run blew up ({})", step_,
              blowup_cause()),
          1);
    const double rlist = p_.pairs.max_cutoff() + p_.skin;
    if (d2 > rlist * rlist)
      throw comm::CollectiveError(
          fmt::format("step {}: lost atoms: an atom moved {:.4g} since the "
                      "neighbour list was built at step "
                      "{}, more than the list cutoff {:.4g} (cutoff + "
                      "skin): the run blew up ({})",
                      step_, std::sqrt(d2), last_build_step_, rlist, blowup_cause()),
          1);
  }

  // What a blow-up message blames: the overlapping atoms the first forces showed, else the
  // usual suspects.
  std::string blowup_cause() const {
    // A random gas placed without a minimum distance starts with atoms on top of each other.
    if (p_.lattice == Lattice::Random && p_.system_file.empty() &&
        p_.min_distance < kSafeMinDistance)
      return fmt::format(
          "overlapping atoms: the random gas was placed with system.random.min_distance {}; set "
          "min_distance: {} or minimise first (a `minimize:` section in the deck){}",
          p_.min_distance, kSafeMinDistance, overlap_hint_.empty() ? "" : "; " + overlap_hint_);
    return overlap_hint_.empty() ? "time step too large, overlapping atoms, or an absurd "
                                   "temperature"
                                 : overlap_hint_;
  }
  // Atoms of a random gas at least this far apart (sigma) start with forces a step of the usual
  // dt survives (LJ at 0.8 sigma: |f| about 950).
  static constexpr double kSafeMinDistance = 0.8;

 public:  // a CUDA extended lambda's enclosing function must be public
  // Forces that move an atom at rest by more than kOverlapMove in one step come from atoms
  // sitting on each other: the hint names the worst pair (md/overlap_hint.hpp).
  void find_overlaps() {
    overlap_hint_.clear();
    if (domain_) return;
    auto f = atoms_.f;
    auto type = atoms_.type;
    const auto mass = mass_;
    double amax = 0;
    Kokkos::parallel_reduce(
        "Thermo::max_acceleration", Kokkos::RangePolicy<ExecSpace>(0, atoms_.n),
        KOKKOS_LAMBDA(const int i, double& m) {
          const double a2 =
              (double(f(i, 0)) * f(i, 0) + double(f(i, 1)) * f(i, 1) + double(f(i, 2)) * f(i, 2)) /
              (double(mass[type(i)]) * mass[type(i)]);
          if (!(a2 <= m)) m = a2;  // NaN wins
        },
        Kokkos::Max<double>(amax));
    if (std::sqrt(amax) * p_.dt * p_.dt <= kOverlapMove) return;
    overlap_hint_ = overlap_hint(snapshot(true), box_d_, given_atom_ids(p_), p_.dt);
  }

 private:
  void check_thermo(const ThermoSample& t) const {
    for (double v : {t.temp, t.e_pair, t.ke, t.press})
      if (!std::isfinite(v))
        throw comm::CollectiveError(
            fmt::format(
                "step {}: non-finite thermo (temperature {}, pair energy {}, pressure {}): the run "
                "blew up ({})",
                step_, t.temp, t.e_pair, t.press, blowup_cause()),
            1);
  }

  // ev: energy and virial; sampled: the step's thermo is taken (its tensor columns).
  ForceResult compute_forces(bool ev, bool sampled = true) {
    ForceResult r;
    clock_.time(&split_.force, &force_s_, [&] {
      r = ghosts_in_flight_ ? forces_beside_exchange(ev) : force_->compute(xg_, atoms_.f, ev);
    });
    ++force_evals_;
    if (ev) have_ev_ = true;
    // The pressure tensor where the thermo columns ask for it (a pass of its own).
    tensor_now_ = ev && !minimizing_ && (tensor_every_ || (tensor_on_thermo_ && sampled));
    if (tensor_now_) timed(split_.other, [&] { wtensor_ = force_->virial_tensor(); });
    return r;
  }

  // parallel.overlap: the atoms away from the sub-domain faces (their rows hold no ghosts: the
  // first nfar_, near_faces_last) on the default instance, while the ghost update runs on its
  // own stream and then the atoms near the faces there, as soon as the ghosts are in: the two
  // force kernels share the GPU (one kernel's tail, as unsplit; a second kernel after the first
  // measured slower). The default instance then waits
  // for the side stream. Each atom's force is summed as compute() sums it.
  ForceResult forces_beside_exchange(bool ev) {
    // A thermo step's part waits for its sums on the host: the update is queued before it.
    if (ev) domain_->forward_run();
    // The split on a multiple of 32 atoms (the last few away from the faces go with the near
    // ones): a warp of the second part then reads whole 128-byte lines of the column-major list
    // and force array, not two part lines per load.
    const std::int64_t split = nfar_ / 32 * 32;
    remap::ThreadSelection far;
    far.count = split;
    const ForceResult a = force_->compute_part(xg_, atoms_.f, ev, far, false);
    domain_->forward_run();  // after that launch: a host-staged exchange runs beside it
    remap::ThreadSelection near;
    near.first = split;
    near.count = atoms_.n - split;
    near.space = domain_->side_space();
    const ForceResult b = force_->compute_part(xg_, atoms_.f, ev, near, true);
    domain_->forward_join();
    ghosts_in_flight_ = false;
    return ForceResult{a.e_pair + b.e_pair, a.virial + b.virial};
  }

  // Snapshots of a run over several ranks are gathered onto rank 0.
  bool gathers() const override { return domain_ && comm::size() > 1; }
  std::string domain_note() const {
    if (!domain_) return "";
    return fmt::format(", {} MPI rank{} (grid {}, ghosts exchanged{})", comm::size(),
                       comm::size() > 1 ? "s" : "", p_.grid.text(),
                       (comm::size() > 1 && !kHostBackend ? " by " + domain_->transfer() : "") +
                           (overlap_ ? ", the step's update beside the forces of the atoms away "
                                       "from the faces"
                                     : ""));
  }
  std::string reorder_note() const {
    return p_.remap.reorder == Reorder::None ? "" : ", reorder " + to_string(p_.remap.reorder);
  }
  // remap.reorder (orthogonal to the strategy): spatial = space-filling-curve sort; labelprop and
  // partition permute the atoms from the current neighbour-list pattern.
  void reorder_atoms() {
    if (p_.remap.reorder == Reorder::Spatial) {
      permute_atoms(atoms_,
                    neighbor::spatial_order<S>(
                        atoms_.x, sort_box(),
                        p_.sort == neighbor::AtomSort::None ? neighbor::AtomSort::Hilbert : p_.sort,
                        builder_->bin_size()));
    } else {
      permute_atoms(
          atoms_, reorder_permutation<C>(p_, list_, atoms_.n + ghosts_.nghost, local_positions()));
    }
    ++sorts_;
  }

 public:
  RemapStats remap_stats(bool with_transactions) override {
    RemapStats st = force_->stats(with_transactions && !list_.half);
    clock_.settle();
    st.realised_ms = remap_ms_ + 1e3 * force_s_;
    st.executions = force_evals_;
    return st;
  }
  ForceProbe& force_probe() override { return *force_; }
  // The potential for the run header: style, cut-off, shift, tail.
  std::string potential_note() const {
    if (p_.potential == "wca") return "potential wca (cut-off 2^(1/6) sigma, shifted)";
    return fmt::format("potential {} (cut-off {:g}{}{})", p_.potential, p_.pairs.max_cutoff(),
                       p_.shift ? ", shifted" : "", p_.tail ? ", tail correction" : "");
  }

  // The box as a barostat sees it (integrators::Cell).
  std::array<double, 3> lengths() const override {
    return {box_d_.len[0], box_d_.len[1], box_d_.len[2]};
  }
  std::array<double, 6> virial() const override {
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
  void dilate(const std::array<double, 3>& f) override {
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
  void dilate_drift(const std::array<double, 3>& f1, double dt,
                    const std::array<double, 3>& f2) override {
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
    dilate_drift_positions<S>(atoms_.x, atoms_.v, atoms_.n, ctr[0], f1.data(), dt, ctr[1],
                              f2.data());
  }

 private:
  ThermoSample sample() {
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

  // compute: the run's start (the MSD's reference, the RDF's first sample).
  void start_computes() {
    if (msd_) msd_->reset(atoms_, image_, box_d_, natoms_);
    if (rdf_) {
      rdf_->reset();
      rdf_->sample<S>(atoms_.x, atoms_.n, box_d_);
    }
  }
  bool compute_due(std::int64_t step) const {
    return (rdf_ && step % p_.computes.rdf.every == 0) ||
           (msd_ && step % p_.computes.msd.every == 0);
  }
  void run_computes(RunObserver* obs) {
    if (rdf_ && step_ % p_.computes.rdf.every == 0) rdf_->sample<S>(atoms_.x, atoms_.n, box_d_);
    if (msd_ && step_ % p_.computes.msd.every == 0 && obs) {
      MsdSample m;
      m.step = step_;
      m.time = step_ * p_.dt;
      const std::array<double, 4> v = msd_->sample(atoms_, image_, box_d_, natoms_);
      for (int k = 0; k < 4; ++k) m.msd[k] = v[k];
      obs->msd(m);
    }
  }

  // P_ab = (sum m v_a v_b + W_ab) / V, W the pair virial tensor of the last forces, summed over
  // the ranks; the tail correction is isotropic (LAMMPS' compute pressure vector).
  void pressure_tensor(double p[6]) const {
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

  MdParams p_;
  std::int64_t step_;
  std::int64_t natoms_;      // the whole system's (this rank's: atoms_.n)
  std::int64_t id_sum_ = 0;  // sum of the atom ids, for check_conserved
  // The ranks' domain decomposition (p_.exchange_ghosts), else null: one process, periodic images.
  std::unique_ptr<comm::DomainExchange<S, C>> domain_;
  bool overlap_ = false;           // parallel.overlap in effect
  bool ghosts_in_flight_ = false;  // a forward_begin() that the next forces join
  std::int64_t nfar_ = 0;          // atoms before those near a face (near_faces_last)
  AtomArrays<S> atoms_;
  Kokkos::View<Vec4<C>*> xg_, xhold_, xhold_store_;
  Kokkos::View<Vec4<S>*> xhold_s_, xhold_s_store_;  // mixed precision: the build's in storage
  Box<S> box_s_;
  Box<C> box_c_;
  Box<double> box_d_;
  bool half_ = false;
  bool column_major_ = true;
  std::unique_ptr<neighbor::VerletListBuilder<C>> builder_;
  neighbor::NeighborList list_;
  bool cluster_ = false;  // neighbor.list cluster: clist_ from cluster_builder_ instead of list_
  std::unique_ptr<neighbor::ClusterListBuilder<C>> cluster_builder_;
  neighbor::ClusterList clist_;
  neighbor::GhostAtoms ghosts_;
  std::unique_ptr<PairForce<C, S>> force_;
  double remap_ms_ = 0;  // time in the strategy's plans (ms)
  double force_s_ = 0;   // and in its force evaluations (s, all runs)
  PhaseClock clock_;     // the step phases' timers
  std::int64_t force_evals_ = 0;
  std::unique_ptr<integrators::Integrator<S>> integrator_;
  TypeTable<S> mass_;
  double dof_ = 0, etail_ = 0, ptail_ = 0;
  std::vector<double> tail_per_type_;  // tail energy per atom of each type, times the volume
  double total_mass_ = 0;              // for the density
  bool tensor_on_thermo_ = false;      // run.thermo_columns name a pressure-tensor column
  bool tensor_now_ = false;            // wtensor_ is of the last forces
  bool virial_every_ = false;          // the integrator reads the virial every step (a barostat)
  bool tensor_every_ = false;          // and the tensor (per-axis coupling)
  Box<double> box_hold_;               // the box at the last list build
  VirialTensor wtensor_{};
  ForceResult last_;
  bool have_ev_ = false;
  TimeSplit split_;
  int builds_ = 0, dangerous_ = 0, sorts_ = 0;
  std::int64_t last_sort_step_ = 0;
  std::int64_t last_build_step_ = 0;
  bool restored_ = false;               // made from a checkpoint (restore())
  bool list_restored_ = false;          // and from its list's build (restore_list())
  bool rebuilding_restored_ = false;    // setup() builds the checkpoint's list: no wrap, no sort
  ListBuild restore_build_;             // restore_list()'s box and steps
  std::vector<double> restore_x_;       // the checkpoint's positions by id, back after that build
  bool minimizing_ = false;             // minimize() runs: atoms keep their order
  bool wrapped_ = false;                // the last energy_forces() rebuilt the lists
  std::string overlap_hint_;            // the first forces' overlapping atoms, or ""
  std::vector<double> restore_f_;       // its forces, loaded at the end of setup()
  mutable Kokkos::View<double*> pack_;  // snapshot staging on the device
  Kokkos::View<int* [3]> image_;        // periodic image counts by atom id (see load_atoms)
  mutable Kokkos::View<int*> image_pack_;
  mutable Kokkos::View<double*> pe_;    // per-atom energies of a snapshot
  std::unique_ptr<RdfCompute> rdf_;     // compute.rdf, else null
  std::unique_ptr<MsdCompute<S>> msd_;  // compute.msd or the msd column, else null
};

}  // namespace

std::unique_ptr<MdEngine> make_engine(const MdParams& p, const HostSystem& s,
                                      std::int64_t first_step) {
  switch (p.precision) {
    case Precision::Double:
      return std::make_unique<Simulation<double, double>>(p, s, first_step);
    case Precision::Mixed:
      return std::make_unique<Simulation<double, float>>(p, s, first_step);
    case Precision::Single:
      return std::make_unique<Simulation<float, float>>(p, s, first_step);
  }
  throw Error("unknown precision");
}

}  // namespace mdremap::md
