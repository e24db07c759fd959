// CG's SpMV kernels against the serial reference (BRIEF section 6): random matrices with empty
// rows, one very long row, a 1x1 matrix, rows longer than a warp, a rectangular one; every kernel
// (csr-thread, csr-warp at several lane counts, sell, cuSPARSE where built), plain and with the CG
// iteration's fused dot products.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cg/csr.hpp"
#include "cg/device_csr.hpp"
#include "cg/generators.hpp"
#include "cg/sell_spmv.hpp"
#include "cg/spmv.hpp"
#include "cg/transactions.hpp"
#include "mdremap/error.hpp"
#include "mdremap/remap/l2_window.hpp"

namespace mdremap::cg {
namespace {

// Row lengths chosen by `shape`; columns random (duplicates summed), values in [-1, 1).
HostCsr random_matrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed,
                      const std::vector<std::int64_t>& lens) {
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t k = 0; k < lens[i]; ++k) {
      r.push_back(static_cast<std::int32_t>(i));
      c.push_back(static_cast<std::int32_t>(mix(seed, i, k) % cols));
      v.push_back(2 * unit(mix(seed + 1, i, k)) - 1);
    }
  return coo_to_csr(rows, cols, r, c, v);
}

// Row i of `a` appended as triplets.
void push_row(const HostCsr& a, std::int64_t i, std::vector<std::int32_t>& r,
              std::vector<std::int32_t>& c, std::vector<double>& v) {
  for (std::int64_t j = a.rowptr[i]; j < a.rowptr[i + 1]; ++j) {
    r.push_back(static_cast<std::int32_t>(i));
    c.push_back(a.col[j]);
    v.push_back(a.val[j]);
  }
}

// The same with every row's diagonal entry added (summed into one already drawn): sell's fused
// dots then take u's own entry from the row's gather (SellMatrix::diagonal_in_rows).
HostCsr with_diagonal(const HostCsr& a) {
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (std::int64_t i = 0; i < a.rows; ++i) {
    push_row(a, i, r, c, v);
    r.push_back(static_cast<std::int32_t>(i));
    c.push_back(static_cast<std::int32_t>(i));
    v.push_back(3.0);
  }
  return coo_to_csr(a.rows, a.cols, r, c, v);
}

// A 2D 5-point grid (nx x ny) with one more entry a row at a random column below `reach`
// (summed where it falls on the stencil): sell keeps the shared offsets as diagonal columns and
// the couplings in offset columns after them, 32-bit ones where `reach` passes 16 bits.
HostCsr stencil_with_coupling(std::int64_t nx, std::int64_t ny, std::int64_t reach) {
  const HostCsr g = generate(GeneratorSpec{"laplace2d", {nx, ny}});
  std::vector<std::int32_t> r, c;
  std::vector<double> v;
  for (std::int64_t i = 0; i < g.rows; ++i) {
    push_row(g, i, r, c, v);
    r.push_back(static_cast<std::int32_t>(i));
    c.push_back(static_cast<std::int32_t>(mix(61, i) % std::min(reach, g.cols)));
    v.push_back(2 * unit(mix(62, i)) - 1);
  }
  return coo_to_csr(g.rows, g.cols, r, c, v);
}

