#include "md/gather_frame.hpp"

#include <algorithm>
#include <numeric>

#include "comm/runtime.hpp"

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
  std::vector<std::size_t> order(all.id.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return all.id[a] < all.id[b]; });
  permute(all.x, order, 3, fr.x);
  permute(all.v, order, 3, fr.v);
  permute(all.f, order, 3, fr.f);
  permute(all.type, order, 1, fr.type);
  permute(all.id, order, 1, fr.id);
}

}  // namespace mdremap::md
