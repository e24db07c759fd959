#pragma once
// Neighbour tests are written once against an execution space (TYPED_TEST) and run on every space
// the layer is compiled for (neighbor/spaces.hpp): the default one and, on a GPU build, the host.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "neighbor/spaces.hpp"

namespace mdremap::test {

template <class Tuple>
struct GTestTypes;
template <class... S>
struct GTestTypes<std::tuple<S...>> {
  using type = ::testing::Types<S...>;
};
using NeighborSpaces = GTestTypes<neighbor::CompiledSpaces>::type;

// Test names carry the space: NeighborList/OpenMP.MatchesBruteForceDouble.
struct SpaceName {
  template <class Space>
  static std::string GetName(int) {
    return Space::name();
  }
};

// A host copy of a view of any space.
template <class V>
auto on_host(const V& v) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

}  // namespace mdremap::test
