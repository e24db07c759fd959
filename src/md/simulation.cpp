#include "md/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "integrators/integrator.hpp"
#include "md/force.hpp"
#include "mdremap/error.hpp"
#include "neighbor/neighbor_list.hpp"

namespace mdremap::md {

namespace {

constexpr bool kHostBackend = std::is_same_v<ExecSpace, Kokkos::DefaultHostExecutionSpace>;

template <class S>
void permute_atoms(AtomArrays<S>& a, Kokkos::View<const std::int64_t*> perm) {
  AtomArrays<S> b;
  b.allocate(a.n);
  auto ax = a.x, bx = b.x;
  auto av = a.v, bv = b.v;
  auto af = a.f, bf = b.f;
  auto at = a.type, bt = b.type;
  auto ai = a.id, bi = b.id;
  Kokkos::parallel_for(
      "Sort::permute", Kokkos::RangePolicy<ExecSpace>(0, a.n), KOKKOS_LAMBDA(const std::int64_t k) {
        const std::int64_t i = perm(k);
        bx(k) = ax(i);
        for (int d = 0; d < 3; ++d) {
          bv(k, d) = av(i, d);
          bf(k, d) = af(i, d);
        }
        bt(k) = at(i);
        bi(k) = ai(i);
      });
  a = b;
}

template <class S, class C>
class Simulation final : public MdEngine {
 public:
  Simulation(const MdParams& p, const HostSystem& s, std::int64_t first_step)
      : p_(p), step_(first_step), force_(p.pairs, p.shift) {
    const std::int64_t n = s.n();
    atoms_.allocate(n);
    auto hx = Kokkos::create_mirror_view(atoms_.x);
    auto hv = Kokkos::create_mirror_view(atoms_.v);
    auto ht = Kokkos::create_mirror_view(atoms_.type);
    auto hi = Kokkos::create_mirror_view(atoms_.id);
    for (std::int64_t i = 0; i < n; ++i) {
      hx(i) = Vec4<S>{S(s.x[3 * i]), S(s.x[3 * i + 1]), S(s.x[3 * i + 2]), S(s.type[i])};
      for (int d = 0; d < 3; ++d) hv(i, d) = S(s.v[3 * i + d]);
      ht(i) = s.type[i];
      hi(i) = s.id[i];
    }
    Kokkos::deep_copy(atoms_.x, hx);
    Kokkos::deep_copy(atoms_.v, hv);
    Kokkos::deep_copy(atoms_.type, ht);
    Kokkos::deep_copy(atoms_.id, hi);
    box_s_ = Box<S>::make(s.lo, s.len);
    box_c_ = Box<C>::make(s.lo, s.len);
    box_d_ = Box<double>::make(s.lo, s.len);

    // A CPU thread walks one atom's list (half list, row-major); a GPU warp reads row j of 32
    // atoms at once (full list, column-major, no write conflicts).
    half_ = p.list == "half" || (p.list == "auto" && kHostBackend);
    column_major_ = p.layout == "column" || (p.layout == "auto" && !kHostBackend);
    builder_ = std::make_unique<neighbor::VerletListBuilder<C>>(p.pairs.max_cutoff() + p.skin,
                                                                half_, column_major_);

    std::vector<double> mass;
    for (const auto& t : p.types) mass.push_back(t.mass);
    mass_ = integrators::mass_table<S>(mass);
    dof_ = 3.0 * n - 3.0;
    integrators::IntegratorSettings is;
    is.style = p.integrator;
    is.dt = p.dt;
    is.t_target = p.t_target;
    is.damp = p.damp;
    is.seed = p.thermostat_seed;
    is.chain = p.chain;
    is.dof = dof_;
    is.type_mass = mass;
    integrator_ = integrators::make_integrator<S>(is);

    std::vector<std::int64_t> count(p.types.size(), 0);
    for (auto t : s.type) ++count[t];
    tail_correction(p.pairs, count, etail_, ptail_);
  }

  void set_integrator_state(const std::vector<double>& st) { integrator_->set_state(st); }

  ThermoSample setup() override {
    if (p_.sort != "none") sort_atoms();
    rebuild();
    last_ = compute_forces(true);
    return sample();
  }

  RunStats run(std::int64_t nsteps, RunObserver* obs) override {
    RunStats st;
    st.atoms = atoms_.n;
    const std::int64_t first = step_;
    const std::int64_t last_step = first + nsteps;
    const int builds0 = builds_, dangerous0 = dangerous_, sorts0 = sorts_;
    const int regrows0 = builder_->regrows();
    split_ = TimeSplit{};
    Kokkos::fence();
    Kokkos::Timer loop;
    for (std::int64_t s = 0; s < nsteps; ++s) {
      ++step_;
      timed(split_.integrate, [&] { integrator_->initial_integrate(atoms_, step_); });
      timed(split_.neighbor, [&] { maybe_rebuild(); });
      const bool ev = step_ == last_step || (p_.thermo > 0 && step_ % p_.thermo == 0);
      last_ = compute_forces(ev);
      timed(split_.integrate, [&] {
        integrator_->post_force(atoms_, step_);
        integrator_->final_integrate(atoms_, step_);
      });
      if (ev) {
        ThermoSample ts;
        timed(split_.other, [&] { ts = sample(); });
        st.last = ts;
        if (obs) obs->thermo(ts);
      }
      if (obs) obs->progress(s + 1, nsteps, loop.seconds());
    }
    Kokkos::fence();
    st.loop_seconds = loop.seconds();
    st.steps = nsteps;
    st.atom_steps_per_s = st.loop_seconds > 0 ? double(atoms_.n) * nsteps / st.loop_seconds : 0;
    st.split = split_;
    st.list_builds = builds_ - builds0;
    st.dangerous_builds = dangerous_ - dangerous0;
    st.sorts = sorts_ - sorts0;
    st.list_regrows = builder_->regrows() - regrows0;
    st.mean_neighbors = list_.mean_count();
    st.max_neighbors = list_.max_count;
    if (nsteps == 0) st.last = sample();
    return st;
  }

