#pragma once
// The stencil: the cells around a home cell that can hold a neighbour within the list cutoff.
#include "mdremap/types.hpp"

namespace mdremap::neighbor {

struct Stencil {
  int count = 0;
  int off[343][3];  // up to +-3 cells per axis
};

// Cells whose nearest point to the home cell is inside the list cutoff; for a half list only the
// home cell and the "upper" half (z, then y, then x offset positive), as LAMMPS's half/bin/newton
// stencil: each pair of distinct cells is then visited from one side only.
Stencil make_stencil(double rlist, const double cell_size[3], bool half);

// The stencil as rows: cells (cx + a, cy + b, cz + c), a in [a0, a1], are consecutive in the
// binning, so each row is one contiguous run of cell-ordered positions. kMax rows at most: 32 for
// the GPU candidate-lane kernel (a row per lane), 49 (7 x 7, +-3 cells) on the host.
template <int kMax>
struct StencilRows {
  int count = 0;
  int b[kMax], c[kMax], a0[kMax], a1[kMax];
  // Merges the stencil's offsets (a fastest) into rows; false when they need more than kMax.
  bool build(const Stencil& st) {
    count = 0;
    for (int s = 0; s < st.count; ++s) {
      const int a = st.off[s][0], bb = st.off[s][1], cc = st.off[s][2];
      const int q = count - 1;
      if (q >= 0 && b[q] == bb && c[q] == cc && a1[q] == a - 1) {
        a1[q] = a;
        continue;
      }
      if (count == kMax) return false;
      b[count] = bb, c[count] = cc, a0[count] = a1[count] = a;
      ++count;
    }
    return true;
  }
  // Row r's run [begin, end) of cell-ordered positions around cell (cx, cy, cz).
  template <class Offsets>
  KOKKOS_INLINE_FUNCTION void run(const Offsets& offset, const int nx, const int ny, const int cx,
                                  const int cy, const int cz, const int r, int& begin,
                                  int& end) const {
    const int row = cx + nx * (cy + b[r] + ny * (cz + c[r]));
    begin = offset(row + a0[r]);
    end = offset(row + a1[r] + 1);
  }
};

}  // namespace mdremap::neighbor
