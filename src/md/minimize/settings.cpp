#include "md/minimize/settings.hpp"

#include <fmt/format.h>

#include "io/deck.hpp"
#include "io/number.hpp"

namespace mdremap::md {

std::string to_string(MinimizeStyle s) {
  return s == MinimizeStyle::Fire ? "fire" : "cg";
}

namespace {

void positive(io::DeckSection& s, const std::string& key, double v) {
  if (!(v > 0.0)) s.fail(key, fmt::format("must be positive, got {}", v));
}

}  // namespace

MinimizeSettings read_minimize(io::DeckSection& s) {
  MinimizeSettings m;
  m.enabled = true;
  m.style = io::one_of(s, "style", "fire", {"fire", "cg"}) == "fire" ? MinimizeStyle::Fire
                                                                     : MinimizeStyle::Cg;
  m.etol = s.get<double>("etol", m.etol);
  if (!(m.etol >= 0.0)) s.fail("etol", "must not be negative (0: no energy criterion)");
  m.ftol = s.get<double>("ftol", m.ftol);
  if (!(m.ftol >= 0.0)) s.fail("ftol", "must not be negative (0: no force criterion)");
  m.max_iterations = s.get<long long>("max_iterations", m.max_iterations);
  if (m.max_iterations < 1) s.fail("max_iterations", "must be at least 1");
  m.max_evaluations = s.get<long long>("max_evaluations", m.max_evaluations);
  if (m.max_evaluations < 1) s.fail("max_evaluations", "must be at least 1");
  m.dmax = s.get<double>("dmax", m.dmax);
  positive(s, "dmax", m.dmax);
  const bool fire = m.style == MinimizeStyle::Fire;
  // FIRE's keys belong to FIRE: given to cg they would be ignored, so they are refused.
  for (const char* key : {"delay", "dt_grow", "dt_shrink", "alpha0", "alpha_shrink", "tmax", "tmin",
                          "half_step_back"})
    if (!fire && s.has(key)) s.fail(key, "is a key of style fire (this minimizer is cg)");
  if (fire) {
    m.delay = s.get<int>("delay", m.delay);
    if (m.delay < 0) s.fail("delay", "must not be negative");
    m.dt_grow = s.get<double>("dt_grow", m.dt_grow);
    if (!(m.dt_grow >= 1.0)) s.fail("dt_grow", "must be at least 1");
    m.dt_shrink = s.get<double>("dt_shrink", m.dt_shrink);
    if (!(m.dt_shrink > 0.0 && m.dt_shrink <= 1.0)) s.fail("dt_shrink", "must be in (0, 1]");
    m.alpha0 = s.get<double>("alpha0", m.alpha0);
    if (!(m.alpha0 >= 0.0 && m.alpha0 <= 1.0)) s.fail("alpha0", "must be in [0, 1]");
    m.alpha_shrink = s.get<double>("alpha_shrink", m.alpha_shrink);
    if (!(m.alpha_shrink > 0.0 && m.alpha_shrink <= 1.0))
      s.fail("alpha_shrink", "must be in (0, 1]");
    m.tmax = s.get<double>("tmax", m.tmax);
    positive(s, "tmax", m.tmax);
    m.tmin = s.get<double>("tmin", m.tmin);
    positive(s, "tmin", m.tmin);
    if (m.tmin > m.tmax) s.fail("tmin", fmt::format("must not exceed tmax ({})", m.tmax));
    m.half_step_back = s.get<bool>("half_step_back", m.half_step_back);
  }
  m.thermo = s.get<int>("thermo", m.thermo);
  if (m.thermo < 0) s.fail("thermo", "must not be negative");
  s.finish();
  return m;
}

}  // namespace mdremap::md
