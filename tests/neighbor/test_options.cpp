// The neighbour layer's deck names round-trip through their enums, in deck order.
#include <gtest/gtest.h>

#include <stdexcept>

#include "neighbor/options.hpp"

using namespace mdremap::neighbor;

TEST(NeighborOptions, NamesRoundTripInDeckOrder) {
  EXPECT_EQ(option_names<ListKind>(),
            (std::vector<std::string>{"auto", "full", "half", "cluster"}));
  EXPECT_EQ(option_names<ListLayout>(), (std::vector<std::string>{"auto", "column", "row"}));
  EXPECT_EQ(option_names<AtomSort>(),
            (std::vector<std::string>{"auto", "none", "morton", "hilbert", "cells"}));
  for (const auto& s : option_names<AtomSort>()) EXPECT_EQ(to_string(parse_option<AtomSort>(s)), s);
  EXPECT_EQ(parse_option<ListKind>("half"), ListKind::Half);
  EXPECT_EQ(parse_option<ListKind>("cluster"), ListKind::Cluster);
  EXPECT_EQ(parse_option<ListLayout>("row"), ListLayout::Row);
  EXPECT_EQ(to_string(AtomSort::Hilbert), "hilbert");
  EXPECT_THROW(parse_option<ListKind>("halve"), std::invalid_argument);
}
