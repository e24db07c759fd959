// The strict deck reader: unknown keys name the nearest valid key and the line; overrides work.
#include <gtest/gtest.h>

#include "io/deck.hpp"
#include "md/params.hpp"
#include "mdremap/error.hpp"

using namespace mdremap;

namespace {
std::string error_of(const std::string& text, const std::vector<std::string>& sets = {}) {
  try {
    auto d = io::Deck::from_string(text, "deck.yaml");
    for (const auto& s : sets) d.apply_override(s);
    md::read_md_params(d);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Deck, UnknownKeyNamesNearestAndLine) {
  const std::string msg = error_of("run:\n  steps: 10\nneighbor:\n  skni: 0.3\n");
  EXPECT_EQ(msg, "deck.yaml:4: unknown key 'neighbor.skni' (did you mean 'neighbor.skin'?)");
}

TEST(Deck, UnknownSectionNamesNearest) {
  EXPECT_NE(error_of("integrater:\n  dt: 0.01\n").find("did you mean 'integrator'"),
            std::string::npos);
}

TEST(Deck, BadValuesAreOneLineWithLocation) {
  EXPECT_EQ(error_of("system:\n  lattice: {style: fcc, density: -0.8}\n"),
            "deck.yaml:2: 'system.lattice.density': must be positive, got -0.8");
  EXPECT_NE(error_of("run:\n  steps: many\n")
                .find("deck.yaml:2: 'run.steps': expected an integer, got 'many'"),
            std::string::npos);
  EXPECT_NE(error_of("integrator:\n  style: nvr\n").find("did you mean 'nve'"), std::string::npos);
  EXPECT_NE(error_of("run: [1, 2\n").find("deck.yaml:"), std::string::npos);
}

TEST(Deck, OverridesApplyAndAreCheckedToo) {
  auto d = io::Deck::from_string("run:\n  steps: 10\n", "deck.yaml");
  d.apply_override("run.steps=25");
  d.apply_override("neighbor.skin=0.4");
  const auto p = md::read_md_params(d);
  EXPECT_EQ(p.steps, 25);
  EXPECT_DOUBLE_EQ(p.skin, 0.4);
  EXPECT_EQ(error_of("", {"neighbor.skni=0.4"}),
            "--set neighbor.skni: unknown key 'neighbor.skni' (did you mean 'neighbor.skin'?)");
  EXPECT_EQ(error_of("", {"run.steps=-3"}), "--set run.steps: must not be negative");
}

TEST(Deck, ResolvedDeckHoldsDefaults) {
  auto d = io::Deck::from_string("run:\n  steps: 10\n", "deck.yaml");
  md::read_md_params(d);
  const std::string y = d.resolved_yaml();
  EXPECT_NE(y.find("skin: 0.3"), std::string::npos) << y;
  EXPECT_NE(y.find("steps: 10"), std::string::npos);
}

TEST(Deck, MixingRules) {
  double e, s, c;
  md::mix("geometric", 1.0, 1.0, 2.5, 0.25, 4.0, 2.5, e, s, c);
  EXPECT_DOUBLE_EQ(e, 0.5);
  EXPECT_DOUBLE_EQ(s, 2.0);
  md::mix("arithmetic", 1.0, 1.0, 2.0, 0.25, 3.0, 3.0, e, s, c);
  EXPECT_DOUBLE_EQ(s, 2.0);
  EXPECT_DOUBLE_EQ(c, 2.5);
  md::mix("sixthpower", 1.0, 1.0, 2.5, 1.0, 1.0, 2.5, e, s, c);
  EXPECT_DOUBLE_EQ(e, 1.0);
  EXPECT_DOUBLE_EQ(s, 1.0);
}
