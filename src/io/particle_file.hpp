#pragma once
// A particle configuration read from a file (deck key system.file): LAMMPS data, extended XYZ,
// GSD or a frame of an H5MD file, in the file's own terms (its ids, its type names or numbers,
// its box). One reader per format (io/lammps_data.cpp, io/xyz.cpp, io/gsd_system.cpp,
// io/h5md_reader.cpp); md/system_file.cpp turns what they read into the run's system.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "mdremap/error.hpp"

namespace mdremap::io {

struct ParticleType {
  std::string name;   // as the file names it; a LAMMPS type without a label: its number
  double mass = 0;    // 0: the file gives none
  int mass_line = 0;  // where the mass was given (text formats)
};

struct ParticleFile {
  std::string path;
  std::string format;      // "LAMMPS data", "extended XYZ", "GSD", "H5MD"
  std::int64_t frame = 0;  // the frame read (0-based) of `frames`
  std::int64_t frames = 1;
  std::int64_t step = 0;  // the frame's step where the file records one (GSD, H5MD)
  double lo[3] = {0, 0, 0};
  double len[3] = {0, 0, 0};
  bool periodic[3] = {true, true, true};
  std::vector<double> x;            // 3n, as in the file (not wrapped)
  std::vector<double> v;            // 3n, or empty: the file holds no velocities
  std::vector<std::int32_t> image;  // 3n, or empty: the file holds no image counts
  std::vector<std::int64_t> id;     // n, as given (1..n where the file has none)
  std::vector<std::int32_t> type;   // n, index into `types`
  std::vector<ParticleType> types;
  bool named_types = false;        // the file names its types (else they match the deck's by index)
  std::vector<std::string> notes;  // what the reader read and did not use, for the user

  // Where things came from, for errors: each atom's line (text formats) or the dataset that
  // holds the per-atom rows (binary formats); the line of the box along each axis, or the
  // box's dataset.
  std::vector<std::int32_t> line;
  std::string atom_dataset;
  int box_line[3] = {0, 0, 0};
  std::string box_dataset;

  std::size_t n() const { return type.size(); }
  // An InputError naming the file and atom i's line (or its dataset row), or the box's.
  InputError at_atom(std::size_t i, const std::string& problem) const;
  InputError at_box(const std::string& problem, int axis = 0) const;
};

// The formats system.format names; "auto" picks one from the extension (.data, .lmp, .xyz,
// .gsd, .h5, .h5md) or the first bytes.
const std::vector<std::string>& particle_formats();

// Reads frame `frame` (negative: from the end, -1 the last) of `path` in `format`. A missing
// or malformed file, or a frame it lacks, is an InputError naming the file and the line (or
// dataset); the checks every format shares (finite numbers, unique ids, a positive box, atoms
// inside any non-periodic side of the box) are made here.
ParticleFile read_particle_file(const std::string& path, const std::string& format,
                                std::int64_t frame);

// The readers behind it, on a stream (the text formats and GSD; named `name` in errors).
ParticleFile read_lammps_data(std::istream& in, const std::string& name);
ParticleFile read_xyz(std::istream& in, const std::string& name, std::int64_t frame);
ParticleFile read_gsd_frame(std::istream& in, const std::string& name, std::int64_t frame);
ParticleFile read_h5md_frame(const std::string& path, std::int64_t frame);
// The shared checks (read_particle_file calls it after each reader).
void check_particle_file(const ParticleFile& f);

// A frame index of `frames` from a signed request (-1: the last), or an InputError.
std::int64_t resolve_frame(std::int64_t frame, std::int64_t frames, const std::string& path,
                           const std::string& what);

}  // namespace mdremap::io
