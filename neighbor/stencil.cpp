#include "neighbor/stencil.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "mdremap/error.hpp"

namespace mdremap::neighbor {

Stencil make_stencil(double rlist, const double cell_size[3], bool half) {
  Stencil st;
  int reach = 1;
  for (int d = 0; d < 3; ++d)
    reach = std::max(reach, static_cast<int>(std::ceil(rlist / cell_size[d] - 1e-12)));
  if (reach > 3) throw Error("neighbor list: cells smaller than a third of the list cutoff");
  for (int c = -reach; c <= reach; ++c)
    for (int b = -reach; b <= reach; ++b)
      for (int a = -reach; a <= reach; ++a) {
        const double dx = std::max(std::abs(a) - 1, 0) * cell_size[0];
        const double dy = std::max(std::abs(b) - 1, 0) * cell_size[1];
        const double dz = std::max(std::abs(c) - 1, 0) * cell_size[2];
        if (dx * dx + dy * dy + dz * dz >= rlist * rlist) continue;
        if (half && (c < 0 || (c == 0 && (b < 0 || (b == 0 && a < 0))))) continue;
        st.off[st.count][0] = a;
        st.off[st.count][1] = b;
        st.off[st.count][2] = c;
        ++st.count;
      }
  return st;
}

}  // namespace mdremap::neighbor
