#pragma once
// The execution spaces the neighbour layer is compiled for: the default one and, where that is a
// device, the host one too, so every unit (and every test, tests/neighbor) runs on both.
#include <tuple>
#include <type_traits>

#include "mdremap/types.hpp"

#if defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP) || defined(KOKKOS_ENABLE_SYCL)
#define MDREMAP_NEIGHBOR_HOST_SPACE_DIFFERS 1
// X(space) once per compiled space: explicit instantiations in the layer's .cpp files.
#define MDREMAP_NEIGHBOR_FOR_SPACES(X) X(::mdremap::ExecSpace) X(::mdremap::HostExec)
#else
#define MDREMAP_NEIGHBOR_FOR_SPACES(X) X(::mdremap::ExecSpace)
#endif

namespace mdremap::neighbor {

#ifdef MDREMAP_NEIGHBOR_HOST_SPACE_DIFFERS
using CompiledSpaces = std::tuple<ExecSpace, HostExec>;
#else
using CompiledSpaces = std::tuple<ExecSpace>;
#endif
static_assert((std::tuple_size_v<CompiledSpaces> == 2) == !std::is_same_v<ExecSpace, HostExec>,
              "the neighbour layer's space list must match the Kokkos build");

// A parameter type kept out of template argument deduction: the layer's functions take views of
// their Space, and callers pass default views (Space defaults to ExecSpace) or their own.
template <class V>
using nondeduced_t = typename std::enable_if<true, V>::type;

// Whether Space runs on the host (the CPU list kernels serve it).
template <class Space>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

}  // namespace mdremap::neighbor