struct Case {
  std::string name;
  HostCsr a;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  {  // mixed: empty rows, short rows, rows longer than a warp, one very long row
    const std::int64_t n = 3000;
    std::vector<std::int64_t> lens(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto h = mix(77, i) % 100;
      lens[i] = h < 10 ? 0 : h < 80 ? 1 + h % 9 : 33 + h % 70;
    }
    lens[1234] = 1000;  // about 860 distinct columns after duplicates are summed
    out.push_back({"mixed", random_matrix(n, n, 5, lens)});
  }
  out.push_back({"1x1", random_matrix(1, 1, 9, {1})});
  out.push_back({"all-empty", random_matrix(40, 40, 3, std::vector<std::int64_t>(40, 0))});
  {
    std::vector<std::int64_t> lens(500);
    for (std::int64_t i = 0; i < 500; ++i) lens[i] = 1 + mix(4, i) % 12;
    out.push_back({"rectangular", random_matrix(500, 777, 11, lens)});
  }
  {  // the mixed matrix with every row's diagonal: sell's fused dots take u's own entry from it
    const std::int64_t n = 3000;
    std::vector<std::int64_t> lens(n);
    for (std::int64_t i = 0; i < n; ++i) {
      const auto h = mix(77, i) % 100;
      lens[i] = h < 10 ? 0 : h < 80 ? 1 + h % 9 : 33 + h % 70;
    }
    out.push_back({"mixed+diagonal", with_diagonal(random_matrix(n, n, 5, lens))});
  }
  {  // square, columns spread over 100,000 (sell: 32-bit slices) and every row's diagonal
    const std::int64_t n = 100000;
    std::vector<std::int64_t> lens(n);
    for (std::int64_t i = 0; i < n; ++i) lens[i] = mix(24, i) % 2;
    out.push_back({"far+diagonal", with_diagonal(random_matrix(n, n, 25, lens))});
  }
  {  // columns up to 100,000 apart in the first 100 rows (sell: 32-bit slices), near the
     // diagonal after them (16-bit differences), with a row of 40 (wider than a slice's warp)
    const std::int64_t n = 300, far = 100000;
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i) {
      const std::int64_t len = i == 150 ? 40 : 1 + mix(21, i) % 9;
      for (std::int64_t k = 0; k < len; ++k) {
        r.push_back(static_cast<std::int32_t>(i));
        c.push_back(static_cast<std::int32_t>(
            i < 100 ? mix(22, i, k) % far : std::min<std::int64_t>(far - 1, i + k * 7)));
        v.push_back(2 * unit(mix(23, i, k)) - 1);
      }
    }
    out.push_back({"far-and-near", coo_to_csr(n, far, r, c, v)});
  }
  // Stencils whose slices share their offsets (sell's diagonal columns): a 3D grid whose x lines
  // (40) are not a multiple of a slice (32), so slices hold rows of two lines and their faces.
  out.push_back({"laplace3d", generate(GeneratorSpec{"laplace3d", {40, 9, 5}})});
  out.push_back({"stencil+coupling", stencil_with_coupling(24, 30, 5000)});
  out.push_back({"stencil+far", stencil_with_coupling(500, 400, 200000)});
  {  // taller than wide, banded (offsets -1, 0, 1 kept only where every slot's column exists),
     // rows past the last column empty; and a grid with every 7th row emptied
    std::vector<std::int32_t> r, c;
    std::vector<double> v;
    for (std::int32_t i = 0; i < 1000; ++i)
      for (std::int32_t j = i - 1; j <= i + 1; ++j)
        if (j >= 0 && j < 900) {
          r.push_back(i);
          c.push_back(j);
          v.push_back(2 * unit(mix(71, i, j)) - 1);
        }
    out.push_back({"tall-band", coo_to_csr(1000, 900, r, c, v)});
    const HostCsr g = generate(GeneratorSpec{"laplace2d", {64, 40}});
    r.clear();
    c.clear();
    v.clear();
    for (std::int64_t i = 0; i < g.rows; ++i)
      if (i % 7 != 3) push_row(g, i, r, c, v);
    out.push_back({"grid-with-empty-rows", coo_to_csr(g.rows, g.cols, r, c, v)});
  }
  return out;
}

SpmvOptions through(const std::string& mode, int chunks = 1) {
  SpmvOptions o;
  o.remap = mode;
  o.remap_opt.chunks = chunks;
  o.remap_opt.block_threads = 64;
  return o;
}

