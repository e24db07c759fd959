// The strict deck reader: unknown keys name the nearest valid key and the line; overrides work.
#include <gtest/gtest.h>

#include "io/deck.hpp"
#include "io/number.hpp"
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
  EXPECT_EQ(error_of("run: {}\n", {"neighbor.skni=0.4"}),
            "--set neighbor.skni: unknown key 'neighbor.skni' (did you mean 'neighbor.skin'?)");
  EXPECT_EQ(error_of("run: {}\n", {"run.steps=-3"}), "--set run.steps: must be at least 0, got -3");
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
  md::mix(md::MixingRule::Geometric, 1.0, 1.0, 2.5, 0.25, 4.0, 2.5, e, s, c);
  EXPECT_DOUBLE_EQ(e, 0.5);
  EXPECT_DOUBLE_EQ(s, 2.0);
  md::mix(md::MixingRule::Arithmetic, 1.0, 1.0, 2.0, 0.25, 3.0, 3.0, e, s, c);
  EXPECT_DOUBLE_EQ(s, 2.0);
  EXPECT_DOUBLE_EQ(c, 2.5);
  md::mix(md::MixingRule::SixthPower, 1.0, 1.0, 2.5, 1.0, 1.0, 2.5, e, s, c);
  EXPECT_DOUBLE_EQ(e, 1.0);
  EXPECT_DOUBLE_EQ(s, 1.0);
}

// One checked parser for every number.
TEST(Number, StrictFiniteAndInRange) {
  double d = 0;
  EXPECT_EQ(io::parse_number<double>("0.25", d), "");
  EXPECT_EQ(d, 0.25);
  EXPECT_EQ(io::parse_number<double>("+1e3", d), "");
  EXPECT_EQ(d, 1000.0);
  EXPECT_EQ(io::parse_number<double>(".5", d), "");
  EXPECT_EQ(d, 0.5);
  for (const char* bad : {".nan", ".NaN", "-.inf", ".Inf", "inf", "nan", "Infinity"})
    EXPECT_NE(io::parse_number<double>(bad, d).find("not a finite number"), std::string::npos)
        << bad;
  EXPECT_NE(io::parse_number<double>("1e999", d).find("overflows"), std::string::npos);
  EXPECT_NE(io::parse_number<double>("-1e-330", d).find("underflows to 0"), std::string::npos);
  EXPECT_NE(io::parse_number<double>("0.3x", d).find("expected a number"), std::string::npos);
  EXPECT_NE(io::parse_number<double>("", d).find("got nothing"), std::string::npos);
  long long i = 0;
  EXPECT_EQ(io::parse_number<long long>("-42", i), "");
  EXPECT_EQ(i, -42);
  EXPECT_NE(io::parse_number<long long>("99999999999999999999", i).find("out of range"),
            std::string::npos);
  EXPECT_NE(io::parse_number<long long>("1e6", i).find("expected an integer"), std::string::npos);
  EXPECT_NE(io::parse_number<long long>("+-5", i).find("expected a number"), std::string::npos);
  unsigned long long u = 0;
  EXPECT_NE(io::parse_number<unsigned long long>("-1", u).find("must not be negative"),
            std::string::npos);
  int small = 0;
  EXPECT_NE(io::parse_number<int>("3000000000", small).find("out of range"), std::string::npos);
  // A message stays one short line whatever the input.
  EXPECT_LT(io::parse_number<int>(std::string(300, '9'), small).size(), 120u);
  EXPECT_EQ(io::check_range<int>(5, 1, 10), "");
  EXPECT_EQ(io::check_range<int>(0, 1, 10), "must be at least 1, got 0");
}

TEST(Deck, NonFiniteValuesAreRefusedInEveryKeyWithTheirLine) {
  EXPECT_EQ(error_of("neighbor:\n  bin_size: .nan\n"),
            "deck.yaml:2: 'neighbor.bin_size': '.nan' is not a finite number");
  EXPECT_EQ(error_of("velocity:\n  temperature: .inf\n"),
            "deck.yaml:2: 'velocity.temperature': '.inf' is not a finite number");
  EXPECT_NE(error_of("system:\n  types:\n    - {name: A, fraction: .nan}\n")
                .find("deck.yaml:3: 'system.types[0].fraction': '.nan' is not a finite number"),
            std::string::npos);
  EXPECT_EQ(error_of("run: {}\n", {"neighbor.skin=.nan"}),
            "--set neighbor.skin: '.nan' is not a finite number");
  EXPECT_EQ(error_of("run: {}\n", {"system.types=[{name: A, epsilon: .inf}]"}),
            "--set system.types: 'system.types[0].epsilon': '.inf' is not a finite number");
  EXPECT_NE(
      error_of("potential:\n  pairs:\n    - {types: [A, A], sigma: 1e300}\n").find("overflow"),
      std::string::npos);
}

