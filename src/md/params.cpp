#include "md/params.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>

#include <Kokkos_Macros.hpp>
#include "comm/peer_window.hpp"
#include "comm/runtime.hpp"
#include "io/gsd_writer.hpp"
#include "io/h5md_writer.hpp"
#include "io/number.hpp"
#include "md/system_file.hpp"
#include "mdremap/thermo_columns.hpp"
#include "neighbor/cluster_list.hpp"

namespace mdremap::md {

double PairCoeffs::max_cutoff() const {
  return *std::max_element(cutoff.begin(), cutoff.end());
}

template <>
const std::vector<std::pair<std::string, Lattice>>& choice_names<Lattice>() {
  static const std::vector<std::pair<std::string, Lattice>> v = {{"fcc", Lattice::Fcc},
                                                                 {"bcc", Lattice::Bcc},
                                                                 {"sc", Lattice::Sc},
                                                                 {"random", Lattice::Random}};
  return v;
}
template <>
const std::vector<std::pair<std::string, MixingRule>>& choice_names<MixingRule>() {
  static const std::vector<std::pair<std::string, MixingRule>> v = {
      {"geometric", MixingRule::Geometric},
      {"arithmetic", MixingRule::Arithmetic},
      {"sixthpower", MixingRule::SixthPower}};
  return v;
}
const remap::RemapApp& remap_app() {
  static const remap::RemapApp app = [] {
    remap::RemapApp a;
    a.defaults.lanes_auto = true;
    a.defaults.plan_overlap = remap::Toggle::Auto;
    // Both of the L1's data pipes on CUDA (the 16-bit index reads through the read-only path,
    // the gather_path key's default with it).
#if defined(KOKKOS_ENABLE_CUDA)
    a.defaults.options.path = remap::GatherPath::Split;
#endif
    a.reorders = {remap::Reorder::None, remap::Reorder::Spatial, remap::Reorder::LabelProp,
                  remap::Reorder::Partition};
    a.mode_help = "Remap strategy for the force kernel's neighbour gathers";
    a.reorder_help = "Atom (thread) reordering";
    return a;
  }();
  return app;
}

namespace {

int basis_count(Lattice lattice) {
  switch (lattice) {
    case Lattice::Fcc:
      return 4;
    case Lattice::Bcc:
      return 2;
    case Lattice::Sc:
      return 1;
    case Lattice::Random:
      return 0;
  }
  return 0;
}

}  // namespace

integrators::IntegratorSettings integrator_settings(const MdParams& p, std::int64_t natoms) {
  integrators::IntegratorSettings s;
  s.style = p.integrator.style();
  s.dt = p.dt;
  s.keys = p.integrator.keys;
  s.dof = 3.0 * natoms - 3.0;
  for (const auto& t : p.types) s.type_mass.push_back(t.mass);
  return s;
}

std::int64_t MdParams::natoms() const {
  if (file) return static_cast<std::int64_t>(file->n());
  if (lattice == Lattice::Random) return random_atoms;
  return static_cast<std::int64_t>(basis_count(lattice)) * cells[0] * cells[1] * cells[2];
}

double MdParams::box_lo(int d) const {
  return file ? file->lo[d] : 0.0;
}

double MdParams::box_len(int d) const {
  if (file) return file->len[d];
  if (lattice == Lattice::Random) return std::cbrt(static_cast<double>(random_atoms) / density);
  // LAMMPS `lattice fcc rho`: the cubic cell holds basis_count atoms at reduced density rho.
  const double a = std::cbrt(basis_count(lattice) / density);
  return a * cells[d];
}

void mix(MixingRule rule, double ei, double si, double ci, double ej, double sj, double cj,
         double& eps, double& sig, double& cut) {
  if (rule == MixingRule::Geometric) {
    eps = std::sqrt(ei * ej);
    sig = std::sqrt(si * sj);
    cut = std::sqrt(ci * cj);
  } else if (rule == MixingRule::Arithmetic) {
    eps = std::sqrt(ei * ej);
    sig = 0.5 * (si + sj);
    cut = 0.5 * (ci + cj);
  } else {  // sixthpower
    const double s6 = std::pow(si, 6) + std::pow(sj, 6);
    eps = 2.0 * std::sqrt(ei * ej) * std::pow(si, 3) * std::pow(sj, 3) / s6;
    sig = std::pow(0.5 * s6, 1.0 / 6.0);
    cut = std::pow(0.5 * (std::pow(ci, 6) + std::pow(cj, 6)), 1.0 / 6.0);
  }
}

namespace {

void positive(io::DeckSection& s, const std::string& key, double v) {
  if (!(v > 0.0) || !std::isfinite(v)) s.fail(key, fmt::format("must be positive, got {}", v));
}

using io::one_of;

// A key whose values are an enum's names (`allowed`: a subset, default all), parsed once.
template <class E>
E one_of_choice(io::DeckSection& s, const std::string& key, E fallback,
                std::vector<std::string> allowed = {}) {
  if (allowed.empty())
    for (const auto& [name, v] : choice_names<E>()) allowed.push_back(name);
  const std::string v = one_of(s, key, to_string_choice(fallback), allowed);
  for (const auto& [name, e] : choice_names<E>())
    if (name == v) return e;
  s.fail(key, "unknown value '" + shown_value(v) + "'");
}

// The keys an integrator declares, read from its deck section (defaults recorded in the
// resolved deck) and checked against their bounds: the only keys `finish()` then accepts.
integrators::KeyValues read_declared_keys(io::DeckSection& s,
                                          const std::vector<integrators::KeySpec>& keys) {
  integrators::KeyValues v;
  for (const auto& k : keys) {
    if (k.required && !s.has(k.name)) s.fail(k.name, "is required");
    std::string problem;
    switch (k.kind) {
      case integrators::KeyKind::Real: {
        if (k.optional && !s.has(k.name)) break;  // unset: the integrator's own fallback
        const double x = s.get<double>(k.name, k.real_default);
        problem = k.check(x);
        v.set_real(k.name, x);
        break;
      }
      case integrators::KeyKind::Integer: {
        const int x = s.get<int>(k.name, static_cast<int>(k.integer_default));
        problem = k.check(x);
        v.set_integer(k.name, x);
        break;
      }
      case integrators::KeyKind::Seed:
        v.set_seed(k.name, s.get<unsigned long long>(k.name, k.seed_default));
        break;
      case integrators::KeyKind::Choice:
        v.set_choice(k.name, one_of(s, k.name, k.choices.front(), k.choices));
        break;
    }
    if (!problem.empty()) s.fail(k.name, problem);
  }
  return v;
}

// A neighbour-layer choice (neighbor/options.hpp), default auto: validated by name, then a type.
template <class E>
E neighbor_option(io::DeckSection& s, const std::string& key) {
  return neighbor::parse_option<E>(one_of(s, key, "auto", neighbor::option_names<E>()));
}

void read_system(io::DeckSection sys, MdParams& p) {
  const bool has_lattice = sys.has("lattice");
  const bool has_random = sys.has("random");
  const bool has_file = sys.has("file");
  if (has_lattice && has_random) sys.fail("random", "give either 'lattice' or 'random', not both");
  if (has_file && (has_lattice || has_random))
    sys.fail("file", fmt::format("give one of 'lattice', 'random' or 'file', not '{}' as well",
                                 has_lattice ? "lattice" : "random"));
  if (has_file) {
    read_system_file(sys, p);
  } else if (has_random) {
    auto r = sys.section("random");
    p.lattice = Lattice::Random;
    if (!r.has("atoms")) r.fail("atoms", "is required");
    p.random_atoms = r.ranged<long long>("atoms", 0, 2, kMaxAtoms);
    p.density = r.require<double>("density");
    positive(r, "density", p.density);
    p.min_distance = r.get<double>("min_distance", 0.0);
    if (p.min_distance < 0) r.fail("min_distance", "must not be negative");
    // Random sequential placement jams near a packing fraction of 0.38: beyond 0.3 the
    // rejection loop would run for a very long time before giving up.
    const double fraction = 3.14159265358979 / 6.0 * p.density * std::pow(p.min_distance, 3);
    if (fraction > 0.3)
      r.fail("min_distance",
             fmt::format("{} is too large for density {}: spheres of that diameter would fill "
                         "{:.3g} of the box (random placement jams near 0.38; at most 0.3)",
                         p.min_distance, p.density, fraction));
    p.system_seed = r.get<unsigned long long>("seed", p.system_seed);
    r.finish();
  } else {
    auto l = sys.section("lattice");
    p.lattice = one_of_choice(l, "style", Lattice::Fcc, {"fcc", "bcc", "sc"});
    p.density = l.get<double>("density", p.density);
    positive(l, "density", p.density);
    auto cells = l.get<std::vector<int>>("cells", {20, 20, 20});
    if (cells.size() != 3) l.fail("cells", "expected three repeat counts [nx, ny, nz]");
    double atoms = basis_count(p.lattice);
    for (int c : cells) {
      if (c < 1) l.fail("cells", "repeat counts must be at least 1");
      atoms *= c;
    }
    if (atoms > static_cast<double>(kMaxAtoms))
      l.fail("cells",
             fmt::format("{:.4g} atoms: at most {} atoms are supported", atoms, kMaxAtoms));
    p.cells = {cells[0], cells[1], cells[2]};
    l.finish();
  }
  auto types = sys.list("types");
  double total_fraction = 0;
  for (auto& t : types) {
    TypeSpec ts;
    ts.name = t.require<std::string>("name");
    ts.mass_given = t.has("mass");
    ts.mass = t.get<double>("mass", 1.0);
    positive(t, "mass", ts.mass);
    ts.epsilon = t.get<double>("epsilon", 1.0);
    if (ts.epsilon < 0) t.fail("epsilon", "must not be negative");
    ts.sigma = t.get<double>("sigma", 1.0);
    positive(t, "sigma", ts.sigma);
    ts.cutoff = t.get<double>("cutoff", 0.0);
    if (ts.cutoff < 0) t.fail("cutoff", "must not be negative");
    // A file gives each atom its type: fractions describe generated systems only.
    if (has_file && t.has("fraction"))
      t.fail("fraction",
             "applies to lattices and random gases: system.file gives every atom "
             "its type");
    if (!has_file) {
      ts.fraction = t.get<double>("fraction", types.size() == 1 ? 1.0 : 1.0 / types.size());
      if (ts.fraction < 0) t.fail("fraction", "must not be negative");
      total_fraction += ts.fraction;
    }
    for (const auto& other : p.types)
      if (other.name == ts.name) t.fail("name", "duplicate type name '" + ts.name + "'");
    t.finish();
    p.types.push_back(ts);
  }
  if (has_file) {
    map_file_types(sys, p);
  } else if (p.types.empty()) {
    p.types.push_back(TypeSpec{"A"});
  }
  if (p.types.size() > 8) sys.fail("types", "at most 8 atom types are supported");
  if (!has_file && !types.empty() && std::abs(total_fraction - 1.0) > 1e-9)
    sys.fail("types", fmt::format("type fractions must add up to 1, got {}", total_fraction));
  if (has_file && sys.has("type_seed"))
    sys.fail("type_seed",
             "places types on generated systems: system.file gives every atom its "
             "type");
  if (!has_file) p.type_seed = sys.get<unsigned long long>("type_seed", p.type_seed);
  p.shuffle = sys.get<bool>("shuffle", false);
  p.shuffle_seed = sys.get<unsigned long long>("shuffle_seed", p.shuffle_seed);
  sys.finish();
}

int type_index(const MdParams& p, io::DeckSection& s, const std::string& name) {
  for (size_t i = 0; i < p.types.size(); ++i)
    if (p.types[i].name == name) return static_cast<int>(i);
  std::vector<std::string> names;
  for (const auto& t : p.types) names.push_back(t.name);
  std::string msg = "unknown atom type '" + name + "'";
  const auto near = io::nearest(name, names);
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  s.fail("types", msg);
}

void read_potential(io::DeckSection pot, MdParams& p) {
  p.potential = one_of(pot, "style", "lj", pair_styles());
  // wca cuts each type pair at 2^(1/6) sigma, shifted, with nothing beyond: keys that say
  // otherwise are refused, not ignored.
  const bool wca = p.potential == "wca";
  if (wca && pot.has("cutoff"))
    pot.fail("cutoff", "style wca cuts each type pair at 2^(1/6) sigma: remove the cutoff");
  for (const auto& t : p.types)
    if (wca && t.cutoff > 0)
      pot.fail("style", "style wca cuts each type pair at 2^(1/6) sigma: remove system.types[" +
                            t.name + "].cutoff");
  if (!wca) {
    p.cutoff = pot.get<double>("cutoff", p.cutoff);
    positive(pot, "cutoff", p.cutoff);
  }
  p.shift = pot.get<bool>("shift", wca);
  if (wca && !p.shift) pot.fail("shift", "style wca is shifted to zero energy at its cut-off");
  p.tail = pot.get<bool>("tail", false);
  if (wca && p.tail)
    pot.fail("tail", "style wca is zero beyond its cut-off: there is no tail correction");
  p.mixing = one_of_choice(pot, "mixing", MixingRule::Geometric);
  const int nt = static_cast<int>(p.types.size());
  PairCoeffs& pc = p.pairs;
  pc.ntypes = nt;
  pc.epsilon.assign(nt * nt, 0);
  pc.sigma.assign(nt * nt, 0);
  pc.cutoff.assign(nt * nt, 0);
  for (int a = 0; a < nt; ++a)
    for (int b = 0; b < nt; ++b) {
      const auto& ta = p.types[a];
      const auto& tb = p.types[b];
      double e, s, c;
      mix(p.mixing, ta.epsilon, ta.sigma, ta.cutoff > 0 ? ta.cutoff : p.cutoff, tb.epsilon,
          tb.sigma, tb.cutoff > 0 ? tb.cutoff : p.cutoff, e, s, c);
      pc.epsilon[a * nt + b] = e;
      pc.sigma[a * nt + b] = s;
      pc.cutoff[a * nt + b] = wca ? wca_cutoff(s) : c;
    }
  // Each type pair once: a second entry would silently replace the first.
  std::map<std::pair<int, int>, std::pair<std::size_t, int>> given;  // pair -> (entry, line)
  auto entries = pot.list("pairs");
  for (std::size_t k = 0; k < entries.size(); ++k) {
    auto& e = entries[k];
    auto names = e.require<std::vector<std::string>>("types");
    if (names.size() != 2) e.fail("types", "expected two type names [A, B]");
    const int a = type_index(p, e, names[0]);
    const int b = type_index(p, e, names[1]);
    const auto [first, fresh] =
        given.emplace(std::minmax(a, b), std::pair{k, e.line_of_key("types")});
    if (!fresh) {
      const int line = first->second.second;
      e.fail("types", fmt::format("the pair {} {} is given twice: potential.pairs[{}]{} gives it "
                                  "too; give each pair once",
                                  names[0], names[1], first->second.first,
                                  line > 0 ? fmt::format(" (line {})", line) : ""));
    }
    const double eps = e.get<double>("epsilon", pc.epsilon[a * nt + b]);
    if (wca && e.has("cutoff"))
      e.fail("cutoff", "style wca cuts each type pair at 2^(1/6) sigma: remove the cutoff");
    const double sig = e.get<double>("sigma", pc.sigma[a * nt + b]);
    const double cut = wca ? wca_cutoff(sig) : e.get<double>("cutoff", pc.cutoff[a * nt + b]);
    if (eps < 0) e.fail("epsilon", "must not be negative");
    positive(e, "sigma", sig);
    positive(e, "cutoff", cut);
    for (auto [i, j] : {std::pair{a, b}, std::pair{b, a}}) {
      pc.epsilon[i * nt + j] = eps;
      pc.sigma[i * nt + j] = sig;
      pc.cutoff[i * nt + j] = cut;
    }
    e.finish();
  }
  // Coefficients that overflow make every force infinite: a deck error, not a run that blows up.
  for (int a = 0; a < nt; ++a)
    for (int b = a; b < nt; ++b) {
      const double eps = pc.epsilon[a * nt + b], sig = pc.sigma[a * nt + b];
      const double s6 = std::pow(sig, 6), rc = pc.cutoff[a * nt + b];
      if (!std::isfinite(48.0 * eps * s6 * s6) || !std::isfinite(rc * rc) || !(rc > 0))
        pot.fail("pairs", fmt::format("LJ coefficients of types {} and {} overflow (epsilon {}, "
                                      "sigma {}, cutoff {})",
                                      p.types[a].name, p.types[b].name, eps, sig, rc));
    }
  pot.finish();
}

// The rank grid: parallel.processors as given (0 along an axis: chosen there), else the grid of
// least sub-box surface (LAMMPS `processors * * *`); every sub-box at least cutoff + skin thick.
void read_parallel(io::DeckSection par, MdParams& p) {
  const auto procs = par.get<std::vector<int>>("processors", {0, 0, 0});
  if (procs.size() != 3) par.fail("processors", "expected three rank counts [px, py, pz]");
  for (int d = 0; d < 3; ++d) {
    if (procs[d] < 0)
      par.fail("processors", "rank counts must be at least 1 (or 0: chosen along that axis)");
    p.processors[d] = procs[d];
  }
  const std::string ghosts = io::one_of(par, "ghosts", "auto", {"auto", "exchange"});
  p.exchange_ghosts = p.ranks > 1 || ghosts == "exchange";
  const std::string transfer = io::one_of(par, "transfer", "auto", {"auto", "host", "peer"});
  p.transfer = transfer == "host"   ? comm::Transfer::Host
               : transfer == "peer" ? comm::Transfer::Peer
                                    : comm::Transfer::Auto;
  if (p.transfer == comm::Transfer::Peer && !comm::PeerWindow::available())
    par.fail("transfer",
             "peer writes into the other ranks' GPU memory (CUDA IPC): this is not a "
             "CUDA build (use auto or host)");
  p.overlap = io::one_of(par, "overlap", "auto", {"auto", "on", "off"});
  if (p.overlap == "on" && !p.exchange_ghosts)
    par.fail("overlap",
             "on overlaps the ghosts' exchange with forces: this run of one rank has no exchange "
             "(more MPI ranks, or parallel.ghosts=exchange)");
  if (p.exchange_ghosts && p.list == neighbor::ListKind::Half)
    par.fail("ghosts",
             "exchanged ghosts are read through full lists: neighbor.list=half cannot "
             "use them (use full or auto)");
  if (p.exchange_ghosts && p.list == neighbor::ListKind::Cluster)
    par.fail("ghosts",
             "exchanged ghosts are read through the plain full list: neighbor.list=cluster "
             "cannot use them yet (use full or auto)");
  const double rlist = p.pairs.max_cutoff() + p.skin;
  const std::array<double, 3> len{p.box_len(0), p.box_len(1), p.box_len(2)};
  if (p.processors[0] > 0 && p.processors[1] > 0 && p.processors[2] > 0) {
    p.grid.p = p.processors;
    const std::string problem = comm::check_rank_grid(p.grid, p.ranks, len, rlist);
    if (!problem.empty()) par.fail("processors", problem);
  } else {
    try {
      p.grid = comm::choose_rank_grid(p.ranks, len, rlist, p.processors);
    } catch (const InputError&) {
      throw;
    } catch (const Error& e) {
      par.fail("processors", e.what());
    }
  }
  par.finish();
}

void read_output(io::DeckSection out, io::DeckSection restart, MdParams& p) {
  p.thermo_csv = out.get<std::string>("thermo_csv", "");
  auto h5 = out.section("h5md");
  p.h5md_file = h5.get<std::string>("file", "");
  p.h5md_every = h5.get<int>("every", p.h5md_every);
  if (p.h5md_every < 1) h5.fail("every", "must be at least 1");
  p.h5md_fields = h5.get<std::vector<std::string>>("fields", p.h5md_fields);
  io::H5mdFields fields;
  try {
    fields = io::H5mdFields::from_names(p.h5md_fields);
  } catch (const Error& e) {
    h5.fail("fields", e.what());
  }
  // An empty list writes nothing per atom, which the writer cannot open: refused here.
  if (!(fields.position || fields.velocity || fields.force || fields.species || fields.id ||
        fields.image || fields.potential_energy))
    h5.fail("fields",
            "selects no trajectory field (one or more of: position velocity force "
            "species id image potential_energy)");
  p.h5md_topology = h5.get<std::string>("topology", "");
  if (!p.h5md_topology.empty() && p.h5md_file.empty())
    h5.fail("topology", "is the topology of output.h5md.file, which is not set");
  h5.finish();
  auto gsd = out.section("gsd");
  p.gsd_file = gsd.get<std::string>("file", "");
  p.gsd_every = gsd.get<int>("every", p.gsd_every);
  if (p.gsd_every < 1) gsd.fail("every", "must be at least 1");
  p.gsd_fields = gsd.get<std::vector<std::string>>("fields", p.gsd_fields);
  try {
    io::GsdFields::from_names(p.gsd_fields);
  } catch (const Error& e) {
    gsd.fail("fields", e.what());
  }
  gsd.finish();
  auto vtk = out.section("vtk");
  p.vtk_dir = vtk.get<std::string>("dir", "");
  p.vtk_every = vtk.get<int>("every", p.vtk_every);
  if (p.vtk_every < 1) vtk.fail("every", "must be at least 1");
  if (!MDREMAP_HAS_VTK && !p.vtk_dir.empty())
    vtk.fail("dir",
             "this mdremap was built without VTK (MDREMAP_WITH_VTK=OFF): use output.h5md, "
             "or rebuild with VTK");
  vtk.finish();
  out.finish();
  p.restart_file = restart.get<std::string>("file", "");
  p.restart_every = restart.get<long long>("every", p.restart_every);
  if (p.restart_every < 0) restart.fail("every", "must not be negative (0: only at the end)");
  p.output_images = io::H5mdFields::from_names(p.h5md_fields).image || !p.gsd_file.empty() ||
                    !p.h5md_topology.empty() || !p.restart_file.empty();

  restart.finish();
}

}  // namespace

[[noreturn]] static void nb_fail(io::Deck& deck, const std::string& key, const std::string& msg) {
  throw InputError(deck.file(), 0, key + ": " + msg);
}

// Every box edge at least twice the list cut-off (an atom meets one image of each neighbour);
// checked before the rank grid, which a box this small fails on any number of ranks.
void check_box_fits(const io::Deck& deck, const MdParams& p) {
  const double rlist = p.pairs.max_cutoff() + p.skin;
  for (int d = 0; d < 3; ++d) {
    const double L = p.box_len(d);
    if (L < 2.0 * rlist && p.file)
      throw p.file->at_box(fmt::format("box length {:.6g} along {} is smaller than "
                                       "2*(cutoff+skin) = {:.6g}: the deck's cut-off needs a "
                                       "larger box",
                                       L, "xyz"[d], 2.0 * rlist),
                           d);
    if (L < 2.0 * rlist)
      throw InputError(deck.file(), 0,
                       fmt::format("box length {:.6g} along {} is smaller than 2*(cutoff+skin) = "
                                   "{:.6g}: the box is too small for cutoff+skin, with a cutoff "
                                   "larger than half the box; use more cells",
                                   L, "xyz"[d], 2.0 * rlist));
  }
}

MdParams read_md_params(io::Deck& deck) {
  MdParams p;
  p.ranks = comm::size();
  auto root = deck.root();
  read_system(root.section("system"), p);
  read_potential(root.section("potential"), p);

  auto vel = root.section("velocity");
  // Velocities from a system file are not drawn: a temperature to draw them at contradicts.
  if (p.file_velocities && vel.has("temperature"))
    vel.fail("temperature", fmt::format("the velocities come from {} (system.velocities: auto); "
                                        "set system.velocities: draw to draw them at this "
                                        "temperature",
                                        p.system_file));
  p.temperature = vel.get<double>("temperature", p.temperature);
  if (p.temperature < 0) vel.fail("temperature", "must not be negative");
  p.velocity_seed = vel.get<unsigned long long>("seed", p.velocity_seed);
  vel.finish();

  // The style through the integrators' registry; then the keys that style declares.
  auto in = root.section("integrator");
  p.integrator.kind =
      &integrators::find_integrator(one_of(in, "style", "nve", integrators::integrator_names()));
  p.dt = in.get<double>("dt", p.dt);
  positive(in, "dt", p.dt);
  p.integrator.keys = read_declared_keys(in, p.integrator.kind->keys);
  in.finish();

  auto nb = root.section("neighbor");
  p.skin = nb.get<double>("skin", p.skin);
  if (p.skin < 0) nb.fail("skin", "must not be negative");
  p.every = nb.get<int>("every", p.every);
  if (p.every < 1) nb.fail("every", "must be at least 1");
  p.check = nb.get<bool>("check", p.check);
  p.list = neighbor_option<neighbor::ListKind>(nb, "list");
  p.cluster_size = nb.get<int>("cluster_size", 0);
  if (p.cluster_size != 0 && !neighbor::valid_cluster_size(p.cluster_size))
    nb.fail("cluster_size",
            "must be 4, 8 or 16 (atoms per cluster), or 0 for the device's default");
  if (p.cluster_size != 0 && p.list != neighbor::ListKind::Cluster)
    nb.fail("cluster_size", "applies to neighbor.list=cluster only");
  p.cluster_newton = nb.get<bool>("cluster_newton", false);
  if (p.cluster_newton && p.list != neighbor::ListKind::Cluster)
    nb.fail("cluster_newton", "applies to neighbor.list=cluster only");
  if (p.list == neighbor::ListKind::Half && p.ranks > 1)
    nb.fail("list",
            fmt::format("a half list needs the ghosts' forces sent back to their ranks, which "
                        "this run of {} MPI ranks does not do: use full (or auto)",
                        p.ranks));
  if (p.list == neighbor::ListKind::Cluster && p.ranks > 1)
    nb.fail("list", fmt::format("the cluster-pair list is not yet built over the ghosts of {} MPI "
                                "ranks: use full (or auto)",
                                p.ranks));
  p.layout = neighbor_option<neighbor::ListLayout>(nb, "layout");
  p.bin_size = nb.get<double>("bin_size", 0.0);
  p.sort = neighbor_option<neighbor::AtomSort>(nb, "sort");
  p.sort_every = nb.get<int>("sort_every", 0);
  if (p.sort_every < 0) nb.fail("sort_every", "must not be negative");
  p.row_order = neighbor::parse_option<neighbor::RowOrder>(
      one_of(nb, "row_order", "cells", neighbor::option_names<neighbor::RowOrder>()));
  if (p.list == neighbor::ListKind::Cluster && p.row_order == neighbor::RowOrder::Id)
    nb.fail("row_order", "orders the rows of the plain lists; the cluster-pair list has its own");
  nb.finish();
  check_box_fits(deck, p);
  read_parallel(root.section("parallel"), p);
  // A barostat changes the box; the ranks' sub-boxes are fixed at the start.
  if (p.exchange_ghosts && (p.integrator.style() == "npt" || p.integrator.style() == "c-rescale"))
    root.section("integrator")
        .fail("style",
              p.integrator.style() +
                  " changes the box, which the MPI ranks' fixed sub-boxes do not follow: run it "
                  "on one process (without mpirun and parallel.ghosts)");
  // Read only where the deck has the section: its defaults in the resolved deck would say that
  // the run minimises.
  if (root.has("minimize")) {
    auto mn = root.section("minimize");
    p.minimize = read_minimize(mn);
    if (p.exchange_ghosts)
      mn.fail("style",
              "minimisation runs on one process without the ranks' ghost exchange (its "
              "per-atom vectors do not migrate between MPI ranks): minimise without "
              "mpirun and parallel.ghosts, then start the ranks from its output");
  }

  auto run = root.section("run");
  p.steps = run.ranged<long long>("steps", p.steps, 0, kMaxSteps);
  p.thermo = run.get<int>("thermo", p.thermo);
  if (p.thermo < 0) run.fail("thermo", "must not be negative");
  p.thermo_columns = run.get<std::vector<std::string>>("thermo_columns", p.thermo_columns);
  for (const auto& c : p.thermo_columns) {
    try {
      find_thermo_column(c);
    } catch (const Error& e) {
      run.fail("thermo_columns", e.what());
    }
  }
  const std::string prec = one_of(run, "precision", "double", {"double", "mixed", "single"});
  p.precision = prec == "double"  ? Precision::Double
                : prec == "mixed" ? Precision::Mixed
                                  : Precision::Single;
  run.finish();

  auto out = root.section("output");
  read_output(out, root.section("restart"), p);

  ComputeLimits lim;
  lim.cutoff = p.pairs.max_cutoff();
  lim.min_box = std::min({p.box_len(0), p.box_len(1), p.box_len(2)});
  lim.volume = p.box_len(0) * p.box_len(1) * p.box_len(2);
  lim.atoms = p.natoms();
  lim.one_process = !p.exchange_ghosts;
  lim.msd_column = thermo_columns_need_msd(p.thermo_columns);
  lim.max_steps = kMaxSteps;
  p.computes = read_computes(root, lim);

  auto rm = root.section("remap");
  p.remap = remap::read_remap(rm, remap_app());
  const remap::RemapSettings& r = p.remap;
  if (p.overlap == "on" && !r.mode.runs_selections())
    rm.fail("mode", fmt::format("parallel.overlap=on runs part of the forces before the ghosts "
                                "arrive, which only gather does ({} runs them all at once): use "
                                "gather, or parallel.overlap auto or off",
                                r.mode.name()));
  // The 16-bit index (the gather's, remap/delta_index.hpp) is decoded in list order by the full
  // list's one-thread-per-atom walk; lanes split that walk.
  if (r.options.index_bits == 16) {
    if (p.list != neighbor::ListKind::Full && p.list != neighbor::ListKind::Auto)
      nb_fail(deck, "neighbor.list",
              "remap.index_bits=16 needs neighbor.list=full (the full list's walk decodes it)");
    p.list = neighbor::ListKind::Full;
  }
  if (r.options.lanes > 1) {
    if (p.list != neighbor::ListKind::Full && p.list != neighbor::ListKind::Auto)
      nb_fail(deck, "neighbor.list",
              fmt::format("remap.lanes={} needs neighbor.list=full (the full list's walk splits)",
                          r.options.lanes));
    p.list = neighbor::ListKind::Full;
  }
  // The cluster list's force engine reads its own cluster-ordered positions (the sharing the
  // strategies build for the plain list); the pattern-based reorders need the plain list.
  if (p.list == neighbor::ListKind::Cluster) {
    if (!r.mode.is_gather())
      nb_fail(deck, "neighbor.list",
              fmt::format("cluster (its force engine reads cluster-ordered positions) needs "
                          "remap.mode=gather, not '{}'",
                          r.mode.name()));
    if (remap::reorder_info(r.reorder).from_pattern)
      nb_fail(deck, "neighbor.list",
              fmt::format("cluster needs remap.reorder none or spatial ('{}' permutes atoms from "
                          "the plain list's pattern)",
                          remap::to_string(r.reorder)));
    if (p.layout != neighbor::ListLayout::Auto)
      nb_fail(deck, "neighbor.layout",
              "cluster lists have one layout (rows of j-clusters per i-cluster): leave "
              "neighbor.layout unset");
  }
  // The strategies serve the papers' layout: a full list read column-major, one thread per atom.
  if (!r.mode.is_gather()) {
    const std::string why =
        fmt::format("remap mode '{}' (gather path '{}') needs", r.mode.name(),
                    r.path_auto ? "auto" : remap::gather_path_name(r.options.path));
    if (p.list == neighbor::ListKind::Half)
      nb_fail(deck, "neighbor.list",
              why + " neighbor.list=full (one thread per atom, seed 000 §6.3.3)");
    if (p.layout == neighbor::ListLayout::Row)
      nb_fail(deck, "neighbor.layout",
              why + " neighbor.layout=column (neighbors[j*N+i], seed 000 eq. 2)");
    p.list = neighbor::ListKind::Full;
    p.layout = neighbor::ListLayout::Column;
  }
  rm.finish();
  root.finish();

  // Minimum image needs every pair within the list cutoff to have exactly one image.
  const double rlist = p.pairs.max_cutoff() + p.skin;
  if (p.bin_size != 0 && (p.bin_size < rlist / 3 || p.bin_size > rlist))
    throw InputError(
        deck.file(), 0,
        fmt::format("'neighbor.bin_size' {} must be 0 (auto) or between (cutoff+skin)/3 "
                    "= {:.4g} and cutoff+skin = {:.4g}",
                    p.bin_size, rlist / 3, rlist));
  // The list's cell grid (as VerletListBuilder::bin lays it out) must fit 32-bit cell indices
  // and memory: a very dilute box would ask for billions of cells.
  double bin = p.bin_size > 0 ? p.bin_size : rlist;
  if (p.list == neighbor::ListKind::Cluster) {
    // The cluster grid's cells are about a cluster's cube (neighbor/cluster_grid.hpp); 4 atoms
    // when the size is the device's (the smallest default).
    const double rho = double(p.natoms()) / (p.box_len(0) * p.box_len(1) * p.box_len(2));
    bin = std::max(std::cbrt((p.cluster_size > 0 ? p.cluster_size : 4) / rho), rlist / 4);
  }
  double cells = 1;
  for (int d = 0; d < 3; ++d) {
    const double L = p.box_len(d);
    const double m = std::max(1.0, std::floor(L / bin));
    cells *= m + 2.0 * std::ceil(rlist / (L / m));
  }
  if (!(cells <= double(kMaxListCells)))
    throw InputError(deck.file(), 0,
                     fmt::format("the box ({:.6g} x {:.6g} x {:.6g}) would need {:.3g} neighbour-"
                                 "list cells (at most {}): the system is too dilute; raise the "
                                 "density",
                                 p.box_len(0), p.box_len(1), p.box_len(2), cells, kMaxListCells));
  // An impossible atom count is refused here, not met with std::bad_alloc after minutes.
  const double host_bytes = static_cast<double>(::sysconf(_SC_PHYS_PAGES)) *
                            static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  const double need = static_cast<double>(p.natoms()) * kMinHostBytesPerAtom;
  if (host_bytes > 0 && need > host_bytes)
    throw InputError(deck.file(), 0,
                     fmt::format("{} atoms need at least {:.3g} GB of host memory ({} bytes per "
                                 "atom for the initial state alone); this machine has {:.3g} GB",
                                 p.natoms(), need / 1e9, kMinHostBytesPerAtom, host_bytes / 1e9));
  return p;
}

}  // namespace mdremap::md
