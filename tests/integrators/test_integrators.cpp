// The integrators layer alone (no forces, lists or deck code): each integrator's declared
// settings and their validation, its checkpoint state taken and restored, and its physics on
// systems whose answer is known in closed form: harmonic tethers (NVE against the exact
// velocity-Verlet recurrence; Nose-Hoover's extended energy and target temperature) and free
// particles (Langevin's relaxation and equipartition). The kernels run on the build's default
// execution space, so a CUDA build runs these on the GPU (label gpu).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "integrators/integrator.hpp"
#include "integrators/velocity_verlet.hpp"
#include "mdremap/error.hpp"
#include "mdremap/rng.hpp"

using namespace mdremap;
using namespace mdremap::integrators;

// Device kernels live in a named namespace (CUDA extended lambdas need an enclosing function
// with external linkage).
namespace mdremap::test_integrators {

// ---- a small system on the device ---------------------------------------------------------

// n atoms cycling through `ntypes` types, at Gaussian random positions of standard deviation
// `spread` about the origin, with Gaussian velocities of temperature `temp` (per-type masses
// `mass`; zero: at rest). Counter-based numbers: the same system on every backend.
template <class S>
AtomArrays<S> make_atoms(std::int64_t n, double spread, int ntypes = 2, double temp = 0,
                         const std::vector<double>& mass = {}) {
  AtomArrays<S> a;
  a.allocate(n);
  auto hx = Kokkos::create_mirror_view(a.x);
  auto hv = vectors_host<S>("hv", n);  // a.v is padded (vectors_layout)
  auto ht = Kokkos::create_mirror_view(a.type);
  auto hi = Kokkos::create_mirror_view(a.id);
  for (std::int64_t i = 0; i < n; ++i) {
    const int t = static_cast<int>(i % ntypes);
    const auto id = static_cast<std::uint64_t>(i);
    hx(i) = Vec4<S>{S(spread * gaussian(11, id, 0)), S(spread * gaussian(11, id, 1)),
                    S(spread * gaussian(11, id, 2)), S(t)};
    const double sd = temp > 0 ? std::sqrt(temp / mass[t]) : 0.0;
    for (int d = 0; d < 3; ++d) hv(i, d) = S(sd * gaussian(12, id, d));
    ht(i) = t;
    hi(i) = i;
  }
  Kokkos::deep_copy(a.x, hx);
  vectors_from_host<S>(a.v, hv);
  Kokkos::deep_copy(a.type, ht);
  Kokkos::deep_copy(a.id, hi);
  return a;
}

template <class S>
AtomArrays<S> copy_of(const AtomArrays<S>& a) {
  AtomArrays<S> b;
  b.allocate(a.n);
  Kokkos::deep_copy(b.x, a.x);
  Kokkos::deep_copy(b.v, a.v);
  Kokkos::deep_copy(b.f, a.f);
  Kokkos::deep_copy(b.type, a.type);
  Kokkos::deep_copy(b.id, a.id);
  return b;
}

// Harmonic tether to the origin, f = -k_type x; returns the potential energy sum 0.5 k |x|^2.
template <class S>
double tether_forces(AtomArrays<S>& a, TypeTable<S> k) {
  auto x = a.x;
  auto f = a.f;
  auto type = a.type;
  double pe = 0;
  Kokkos::parallel_reduce(
      "Test::tether", Kokkos::RangePolicy<ExecSpace>(0, a.n),
      KOKKOS_LAMBDA(const int i, double& e) {
        const S kk = k[type(i)];
        const Vec4<S> p = x(i);
        f(i, 0) = -kk * p.x;
        f(i, 1) = -kk * p.y;
        f(i, 2) = -kk * p.z;
        e += 0.5 * double(kk) * (double(p.x) * p.x + double(p.y) * p.y + double(p.z) * p.z);
      },
      pe);
  return pe;
}

// The box a barostat couples to: tethered atoms in a cube about the origin, the virial from the
// tether forces (sum over atoms of x_a f_b), dilated about the origin.
template <class S>
class TetherCell : public Cell {
 public:
  explicit TetherCell(AtomArrays<S>& a) : a_(a) {}
  std::array<double, 3> lengths() const override { return len_; }
  std::array<double, 6> virial() const override {
    auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_.x);
    auto hf = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a_.f);
    std::array<double, 6> w{};
    const int pairs[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (std::int64_t i = 0; i < a_.n; ++i) {
      const double r[3] = {double(hx(i).x), double(hx(i).y), double(hx(i).z)};
      for (int k = 0; k < 6; ++k) w[k] += r[pairs[k][0]] * double(hf(i, pairs[k][1]));
    }
    return w;
  }
  void dilate(const std::array<double, 3>& f) override {
    for (int d = 0; d < 3; ++d) len_[d] *= f[d];
    auto x = a_.x;
    const S fx = S(f[0]), fy = S(f[1]), fz = S(f[2]);
    Kokkos::parallel_for(
        "Test::dilate", Kokkos::RangePolicy<ExecSpace>(0, a_.n), KOKKOS_LAMBDA(const int i) {
          x(i).x *= fx;
          x(i).y *= fy;
          x(i).z *= fz;
        });
  }
  void dilate_drift(const std::array<double, 3>& f1, double dt,
                    const std::array<double, 3>& f2) override {
    dilate(f1);
    drift(a_, dt);
    dilate(f2);
  }

