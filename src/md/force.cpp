#include "md/force.hpp"

#include <fmt/format.h>

#include "md/pair/lj.hpp"
#include "md/pair/wca.hpp"
#include "mdremap/error.hpp"

namespace mdremap::md {

namespace {

template <class C, class A>
struct PairStyle {
  const char* name;
  std::unique_ptr<PairForce<C, A>> (*make)(const PairSetup&);
  std::unique_ptr<PairForce<C, A>> (*make_cluster)(const PairSetup&);  // neighbor.list: cluster
};

// potential.style -> evaluator, one entry per catalogue Spec (md/pair/styles.hpp).
template <class C, class A>
const std::vector<PairStyle<C, A>>& pair_registry() {
  static const std::vector<PairStyle<C, A>> r = std::apply(
      [](auto... spec) {
        return std::vector<PairStyle<C, A>>{
            {decltype(spec)::kName,
             &make_pair_driver<typename PairEvaluatorFor<decltype(spec)>::template type<C>, C, A>,
             &make_cluster_driver<typename PairEvaluatorFor<decltype(spec)>::template type<C>, C,
                                  A>}...};
      },
      PairStyleSpecs{});
  return r;
}

}  // namespace

template <class C, class A>
std::unique_ptr<PairForce<C, A>> make_pair_force(const PairSetup& setup) {
  for (const auto& s : pair_registry<C, A>())
    if (setup.style == s.name) return setup.cluster ? s.make_cluster(setup) : s.make(setup);
  throw Error(fmt::format("potential.style: no potential '{}'", setup.style));
}

template std::unique_ptr<PairForce<double, double>> make_pair_force(const PairSetup&);
template std::unique_ptr<PairForce<float, double>> make_pair_force(const PairSetup&);
template std::unique_ptr<PairForce<float, float>> make_pair_force(const PairSetup&);

}  // namespace mdremap::md
