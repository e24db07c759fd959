#include "md/gather_frame.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "comm/runtime.hpp"
#include "mdremap/error.hpp"

namespace mdremap::md {

namespace {

// out[k] = in[order[k]] for `width` values per atom.
template <class T>
void permute(const std::vector<T>& in, const std::vector<std::size_t>& order, int width,
             std::vector<T>& out) {
  out.resize(in.size());
  if (in.empty()) return;  // an array the frame does not hold (velocities, forces)
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int c = 0; c < width; ++c) out[width * k + c] = in[width * order[k] + c];
}

}  // namespace

void gather_frame_by_id(Frame& fr) {
  Frame all;
  comm::gather_to_root(fr.x, all.x);
  comm::gather_to_root(fr.v, all.v);
  comm::gather_to_root(fr.f, all.f);
  comm::gather_to_root(fr.type, all.type);
  comm::gather_to_root(fr.id, all.id);
  comm::gather_to_root(fr.image, all.image);
  comm::gather_to_root(fr.pe, all.pe);
  std::vector<std::size_t> order(all.id.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return all.id[a] < all.id[b]; });
  permute(all.x, order, 3, fr.x);
  permute(all.v, order, 3, fr.v);
  permute(all.f, order, 3, fr.f);
  permute(all.type, order, 1, fr.type);
  permute(all.id, order, 1, fr.id);
  permute(all.image, order, 3, fr.image);
  permute(all.pe, order, 1, fr.pe);
}

std::int64_t distribute_frame_by_id(Frame& fr, std::int64_t natoms) {
  const int ranks = comm::size(), me = comm::rank();
  const std::size_t n = fr.id.size();
  const bool hx = !fr.x.empty(), hv = !fr.v.empty(), hf = !fr.f.empty(), hi = !fr.image.empty();
  const bool he = !fr.pe.empty();
  // One record of doubles per atom: id, type, then x, v, f, image, pe (ids below 2^53 are exact).
  const int width = 2 + 3 * (int(hx) + int(hv) + int(hf) + int(hi)) + int(he);
  auto block_of = [&](std::int64_t id) {
    // The r with first(r) <= id < first(r + 1); first(r) = r * natoms / ranks.
    int r = static_cast<int>((static_cast<__int128>(id) * ranks) / natoms);
    while (r + 1 < ranks && (static_cast<__int128>(r + 1) * natoms) / ranks <= id) ++r;
    while (r > 0 && (static_cast<__int128>(r) * natoms) / ranks > id) --r;
    return r;
  };
  std::vector<std::size_t> count(ranks, 0);
  std::vector<int> dest(n);
  for (std::size_t i = 0; i < n; ++i) ++count[dest[i] = block_of(fr.id[i])];
  std::vector<std::size_t> at(ranks, 0);
  for (int r = 1; r < ranks; ++r) at[r] = at[r - 1] + count[r - 1];
  std::vector<double> out(n * width);
  for (std::size_t i = 0; i < n; ++i) {
    double* rec = &out[width * at[dest[i]]++];
    int c = 0;
    rec[c++] = static_cast<double>(fr.id[i]);
    rec[c++] = fr.type[i];
    for (int k = 0; k < 3 && hx; ++k) rec[c++] = fr.x[3 * i + k];
    for (int k = 0; k < 3 && hv; ++k) rec[c++] = fr.v[3 * i + k];
    for (int k = 0; k < 3 && hf; ++k) rec[c++] = fr.f[3 * i + k];
    for (int k = 0; k < 3 && hi; ++k) rec[c++] = fr.image[3 * i + k];
    if (he) rec[c++] = fr.pe[i];
  }
  std::vector<std::size_t> bytes(ranks);
  for (int r = 0; r < ranks; ++r) bytes[r] = count[r] * width * sizeof(double);
  std::vector<unsigned char> in;
  comm::alltoallv(out.data(), bytes, in);
  const std::int64_t first =
      static_cast<std::int64_t>((static_cast<__int128>(me) * natoms) / ranks);
  const std::int64_t last =
      static_cast<std::int64_t>((static_cast<__int128>(me + 1) * natoms) / ranks);
  const std::size_t m = in.size() / (width * sizeof(double));
  if (static_cast<std::int64_t>(m) != last - first)
    throw Error("distributing a frame by id: rank " + std::to_string(me) + " received " +
                std::to_string(m) + " atoms for a block of " + std::to_string(last - first));
  std::vector<double> rec(in.size() / sizeof(double));
  std::memcpy(rec.data(), in.data(), in.size());
  fr.id.assign(m, -1);
  fr.type.assign(m, 0);
  if (hx) fr.x.assign(3 * m, 0.0);
  if (hv) fr.v.assign(3 * m, 0.0);
  if (hf) fr.f.assign(3 * m, 0.0);
  if (hi) fr.image.assign(3 * m, 0);
  if (he) fr.pe.assign(m, 0.0);
  for (std::size_t j = 0; j < m; ++j) {
    const double* q = &rec[width * j];
    const std::int64_t id = static_cast<std::int64_t>(q[0]);
    const std::int64_t k = id - first;
    if (k < 0 || k >= last - first || fr.id[k] != -1)
      throw Error("distributing a frame by id: atom id " + std::to_string(id) +
                  " outside the block or twice");
    int c = 2;
    fr.id[k] = id;
    fr.type[k] = static_cast<std::int32_t>(q[1]);
    for (int e = 0; e < 3 && hx; ++e) fr.x[3 * k + e] = q[c++];
    for (int e = 0; e < 3 && hv; ++e) fr.v[3 * k + e] = q[c++];
    for (int e = 0; e < 3 && hf; ++e) fr.f[3 * k + e] = q[c++];
    for (int e = 0; e < 3 && hi; ++e) fr.image[3 * k + e] = static_cast<std::int32_t>(q[c++]);
    if (he) fr.pe[k] = q[c++];
  }
  return first;
}

}  // namespace mdremap::md