 private:
  AtomArrays<S>& a_;
  std::array<double, 3> len_{10.0, 10.0, 10.0};
};

template <class S>
void zero_forces(AtomArrays<S>& a) {
  Kokkos::deep_copy(a.f, S(0));
}

// sum m |v|^2 per type (host), for equipartition checks.
}  // namespace mdremap::test_integrators

namespace {

using namespace mdremap::test_integrators;

template <class S>
std::vector<double> twice_ke_by_type(const AtomArrays<S>& a, const std::vector<double>& mass) {
  auto hv = vectors_to_host<S>(a.v);
  auto ht = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.type);
  std::vector<double> s(mass.size(), 0.0);
  for (std::int64_t i = 0; i < a.n; ++i)
    for (int d = 0; d < 3; ++d) s[ht(i)] += mass[ht(i)] * double(hv(i, d)) * double(hv(i, d));
  return s;
}

template <class S>
std::vector<double> host_positions(const AtomArrays<S>& a) {
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), a.x);
  std::vector<double> out;
  for (std::int64_t i = 0; i < a.n; ++i) {
    out.push_back(hx(i).x);
    out.push_back(hx(i).y);
    out.push_back(hx(i).z);
  }
  return out;
}

template <class S>
std::vector<double> host_velocities(const AtomArrays<S>& a) {
  auto hv = vectors_to_host<S>(a.v);
  std::vector<double> out;
  for (std::int64_t i = 0; i < a.n; ++i)
    for (int d = 0; d < 3; ++d) out.push_back(hv(i, d));
  return out;
}

