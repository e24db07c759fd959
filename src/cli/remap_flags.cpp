#include "cli/remap_flags.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>

#include <climits>

#include "cli/numeric_flag.hpp"
#include "io/deck.hpp"
#include "mdremap/remap/registry.hpp"

namespace mdremap::cli {

void add_remap_flags(CLI::App* cmd, RemapFlags& f, bool with_mode) {
  if (with_mode)
    cmd->add_option("--remap", f.remap,
                    "Remap strategy for the force kernel's neighbour gathers: " +
                        remap::strategy_list() + " (remap.mode)");
  cmd->add_option("--reorder", f.reorder,
                  "Atom (thread) reordering: none | spatial | labelprop | partition "
                  "(remap.reorder)");
  cmd->add_option("--chunks", f.chunks, "dup: thread-range chunks (remap.chunks)")
      ->check(number_in<int>(1, INT_MAX, "INT >= 1"));
  cmd->add_option("--streams", f.streams, "dup: remap streams (remap.streams)")
      ->check(number_in<int>(1, INT_MAX, "INT >= 1"));
  cmd->add_option("--dup-fraction", f.dup_fraction,
                  "dup: share of neighbour rows duplicated, the rest gathered (remap.dup_fraction)")
      ->check(positive_real());
  cmd->add_option("--gather-path", f.gather_path,
                  "Memory path of the gathers: global | readonly | texture | split (md: the "
                  "read-only cache through both of the L1's data pipes, CUDA) | auto (seed 003 "
                  "Algorithm 3 on the first neighbour list) (remap.gather_path)");
}

void apply_remap_flags(const RemapFlags& f, io::Deck& deck) {
  // Each flag is named in the deck reader's messages about its value.
  if (!f.remap.empty()) deck.apply_override("remap.mode=" + f.remap, "--remap");
  if (!f.reorder.empty()) deck.apply_override("remap.reorder=" + f.reorder, "--reorder");
  if (!f.gather_path.empty())
    deck.apply_override("remap.gather_path=" + f.gather_path, "--gather-path");
  if (f.chunks != 0) deck.apply_override(fmt::format("remap.chunks={}", f.chunks), "--chunks");
  if (f.streams != 0) deck.apply_override(fmt::format("remap.streams={}", f.streams), "--streams");
  if (f.dup_fraction != 0)
    deck.apply_override(fmt::format("remap.dup_fraction={}", f.dup_fraction), "--dup-fraction");
}

}  // namespace mdremap::cli
