#pragma once
// A run's system from a file (deck key system.file, io/particle_file.hpp): the deck's keys
// that read it, the file's types matched to system.types, and the host system built from it.
#include <cstdint>
#include <string>
#include <vector>

#include "io/deck.hpp"
#include "md/params.hpp"
#include "md/system.hpp"

namespace mdremap::md {

// system.file, system.format, system.frame and system.velocities: reads the file into p.file
// (an InputError naming the file and line, or dataset, when it is bad).
void read_system_file(io::DeckSection& sys, MdParams& p);
// The file's types onto p.types (read from the deck already): by name where the file names its
// types, else by index (file type k is system.types[k]); with no system.types, the file's own
// types. A type the deck lacks, or a mass that differs from a mass the deck sets, is refused
// at the file's line; a mass the deck leaves out is the file's.
void map_file_types(io::DeckSection& sys, MdParams& p);
// Positions, velocities (when system.velocities takes them), image counts and types from the
// file, atoms in the order of their ids in the file (the engine's ids 0..n-1 follow it).
HostSystem system_from_file(const MdParams& p);
// One line for the run's header: the file, its format, the frame and step, what was taken.
std::string describe_system_file(const MdParams& p);
// What the reader read and did not use, and sides of the file's box the run treats as
// periodic although the file does not: notes for the user.
std::vector<std::string> system_file_notes(const MdParams& p);
// The atom ids as the user gave them, by engine id: the file's, or 1..n for a generated system
// (LAMMPS' numbering). What trajectories write as atom ids.
std::vector<std::int64_t> given_atom_ids(const MdParams& p);

}  // namespace mdremap::md