bool same_bytes(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

IntegratorSettings settings(const std::string& style, std::int64_t natoms,
                            std::vector<double> mass = {1.0, 2.5}) {
  IntegratorSettings s;
  s.style = style;
  s.dt = 0.005;
  s.keys = KeyValues::defaults(find_integrator(style).keys);
  s.dof = 3.0 * natoms;  // tethered or free atoms: no momentum constraint
  s.type_mass = std::move(mass);
  return s;
}

// One step as the MD engine takes it (simulation.cpp): initial integrate, forces, post-force,
// final integrate. With `fuse`, the final kick is deferred into the next step's initial
// integrate (final_and_initial) except at the last step, as the engine does on quiet steps.
template <class S, class Forces>
void run_steps(Integrator<S>& in, AtomArrays<S>& a, std::int64_t first, int steps, Forces forces,
               bool fuse = false) {
  bool pending = false;
  for (int s = 0; s < steps; ++s) {
    const std::int64_t step = first + s + 1;
    if (pending)
      in.final_and_initial(a, step);
    else
      in.initial_integrate(a, step);
    forces(a);
    in.post_force(a, step);
    pending = fuse && s + 1 < steps;
    if (!pending) in.final_integrate(a, step);
  }
}

// ---- settings: declarations, defaults, validation ----------------------------------------

TEST(IntegratorSettings, RegistryListsEachIntegratorOnceInOrder) {
  EXPECT_EQ(integrator_names(),
            (std::vector<std::string>{"nve", "langevin", "nose-hoover", "npt", "c-rescale"}));
  EXPECT_THROW(find_integrator("nvt"), Error);
  IntegratorSettings s = settings("nve", 4);
  s.style = "verlet";
  EXPECT_THROW(make_integrator<double>(s), Error);
}

TEST(IntegratorSettings, DeclaredKeysAndDefaults) {
  EXPECT_TRUE(find_integrator("nve").keys.empty());
  const auto lang = KeyValues::defaults(find_integrator("langevin").keys, 1.7);
  EXPECT_EQ(lang.real("temperature"), 1.7);  // required: no default of its own
  EXPECT_EQ(lang.real("damp"), 0.5);
  EXPECT_EQ(lang.seed("seed"), 48279u);
  const auto nh = KeyValues::defaults(find_integrator("nose-hoover").keys, 1.7);
  EXPECT_EQ(nh.real("damp"), 0.5);
  EXPECT_EQ(nh.integer("chain"), 3);
  EXPECT_THROW(nh.seed("seed"), Error);  // Nose-Hoover declares no seed
  for (const char* style : {"langevin", "nose-hoover"}) {
    const auto& keys = find_integrator(style).keys;
    ASSERT_FALSE(keys.empty());
    EXPECT_EQ(keys[0].name, "temperature");
    EXPECT_TRUE(keys[0].required) << style;
  }
  // The help derives from the same declarations.
  const std::string help = integrator_help();
  for (const auto& kind : integrator_kinds()) {
    EXPECT_NE(help.find(kind.name + ": "), std::string::npos) << kind.name;
    for (const auto& k : kind.keys) EXPECT_NE(help.find(k.describe()), std::string::npos);
  }
  EXPECT_NE(help.find("temperature [required]"), std::string::npos) << help;
  EXPECT_NE(help.find("chain [3]"), std::string::npos) << help;
}

TEST(IntegratorSettings, BoundsAreCheckedWithTheDeckMessages) {
  const auto& lang = find_integrator("langevin").keys;
  const auto& nh = find_integrator("nose-hoover").keys;
  auto key = [](const std::vector<KeySpec>& keys, const std::string& name) {
    for (const auto& k : keys)
      if (k.name == name) return k;
    throw Error("no key " + name);
  };
  EXPECT_EQ(key(lang, "temperature").check(-1), "must be positive, got -1");
  EXPECT_EQ(key(lang, "damp").check(0), "must be positive, got 0");
  EXPECT_EQ(key(lang, "damp").check(0.1), "");
  EXPECT_NE(key(lang, "damp").check(std::nan("")), "");
  EXPECT_EQ(key(nh, "chain").check(0), "chain length must be 1..10");
  EXPECT_EQ(key(nh, "chain").check(11), "chain length must be 1..10");
  EXPECT_EQ(key(nh, "chain").check(10), "");

  IntegratorSettings s = settings("nose-hoover", 8);
  s.keys.set_integer("chain", 12);
  try {
    make_integrator<double>(s);
    ADD_FAILURE() << "chain 12 accepted";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "integrator nose-hoover: 'chain': chain length must be 1..10");
  }
  IntegratorSettings missing = settings("langevin", 8);
  missing.keys = KeyValues{};
  EXPECT_THROW(make_integrator<double>(missing), Error);
}

