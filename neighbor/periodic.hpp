#pragma once
// The periodic box as the list needs it: positions wrapped before binning, and the displacement
// since the last build that triggers the next one (skin/2).
#include "neighbor/spaces.hpp"

namespace mdremap::neighbor {

// Wraps positions into [lo, lo+len) along each axis.
template <class T, class Space = ExecSpace>
void wrap_positions(nondeduced_t<Kokkos::View<Vec4<T>*, Space>> x, const Box<T>& box);

// The same, and each atom's image counts (indexed by its id) moved by the box lengths its
// position was moved by: the unwrapped position is x + image * len.
template <class T, class Space = ExecSpace>
void wrap_positions(nondeduced_t<Kokkos::View<Vec4<T>*, Space>> x, const Box<T>& box,
                    nondeduced_t<Kokkos::View<const std::int64_t*, Space>> id,
                    nondeduced_t<Kokkos::View<int* [3], Space>> image);

// Largest squared displacement between x and xhold (for the skin/2 rebuild trigger).
template <class T, class Space = ExecSpace>
double max_displacement_sq(nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> x,
                           nondeduced_t<Kokkos::View<const Vec4<T>*, Space>> xhold,
                           const Box<T>& box);

}  // namespace mdremap::neighbor