// Every variant: our CSR body through each remap strategy that applies to CG (padding does not:
// see RefusesWhatItCannotRun), the lanes-per-row kernel, cuSPARSE where built.
std::vector<SpmvOptions> kernels() {
  std::vector<SpmvOptions> k = {through("gather"), through("dup"), through("dup", 3),
                                through("sharing"), through("auto")};
  // throttle: parts of 8 KB of x (1,024 entries; the long row alone reads about 860), every
  // schedule: the 3,000-row matrices are cut into several parts.
  for (const auto sc : {remap::ThrottleSchedule::CF, remap::ThrottleSchedule::CFQ,
                        remap::ThrottleSchedule::SJ, remap::ThrottleSchedule::SJQ}) {
    SpmvOptions t = through("throttle");
    t.remap_opt.throttle.schedule = sc;
    t.remap_opt.throttle.cache_bytes = 8192;
    t.remap_opt.throttle.chunk_threads = 50;
    k.push_back(t);
  }
  for (int v : {0, 1, 4, 32}) {
    SpmvOptions w;
    w.kernel = "csr-warp";
    w.vector_length = v;
    k.push_back(w);
  }
  SpmvOptions sell;
  sell.kernel = "sell";
  k.push_back(sell);
  sell.sell_sigma = 64;  // rows sorted within windows of 64 (y written through the order)
  k.push_back(sell);
  sell.sell_sigma = 0;
  sell.sell_diagonals = false;  // every slice as sliced ELL
  k.push_back(sell);
  if (have_cusparse()) {
    SpmvOptions c;
    c.kernel = "cusparse";
    k.push_back(c);
  }
  return k;
}