TEST(IntegratorSettings, DescribeShowsTheSettingsRead) {
  IntegratorSettings s = settings("langevin", 8);
  s.keys.set_real("temperature", 1.25);
  s.keys.set_real("damp", 0.2);
  s.keys.set_seed("seed", 99);
  EXPECT_EQ(make_integrator<double>(s)->describe(), "langevin (T 1.25, damp 0.2, seed 99)");
  IntegratorSettings n = settings("nose-hoover", 8);
  n.keys.set_integer("chain", 2);
  EXPECT_EQ(make_integrator<float>(n)->describe(), "nose-hoover (T 1, damp 0.5, chain 2)");
  EXPECT_EQ(make_integrator<double>(settings("nve", 8))->describe(), "nve (velocity Verlet)");
}

// ---- checkpoint state ------------------------------------------------------------------------

// A run of 2N steps equals N steps, the checkpoint state handed to a new integrator, N more:
// bit for bit, for each integrator, in float and double.
template <class S>
void check_round_trip(const std::string& style) {
  SCOPED_TRACE(style);
  const std::int64_t n = 64;
  IntegratorSettings s = settings(style, n);
  bool has_seed = false;
  for (const auto& key : find_integrator(style).keys) has_seed = has_seed || key.name == "seed";
  if (has_seed) s.keys.set_seed("seed", 1234);
  const TypeTable<S> k = mass_table<S>({4.0, 9.0});
  auto forces = [&](AtomArrays<S>& a) { tether_forces(a, k); };
  AtomArrays<S> whole = make_atoms<S>(n, 0.3, 2, 0.5, {1.0, 2.5});
  tether_forces(whole, k);
  AtomArrays<S> half = copy_of(whole);
  // Barostats couple to a box (the engine's Cell); the others never ask for it.
  TetherCell<S> whole_cell(whole), half_cell(half);
  const bool barostat = make_integrator<S>(s)->virial_needed() != Virial::None;

  auto a = make_integrator<S>(s);
  a->attach_cell(&whole_cell);
  a->begin_run(0, 40);
  run_steps(*a, whole, 0, 40, forces);

  auto b = make_integrator<S>(s);
  b->attach_cell(&half_cell);
  b->begin_run(0, 20);
  run_steps(*b, half, 0, 20, forces);
  IntegratorState st = b->checkpoint_state();
  st.style = style;  // as restart_engine reads it from the checkpoint's deck
  if (style == "nose-hoover") {
    ASSERT_EQ(st.thermostat.size(), 6u);  // xi and v_xi of a chain of 3
    bool moved = false;
    for (double v : st.thermostat) moved = moved || v != 0.0;
    EXPECT_TRUE(moved);
  } else if (barostat) {
    EXPECT_FALSE(st.thermostat.empty());  // the cell's and the chains' state
  } else {
    EXPECT_TRUE(st.thermostat.empty());
  }
  EXPECT_EQ(st.rng_seed, has_seed ? 1234u : 0u);

  IntegratorSettings fresh = s;
  if (has_seed) fresh.keys.set_seed("seed", 777);  // the checkpoint's seed wins
  auto c = make_integrator<S>(fresh);
  c->attach_cell(&half_cell);
  c->restore_state(st);
  c->begin_run(20, 40);
  EXPECT_EQ(c->describe(), b->describe());
  run_steps(*c, half, 20, 20, forces);
  EXPECT_TRUE(same_bytes(host_positions(whole), host_positions(half)));
  EXPECT_TRUE(same_bytes(host_velocities(whole), host_velocities(half)));
  if (barostat) {
    EXPECT_EQ(whole_cell.lengths(), half_cell.lengths());
    EXPECT_NE(whole_cell.lengths()[0], 10.0);  // the box moved
  }
  EXPECT_EQ(c->thermostat_energy(), a->thermostat_energy());
}

TEST(IntegratorState, RoundTripContinuesBitForBit) {
  for (const auto& kind : integrator_kinds()) {
    check_round_trip<double>(kind.name);
    check_round_trip<float>(kind.name);
  }
}

