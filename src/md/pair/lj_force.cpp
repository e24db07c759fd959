// The force engines of potential.style lj.
#include "md/pair/driver.hpp"
#include "md/pair/lj.hpp"

namespace mdremap::md {
MDREMAP_PAIR_DRIVERS(LJ)
}  // namespace mdremap::md