Kokkos::View<double*> dev(const std::vector<double>& v) {
  Kokkos::View<double*> d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

std::vector<double> host(Kokkos::View<const double*> d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return std::vector<double>(h.data(), h.data() + h.extent(0));
}

// |y - y_ref| within rounding of the row's sum of |a_ij x_j| (the summation order differs).
void expect_close(const HostCsr& a, const std::vector<double>& x, const std::vector<double>& y,
                  const std::vector<double>& ref, const std::string& what) {
  ASSERT_EQ(y.size(), ref.size());
  for (std::int64_t r = 0; r < a.rows; ++r) {
    double mag = 0;
    for (std::int64_t k = a.rowptr[r]; k < a.rowptr[r + 1]; ++k)
      mag += std::abs(a.val[k] * x[a.col[k]]);
    ASSERT_LE(std::abs(y[r] - ref[r]), 1e-13 * mag + 1e-300) << what << " row " << r;
  }
}

TEST(CgSpmv, EveryKernelMatchesTheSerialReference) {
  for (const auto& c : cases()) {
    const DeviceCsr d = DeviceCsr::upload(c.a);
    std::vector<double> x(c.a.cols);
    for (std::int64_t i = 0; i < c.a.cols; ++i) x[i] = 2 * unit(mix(21, i)) - 1;
    std::vector<double> ref;
    spmv_reference(c.a, x, ref);
    const auto xd = dev(x);
    for (const auto& k : kernels()) {
      auto op = make_spmv(d, k);
      Kokkos::View<double*> y("y", c.a.rows);
      Kokkos::deep_copy(y, 123.0);  // every row must be written, empty ones with 0
      op->apply(xd, y);
      expect_close(c.a, x, host(y), ref, c.name + " " + op->describe());
    }
  }
}

TEST(CgSpmv, FusedDotsMatchTheReference) {
  for (const auto& c : cases()) {
    if (c.a.rows != c.a.cols) continue;  // the CG SpMV is square
    const DeviceCsr d = DeviceCsr::upload(c.a);
    std::vector<double> u(c.a.rows), r(c.a.rows);
    for (std::int64_t i = 0; i < c.a.rows; ++i) {
      u[i] = 2 * unit(mix(31, i)) - 1;
      r[i] = 2 * unit(mix(32, i)) - 1;
    }
    std::vector<double> w_ref;
    spmv_reference(c.a, u, w_ref);
    double wu = 0, ru = 0, wu_mag = 0, ru_mag = 0;
    for (std::int64_t i = 0; i < c.a.rows; ++i) {
      wu += w_ref[i] * u[i];
      ru += r[i] * u[i];
      wu_mag += std::abs(w_ref[i] * u[i]);
      ru_mag += std::abs(r[i] * u[i]);
    }
    const auto ud = dev(u), rd = dev(r);
    for (const auto& k : kernels()) {
      auto op = make_spmv(d, k);
      Kokkos::View<double*> w("w", c.a.rows);
      const auto s = op->apply_dots(ud, rd, w);
      const std::string what = c.name + " " + op->describe();
      expect_close(c.a, u, host(w), w_ref, what);
      EXPECT_NEAR(s.s0, wu, 1e-12 * wu_mag + 1e-300) << what;
      EXPECT_NEAR(s.s1, ru, 1e-12 * ru_mag + 1e-300) << what;
    }
  }
}

// sell knows whether every row holds its diagonal (its fused dots then read u's own entry from
// the row's gather; FusedDotsMatchTheReference checks both forms against the reference).
TEST(CgSpmv, SellFindsTheDiagonalInEveryRowOrNot) {
  const auto all = cases();
  for (const auto& c : all) {
    if (c.name != "mixed" && c.name != "mixed+diagonal" && c.name != "far+diagonal" &&
        c.name != "1x1")
      continue;
    const SellMatrix m = build_sell(DeviceCsr::upload(c.a));
    bool every = c.a.rows > 0;
    for (std::int64_t i = 0; i < c.a.rows; ++i) {
      bool found = false;
      for (std::int64_t j = c.a.rowptr[i]; j < c.a.rowptr[i + 1]; ++j) found |= c.a.col[j] == i;
      every = every && found;
    }
    EXPECT_EQ(m.diagonal_in_rows, every) << c.name;
    if (c.name == "mixed+diagonal" || c.name == "far+diagonal") EXPECT_TRUE(m.diagonal_in_rows);
    if (c.name == "far+diagonal") EXPECT_GT(m.wide_slices, 0);
    if (c.name == "mixed") EXPECT_FALSE(m.diagonal_in_rows);
  }
}

TEST(CgSpmv, RefusesWhatItCannotRun) {
  const DeviceCsr d = DeviceCsr::upload(random_matrix(4, 4, 1, {1, 1, 1, 1}));
  auto warp = [](int v) {
    SpmvOptions o;
    o.kernel = "csr-warp";
    o.vector_length = v;
    return o;
  };
  EXPECT_THROW(make_spmv(d, warp(3)), Error);
  EXPECT_THROW(make_spmv(d, warp(64)), Error);
  SpmvOptions bad;
  bad.kernel = "ell";
  EXPECT_THROW(make_spmv(d, bad), Error);
  // csr-warp runs its own gather: no remap strategy behind it.
  SpmvOptions warp_dup = warp(4);
  warp_dup.remap = "dup";
  EXPECT_THROW(make_spmv(d, warp_dup), Error);
  EXPECT_THROW(make_spmv(d, through("no-such-mode")), Error);
  // padding regroups rows; CG's fused body also reads its own row's u and r (seed 001 §3.3).
  try {
    make_spmv(d, through("padding"));
    ADD_FAILURE() << "padding accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("reference patterns"), std::string::npos) << e.what();
  }
  if (!have_cusparse()) {
    SpmvOptions c;
    c.kernel = "cusparse";
    EXPECT_THROW(make_spmv(d, c), Error);
  }
}

// dup on CG's pattern copies the references once (ELL, seed 000 §6.3.1) and serves every later
// SpMV from the remap cache, although x changes every time.
TEST(CgSpmv, DupCopiesTheReferencesOnceAndHitsTheCache) {
  std::vector<std::int64_t> lens(300);
  for (std::int64_t i = 0; i < 300; ++i) lens[i] = 1 + mix(8, i) % 9;
  const HostCsr m = random_matrix(300, 300, 2, lens);
  const DeviceCsr d = DeviceCsr::upload(m);
  auto op = make_spmv(d, through("dup"));
  ASSERT_TRUE(op->has_report());
  EXPECT_EQ(op->report().dup_target, "references");
  Kokkos::View<double*> y("y", 300);
  for (int it = 0; it < 5; ++it) {
    std::vector<double> x(300);
    for (int i = 0; i < 300; ++i) x[i] = unit(mix(50 + it, i));
    std::vector<double> ref;
    spmv_reference(m, x, ref);
    op->apply(dev(x), y);
    expect_close(m, x, host(y), ref, "dup iteration " + std::to_string(it));
  }
  const auto r = op->report();
  EXPECT_EQ(r.executions, 5);
  EXPECT_GE(r.cache_hits, 5);
  EXPECT_EQ(r.cache_misses, 1);  // the one copy made at set-up (remap_now)
}

// The sliced-ELL format: a grid numbered along its rows keeps every column in 16 bits and moves
// fewer bytes than CSR; columns far apart put their slices in 32 bits; padding is counted.
TEST(CgSpmv, SellKeepsSixteenBitSlicesWhereTheColumnsFit) {
  GeneratorSpec g;
  g.name = "laplace2d";
  g.dims = {100, 70};
  const DeviceCsr grid = DeviceCsr::upload(generate(g));
  const SellMatrix m = build_sell(grid);
  EXPECT_EQ(m.slices, (7000 + kSellSlice - 1) / kSellSlice);
  EXPECT_EQ(m.wide_slices, 0);
  EXPECT_EQ(m.entries32, 0);
  EXPECT_GE(m.entries, grid.nnz);
  EXPECT_LT(m.bytes(), grid.min_spmv_bytes());
  // Where a slice's rows are all 5 long there is no padding: 32 x 5 entries a slice at most.
  EXPECT_LE(m.entries, m.slices * kSellSlice * 5);

  // A grid whose band (+-67,600) is far wider than 16 bits: the k-th neighbours of 32
  // consecutive interior rows lie within a few dozen columns, so most slices stay narrow (a row
  // on the grid's x faces lacks a neighbour, its k-th entry is another one, and a slice holding
  // it may spread past 16 bits: 293 of 4,225 here), and the SpMV is the reference's.
  g.name = "laplace3d";
  g.dims = {260, 260, 2};
  const HostCsr wide_band = generate(g);
  const DeviceCsr wb = DeviceCsr::upload(wide_band);
  const SellMatrix mb = build_sell(wb, 0, false);  // offsets only (no diagonal columns)
  EXPECT_GT(mb.wide_slices, 0);
  EXPECT_LT(mb.wide_slices, mb.slices / 10);
  EXPECT_LT(mb.bytes(), wb.min_spmv_bytes());
  std::vector<double> x(wide_band.cols), ref;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 2 * unit(mix(31, i)) - 1;
  spmv_reference(wide_band, x, ref);
  SpmvOptions k;
  k.kernel = "sell";
  k.sell_diagonals = false;
  Kokkos::View<double*> y("y", wide_band.rows);
  make_spmv(wb, k)->apply(dev(x), y);
  expect_close(wide_band, x, host(y), ref, "sell on a wide band");

  // Rows of 1 to 12 entries mixed: slices padded to their longest row waste about half their
  // entries; sorting within windows of 256 rows (the default where the padding exceeds 5%)
  // wastes fewer. (The rows of 0 to 1,000 entries of "mixed" would pad to 4.6 times the matrix
  // in their own order: refused, SellRefusesWhatItWouldPadPastFourTimesTheMatrix.)
  ASSERT_EQ(cases()[3].name, "rectangular");
  const DeviceCsr mixed = DeviceCsr::upload(cases()[3].a);
  const SellMatrix own = build_sell(mixed, 1), sorted = build_sell(mixed);
  EXPECT_EQ(own.sigma, 1);
  EXPECT_EQ(own.perm.extent(0), 0u);
  EXPECT_GT(own.padding_unsorted, kSellSortPadding);
  EXPECT_EQ(sorted.sigma, kSellSigma);
  EXPECT_EQ(sorted.perm.extent(0), static_cast<std::size_t>(mixed.rows));
  EXPECT_LT(sorted.entries, own.entries);
  EXPECT_EQ(m.sigma, 1);  // the grid's rows are 3 to 5 long: under 5% padding, not sorted

  const auto all = cases();
  const auto far_it =
      std::find_if(all.begin(), all.end(), [](const Case& c) { return c.name == "far-and-near"; });
  ASSERT_NE(far_it, all.end());
  const Case& far = *far_it;
  const SellMatrix f = build_sell(DeviceCsr::upload(far.a), 1);  // rows in their own order
  // Rows 0-99 reach 100,000 columns apart: slices 0-3 (rows 0-127) are wide, the rest narrow.
  EXPECT_EQ(f.wide_slices, 4);
  EXPECT_GT(f.entries32, 0);
  EXPECT_LT(f.entries32, f.entries);
  auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), f.width);
  EXPECT_EQ(w(150 / kSellSlice), 40);  // the slice holding the 40-entry row is 40 wide
}