TEST(IntegratorState, LangevinKeepsTheDeckSeedAfterAnotherIntegrator) {
  IntegratorSettings s = settings("langevin", 8);
  s.keys.set_seed("seed", 5);
  auto l = make_integrator<double>(s);
  IntegratorState from_nve;
  from_nve.style = "nve";
  from_nve.rng_seed = 0;
  l->restore_state(from_nve);
  EXPECT_EQ(l->checkpoint_state().rng_seed, 5u);
}

TEST(IntegratorState, NoseHooverRefusesAnotherChainLength) {
  IntegratorSettings s = settings("nose-hoover", 8);
  auto nh = make_integrator<double>(s);
  IntegratorState st;
  st.style = "nose-hoover";
  st.thermostat.assign(4, 0.0);  // a chain of 2
  EXPECT_THROW(nh->restore_state(st), Error);
}

// ---- physics ---------------------------------------------------------------------------------

// Velocity Verlet on x'' = -w^2 x from rest is exactly x_n = x_0 cos(n theta) with
// cos(theta) = 1 - (w dt)^2 / 2 (the position form of the recurrence), for each atom and type.
// The fused kick path (final_and_initial) must give the same bits as the separate kernels.
TEST(Physics, NveFollowsTheExactVerletRecurrence) {
  const std::int64_t n = 22;
  const std::vector<double> mass{1.0, 2.5}, spring{4.0, 1.0};
  IntegratorSettings s = settings("nve", n, mass);
  const TypeTable<double> k = mass_table<double>(spring);
  auto forces = [&](AtomArrays<double>& a) { tether_forces(a, k); };
  AtomArrays<double> a = make_atoms<double>(n, 0.5);
  const std::vector<double> x0 = host_positions(a);
  tether_forces(a, k);
  AtomArrays<double> fused = copy_of(a);
  const int steps = 2000;
  auto nve = make_integrator<double>(s);
  run_steps(*nve, a, 0, steps, forces);
  auto nve2 = make_integrator<double>(s);
  run_steps(*nve2, fused, 0, steps, forces, /*fuse=*/true);
  EXPECT_TRUE(same_bytes(host_positions(a), host_positions(fused)));
  EXPECT_TRUE(same_bytes(host_velocities(a), host_velocities(fused)));

  const std::vector<double> x = host_positions(a);
  double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double w = std::sqrt(spring[i % 2] / mass[i % 2]);
    const double theta = std::acos(1.0 - 0.5 * (w * s.dt) * (w * s.dt));
    for (int d = 0; d < 3; ++d) {
      const double exact = x0[3 * i + d] * std::cos(steps * theta);
      worst = std::max(worst, std::abs(x[3 * i + d] - exact) / 0.5);  // spread 0.5
    }
  }
  // Round-off over 2000 steps (the recurrence itself is exact).
  EXPECT_LT(worst, 1e-10);
}

