#include "io/particle_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>

#include "io/gsd_file.hpp"

namespace mdremap::io {

namespace fs = std::filesystem;

InputError ParticleFile::at_atom(std::size_t i, const std::string& problem) const {
  if (i < line.size()) return InputError(path, line[i], problem);
  const std::string where =
      atom_dataset.empty() ? fmt::format("atom {}", i) : fmt::format("{} row {}", atom_dataset, i);
  return InputError(path, 0, where + ": " + problem);
}

InputError ParticleFile::at_box(const std::string& problem, int axis) const {
  if (box_line[axis] > 0) return InputError(path, box_line[axis], problem);
  return InputError(path, 0, (box_dataset.empty() ? "box" : box_dataset) + ": " + problem);
}

const std::vector<std::string>& particle_formats() {
  static const std::vector<std::string> v = {"auto", "lammps-data", "xyz", "gsd", "h5md"};
  return v;
}

std::int64_t resolve_frame(std::int64_t frame, std::int64_t frames, const std::string& path,
                           const std::string& what) {
  const std::int64_t k = frame < 0 ? frames + frame : frame;
  if (frames <= 0) throw InputError(path, 0, "holds no " + what);
  if (k < 0 || k >= frames)
    throw InputError(path, 0,
                     fmt::format("system.frame {} is not a frame of this file: it holds {} {}{} "
                                 "(0..{}, or -1 for the last)",
                                 frame, frames, what, frames == 1 ? "" : "s", frames - 1));
  return k;
}

void check_particle_file(const ParticleFile& f) {
  const std::size_t n = f.n();
  if (n == 0) throw InputError(f.path, 0, "holds no atoms");
  for (int d = 0; d < 3; ++d)
    if (!std::isfinite(f.lo[d]) || !std::isfinite(f.len[d]) || !(f.len[d] > 0))
      throw f.at_box(fmt::format("the box along {} is not a finite positive length (lo {}, "
                                 "length {})",
                                 "xyz"[d], f.lo[d], f.len[d]),
                     d);
  if (f.x.size() != 3 * n || (!f.v.empty() && f.v.size() != 3 * n) ||
      (!f.image.empty() && f.image.size() != 3 * n) || f.id.size() != n)
    throw InputError(f.path, 0, "per-atom arrays of different lengths");
  for (std::size_t i = 0; i < n; ++i) {
    if (f.type[i] < 0 || static_cast<std::size_t>(f.type[i]) >= f.types.size())
      throw f.at_atom(
          i, fmt::format("type index {} outside the file's {} types", f.type[i], f.types.size()));
    for (int d = 0; d < 3; ++d) {
      if (!std::isfinite(f.x[3 * i + d]))
        throw f.at_atom(i, fmt::format("position {} is not finite", "xyz"[d]));
      if (!f.v.empty() && !std::isfinite(f.v[3 * i + d]))
        throw f.at_atom(i, fmt::format("velocity {} is not finite", "xyz"[d]));
      // A non-periodic side is a wall the atoms must be inside (a periodic one wraps them).
      const double r = f.x[3 * i + d] - f.lo[d];
      if (!f.periodic[d] && (r < 0 || r > f.len[d]))
        throw f.at_atom(
            i, fmt::format("position {} = {} lies outside the box [{}, {}], which is "
                           "not periodic along {}",
                           "xyz"[d], f.x[3 * i + d], f.lo[d], f.lo[d] + f.len[d], "xyz"[d]));
    }
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return f.id[a] < f.id[b]; });
  for (std::size_t k = 1; k < n; ++k)
    if (f.id[order[k]] == f.id[order[k - 1]])
      throw f.at_atom(std::max(order[k], order[k - 1]),
                      fmt::format("atom id {} appears twice", f.id[order[k]]));
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// The format a path names by its extension, else by its first bytes.
std::string guess_format(const std::string& path) {
  const std::string ext = lower(fs::path(path).extension().string());
  if (ext == ".data" || ext == ".lmp" || ext == ".lammps") return "lammps-data";
  if (ext == ".xyz" || ext == ".extxyz") return "xyz";
  if (ext == ".gsd") return "gsd";
  if (ext == ".h5" || ext == ".h5md" || ext == ".hdf5") return "h5md";
  std::ifstream in(path, std::ios::binary);
  char head[8] = {};
  in.read(head, sizeof(head));
  if (in.gcount() == 8 && std::equal(head, head + 8, "\x89HDF\r\n\x1a\n")) return "h5md";
  if (in.gcount() == 8 && gsd_magic_at(head)) return "gsd";
  in.clear();
  in.seekg(0);
  std::string first;
  std::getline(in, first);
  const auto w = first.find_first_not_of(" \t");
  if (w != std::string::npos && first.find_first_not_of("0123456789 \t\r", w) == std::string::npos)
    return "xyz";  // an atom count alone on the first line
  return "lammps-data";
}

}  // namespace

ParticleFile read_particle_file(const std::string& path, const std::string& format,
                                std::int64_t frame) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw InputError(path, 0, "system file not found");
  if (fs::is_directory(path, ec)) throw InputError(path, 0, "is a directory, not a system file");
  const std::string f = format == "auto" ? guess_format(path) : format;
  ParticleFile out;
  if (f == "h5md") {
    out = read_h5md_frame(path, frame);
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path, 0, "cannot open the system file");
    if (f == "lammps-data") {
      if (frame != 0 && frame != -1)
        throw InputError(path, 0,
                         fmt::format("system.frame {}: a LAMMPS data file holds one frame", frame));
      out = read_lammps_data(in, path);
    } else if (f == "xyz") {
      out = read_xyz(in, path, frame);
    } else if (f == "gsd") {
      out = read_gsd_frame(in, path, frame);
    } else {
      throw InputError(path, 0, "unknown system.format '" + format + "'");
    }
  }
  out.path = path;
  check_particle_file(out);
  return out;
}

}  // namespace mdremap::io