// Diagonal columns (spmv.sell_diagonals): where a slice's rows share their offsets column - row,
// the slice stores those offsets once and no index an entry (8 bytes an entry, not 10.1); the
// faces' rows, which lack a neighbour, hold zeros there. A random numbering shares nothing.
TEST(CgSpmv, SellKeepsSharedOffsetsAsDiagonalColumns) {
  GeneratorSpec g;
  g.name = "laplace3d";
  g.dims = {260, 260, 2};  // the wide band above: its x faces' slices spread past 16 bits
  const HostCsr band = generate(g);
  const DeviceCsr wb = DeviceCsr::upload(band);
  const SellMatrix plain = build_sell(wb, 0, false), diag = build_sell(wb);
  EXPECT_EQ(plain.diag_slices, 0);
  EXPECT_GT(plain.wide_slices, 0);
  // Every slice: the faces' rows hold zeros. One slice holds rows of both z planes (67,600 rows
  // a plane), whose z neighbours lie 135,200 apart: it keeps them in a 32-bit column.
  EXPECT_EQ(diag.diag_slices, diag.slices);
  EXPECT_LE(diag.wide_slices, 1);
  EXPECT_GT(diag.entries_diag, diag.entries * 99 / 100);
  EXPECT_LE(diag.entries, plain.entries);
  EXPECT_LT(diag.bytes(), 0.85 * plain.bytes());
  auto nd = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), diag.ndiag);
  EXPECT_EQ(nd(1000), 6);  // rows 32,000-32,031: x +-1, y +-260, z +67,600 and the diagonal

  // The same grid numbered at random: no slice's rows share an offset but 0 (the diagonal entry,
  // which every row holds): one diagonal column a slice.
  const HostCsr shuffled = permute_symmetric(band, random_permutation(band.rows, 7));
  const SellMatrix rnd = build_sell(DeviceCsr::upload(shuffled));
  EXPECT_EQ(rnd.diag_slices, rnd.slices);
  auto nr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rnd.ndiag);
  for (std::int64_t s = 0; s < rnd.slices; ++s) ASSERT_EQ(nr(s), 1) << "slice " << s;

  // A grid plus one random coupling a row: 5 diagonal columns, the couplings after them, in
  // 16-bit offsets (reach 5,000) or, where they spread over 200,000 columns, in 32-bit ones.
  for (const auto& c : cases()) {
    if (c.name == "tall-band" || c.name == "grid-with-empty-rows") {  // both mostly diagonal
      const SellMatrix m = build_sell(DeviceCsr::upload(c.a));
      EXPECT_GT(m.diag_slices, m.slices / 2) << c.name;
      continue;
    }
    if (c.name != "stencil+coupling" && c.name != "stencil+far" && c.name != "laplace3d") continue;
    const SellMatrix m = build_sell(DeviceCsr::upload(c.a));
    EXPECT_GT(m.diag_slices, m.slices * 9 / 10) << c.name;
    if (c.name == "stencil+far") {
      EXPECT_GT(m.wide_slices, m.slices * 9 / 10) << c.name;
    } else {
      EXPECT_EQ(m.wide_slices, 0) << c.name;
      EXPECT_GT(m.entries_diag, 0) << c.name;
    }
    // Rows sorted within windows of 64 (EveryKernelMatchesTheSerialReference runs that too):
    // their slices still share offsets.
    const SellMatrix sorted = build_sell(DeviceCsr::upload(c.a), 64);
    EXPECT_EQ(sorted.sigma, 64) << c.name;
    EXPECT_GT(sorted.diag_slices, sorted.slices / 2) << c.name;
    if (c.name != "laplace3d") {  // 6 columns a slice: 5 diagonal, 1 other
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.ndiag);
      auto w = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), m.width);
      EXPECT_EQ(h(m.slices / 2), 5) << c.name;
      EXPECT_EQ(w(m.slices / 2), 6) << c.name;
    }
  }
}