TEST(Deck, YamlEdgeCasesAreRefused) {
  EXPECT_NE(error_of("").find("deck.yaml: the deck is empty"), std::string::npos);
  EXPECT_NE(error_of("# nothing\n").find("the deck is empty"), std::string::npos);
  EXPECT_EQ(error_of("run:\n  steps: 5\nrun:\n  steps: 7\n"),
            "deck.yaml:3: 'run' is given twice (first on line 1): give each key once");
  EXPECT_EQ(error_of("run:\n  steps: 5\n  steps: 7\n"),
            "deck.yaml:3: 'run.steps' is given twice (first on line 2): give each key once");
  EXPECT_NE(error_of("run: {steps: 5}\n---\nrun: {steps: 7}\n").find("a second YAML document"),
            std::string::npos);
  EXPECT_EQ(error_of("run:\n  steps:\n"),
            "deck.yaml:2: 'run.steps': has no value (leave the key out for its default; '' is an "
            "empty string)");
  EXPECT_NE(error_of("run: {}\n", {"run.steps="}).find("--set run.steps: empty value"),
            std::string::npos);
  EXPECT_NE(error_of("run: {}\n", {"run.steps=  "}).find("--set run.steps: empty value"),
            std::string::npos);
  // Aliases cannot blow a small text up into a huge tree.
  std::string bomb = "a0: &a0 [x, x]\n";
  for (int k = 1; k < 40; ++k)
    bomb += "a" + std::to_string(k) + ": &a" + std::to_string(k) + " [*a" + std::to_string(k - 1) +
            ", *a" + std::to_string(k - 1) + "]\n";
  EXPECT_NE(error_of(bomb).find("too large"), std::string::npos);
}

TEST(Deck, ImpossibleSystemsAreRefusedBeforeAnyAllocation) {
  EXPECT_NE(error_of("system:\n  lattice: {cells: [1000, 1000, 1000]}\n")
                .find("at most 2147483647 atoms"),
            std::string::npos);
  EXPECT_NE(error_of("system:\n  lattice: {density: 1e-9, cells: [6, 6, 6]}\n").find("too dilute"),
            std::string::npos);
  EXPECT_NE(error_of("system:\n  random: {atoms: 100, density: 0.9, min_distance: 1.3}\n")
                .find("too large"),
            std::string::npos);
  EXPECT_NE(error_of("run:\n  steps: 99999999999999999999\n").find("out of range"),
            std::string::npos);
}

TEST(Deck, BoxBelowTwiceTheListCutoffIsRejected) {
  // 3 fcc cells at density 0.8442: a 5.04 box, below 2 * (cutoff + skin) = 5.6.
  const std::string msg = error_of("system:\n  lattice:\n    cells: [3, 3, 3]\n");
  EXPECT_NE(msg.find("cutoff larger than half the box"), std::string::npos) << msg;
}

// `--set` reaches a list element by index (from 0, as messages print it) or by its name.
TEST(Deck, OverridesReachListItemsByIndexOrName) {
  const std::string types =
      "system:\n  types:\n    - {name: A, mass: 1.0}\n    - {name: B, mass: 1.0}\n";
  const auto mass_of_b = [&](const std::string& set) {
    auto d = io::Deck::from_string(types, "deck.yaml");
    d.apply_override(set);
    return md::read_md_params(d).types.at(1).mass;
  };
  EXPECT_EQ(mass_of_b("system.types[1].mass=2.5"), 2.5);
  EXPECT_EQ(mass_of_b("system.types.B.mass=3.5"), 3.5);
  EXPECT_EQ(mass_of_b("system.types[1]={name: B, mass: 4.5}"), 4.5);
  EXPECT_EQ(mass_of_b("system.types.A.mass=7"), 1.0);  // A, not B
  // Errors name the flag and what is there, never the deck's line.
  EXPECT_EQ(error_of(types, {"system.types[2].mass=2"}),
            "--set system.types[2].mass: 'system.types' has 2 entries: no index 2 (from 0)");
  EXPECT_EQ(error_of(types, {"system.types.C.mass=2"}),
            "--set system.types.C.mass: 'system.types' has no entry named 'C' (entries: A, B)");
  EXPECT_EQ(error_of(types, {"system.types[1].mass=-1"}),
            "--set system.types[1].mass: must be positive, got -1");
  EXPECT_NE(error_of(types, {"system.types[1].bogus=1"})
                .find("--set system.types[1].bogus: unknown key 'system.types[1].bogus'"),
            std::string::npos);
  EXPECT_NE(error_of(types, {"system.types[x].mass=2"}).find("a list index is [N]"),
            std::string::npos);
  EXPECT_EQ(error_of(types, {"run[0]=3"}), "--set run[0]: 'run' is not a list");
}

