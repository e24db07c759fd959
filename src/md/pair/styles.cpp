#include "md/pair/styles.hpp"

namespace mdremap::md {

std::vector<std::string> pair_styles() {
  return std::apply([](auto... spec) { return std::vector<std::string>{decltype(spec)::kName...}; },
                    PairStyleSpecs{});
}

}  // namespace mdremap::md
