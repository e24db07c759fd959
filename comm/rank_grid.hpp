#pragma once
// The 3D grid of MPI ranks over the periodic box: chosen from the box shape as
// LAMMPS' `processors * * *` does (the factorisation whose sub-boxes have the least surface,
// so the fewest ghosts), or given by the deck (parallel.processors). Host arithmetic only: no
// MPI, no Kokkos, so the choice is tested anywhere.
#include <array>
#include <string>

namespace mdremap::comm {

struct RankGrid {
  std::array<int, 3> p{1, 1, 1};
  int count() const { return p[0] * p[1] * p[2]; }
  std::string text() const;  // "2x2x1"
};

// The problem with `grid` for `nranks` ranks over a box of edges `len`, or "": the product must
// be the rank count, and every sub-box at least `min_thickness` (cutoff + skin) thick, since a
// ghost shell is exchanged with the adjacent ranks only.
std::string check_rank_grid(const RankGrid& grid, int nranks, const std::array<double, 3>& len,
                            double min_thickness);

// The grid of `nranks` ranks with the least sub-box surface among those check_rank_grid
// accepts; `fixed[d]` > 0 pins the count along d (0: chosen). Ties go to the first in x-major
// order. Throws Error naming the problem when no grid fits.
RankGrid choose_rank_grid(int nranks, const std::array<double, 3>& len, double min_thickness,
                          const std::array<int, 3>& fixed = {0, 0, 0});

// One rank's place: its grid coordinates, the ranks across each face (periodic), its sub-box.
struct SubDomain {
  std::array<int, 3> coord{0, 0, 0};
  std::array<int, 3> lo_rank{0, 0, 0}, hi_rank{0, 0, 0};  // neighbour below / above along d
  std::array<double, 3> lo{0, 0, 0}, hi{0, 0, 0};
};
// Ranks are numbered x fastest: rank = cx + px (cy + py cz).
int rank_at(const RankGrid& grid, const std::array<int, 3>& coord);
SubDomain sub_domain(const RankGrid& grid, int rank, const std::array<double, 3>& box_lo,
                     const std::array<double, 3>& box_len);

}  // namespace mdremap::comm
