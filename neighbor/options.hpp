#pragma once
// The neighbour layer's deck choices as types: parsed once from their names (md/params.cpp) and
// compared as enums everywhere after. The names are the deck's and the run header's spelling.
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mdremap::neighbor {

// neighbor.list: full (both directions, one thread per atom), half (each pair once) or cluster
// (pairs of clusters of atoms with interaction masks, cluster_list.hpp; both directions).
enum class ListKind { Auto, Full, Half, Cluster };
// neighbor.layout: column-major neighbors[j*n + i] (the papers' layout) or row-major.
enum class ListLayout { Auto, Column, Row };
// neighbor.sort: the atom order set at setup (and every sort_every steps).
enum class AtomSort { Auto, None, Morton, Hilbert, Cells };

// neighbor.row_order: each atom's neighbours as the build found them (cells) or by atom id
// (row_order.hpp: forces summed in an order that no atom order or rank count changes).
enum class RowOrder { Cells, Id };

template <class E>
struct OptionNames;
template <>
struct OptionNames<RowOrder> {
  static constexpr std::array<std::pair<RowOrder, const char*>, 2> values{
      {{RowOrder::Cells, "cells"}, {RowOrder::Id, "id"}}};
};
template <>
struct OptionNames<ListKind> {
  static constexpr std::array<std::pair<ListKind, const char*>, 4> values{
      {{ListKind::Auto, "auto"},
       {ListKind::Full, "full"},
       {ListKind::Half, "half"},
       {ListKind::Cluster, "cluster"}}};
};
template <>
struct OptionNames<ListLayout> {
  static constexpr std::array<std::pair<ListLayout, const char*>, 3> values{
      {{ListLayout::Auto, "auto"}, {ListLayout::Column, "column"}, {ListLayout::Row, "row"}}};
};
template <>
struct OptionNames<AtomSort> {
  static constexpr std::array<std::pair<AtomSort, const char*>, 5> values{
      {{AtomSort::Auto, "auto"},
       {AtomSort::None, "none"},
       {AtomSort::Morton, "morton"},
       {AtomSort::Hilbert, "hilbert"},
       {AtomSort::Cells, "cells"}}};
};

// The accepted names in deck order (for validation, help and nearest-key errors).
template <class E>
std::vector<std::string> option_names() {
  std::vector<std::string> v;
  for (const auto& e : OptionNames<E>::values) v.emplace_back(e.second);
  return v;
}

template <class E>
std::string to_string(E value) {
  for (const auto& e : OptionNames<E>::values)
    if (e.first == value) return e.second;
  return "?";
}

// The value of a name already validated against option_names<E>() (std::invalid_argument if not).
template <class E>
E parse_option(const std::string& name) {
  for (const auto& e : OptionNames<E>::values)
    if (name == e.second) return e.first;
  throw std::invalid_argument("neighbor option: unknown value '" + name + "'");
}

}  // namespace mdremap::neighbor
