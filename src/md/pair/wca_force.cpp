// The force engines of potential.style wca.
#include "md/pair/driver.hpp"
#include "md/pair/wca.hpp"

namespace mdremap::md {
MDREMAP_PAIR_DRIVERS(WCA)
}  // namespace mdremap::md
