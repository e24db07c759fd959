#pragma once
// Strategies by name (BRIEF section 3: a name -> factory registry). One type list is the registry:
// the factory, strategy_names(), the apps' deck validation and CLI help, `auto`'s candidates and
// the compute dispatch all derive from it. Adding a strategy is one class in one header (with
// kName, kHelp, applies(), plan/set_data/execute/compute_only) and one entry in StrategyTypes.
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "mdremap/remap/duplication.hpp"
#include "mdremap/remap/gather_strategy.hpp"
#include "mdremap/remap/padding_strategy.hpp"
#include "mdremap/remap/sharing_strategy.hpp"
#include "mdremap/remap/throttle_strategy.hpp"

namespace mdremap::remap {

template <class T>
class AutoStrategy;

template <class... S>
struct TypeList {
  static constexpr std::size_t size = sizeof...(S);
};

// The registry. `auto` profiles its candidates in this order (cheapest plan first).
template <class T>
using StrategyTypes = TypeList<GatherStrategy<T>, DuplicationStrategy<T>, PaddingStrategy<T>,
                               SharingStrategy<T>, ThrottleStrategy<T>, AutoStrategy<T>>;

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

template <class... S>
std::vector<std::pair<std::string, std::string>> entries(TypeList<S...>) {
  return {{S::kName, S::kHelp}...};
}

}  // namespace detail

// Calls f(concrete strategy&): the compute bodies are templates, so the dispatch is here.
template <class T, class F>
void visit(RemapStrategy<T>& s, F&& f) {
  using L = StrategyTypes<T>;
  detail::visit_impl(s, f, L{});
}

// Every strategy's name and one-line description, in registry order.
inline const std::vector<std::pair<std::string, std::string>>& strategy_entries() {
  static const auto e = detail::entries(StrategyTypes<float>{});
  return e;
}
inline std::vector<std::string> strategy_names() {
  std::vector<std::string> n;
  for (const auto& e : strategy_entries()) n.push_back(e.first);
  return n;
}
// "gather | dup | ..." for help texts.
inline std::string strategy_list(const char* sep = " | ") {
  std::string s;
  for (const auto& n : strategy_names()) s += (s.empty() ? "" : sep) + n;
  return s;
}

template <class T>
std::unique_ptr<RemapStrategy<T>> make_strategy(const std::string& name, const RemapOptions& o) {
  using L = StrategyTypes<T>;
  auto s = detail::make_impl<T>(name, o, L{});
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
template <class T, class Body, class Sums>
void execute(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums) {
  visit(s, [&](auto& c) {
    if constexpr (detail::serves_v<std::decay_t<decltype(c)>, Body>)
      c.execute(body, ev, sums);
    else
      detail::refuse_writes(c);
  });
}
// The compute alone, on data remapped before (to time the kernel by itself).
template <class T, class Body, class Sums>
void compute_only(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums) {
  visit(s, [&](auto& c) {
    if constexpr (detail::serves_v<std::decay_t<decltype(c)>, Body>)
      c.compute_only(body, ev, sums);
    else
      detail::refuse_writes(c);
  });
}

namespace detail {
template <class S, class = void>
struct RunsSelections : std::false_type {};
template <class S>
struct RunsSelections<S, std::void_t<decltype(S::kRunsSelections)>>
    : std::bool_constant<S::kRunsSelections> {};
}  // namespace detail

// Whether s runs a part of its threads at a time (execute_selected): the strategies that read
// the data in place with no remapped copy to bring up to date (gather).
template <class T>
bool runs_selections(RemapStrategy<T>& s) {
  bool r = false;
  visit(s, [&](auto& c) { r = detail::RunsSelections<std::decay_t<decltype(c)>>::value; });
  return r;
}
// The compute over a part of the threads (ThreadSelection); `last`: the part that completes an
// execution. Refused by a strategy that does not run selections.
template <class T, class Body, class Sums>
void execute_selected(RemapStrategy<T>& s, const Body& body, bool ev, Sums& sums,
                      const ThreadSelection& sel, bool last) {
  visit(s, [&](auto& c) {
    using S = std::decay_t<decltype(c)>;
    if constexpr (detail::RunsSelections<S>::value && detail::serves_v<S, Body>)
      c.compute_selected(body, ev, sums, sel, last);
    else
      throw Error("remap: " + c.name() +
                  " runs all of its threads at once (a part of them: gather only)");
  });
}

}  // namespace mdremap::remap

#include "mdremap/remap/auto_strategy.hpp"
