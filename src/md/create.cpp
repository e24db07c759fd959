#include "md/simulation.hpp"

namespace mdremap::md {

std::unique_ptr<MdEngine> create_engine(const MdParams& p) {
  HostSystem sys = build_system(p);
  std::vector<double> mass;
  for (const auto& t : p.types) mass.push_back(t.mass);
  create_velocities(sys, mass, p.temperature, p.velocity_seed);
  if (p.shuffle) shuffle_atoms(sys, p.shuffle_seed);
  return make_engine(p, sys);
}

}  // namespace mdremap::md
