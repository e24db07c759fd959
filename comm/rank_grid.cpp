#include "comm/rank_grid.hpp"

#include <fmt/format.h>

#include <limits>

#include "mdremap/error.hpp"

namespace mdremap::comm {

std::string RankGrid::text() const {
  return fmt::format("{}x{}x{}", p[0], p[1], p[2]);
}

std::string check_rank_grid(const RankGrid& grid, int nranks, const std::array<double, 3>& len,
                            double min_thickness) {
  for (int d = 0; d < 3; ++d)
    if (grid.p[d] < 1) return fmt::format("{} ranks along {}: at least 1", grid.p[d], "xyz"[d]);
  if (grid.count() != nranks)
    return fmt::format("grid {} has {} ranks, the run has {}", grid.text(), grid.count(), nranks);
  for (int d = 0; d < 3; ++d) {
    const double t = len[d] / grid.p[d];
    if (t < min_thickness)
      return fmt::format(
          "grid {} cuts the box ({:.6g} along {}) into sub-boxes {:.6g} thick, thinner than "
          "cutoff+skin = {:.6g}: use fewer ranks along {} or a larger box",
          grid.text(), len[d], "xyz"[d], t, min_thickness, "xyz"[d]);
  }
  return "";
}

RankGrid choose_rank_grid(int nranks, const std::array<double, 3>& len, double min_thickness,
                          const std::array<int, 3>& fixed) {
  if (nranks < 1) throw Error(fmt::format("{} ranks", nranks));
  RankGrid best;
  double best_surface = std::numeric_limits<double>::infinity();
  bool any = false;
  for (int px = 1; px <= nranks; ++px) {
    if (nranks % px || (fixed[0] > 0 && px != fixed[0])) continue;
    for (int py = 1; py <= nranks / px; ++py) {
      if ((nranks / px) % py || (fixed[1] > 0 && py != fixed[1])) continue;
      const int pz = nranks / px / py;
      if (fixed[2] > 0 && pz != fixed[2]) continue;
      const RankGrid g{{px, py, pz}};
      if (!check_rank_grid(g, nranks, len, min_thickness).empty()) continue;
      // Area of one sub-box's faces (LAMMPS procs2box): the ghost shell grows with it.
      const double a = len[0] / px, b = len[1] / py, c = len[2] / pz;
      const double surface = a * b + b * c + a * c;
      if (surface < best_surface * (1 - 1e-12)) {
        best = g;
        best_surface = surface;
        any = true;
      }
    }
  }
  if (!any)
    throw Error(fmt::format(
        "{} ranks cannot split the box ({:.6g} x {:.6g} x {:.6g}){} into sub-boxes at least "
        "cutoff+skin = {:.6g} thick: run on fewer ranks",
        nranks, len[0], len[1], len[2],
        fixed == std::array<int, 3>{0, 0, 0}
            ? ""
            : fmt::format(" with parallel.processors [{}, {}, {}]", fixed[0], fixed[1], fixed[2]),
        min_thickness));
  return best;
}

int rank_at(const RankGrid& g, const std::array<int, 3>& c) {
  return c[0] + g.p[0] * (c[1] + g.p[1] * c[2]);
}

SubDomain sub_domain(const RankGrid& g, int rank, const std::array<double, 3>& box_lo,
                     const std::array<double, 3>& box_len) {
  SubDomain s;
  s.coord = {rank % g.p[0], (rank / g.p[0]) % g.p[1], rank / (g.p[0] * g.p[1])};
  for (int d = 0; d < 3; ++d) {
    const int c = s.coord[d], p = g.p[d];
    s.lo[d] = box_lo[d] + box_len[d] * c / p;
    s.hi[d] = c + 1 == p ? box_lo[d] + box_len[d] : box_lo[d] + box_len[d] * (c + 1) / p;
    auto lo = s.coord, hi = s.coord;
    lo[d] = (c + p - 1) % p;
    hi[d] = (c + 1) % p;
    s.lo_rank[d] = rank_at(g, lo);
    s.hi_rank[d] = rank_at(g, hi);
  }
  return s;
}

}  // namespace mdremap::comm
