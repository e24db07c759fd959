// The pressure tensor (run.thermo_columns pxx..pyz) against LAMMPS' thermo on the same start
// (tests/reference/pressure_tensor/tensor.yaml): a disordered binary system with velocities,
// shifted and with the tail correction, on every neighbour-list kind, to 1e-10 relative.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "md_test_util.hpp"

using namespace mdremap;

namespace {

const std::string kDir = "tests/reference/pressure_tensor/";

TEST(PressureTensor, EqualsLammpsAtStepZeroOnEveryList) {
  const YAML::Node ref = YAML::LoadFile(test::source_path(kDir + "tensor.yaml"));
  const std::string start = test::source_path(kDir + ref["start"].as<std::string>());
  for (const auto& c : ref["cases"]) {
    for (const std::string list : {"full", "half", "cluster"}) {
      auto sets = c["set"].as<std::vector<std::string>>();
      sets.push_back("system.file=" + start);
      sets.push_back("neighbor.list=" + list);
      sets.push_back("run.thermo_columns=[pxx, pyy, pzz, pxy, pxz, pyz]");
      SCOPED_TRACE(list + " list, " + sets[0]);
      auto engine = md::create_engine(test::params("tests/reference/minimize/deck.yaml", sets));
      const ThermoSample t = engine->setup();
      ASSERT_TRUE(t.has_ptensor);
      EXPECT_LT(test::rel(t.press, c["press"].as<double>()), 1e-10);
      const auto want = c["tensor"].as<std::vector<double>>();
      for (int a = 0; a < 6; ++a)
        EXPECT_LT(test::rel(t.ptensor[a], want[a]), 1e-10) << "component " << a;
      // The trace is the scalar pressure.
      EXPECT_NEAR((t.ptensor[0] + t.ptensor[1] + t.ptensor[2]) / 3, t.press, 1e-12);
    }
  }
}

TEST(PressureTensor, OnlyWhereAsked) {
  auto engine = md::create_engine(
      test::params("tests/reference/minimize/deck.yaml",
                   {"system.file=" + test::source_path("tests/reference/minimize/start.data")}));
  EXPECT_FALSE(engine->setup().has_ptensor);
}

}  // namespace
