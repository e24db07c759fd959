// GoogleTest main for tests that use Kokkos: one Kokkos instance for the whole binary.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard guard(Kokkos::InitializationSettings().set_disable_warnings(true));
  return RUN_ALL_TESTS();
}
