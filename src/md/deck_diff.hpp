#pragma once
// Differences between two resolved decks (Deck::resolved_yaml), key by key: what a restart
// ignores of its deck, and where the ranks of one MPI run were given different runs.
//
// A restart takes the atoms (positions, types), the box and the velocities from its checkpoint.
// The deck's keys that describe them are then not used; those that differ from the deck of the
// run that wrote the checkpoint are named, so that a changed lattice, density or temperature is
// not believed to apply.
#include <string>
#include <vector>

namespace mdremap::md {

// The deck keys a checkpoint replaces, as one phrase for the resolved deck's header.
inline constexpr const char* kRestartReplacedKeys =
    "system.lattice, system.random, system.file, system.types[].fraction, system.type_seed, "
    "system.shuffle, system.shuffle_seed and velocity";

// `deck_yaml`: this run's resolved deck; `checkpoint_yaml`: the resolved deck stored in the
// checkpoint. Each entry: "KEY VALUE (the checkpoint's run: VALUE)", in deck order.
std::vector<std::string> restart_ignored_keys(const std::string& deck_yaml,
                                              const std::string& checkpoint_yaml);

// The first key (in `mine`'s order, then keys `mine` lacks) whose value differs, as
// "KEY is A here, B on OTHER_NAME"; "" when the decks agree.
std::string first_difference(const std::string& mine, const std::string& other,
                             const std::string& other_name);

}  // namespace mdremap::md
