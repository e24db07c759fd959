#include "md/system.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <unordered_map>

#include "mdremap/error.hpp"
#include "mdremap/rng.hpp"

namespace mdremap::md {

namespace {

void lattice_positions(const MdParams& p, HostSystem& s) {
  static const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
  static const double bcc[2][3] = {{0, 0, 0}, {0.5, 0.5, 0.5}};
  static const double sc[1][3] = {{0, 0, 0}};
  const double(*basis)[3] = p.lattice == Lattice::Fcc ? fcc : p.lattice == Lattice::Bcc ? bcc : sc;
  const int nb = p.lattice == Lattice::Fcc ? 4 : p.lattice == Lattice::Bcc ? 2 : 1;
  const double a = s.len[0] / p.cells[0];
  const std::int64_t n = p.natoms();
  s.x.resize(3 * n);
  std::int64_t k = 0;
  // Same loop nest as LAMMPS create_atoms (z outermost, basis innermost): lattice order is
  // spatially local, like a freshly created LAMMPS system.
  for (int iz = 0; iz < p.cells[2]; ++iz)
    for (int iy = 0; iy < p.cells[1]; ++iy)
      for (int ix = 0; ix < p.cells[0]; ++ix)
        for (int b = 0; b < nb; ++b, ++k) {
          s.x[3 * k + 0] = (ix + basis[b][0]) * a;
          s.x[3 * k + 1] = (iy + basis[b][1]) * a;
          s.x[3 * k + 2] = (iz + basis[b][2]) * a;
        }
}

void random_positions(const MdParams& p, HostSystem& s) {
  const std::int64_t n = p.random_atoms;
  s.x.resize(3 * n);
  std::mt19937_64 gen(p.system_seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double dmin = p.min_distance;
  if (dmin <= 0) {
    for (std::int64_t i = 0; i < 3 * n; ++i) s.x[i] = u(gen) * s.len[i % 3];
    return;
  }
  // Rejection sampling on a cell grid of size >= dmin: each trial checks 27 cells.
  int nc[3];
  for (int d = 0; d < 3; ++d) nc[d] = std::max(1, static_cast<int>(s.len[d] / dmin));
  std::unordered_multimap<std::int64_t, std::int64_t> grid;
  auto cell = [&](const double* r, int* c) {
    for (int d = 0; d < 3; ++d)
      c[d] = std::min(nc[d] - 1, static_cast<int>(r[d] / s.len[d] * nc[d]));
  };
  const double d2 = dmin * dmin;
  const std::int64_t max_trials = 1000 * n + 1000000;
  std::int64_t trials = 0;
  for (std::int64_t i = 0; i < n;) {
    if (++trials > max_trials)
      throw Error(
          fmt::format("random gas: could not place {} atoms at min_distance {} and density "
                      "{} (placed {}); lower min_distance or density",
                      n, dmin, p.density, i));
    double r[3] = {u(gen) * s.len[0], u(gen) * s.len[1], u(gen) * s.len[2]};
    int c[3];
    cell(r, c);
    bool ok = true;
    for (int dz = -1; dz <= 1 && ok; ++dz)
      for (int dy = -1; dy <= 1 && ok; ++dy)
        for (int dx = -1; dx <= 1 && ok; ++dx) {
          const std::int64_t key =
              ((c[0] + dx + nc[0]) % nc[0]) +
              nc[0] * (((c[1] + dy + nc[1]) % nc[1]) +
                       static_cast<std::int64_t>(nc[1]) * ((c[2] + dz + nc[2]) % nc[2]));
          auto range = grid.equal_range(key);
          for (auto it = range.first; it != range.second && ok; ++it) {
            double q[3];
            for (int d = 0; d < 3; ++d) {
              q[d] = r[d] - s.x[3 * it->second + d];
              q[d] -= s.len[d] * std::rint(q[d] / s.len[d]);
            }
            if (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] < d2) ok = false;
          }
        }
    if (!ok) continue;
    for (int d = 0; d < 3; ++d) s.x[3 * i + d] = r[d];
    grid.emplace(c[0] + nc[0] * (c[1] + static_cast<std::int64_t>(nc[1]) * c[2]), i);
    ++i;
  }
}

}  // namespace

HostSystem build_system(const MdParams& p) {
  HostSystem s;
  for (int d = 0; d < 3; ++d) s.len[d] = p.box_len(d);
  if (p.lattice == Lattice::Random)
    random_positions(p, s);
  else
    lattice_positions(p, s);
  const std::int64_t n = static_cast<std::int64_t>(s.x.size() / 3);
  s.id.resize(n);
  std::iota(s.id.begin(), s.id.end(), std::int64_t{0});
  // Exact type counts from the fractions (largest remainders), then a seeded random placement.
  const int nt = static_cast<int>(p.types.size());
  std::vector<std::int64_t> count(nt);
  std::int64_t assigned = 0;
  std::vector<std::pair<double, int>> rem;
  for (int t = 0; t < nt; ++t) {
    const double want = p.types[t].fraction * n;
    count[t] = static_cast<std::int64_t>(std::floor(want));
    assigned += count[t];
    rem.push_back({want - count[t], t});
  }
  std::sort(rem.begin(), rem.end(), [](auto a, auto b) { return a.first > b.first; });
  for (std::int64_t k = 0; assigned < n; ++k, ++assigned) ++count[rem[k % nt].second];
  s.type.resize(n);
  std::int64_t k = 0;
  for (int t = 0; t < nt; ++t)
    for (std::int64_t c = 0; c < count[t]; ++c) s.type[k++] = t;
  if (nt > 1) std::shuffle(s.type.begin(), s.type.end(), std::mt19937_64(p.type_seed));
  s.v.assign(3 * n, 0.0);
  return s;
}

void create_velocities(HostSystem& s, const std::vector<double>& type_mass, double temperature,
                       std::uint64_t seed) {
  const std::int64_t n = s.n();
  s.v.assign(3 * n, 0.0);
  if (n < 2 || temperature <= 0) return;
  double p[3] = {0, 0, 0}, mtot = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const double m = type_mass[s.type[i]];
    for (int d = 0; d < 3; ++d) {
      s.v[3 * i + d] = gaussian(seed, static_cast<std::uint64_t>(s.id[i]), d) / std::sqrt(m);
      p[d] += m * s.v[3 * i + d];
    }
    mtot += m;
  }
  double ke2 = 0;  // sum m v^2 after removing the centre-of-mass velocity
  for (std::int64_t i = 0; i < n; ++i) {
    const double m = type_mass[s.type[i]];
    for (int d = 0; d < 3; ++d) {
      s.v[3 * i + d] -= p[d] / mtot;
      ke2 += m * s.v[3 * i + d] * s.v[3 * i + d];
    }
  }
  const double dof = 3.0 * n - 3.0;
  const double scale = std::sqrt(temperature * dof / ke2);
  for (auto& vi : s.v) vi *= scale;
}

void shuffle_atoms(HostSystem& s, std::uint64_t seed) {
  const std::int64_t n = s.n();
  std::vector<std::int64_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::int64_t{0});
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(seed));
  HostSystem o = s;
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t i = perm[k];
    for (int d = 0; d < 3; ++d) {
      s.x[3 * k + d] = o.x[3 * i + d];
      s.v[3 * k + d] = o.v[3 * i + d];
    }
    s.type[k] = o.type[i];
    s.id[k] = o.id[i];
    for (int d = 0; d < 3 && !s.image.empty(); ++d) s.image[3 * k + d] = o.image[3 * i + d];
  }
}

}  // namespace mdremap::md
