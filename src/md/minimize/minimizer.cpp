#include "md/minimize/minimizer.hpp"

namespace mdremap::md {

std::string to_string(MinimizeStop s) {
  switch (s) {
    case MinimizeStop::MaxIterations:
      return "max iterations";
    case MinimizeStop::MaxEvaluations:
      return "max force evaluations";
    case MinimizeStop::EnergyTolerance:
      return "energy tolerance";
    case MinimizeStop::ForceTolerance:
      return "force tolerance";
    case MinimizeStop::NotDownhill:
      return "search direction is not downhill";
    case MinimizeStop::ZeroAlpha:
      return "linesearch alpha is zero";
    case MinimizeStop::ZeroForce:
      return "forces are zero";
    case MinimizeStop::ZeroQuadratic:
      return "quadratic factors are zero";
    case MinimizeStop::UphillTooOften:
      return "uphill at too many iterations in a row";
  }
  return "unknown";
}

template <class S>
MinimizeResult minimize(EnergySurface<S>& surface, const MinimizeSettings& settings, double dt,
                        MinimizeObserver* obs) {
  return settings.style == MinimizeStyle::Fire ? minimize_fire(surface, settings, dt, obs)
                                               : minimize_cg(surface, settings, obs);
}

template MinimizeResult minimize<float>(EnergySurface<float>&, const MinimizeSettings&, double,
                                        MinimizeObserver*);
template MinimizeResult minimize<double>(EnergySurface<double>&, const MinimizeSettings&, double,
                                         MinimizeObserver*);

}  // namespace mdremap::md