// compute: its keys and values refused with the deck's line (exit 2 in the CLI: test_cli.sh).
TEST(Deck, ComputeKeysChecked) {
  const std::string head = "system:\n  lattice: {style: fcc, density: 0.8442, cells: [5, 5, 5]}\n";
  EXPECT_EQ(error_of(head + "compute:\n  rdf: {bins: 0}\n"),
            "deck.yaml:4: 'compute.rdf.bins': must be at least 1, got 0");
  EXPECT_EQ(error_of(head + "compute:\n  rdf:\n    bnis: 10\n"),
            "deck.yaml:5: unknown key 'compute.rdf.bnis' (did you mean 'compute.rdf.bins'?)");
  EXPECT_EQ(error_of(head + "compute:\n  msd: {every: 0}\n"),
            "deck.yaml:4: 'compute.msd.every': must be at least 1, got 0");
  EXPECT_EQ(error_of(head + "compute:\n  rdf: {every: -5}\n"),
            "deck.yaml:4: 'compute.rdf.every': must be at least 1, got -5");
  EXPECT_EQ(error_of(head + "compute:\n  rdf: {r_max: -1}\n"),
            "deck.yaml:4: 'compute.rdf.r_max': must be positive, got -1");
  EXPECT_NE(error_of(head + "compute:\n  rdf: {r_max: 4.5}\n")
                .find("deck.yaml:4: 'compute.rdf.r_max': 4.5 is more than half the shortest box "
                      "edge (8.39798)"),
            std::string::npos);
  EXPECT_NE(error_of(head + "compute:\n  rdf: {r_max: 0.001}\n").find("list cells"),
            std::string::npos);
  EXPECT_NE(error_of(head + "compute:\n  rdf: {bins: many}\n").find("expected an integer"),
            std::string::npos);
  EXPECT_EQ(error_of(head + "compute:\n  pe: {}\n"),
            "deck.yaml:4: unknown key 'compute.pe' (valid here: msd rdf)");
  EXPECT_NE(error_of(head + "compute:\n  msd: {}\nparallel: {ghosts: exchange}\n")
                .find("deck.yaml:4: compute.msd runs on one process"),
            std::string::npos);
  EXPECT_NE(error_of(head + "run: {thermo_columns: [msd]}\nparallel: {ghosts: exchange}\n")
                .find("'run.thermo_columns': msd runs on one process"),
            std::string::npos);
  EXPECT_NE(error_of(head + "output:\n  h5md: {file: t.h5, fields: [position, pe]}\n")
                .find("potential_energy"),
            std::string::npos);
}

TEST(Deck, ComputeDefaultsAndOnlyWhereAsked) {
  const std::string head = "system:\n  lattice: {style: fcc, density: 0.8442, cells: [5, 5, 5]}\n";
  auto d = io::Deck::from_string(head + "compute:\n  rdf: {}\n", "deck.yaml");
  const auto p = md::read_md_params(d);
  EXPECT_TRUE(p.computes.rdf.enabled);
  EXPECT_EQ(p.computes.rdf.bins, 100);
  EXPECT_DOUBLE_EQ(p.computes.rdf.r_max, 2.5);  // the potential's cut-off
  EXPECT_EQ(p.computes.rdf.every, 100);
  EXPECT_FALSE(p.computes.msd.enabled);
  auto plain = io::Deck::from_string(head, "deck.yaml");
  const auto q = md::read_md_params(plain);
  EXPECT_FALSE(q.computes.rdf.enabled || q.computes.msd.enabled);
  EXPECT_EQ(plain.resolved_yaml().find("compute"), std::string::npos);
  auto column = io::Deck::from_string(head + "run: {thermo_columns: [msd]}\n", "deck.yaml");
  EXPECT_TRUE(md::read_md_params(column).computes.msd.enabled);
}
