#include "cg/generators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "mdremap/error.hpp"

namespace mdremap::cg {

namespace {

struct Offset {
  int dx, dy, dz;
};

// A stencil operator on the first `npoints` points of an nx x ny x nz grid (point index
// x + nx * (y + ny * z)): row p has the diagonal and an entry -1 for every offset whose point
// exists. The diagonal is the full stencil's neighbour count + shift (Dirichlet at the boundary).
HostCsr stencil(std::int64_t nx, std::int64_t ny, std::int64_t nz, std::int64_t npoints,
                std::vector<Offset> offsets, double shift) {
  const double diag = static_cast<double>(offsets.size()) + shift;
  offsets.push_back({0, 0, 0});
  // Ordered by linear distance, so each row's columns come out sorted.
  auto delta = [&](const Offset& o) { return o.dx + nx * (o.dy + ny * o.dz); };
  std::sort(offsets.begin(), offsets.end(),
            [&](const Offset& a, const Offset& b) { return delta(a) < delta(b); });
  auto neighbour = [&](std::int64_t p, const Offset& o) -> std::int64_t {
    const std::int64_t x = p % nx, y = p / nx % ny, z = p / (nx * ny);
    const std::int64_t qx = x + o.dx, qy = y + o.dy, qz = z + o.dz;
    if (qx < 0 || qx >= nx || qy < 0 || qy >= ny || qz < 0 || qz >= nz) return -1;
    const std::int64_t q = qx + nx * (qy + ny * qz);
    return q < npoints ? q : -1;
  };
  HostCsr a;
  a.rows = a.cols = npoints;
  a.rowptr.assign(npoints + 1, 0);
#pragma omp parallel for schedule(static, 16384)
  for (std::int64_t p = 0; p < npoints; ++p) {
    std::int64_t n = 0;
    for (const auto& o : offsets) n += neighbour(p, o) >= 0;
    a.rowptr[p + 1] = n;
  }
  for (std::int64_t p = 0; p < npoints; ++p) a.rowptr[p + 1] += a.rowptr[p];
  a.col.resize(a.rowptr.back());
  a.val.resize(a.rowptr.back());
#pragma omp parallel for schedule(static, 16384)
  for (std::int64_t p = 0; p < npoints; ++p) {
    std::int64_t k = a.rowptr[p];
    for (const auto& o : offsets) {
      const std::int64_t q = neighbour(p, o);
      if (q < 0) continue;
      a.col[k] = static_cast<std::int32_t>(q);
      a.val[k] = q == p ? diag : -1.0;
      ++k;
    }
  }
  return a;
}

std::vector<Offset> symmetric_offsets(std::initializer_list<Offset> half) {
  std::vector<Offset> o;
  for (const auto& h : half) {
    o.push_back(h);
    o.push_back({-h.dx, -h.dy, -h.dz});
  }
  return o;
}

std::vector<Offset> five_point() {
  return symmetric_offsets({{1, 0, 0}, {0, 1, 0}});
}
std::vector<Offset> seven_point() {
  return symmetric_offsets({{1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
}
std::vector<Offset> tri_mesh() {
  return symmetric_offsets({{1, 0, 0}, {0, 1, 0}, {1, 1, 0}});
}
// Kuhn (Freudenthal) subdivision of each cube into 6 tetrahedra along its main diagonal: a
// vertex's edges go along e_i, e_i + e_j and e_1 + e_2 + e_3, both ways (14 neighbours).
std::vector<Offset> tet_mesh() {
  return symmetric_offsets(
      {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1}});
}
std::vector<Offset> twenty_seven_point() {
  std::vector<Offset> o;
  for (int z = -1; z <= 1; ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x)
        if (x || y || z) o.push_back({x, y, z});
  return o;
}

void to_coo(const HostCsr& a, std::vector<std::int32_t>& r, std::vector<std::int32_t>& c,
            std::vector<double>& v) {
  for (std::int64_t i = 0; i < a.rows; ++i)
    for (std::int64_t k = a.rowptr[i]; k < a.rowptr[i + 1]; ++k) {
      r.push_back(static_cast<std::int32_t>(i));
      c.push_back(a.col[k]);
      v.push_back(a.val[k]);
    }
}

// offshore stand-in: the tet stencil on the first 259,789 points of 64^3 plus, per point, one
// coupling -1 to a random point of the 5x5x5 cube around it (dropped when the stencil already
// reaches it or it lies outside); both diagonals grow by 1, keeping diagonal dominance.
HostCsr offshore(double shift, std::uint64_t seed) {
  constexpr std::int64_t n = 64, rows = 259789;
  const auto offs = tet_mesh();
  const HostCsr base = stencil(n, n, n, rows, offs, shift);
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  to_coo(base, r, c, v);
  for (std::int64_t p = 0; p < rows; ++p) {
    const auto pick = static_cast<int>(mix(seed, p, 1) % 125);
    const Offset o{pick % 5 - 2, pick / 5 % 5 - 2, pick / 25 - 2};
    if (std::max({std::abs(o.dx), std::abs(o.dy), std::abs(o.dz)}) == 0) continue;
    if (std::any_of(offs.begin(), offs.end(),
                    [&](const Offset& s) { return s.dx == o.dx && s.dy == o.dy && s.dz == o.dz; }))
      continue;
    const std::int64_t x = p % n + o.dx, y = p / n % n + o.dy, z = p / (n * n) + o.dz;
    if (x < 0 || x >= n || y < 0 || y >= n || z < 0 || z >= n) continue;
    const std::int64_t q = x + n * (y + n * z);
    if (q >= rows) continue;
    for (auto [i, j, val] : {std::tuple{p, q, -1.0}, std::tuple{q, p, -1.0}, std::tuple{p, p, 1.0},
                             std::tuple{q, q, 1.0}}) {
      r.push_back(static_cast<std::int32_t>(i));
      c.push_back(static_cast<std::int32_t>(j));
      v.push_back(val);
    }
  }
  return coo_to_csr(rows, rows, r, c, v);
}

HostCsr banded(const GeneratorSpec& s) {
  const std::int64_t n = s.rows, w = s.bandwidth;
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  std::vector<double> diag(n, s.shift);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t k = 1; k <= w && i + k < n; ++k) {
      if (unit(mix(s.seed, i, k)) >= s.density) continue;
      const double a = -(0.1 + 0.9 * unit(mix(s.seed ^ 0xba4dedULL, i, k)));
      const std::int64_t j = i + k;
      r.push_back(static_cast<std::int32_t>(i));
      c.push_back(static_cast<std::int32_t>(j));
      v.push_back(a);
      r.push_back(static_cast<std::int32_t>(j));
      c.push_back(static_cast<std::int32_t>(i));
      v.push_back(a);
      diag[i] -= a;
      diag[j] -= a;
    }
  }
  for (std::int64_t i = 0; i < n; ++i) {
    r.push_back(static_cast<std::int32_t>(i));
    c.push_back(static_cast<std::int32_t>(i));
    v.push_back(diag[i]);
  }
  return coo_to_csr(n, n, r, c, v);
}

void need_dims(const GeneratorSpec& s, std::size_t k) {
  if (s.dims.size() != k)
    throw Error(
        fmt::format("generator '{}' takes {} grid dimensions, got {}", s.name, k, s.dims.size()));
  double total = 1;
  for (auto d : s.dims) {
    if (d < 1)
      throw Error(fmt::format("generator '{}': grid dimensions must be at least 1", s.name));
    total *= static_cast<double>(d);
  }
  if (total > std::numeric_limits<std::int32_t>::max())
    throw Error(fmt::format("generator '{}': {} rows is more than the {} supported", s.name, total,
                            std::numeric_limits<std::int32_t>::max()));
}

}  // namespace

const std::vector<GeneratorInfo>& generator_list() {
  static const std::vector<GeneratorInfo> g = {
      {"laplace2d", 2, false, false, "2D 5-point Laplacian on dims [nx, ny]"},
      {"laplace3d", 3, false, false, "3D 7-point Laplacian on dims [nx, ny, nz]"},
      {"laplace3d27", 3, false, false, "3D 27-point Laplacian on dims [nx, ny, nz]"},
      {"tri2d", 2, false, false, "2D triangular-mesh 7-point stencil on dims [nx, ny]"},
      {"banded", 0, true, true, "random SPD band: rows, bandwidth, density, seed, shift > 0"},
      {"offshore", 0, false, true,
       "stand-in for offshore (259,789 rows, ~16 a row, 3D FEM): tet mesh + random couplings"},
      {"parabolic_fem", 0, false, false,
       "stand-in for parabolic_fem (525,825 rows, 7 a row, 2D FEM): tri2d 675 x 779"},
      {"apache2", 0, false, false,
       "stand-in for apache2 (715,176 rows, ~7 a row, 3D FD): laplace3d 84 x 86 x 99"},
      {"ecology2", 0, false, false,
       "stand-in for ecology2 (999,999 rows, 5 a row, 2D grid): laplace2d 999 x 1001"},
      {"large", 0, false, false, "laplace3d 256^3 (16.8M rows; the vector exceeds L2)"},
  };
  return g;
}

const GeneratorInfo* find_generator(const std::string& name) {
  for (const auto& g : generator_list())
    if (g.name == name) return &g;
  return nullptr;
}

namespace {

// The farthest linear distance of a stencil's offsets on an nx x ny grid (index x + nx (y + ny z)).
std::int64_t stencil_reach(std::int64_t nx, std::int64_t ny, const std::vector<Offset>& offsets) {
  std::int64_t r = 0;
  for (const auto& o : offsets) r = std::max(r, std::abs(o.dx + nx * (o.dy + ny * o.dz)));
  return r;
}

}  // namespace

std::int64_t natural_reach(const GeneratorSpec& s) {
  const GeneratorInfo* info = find_generator(s.name);
  if (!info) return -1;
  const auto& d = s.dims;
  if (info->dims > 0) {
    if (d.size() != static_cast<std::size_t>(info->dims)) return -1;
    std::int64_t points = 1;
    for (auto v : d) {
      if (v < 1 || v > std::numeric_limits<std::int32_t>::max()) return -1;
      points *= v;
      if (points > std::numeric_limits<std::int32_t>::max()) return -1;  // as generate refuses
    }
  }
  if (s.name == "laplace2d") return stencil_reach(d[0], d[1], five_point());
  if (s.name == "laplace3d") return stencil_reach(d[0], d[1], seven_point());
  if (s.name == "laplace3d27") return stencil_reach(d[0], d[1], twenty_seven_point());
  if (s.name == "tri2d") return stencil_reach(d[0], d[1], tri_mesh());
  if (s.name == "banded") return s.bandwidth >= 0 ? s.bandwidth : -1;
  if (s.name == "offshore") {  // the tet stencil and a coupling within the 5 x 5 x 5 cube
    std::vector<Offset> cube;
    for (int z = -2; z <= 2; ++z)
      for (int y = -2; y <= 2; ++y)
        for (int x = -2; x <= 2; ++x) cube.push_back({x, y, z});
    return stencil_reach(64, 64, cube);
  }
  if (s.name == "parabolic_fem") return stencil_reach(675, 779, tri_mesh());
  if (s.name == "apache2") return stencil_reach(84, 86, seven_point());
  if (s.name == "ecology2") return stencil_reach(999, 1001, five_point());
  if (s.name == "large") return stencil_reach(256, 256, seven_point());
  return -1;
}

HostCsr generate(const GeneratorSpec& s) {
  const GeneratorInfo* info = find_generator(s.name);
  if (!info) throw Error(fmt::format("unknown matrix generator '{}'", s.name));
  if (!std::isfinite(s.shift) || s.shift < 0)
    throw Error(fmt::format("generator '{}': shift must be >= 0, got {}", s.name, s.shift));
  if (info->dims > 0) need_dims(s, info->dims);
  const auto& d = s.dims;
  if (s.name == "laplace2d") return stencil(d[0], d[1], 1, d[0] * d[1], five_point(), s.shift);
  if (s.name == "laplace3d")
    return stencil(d[0], d[1], d[2], d[0] * d[1] * d[2], seven_point(), s.shift);
  if (s.name == "laplace3d27")
    return stencil(d[0], d[1], d[2], d[0] * d[1] * d[2], twenty_seven_point(), s.shift);
  if (s.name == "tri2d") return stencil(d[0], d[1], 1, d[0] * d[1], tri_mesh(), s.shift);
  if (s.name == "banded") {
    if (s.rows < 1 || s.rows > std::numeric_limits<std::int32_t>::max())
      throw Error(fmt::format("generator 'banded': rows must be in 1..2^31-1, got {}", s.rows));
    if (s.bandwidth < 0 || s.bandwidth >= s.rows)
      throw Error(
          fmt::format("generator 'banded': bandwidth must be in 0..rows-1, got {}", s.bandwidth));
    if (!(s.density >= 0 && s.density <= 1))
      throw Error(fmt::format("generator 'banded': density must be in [0, 1], got {}", s.density));
    if (!(s.shift > 0))
      throw Error(
          "generator 'banded': shift must be > 0 (the diagonal is the row's |sum| + shift)");
    return banded(s);
  }
  if (s.name == "offshore") return offshore(s.shift, s.seed);
  if (s.name == "parabolic_fem") return stencil(675, 779, 1, 675 * 779, tri_mesh(), s.shift);
  if (s.name == "apache2") return stencil(84, 86, 99, 84 * 86 * 99, seven_point(), s.shift);
  if (s.name == "ecology2") return stencil(999, 1001, 1, 999 * 1001, five_point(), s.shift);
  if (s.name == "large") return stencil(256, 256, 256, 256 * 256 * 256, seven_point(), s.shift);
  throw Error(fmt::format("generator '{}' is listed but not built", s.name));
}

}  // namespace mdremap::cg