  ThermoSample thermo_now() override {
    last_ = compute_forces(true);
    return sample();
  }

  Frame snapshot(bool with_forces) const override {
    Frame fr;
    fr.step = step_;
    fr.time = step_ * p_.dt;
    for (int d = 0; d < 3; ++d) fr.box_lo[d] = box_d_.lo[d], fr.box_len[d] = box_d_.len[d];
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.x);
    auto hv = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.v);
    auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.f);
    auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.type);
    auto hi = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), atoms_.id);
    const std::int64_t n = atoms_.n;
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
      }
      fr.type[k] = ht(i);
      fr.id[k] = hi(i);
    }
    return fr;
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
  }

  double thermostat_energy() const override { return integrator_->thermostat_energy(); }
  std::int64_t step() const override { return step_; }
  std::int64_t natoms() const override { return atoms_.n; }
  std::string describe() const override {
    return fmt::format("{} {} neighbor list, precision {}, {}", half_ ? "half" : "full",
                       column_major_ ? "column-major" : "row-major", to_string(p_.precision),
                       integrator_->describe());
  }

 private:
  template <class F>
  void timed(double& acc, F&& f) {
    Kokkos::Timer t;
    f();
    Kokkos::fence();
    acc += t.seconds();
  }

  // Force-kernel positions: local atoms (converted to C) followed by their periodic ghosts.
  void pack_gather_positions() {
    const size_t need = atoms_.n + ghosts_.nghost;
    if (xg_.extent(0) < need)
      xg_ = Kokkos::View<Vec4<C>*>(Kokkos::view_alloc("x_all", Kokkos::WithoutInitializing),
                                   need + need / 8);
    neighbor::update_positions<S, C>(atoms_.x, ghosts_, box_c_, xg_);
  }

  void sort_atoms() {
    auto perm = neighbor::spatial_order<S>(atoms_.x, box_s_, p_.sort);
    permute_atoms(atoms_, perm);
    ++sorts_;
    last_sort_step_ = step_;
  }

  void rebuild() {
    if (p_.sort != "none" && p_.sort_every > 0 && step_ - last_sort_step_ >= p_.sort_every)
      sort_atoms();
    neighbor::wrap_positions<S>(atoms_.x, box_s_);
    neighbor::build_ghosts<S>(atoms_.x, atoms_.n, box_s_, builder_->list_cutoff(), ghosts_);
    pack_gather_positions();
    builder_->build(xg_, ghosts_, box_c_, list_);
    if (xhold_.extent(0) != static_cast<size_t>(atoms_.n))
      xhold_ = Kokkos::View<Vec4<C>*>("xhold", atoms_.n);
    Kokkos::deep_copy(xhold_, Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n)));
    ++builds_;
  }

  void maybe_rebuild() {
    const double half_skin_sq = 0.25 * p_.skin * p_.skin;
    bool need = false;
    if (step_ % p_.every == 0) {
      if (p_.check) {
        pack_gather_positions();
        need = neighbor::max_displacement_sq<C>(local_positions(), xhold_, box_c_) > half_skin_sq;
      } else {
        need = true;
        pack_gather_positions();
        if (neighbor::max_displacement_sq<C>(local_positions(), xhold_, box_c_) > half_skin_sq)
          ++dangerous_;
      }
    }
    if (need)
      rebuild();
    else
      pack_gather_positions();
  }

  Kokkos::View<const Vec4<C>*> local_positions() const {
    return Kokkos::subview(xg_, std::make_pair(std::int64_t(0), atoms_.n));
  }

  ForceResult compute_forces(bool ev) {
    ForceResult r;
    const auto path =
        p_.gather_path == "global" ? remap::GatherPath::Global : remap::GatherPath::ReadOnly;
    timed(split_.force, [&] { r = force_.compute(xg_, list_, ghosts_, atoms_.f, ev, path); });
    if (ev) have_ev_ = true;
    return r;
  }

  ThermoSample sample() {
    const double n = double(atoms_.n);
    const double vol = box_d_.volume();
    const double ke2 = integrators::twice_kinetic_energy(atoms_, mass_);
    double epair = last_.e_pair, virial = last_.virial;
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
    return t;
  }

  MdParams p_;
  std::int64_t step_;
  AtomArrays<S> atoms_;
  Kokkos::View<Vec4<C>*> xg_, xhold_;
  Box<S> box_s_;
  Box<C> box_c_;
  Box<double> box_d_;
  bool half_ = false;
  bool column_major_ = true;
  std::unique_ptr<neighbor::VerletListBuilder<C>> builder_;
  neighbor::NeighborList list_;
  neighbor::GhostAtoms ghosts_;
  LJForce<C, S> force_;
  std::unique_ptr<integrators::Integrator<S>> integrator_;
  TypeTable<S> mass_;
  double dof_ = 0, etail_ = 0, ptail_ = 0;
  ForceResult last_;
  bool have_ev_ = false;
  TimeSplit split_;
  int builds_ = 0, dangerous_ = 0, sorts_ = 0;
  std::int64_t last_sort_step_ = 0;
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
