#pragma once
// Strategies by name (BRIEF section 3: a name -> factory registry). One type list is the registry:
// the factory, the catalogue (catalogue.hpp: names, help, deck keys, applicability), the apps'
// deck validation and flags, `auto`'s candidates and the compute dispatch all derive from it.
// Adding a strategy is one class in one header (with kName, kHelp, keys(), applies(),
// plan/set_data/execute/compute_only) and one entry in DefaultStrategies.
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mdremap/remap/catalogue.hpp"
#include "mdremap/remap/impl/duplication.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "mdremap/remap/impl/padding_strategy.hpp"
#include "mdremap/remap/impl/sharing_strategy.hpp"
#include "mdremap/remap/strategy_fwd.hpp"
#include "mdremap/remap/impl/throttle_strategy.hpp"

namespace mdremap::remap {

template <class... S>
struct TypeList {
  static constexpr std::size_t size = sizeof...(S);
};

template <class L, class... S>
struct Append;
template <class... A, class... S>
struct Append<TypeList<A...>, S...> {
  using type = TypeList<A..., S...>;
};

// The registered strategies. `auto` profiles its candidates in this order (cheapest plan first).
struct DefaultStrategies {
  template <class T>
  using list = TypeList<GatherStrategy<T>, DuplicationStrategy<T>, PaddingStrategy<T>,
                        SharingStrategy<T>, ThrottleStrategy<T>>;
};

// A registry R's strategies and `auto` over them: what the factory makes and dispatch visits.
// A binary may use another R (a test's list with one strategy more): catalogue_of<R>().
template <class T, class R = DefaultStrategies>
using StrategyTypes = typename Append<typename R::template list<T>, AutoStrategy<T, R>>::type;

namespace detail {

template <class T, class F, class... S>
void visit_impl(RemapStrategy<T>& s, F& f, TypeList<S...>) {
  const char* k = s.key();
  const bool done =
      ((std::strcmp(k, S::kName) == 0 ? (f(static_cast<S&>(s)), true) : false) || ...);
  if (!done) throw Error("remap: strategy '" + s.name() + "' is not in the registry");
}

template <class T, class... S>
std::unique_ptr<RemapStrategy<T>> make_impl(const std::string& name, const RemapOptions& o,
                                            TypeList<S...>) {
  std::unique_ptr<RemapStrategy<T>> out;
  ((name == S::kName ? (out = std::make_unique<S>(o), true) : false) || ...);
  return out;
}

template <class S, class = void>
struct IsGather : std::false_type {};
template <class S>
struct IsGather<S, std::void_t<decltype(S::kGather)>> : std::bool_constant<S::kGather> {};
template <class S, class = void>
struct Chooses : std::false_type {};
template <class S>
struct Chooses<S, std::void_t<decltype(S::kChooses)>> : std::bool_constant<S::kChooses> {};
template <class S, class = void>
struct RunsSelections : std::false_type {};
template <class S>
struct RunsSelections<S, std::void_t<decltype(S::kRunsSelections)>>
    : std::bool_constant<S::kRunsSelections> {};

template <class... S>
std::vector<StrategyInfo> catalogue(TypeList<S...>) {
  return {StrategyInfo{S::kName, S::kHelp, S::keys(),
                       [](const RemapOptions& o) { return S::applies(o); },
                       [](const RemapOptions& o) { S{o}; }, IsGather<S>::value, Chooses<S>::value,
                       RunsSelections<S>::value}...};
}

}  // namespace detail

// Calls f(concrete strategy&): the compute bodies are templates, so the dispatch is here.
template <class T, class R = DefaultStrategies, class F>
void visit(RemapStrategy<T>& s, F&& f) {
  detail::visit_impl(s, f, StrategyTypes<T, R>{});
}

// The catalogue of registry R (catalogue.hpp): remap/catalogue.cpp makes the default one; a
// binary with another list installs its own (install_strategy_catalogue).
template <class R = DefaultStrategies>
std::vector<StrategyInfo> catalogue_of() {
  return detail::catalogue(StrategyTypes<float, R>{});
}

template <class T, class R = DefaultStrategies>
std::unique_ptr<RemapStrategy<T>> make_strategy(const std::string& name, const RemapOptions& o) {
  auto s = detail::make_impl<T>(name, o, StrategyTypes<T, R>{});
  if (!s) throw Error("unknown remap mode '" + name + "' (one of: " + strategy_list(", ") + ")");
  return s;
}

namespace detail {
// Strategies that copy reads (dup, padding, sharing) cannot serve a body that writes through the
// pattern; they refuse such kernels when made (applies()), and are not even instantiated here.
template <class S, class Body>
inline constexpr bool serves_v = !body_writes_through_pattern_v<Body> || S::kReadsInPlace;
template <class S>
[[noreturn]] void refuse_writes(const S& s) {
  throw Error("remap: " + s.name() + " cannot run a kernel that writes through its pattern");
}
}  // namespace detail

// Remap (where needed) and compute through whichever strategy s is.
template <class T, class R = DefaultStrategies, class Body, class Sums>
void execute(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums) {
  visit<T, R>(s, [&](auto& c) {
    if constexpr (detail::serves_v<std::decay_t<decltype(c)>, Body>)
      c.execute(body, ev, sums);
    else
      detail::refuse_writes(c);
  });
}
// The compute alone, on data remapped before (to time the kernel by itself).
template <class T, class R = DefaultStrategies, class Body, class Sums>
void compute_only(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums) {
  visit<T, R>(s, [&](auto& c) {
    if constexpr (detail::serves_v<std::decay_t<decltype(c)>, Body>)
      c.compute_only(body, ev, sums);
    else
      detail::refuse_writes(c);
  });
}

// Whether s runs a part of its threads at a time (execute_selected): the strategies that read
// the data in place with no remapped copy to bring up to date (gather).
template <class T, class R = DefaultStrategies>
bool runs_selections(RemapStrategy<T>& s) {
  bool r = false;
  visit<T, R>(s, [&](auto& c) { r = detail::RunsSelections<std::decay_t<decltype(c)>>::value; });
  return r;
}
// The compute over a part of the threads (ThreadSelection); `last`: the part that completes an
// execution. Refused by a strategy that does not run selections.
template <class T, class R = DefaultStrategies, class Body, class Sums>
void execute_selected(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums,
                      const ThreadSelection& sel, bool last) {
  visit<T, R>(s, [&](auto& c) {
    using S = std::decay_t<decltype(c)>;
    if constexpr (detail::RunsSelections<S>::value && detail::serves_v<S, Body>)
      c.compute_selected(body, ev, sums, sel, last);
    else
      throw Error("remap: " + c.name() +
                  " runs all of its threads at once (a part of them: gather only)");
  });
}

}  // namespace mdremap::remap

#include "mdremap/remap/impl/auto_strategy.hpp"
