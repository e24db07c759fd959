#pragma once
// Building the initial system on the host: lattice or random gas (or a system file:
// md/system_file.hpp), atom types, velocities.
#include <cstdint>
#include <vector>

#include "md/params.hpp"

namespace mdremap::md {

struct HostSystem {
  std::vector<double> x, v;         // 3n each
  std::vector<std::int32_t> type;   // n
  std::vector<std::int64_t> id;     // n, the engine's ids 0..n-1
  std::vector<std::int32_t> image;  // 3n periodic image counts, or empty (all zero)
  double lo[3] = {0, 0, 0};
  double len[3] = {0, 0, 0};
  std::int64_t n() const { return static_cast<std::int64_t>(type.size()); }
};

// Positions, types and ids from the deck (lattice or random gas); shuffled order if asked.
HostSystem build_system(const MdParams& p);
// Gaussian velocities keyed by atom id (seeded, independent of atom order), zero total momentum,
// scaled exactly to `temperature` with 3N-3 degrees of freedom.
void create_velocities(HostSystem& s, const std::vector<double>& type_mass, double temperature,
                       std::uint64_t seed);
// Random permutation of the atom order (ids travel with their atoms).
void shuffle_atoms(HostSystem& s, std::uint64_t seed);

}  // namespace mdremap::md
