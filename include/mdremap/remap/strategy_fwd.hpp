#pragma once
// Declarations of the strategy classes, for headers that hold pointers to them without Kokkos.
namespace mdremap::remap {

template <class T>
class RemapStrategy;
struct DefaultStrategies;  // the registry (registry.hpp)
// `auto` over the strategies of registry R (auto_strategy.hpp).
template <class T, class R = DefaultStrategies>
class AutoStrategy;

}  // namespace mdremap::remap