// One row of 2,000 entries among rows of one: its slice would be 2,000 wide for 32 rows, more
// than four times the matrix: sell refuses (saying why), and auto, whose first candidate it is,
// records that and serves the SpMV with the others.
TEST(CgSpmv, SellRefusesWhatItWouldPadPastFourTimesTheMatrix) {
  std::vector<std::int64_t> lens(65, 1);
  lens[7] = 2000;
  const HostCsr h = random_matrix(65, 5000, 3, lens);
  const DeviceCsr a = DeviceCsr::upload(h);
  SpmvOptions sell;
  sell.kernel = "sell";
  try {
    (void)make_spmv(a, sell);
    ADD_FAILURE() << "sell built a format of more than four times the matrix";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not built"), std::string::npos) << e.what();
  }
  SpmvOptions au;
  au.kernel = "auto";
  au.remap = "auto";
  std::vector<double> x(h.cols), ref;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 2 * unit(mix(41, i)) - 1;
  spmv_reference(h, x, ref);
  Kokkos::View<double*> y("y", h.rows);
  make_spmv(a, au)->apply(dev(x), y);
  expect_close(h, x, host(y), ref, "auto without sell");
}

// spmv.l2_persist: on a GPU the window changes where the values are read from, not the SpMV (the
// same bits as without), says so, and gives the L2 back when the kernel goes; on the host it
// is refused with the reason, never ignored.
TEST(CgSpmv, PersistingL2WindowKeepsTheSpmvAndGivesTheCacheBack) {
  GeneratorSpec g;
  g.name = "laplace3d";
  g.dims = {30, 20, 10};
  const HostCsr h = generate(g);
  const DeviceCsr a = DeviceCsr::upload(h);
  std::vector<double> x(h.cols);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 2 * unit(mix(53, i)) - 1;
  std::vector<std::string> kernels = {"sell"};
  if (have_cusparse()) kernels.push_back("cusparse");
  for (const auto& name : kernels) {
    SpmvOptions plain;
    plain.kernel = name;
    SpmvOptions kept = plain;
    kept.l2_persist = true;
    if (!remap::l2_persist_limits().unavailable.empty()) {
      try {
        (void)make_spmv(a, kept);
        ADD_FAILURE() << name << ": a persisting-L2 window was accepted without one";
      } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("persisting L2"), std::string::npos) << e.what();
      }
      continue;
    }
    Kokkos::View<double*> y0("y0", h.rows), y1("y1", h.rows);
    make_spmv(a, plain)->apply(dev(x), y0);
    {
      const auto op = make_spmv(a, kept);
      EXPECT_NE(op->describe().find("persisting-L2 window of"), std::string::npos)
          << op->describe();
      EXPECT_GT(remap::l2_set_aside_now(), 0u);
      for (int rep = 0; rep < 3; ++rep) op->apply(dev(x), y1);
    }
    EXPECT_EQ(remap::l2_set_aside_now(), 0u) << name;
    EXPECT_EQ(host(y0), host(y1)) << name;
  }
}