// The velocity and force arrays' column-major components lie a multiple of 32 entries apart
// (vectors_layout: AtomArrays::allocate, and a migration's arrays over kept buffers,
// vectors_over): NVE over such arrays gives the same bytes as over contiguous ones, never writes
// the padding between components, and the host copies (vectors_to_host / vectors_from_host) go
// both ways.
TEST(Physics, NveOverPaddedComponentsMatchesContiguousArrays) {
  const std::int64_t n = 45, stride = 64;  // n off a multiple of 32, as after a migration
  const std::vector<double> mass{1.0, 2.5}, spring{4.0, 1.0};
  IntegratorSettings s = settings("nve", n, mass);
  const TypeTable<double> k = mass_table<double>(spring);
  auto forces = [&](AtomArrays<double>& a) { tether_forces(a, k); };
  AtomArrays<double> a = make_atoms<double>(n, 0.5, 2, 1.0, mass);
  tether_forces(a, k);
  using Layout = Kokkos::View<double* [3]>::array_layout;
  constexpr bool column_major = std::is_same_v<Layout, Kokkos::LayoutLeft>;
  if (column_major) {  // allocate() pads
    EXPECT_EQ(a.v.stride(1), std::size_t(stride));
    EXPECT_EQ(a.f.stride(1), std::size_t(stride));
  }
  // The reference: plain contiguous n x 3 arrays.
  AtomArrays<double> c = copy_of(a);
  c.v = Kokkos::View<double* [3]>("cv", n);
  c.f = Kokkos::View<double* [3]>("cf", n);
  ASSERT_TRUE(c.v.span_is_contiguous());
  Kokkos::deep_copy(c.v, a.v);
  Kokkos::deep_copy(c.f, a.f);
  // Padded arrays over buffers whose padding holds a sentinel.
  AtomArrays<double> p = copy_of(a);
  Kokkos::View<double*> vbuf("vbuf", 3 * stride), fbuf("fbuf", 3 * stride);
  Kokkos::deep_copy(vbuf, -7.0);
  Kokkos::deep_copy(fbuf, -7.0);
  p.v = vectors_over<double>(vbuf.data(), n, stride);
  p.f = vectors_over<double>(fbuf.data(), n, stride);
  if (column_major) {
    EXPECT_EQ(p.v.stride(1), std::size_t(stride));
    EXPECT_FALSE(p.v.span_is_contiguous());
  }
  Kokkos::deep_copy(p.v, a.v);
  Kokkos::deep_copy(p.f, a.f);
  run_steps(*make_integrator<double>(s), c, 0, 200, forces);
  run_steps(*make_integrator<double>(s), p, 0, 200, forces);
  EXPECT_TRUE(same_bytes(host_positions(c), host_positions(p)));
  EXPECT_TRUE(same_bytes(host_velocities(c), host_velocities(p)));
  // Host round trip through the padded force array.
  auto h = vectors_to_host<double>(p.f);
  for (std::int64_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) h(i, d) = double(100 * i + d);
  vectors_from_host<double>(p.f, h);
  auto back = vectors_to_host<double>(p.f);
  for (std::int64_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) EXPECT_EQ(back(i, d), double(100 * i + d));
  if (column_major) {  // the entries between the components were never written
    for (auto buf : {vbuf, fbuf}) {
      auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), buf);
      for (int d = 0; d < 3; ++d)
        for (std::int64_t i = n; i < stride; ++i)
          EXPECT_EQ(hb(d * stride + i), -7.0) << d << " " << i;
    }
  }
}

// Free particles under Langevin dynamics: <v^2> relaxes as T + (T0 - T) exp(-2 t / damp), and
// at equilibrium each type holds kT/2 per degree of freedom whatever its mass (equipartition).
// Tolerances: with 6,000 atoms one instantaneous temperature has a sampling error of
// sqrt(2/(3N)) = 1.1% (1.5% per type, averaged over 12 samples half a damping time apart); the
// discretisation of the drag adds O(dt/damp) = 2%.
TEST(Physics, LangevinRelaxesAtItsDampingRateToEquipartition) {
  const std::int64_t n = 6000;
  const std::vector<double> mass{1.0, 4.0};
  const double target = 1.5, damp = 0.25;
  IntegratorSettings s = settings("langevin", n, mass);
  s.keys.set_real("temperature", target);
  s.keys.set_real("damp", damp);
  auto lang = make_integrator<double>(s);
  AtomArrays<double> a = make_atoms<double>(n, 1.0);  // at rest: T0 = 0
  zero_forces(a);
  auto none = [](AtomArrays<double>& x) { zero_forces(x); };
  // One damping time: T (1 - e^-2).
  const int tau = static_cast<int>(std::lround(damp / s.dt));
  run_steps(*lang, a, 0, tau, none);
  auto by_type = twice_ke_by_type(a, mass);
  const double expect = target * (1.0 - std::exp(-2.0));
  EXPECT_NEAR((by_type[0] + by_type[1]) / (3.0 * n), expect, 0.04 * expect);
  // Equilibrium after three more, then the mean over six, per type.
  run_steps(*lang, a, tau, 3 * tau, none);
  std::vector<double> mean(2, 0.0);
  const int samples = 12;
  for (int k = 0; k < samples; ++k) {
    run_steps(*lang, a, 4 * tau + k * tau / 2, tau / 2, none);
    by_type = twice_ke_by_type(a, mass);
    for (int t = 0; t < 2; ++t) mean[t] += by_type[t] / (3.0 * n / 2) / samples;
  }
  for (int t = 0; t < 2; ++t)
    EXPECT_NEAR(mean[t], target, 0.03 * target) << "type " << t << " (mass " << mass[t] << ")";
}

