#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "integrators/integrator.hpp"
#include "io/checkpoint.hpp"
#include "md/simulation.hpp"
#include "md/system_file.hpp"

namespace mdremap::md {

namespace {

std::string checkpoint_integrator(const io::Checkpoint& c) {
  try {
    const YAML::Node deck = YAML::Load(c.deck_yaml);
    if (deck["integrator"] && deck["integrator"]["style"])
      return deck["integrator"]["style"].as<std::string>();
  } catch (const YAML::Exception&) {
  }
  return "nve";
}

}  // namespace

std::unique_ptr<MdEngine> create_engine(const MdParams& p) {
  HostSystem sys = p.file ? system_from_file(p) : build_system(p);
  std::vector<double> mass;
  for (const auto& t : p.types) mass.push_back(t.mass);
  if (!p.file_velocities) create_velocities(sys, mass, p.temperature, p.velocity_seed);
  if (p.shuffle) shuffle_atoms(sys, p.shuffle_seed);
  // A system file's frame goes on from its step (GSD and H5MD record one; else 0).
  return make_engine(p, sys, p.file ? p.file->step : 0);
}

void check_restart(const MdParams& deck, const io::Checkpoint& c, const std::string& path) {
  auto refuse = [&](const std::string& why) { return InputError(path, 0, why); };
  const Frame& fr = c.frame;
  if (static_cast<std::int64_t>(fr.n()) != deck.natoms())
    throw refuse(
        fmt::format("checkpoint holds {} atoms, the deck describes {}: restart with the "
                    "deck that wrote it",
                    fr.n(), deck.natoms()));
  if (c.precision != to_string(deck.precision))
    throw refuse(
        fmt::format("checkpoint was written in precision {}, the run asks for {}: "
                    "restart with --precision {}",
                    c.precision, to_string(deck.precision), c.precision));
  for (std::int32_t t : fr.type)
    if (t < 0 || t >= static_cast<std::int32_t>(deck.types.size()))
      throw refuse(fmt::format("checkpoint has atom type {}, the deck defines {} type(s)", t,
                               deck.types.size()));
  const double rlist = deck.pairs.max_cutoff() + deck.skin;
  for (int d = 0; d < 3; ++d)
    if (fr.box_len[d] < 2.0 * rlist)
      throw refuse(
          fmt::format("checkpoint box length {:.6g} along {} is smaller than "
                      "2*(cutoff+skin) = {:.6g}",
                      fr.box_len[d], "xyz"[d], 2.0 * rlist));
  if (fr.f.size() != fr.x.size()) throw refuse("checkpoint has no forces");
  if (!c.list_x.empty()) {
    if (c.list_x.size() != fr.x.size())
      throw refuse("checkpoint's list-build positions do not fit its atoms");
    for (int d = 0; d < 3; ++d)
      if (c.list_box_len[d] < 2.0 * rlist)
        throw refuse(
            fmt::format("checkpoint's list-build box length {:.6g} along {} is smaller than "
                        "2*(cutoff+skin) = {:.6g}",
                        c.list_box_len[d], "xyz"[d], 2.0 * rlist));
  }
  // The deck's integrator says what it keeps (host only: its constructor launches nothing).
  const std::size_t thermostat =
      integrators::make_integrator<double>(integrator_settings(deck, deck.natoms()))
          ->checkpoint_state()
          .thermostat.size();
  if (c.thermostat_state.size() != thermostat)
    throw refuse(fmt::format(
        "checkpoint does not fit the deck's integrator: it holds {} "
        "thermostat values ({}), {} keeps {}",
        c.thermostat_state.size(), checkpoint_integrator(c), deck.integrator.style(), thermostat));
}

namespace {
// The ids of a checkpoint's atoms are 0..N-1, each once (the engine indexes by them).
void check_ids(const Frame& fr, const std::string& path) {
  const std::size_t n = fr.n();
  std::vector<char> seen(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = fr.id[i];
    if (id < 0 || static_cast<std::size_t>(id) >= n || seen[id])
      throw InputError(
          path, 0,
          fmt::format("checkpoint atom ids are not 0..{} each once (atom {} has id {})", n - 1, i,
                      id));
    seen[id] = 1;
  }
}
}  // namespace

std::unique_ptr<MdEngine> restart_engine(const MdParams& deck, const io::Checkpoint& c,
                                         const std::string& path) {
  check_restart(deck, c, path);
  const Frame& fr = c.frame;
  const bool with_list = !c.list_x.empty();
  if (with_list || deck.exchange_ghosts) check_ids(fr, path);
  HostSystem s;
  // A checkpoint that kept its list's build: the engine is made from the build's positions
  // (a decomposed run's atoms go to the ranks those say, as that build's migration sent them)
  // and builds the list from them at setup; the checkpoint's positions come back after it.
  s.x = with_list ? c.list_x : fr.x;
  s.v = fr.v;
  s.type = fr.type;
  s.id = fr.id;
  s.image = fr.image;
  for (int d = 0; d < 3; ++d) s.lo[d] = fr.box_lo[d], s.len[d] = fr.box_len[d];
  auto engine = make_engine(deck, s, c.step);
  // With exchanged ghosts the atoms go to their ranks' sub-boxes: the forces travel by atom id
  // (ids are 0..N-1; a checkpoint written on any number of ranks restarts on any other).
  std::vector<double> by_id;
  auto by_atom_id = [&](const std::vector<double>& v) {
    std::vector<double> out(v.size());
    for (std::size_t i = 0; i < fr.n(); ++i)
      for (int d = 0; d < 3; ++d) out[3 * fr.id[i] + d] = v[3 * i + d];
    return out;
  };
  if (deck.exchange_ghosts) by_id = by_atom_id(fr.f);
  // The integrator takes back what it wrote (its thermostat values, its noise seed).
  integrators::IntegratorState state;
  state.style = checkpoint_integrator(c);
  state.thermostat = c.thermostat_state;
  state.rng_seed = c.rng_seed;
  engine->restore(deck.exchange_ghosts ? by_id : fr.f, state);
  if (with_list) {
    ListBuild build;
    for (int d = 0; d < 3; ++d)
      build.box_lo[d] = c.list_box_lo[d], build.box_len[d] = c.list_box_len[d];
    build.step = c.list_step;
    build.sort_step = c.sort_step;
    engine->restore_list(build, by_atom_id(fr.x));
  }
  return engine;
}

}  // namespace mdremap::md