TEST(CgSpmv, AutoVectorLengthFollowsTheMeanRow) {
  const auto lens = [](std::int64_t n, std::int64_t l) { return std::vector<std::int64_t>(n, l); };
  EXPECT_EQ(auto_vector_length(DeviceCsr::upload(random_matrix(64, 64, 1, lens(64, 1)))), 2);
  const HostCsr seven = random_matrix(64, 100000, 1, lens(64, 7));
  EXPECT_EQ(auto_vector_length(DeviceCsr::upload(seven)), 2);
  const HostCsr seventeen = random_matrix(64, 100000, 1, lens(64, 17));
  EXPECT_EQ(auto_vector_length(DeviceCsr::upload(seventeen)), 8);
  const HostCsr fifteen = random_matrix(64, 100000, 1, lens(64, 15));
  EXPECT_EQ(auto_vector_length(DeviceCsr::upload(fifteen)), 4);
  const HostCsr hundred = random_matrix(64, 100000, 1, lens(64, 100));
  EXPECT_EQ(auto_vector_length(DeviceCsr::upload(hundred)), 32);
}

}  // namespace
}  // namespace mdremap::cg

namespace mdremap::cg {
namespace {

// Hand-counted segments (seed 001 §2.1) for one warp of 32 single-entry rows: the CSR gather,
// and dup's ELL copy as the strategy models it.
TEST(CgTransactions, CountsTheThreadPerRowLoads) {
  std::vector<std::int32_t> r(32), c(32), spread(32);
  std::vector<double> v(32, 1.0);
  for (int t = 0; t < 32; ++t) {
    r[t] = t;
    c[t] = t;
    spread[t] = 16 * t;  // every lane in its own 128-byte segment of x
  }
  const auto seq = csr_breakdown(coo_to_csr(32, 32, r, c, v));
  EXPECT_EQ(seq.data.loads, 1);
  EXPECT_EQ(seq.data.seg32, 8);  // 32 x 8 B contiguous
  EXPECT_EQ(seq.data.seg128, 2);
  // col (128 B: 4 / 1), val (256 B: 8 / 2), rowptr[t] (128 B: 4 / 1) and rowptr[t+1] (bytes
  // 4..131: 5 / 2).
  EXPECT_EQ(seq.total().seg32 - seq.data.seg32, 4 + 8 + 4 + 5);
  EXPECT_EQ(seq.total().seg128 - seq.data.seg128, 1 + 2 + 1 + 2);
  const HostCsr m = coo_to_csr(32, 512, r, spread, v);
  const auto sc = csr_breakdown(m);
  EXPECT_EQ(sc.data.seg32, 32);
  EXPECT_EQ(sc.data.seg128, 32);
  EXPECT_EQ(sc.total().seg32, 32 + 21);
  // ELL (seed 000's reordered col_ind / val): col' 4 / 1, val' 8 / 2, len[t] 4 / 1; the x loads
  // are those of the gather.
  auto op = make_spmv(DeviceCsr::upload(m), through("dup"));
  ASSERT_TRUE(op->models_transactions());
  const auto ell = op->model_breakdown(spmv_pattern(m));
  EXPECT_EQ(ell.data.seg32, 32);
  EXPECT_EQ(ell.total().seg32 - ell.data.seg32, 4 + 8 + 4);
  EXPECT_EQ(ell.total().seg128 - ell.data.seg128, 1 + 2 + 1);
}

}  // namespace
}  // namespace mdremap::cg