// Nose-Hoover chain on tethered atoms of eight types (masses and stiffnesses spread, random
// phases: oscillators moving in step would make the thermostat non-ergodic). The extended
// energy (kinetic + potential + thermostat) is conserved to second order in dt: halving dt
// divides its largest deviation by about four. The time-averaged temperature is the target
// (sampling error of one temperature sqrt(2/(3N)) = 2.6%; the mean over 30 oscillation periods
// about 1%).
struct NoseHooverRun {
  double energy_error = 0;  // largest |H - H0| / |H0|
  double mean_temperature = 0;
};

NoseHooverRun run_nose_hoover(double dt, double target, double time) {
  const std::int64_t n = 1000;
  std::vector<double> mass, spring;
  for (int t = 0; t < kMaxTypes; ++t) {
    mass.push_back(1.0 + 0.2 * t);
    spring.push_back(1.0 + 0.45 * ((3 * t) % kMaxTypes));
  }
  IntegratorSettings s = settings("nose-hoover", n, mass);
  s.dt = dt;
  s.keys.set_real("temperature", target);
  s.keys.set_real("damp", 0.5);
  auto nh = make_integrator<double>(s);
  const TypeTable<double> k = mass_table<double>(spring);
  const TypeTable<double> m = mass_table<double>(mass);
  AtomArrays<double> a = make_atoms<double>(n, 0.3, kMaxTypes, 0.5 * target, mass);
  double pe = tether_forces(a, k);
  auto forces = [&](AtomArrays<double>& x) { pe = tether_forces(x, k); };
  auto energy = [&] { return 0.5 * twice_kinetic_energy(a, m) + pe + nh->thermostat_energy(); };
  const double h0 = energy();
  const int block = static_cast<int>(std::lround(0.05 / dt));  // samples every 0.05
  const int blocks = static_cast<int>(std::lround(time / 0.05));
  NoseHooverRun r;
  int samples = 0;
  for (int b = 0; b < blocks; ++b) {
    run_steps(*nh, a, std::int64_t(block) * b, block, forces);
    r.energy_error = std::max(r.energy_error, std::abs(energy() - h0) / std::abs(h0));
    if (b >= blocks / 4) {  // after a quarter of the run (5 thermostat times)
      r.mean_temperature += twice_kinetic_energy(a, m) / s.dof;
      ++samples;
    }
  }
  r.mean_temperature /= samples;
  return r;
}

TEST(Physics, NoseHooverConservesItsExtendedEnergyAndHoldsTheTarget) {
  const double target = 0.8;
  const NoseHooverRun coarse = run_nose_hoover(0.01, target, 20.0);
  const NoseHooverRun fine = run_nose_hoover(0.005, target, 20.0);
  RecordProperty("energy_error_dt_0.01", std::to_string(coarse.energy_error));
  RecordProperty("energy_error_dt_0.005", std::to_string(fine.energy_error));
  EXPECT_LT(fine.energy_error, 5e-4);
  const double order = std::log2(coarse.energy_error / fine.energy_error);
  EXPECT_NEAR(order, 2.0, 0.3) << coarse.energy_error << " " << fine.energy_error;
  EXPECT_NEAR(fine.mean_temperature, target, 0.03 * target);
  EXPECT_NEAR(coarse.mean_temperature, target, 0.03 * target);
}

}  // namespace
