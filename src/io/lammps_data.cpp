// LAMMPS data files (read_data, write_data), atom_style atomic: the header's counts and box,
// then the Masses, Atoms (id type x y z, optionally ix iy iz), Velocities and Atom Type Labels
// sections. Comments (# ...) and blank lines anywhere; orthogonal boxes only.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "io/particle_file.hpp"
#include "io/text_lines.hpp"

namespace mdremap::io {

namespace {

// Atoms a file may declare: ids and indices of the engine are 32-bit.
constexpr long long kMaxDeclared = std::numeric_limits<std::int32_t>::max();

std::string without_comment(const std::string& line, std::string* comment = nullptr) {
  const auto hash = line.find('#');
  if (comment != nullptr) *comment = hash == std::string::npos ? "" : line.substr(hash + 1);
  return hash == std::string::npos ? line : line.substr(0, hash);
}

std::string joined(const std::vector<std::string>& w, std::size_t from) {
  std::string s;
  for (std::size_t i = from; i < w.size(); ++i) s += (s.empty() ? "" : " ") + w[i];
  return s;
}

// Header lines: counts ("N atoms", "N atom types", "0 bonds", ...) and the box.
const std::vector<std::string> kTopologyCounts = {"bonds",
                                                  "angles",
                                                  "dihedrals",
                                                  "impropers",
                                                  "bond types",
                                                  "angle types",
                                                  "dihedral types",
                                                  "improper types",
                                                  "extra bond per atom",
                                                  "extra angle per atom",
                                                  "extra dihedral per atom",
                                                  "extra improper per atom",
                                                  "extra special per atom",
                                                  "ellipsoids",
                                                  "lines",
                                                  "triangles",
                                                  "bodies"};

const std::vector<std::string> kSections = {
    "Atoms", "Velocities", "Masses", "Atom Type Labels", "Pair Coeffs", "PairIJ Coeffs"};
// Sections of other atom styles and of molecular topology: refused by name.
const std::vector<std::string> kForeignSections = {"Bonds",
                                                   "Angles",
                                                   "Dihedrals",
                                                   "Impropers",
                                                   "Bond Coeffs",
                                                   "Angle Coeffs",
                                                   "Dihedral Coeffs",
                                                   "Improper Coeffs",
                                                   "Ellipsoids",
                                                   "Lines",
                                                   "Triangles",
                                                   "Bodies",
                                                   "BondBond Coeffs",
                                                   "BondAngle Coeffs",
                                                   "Bond Type Labels",
                                                   "Angle Type Labels",
                                                   "Dihedral Type Labels",
                                                   "Improper Type Labels"};

struct Reader {
  TextLines lines;
  ParticleFile f;
  long long natoms = -1, ntypes = -1;
  std::map<std::string, int> label;  // Atom Type Labels: name -> type index
  bool have_atoms = false, have_masses = false, have_velocities = false, have_labels = false;
  bool box[3] = {false, false, false};
  std::vector<char> velocity_seen;
  std::map<std::int64_t, std::size_t> slot_of_id;

  Reader(std::istream& in, const std::string& name) : lines(in, name) {}

  // The next line with content (comments removed), or false at the end.
  bool content(std::string& text, std::string* comment = nullptr) {
    std::string line;
    while (lines.next(line)) {
      text = without_comment(line, comment);
      if (!words(text).empty()) return true;
    }
    return false;
  }

  int type_of(const std::string& word) {
    if (!label.empty()) {
      auto it = label.find(word);
      if (it != label.end()) return it->second;
    }
    const long long t = lines.number_of<long long>(word, "atom type");
    if (t < 1 || t > ntypes)
      lines.fail(fmt::format("atom type {} outside 1..{} (the header's atom types)", t, ntypes));
    return static_cast<int>(t - 1);
  }

  // A header line; returns false when `w` starts a section instead.
  bool header(const std::vector<std::string>& w) {
    const std::string rest = joined(w, 1);
    if (w.size() >= 4 && (w[2] == "xlo" || w[2] == "ylo" || w[2] == "zlo")) {
      const int d = w[2][0] - 'x';
      const std::string hi = std::string(1, w[2][0]) + "hi";
      if (w.size() != 4 || w[3] != hi) lines.fail("expected '" + w[2] + " " + hi + "'");
      const double lo = lines.number_of<double>(w[0], w[2]);
      const double up = lines.number_of<double>(w[1], hi);
      if (!(up > lo)) lines.fail(fmt::format("{} {} must be greater than {} {}", hi, up, w[2], lo));
      f.lo[d] = lo;
      f.len[d] = up - lo;
      box[d] = true;
      f.box_line[d] = lines.number();
      return true;
    }
    if (w.size() == 6 && w[3] == "xy" && w[4] == "xz" && w[5] == "yz") {
      for (int k = 0; k < 3; ++k)
        if (lines.number_of<double>(w[k], w[3 + k]) != 0.0)
          lines.fail("a triclinic box (tilt " + w[3 + k] + " " + w[k] +
                     "): only orthogonal boxes are read");
      return true;
    }
    if (w.size() < 2 || w[0].find_first_not_of("0123456789+-") != std::string::npos) return false;
    const long long count = lines.number_of<long long>(w[0], "count '" + rest + "'");
    if (count < 0) lines.fail("'" + rest + "' must not be negative");
    if (rest == "atoms") {
      if (count > kMaxDeclared)
        lines.fail(fmt::format("{} atoms: at most {} are supported", count, kMaxDeclared));
      natoms = count;
    } else if (rest == "atom types") {
      if (count < 1 || count > 1000)
        lines.fail(fmt::format("{} atom types: expected 1 to 1000", count));
      ntypes = count;
    } else if (std::find(kTopologyCounts.begin(), kTopologyCounts.end(), rest) !=
               kTopologyCounts.end()) {
      if (count != 0)
        lines.fail(fmt::format("{} {}: atom_style atomic has no molecular topology", count, rest));
    } else {
      lines.fail("unknown header line '" + shown_text(rest) + "'");
    }
    return true;
  }

  void need_header(const std::string& section) {
    if (natoms < 0) lines.fail("section " + section + " before the header's 'N atoms' line");
    if (ntypes < 0) lines.fail("section " + section + " before the header's 'N atom types' line");
  }

  // The `count` data lines of a section, each handed to `row` with its words.
  template <class Row>
  void rows(const std::string& section, long long count, Row&& row) {
    std::string text;
    for (long long k = 0; k < count; ++k) {
      if (!content(text))
        throw InputError(
            lines.name(), lines.number(),
            fmt::format("the file ends after {} of the {} lines of section {}", k, count, section));
      row(words(text));
    }
  }

  void masses() {
    if (have_masses) lines.fail("a second Masses section");
    have_masses = true;
    rows("Masses", ntypes, [&](const std::vector<std::string>& w) {
      if (w.size() != 2)
        lines.fail(fmt::format("Masses: expected 'type mass', got {} words", w.size()));
      const int t = type_of(w[0]);
      const double m = lines.number_of<double>(w[1], "mass");
      if (!(m > 0)) lines.fail(fmt::format("mass {} of type {} must be positive", m, t + 1));
      if (f.types[t].mass_line != 0)
        lines.fail(
            fmt::format("type {} has a mass already (line {})", t + 1, f.types[t].mass_line));
      f.types[t].mass = m;
      f.types[t].mass_line = lines.number();
    });
  }

  void labels() {
    if (have_labels) lines.fail("a second Atom Type Labels section");
    if (have_atoms || have_masses) lines.fail("Atom Type Labels must come before Masses and Atoms");
    have_labels = true;
    rows("Atom Type Labels", ntypes, [&](const std::vector<std::string>& w) {
      if (w.size() != 2) lines.fail("Atom Type Labels: expected 'type label'");
      const int t = type_of(w[0]);
      if (w[1].find_first_not_of("0123456789") == std::string::npos)
        lines.fail("type label '" + w[1] + "' is a number (labels must not be)");
      if (label.count(w[1]) != 0) lines.fail("type label '" + w[1] + "' given twice");
      label[w[1]] = t;
      f.types[t].name = w[1];
    });
    f.named_types = true;
  }

  void atoms(const std::string& style) {
    if (have_atoms) lines.fail("a second Atoms section");
    if (!style.empty() && style != "atomic")
      lines.fail("Atoms section of atom_style " + shown_text(style) +
                 ": only atom_style atomic (id type x y z) is read");
    have_atoms = true;
    const std::size_t n = static_cast<std::size_t>(natoms);
    const std::size_t reserve = std::min<std::size_t>(n, 1 << 20);  // grows with the lines
    f.x.reserve(3 * reserve);
    f.id.reserve(reserve);
    f.type.reserve(reserve);
    f.line.reserve(reserve);
    bool images = false;
    rows("Atoms", natoms, [&](const std::vector<std::string>& w) {
      if (w.size() != 5 && w.size() != 8)
        lines.fail(
            fmt::format("Atoms (atomic): expected 'id type x y z' and optionally 'ix iy "
                        "iz', got {} words",
                        w.size()));
      const bool first = f.id.empty();
      if (first) images = w.size() == 8;
      if ((w.size() == 8) != images)
        lines.fail("image flags on some Atoms lines only (give them on all or none)");
      const long long id = lines.number_of<long long>(w[0], "atom id");
      if (id < 1) lines.fail(fmt::format("atom id {} must be positive", id));
      const std::size_t slot = f.id.size();
      if (!slot_of_id.emplace(id, slot).second)
        lines.fail(fmt::format("atom id {} appears twice (line {})", id, f.line[slot_of_id[id]]));
      f.id.push_back(id);
      f.type.push_back(type_of(w[1]));
      for (int d = 0; d < 3; ++d)
        f.x.push_back(lines.number_of<double>(w[2 + d], std::string(1, "xyz"[d])));
      if (images)
        for (int d = 0; d < 3; ++d) {
          const long long im =
              lines.number_of<long long>(w[5 + d], std::string("image flag i") + "xyz"[d]);
          if (im < -(1 << 20) || im > (1 << 20))
            lines.fail(fmt::format("image flag {} is out of range", im));
          f.image.push_back(static_cast<std::int32_t>(im));
        }
      f.line.push_back(lines.number());
    });
  }

  void velocities() {
    if (have_velocities) lines.fail("a second Velocities section");
    if (!have_atoms) lines.fail("Velocities before Atoms");
    have_velocities = true;
    f.v.assign(3 * f.id.size(), 0.0);
    velocity_seen.assign(f.id.size(), 0);
    rows("Velocities", natoms, [&](const std::vector<std::string>& w) {
      if (w.size() != 4) lines.fail("Velocities: expected 'id vx vy vz'");
      const long long id = lines.number_of<long long>(w[0], "atom id");
      auto it = slot_of_id.find(id);
      if (it == slot_of_id.end())
        lines.fail(fmt::format("velocity of atom id {}, which the Atoms section lacks", id));
      if (velocity_seen[it->second]) lines.fail(fmt::format("a second velocity of atom {}", id));
      velocity_seen[it->second] = 1;
      for (int d = 0; d < 3; ++d)
        f.v[3 * it->second + d] = lines.number_of<double>(w[1 + d], std::string("v") + "xyz"[d]);
    });
  }

  // Pair Coeffs and PairIJ Coeffs: read past (the deck's potential section sets the pairs).
  void skip(const std::string& section, long long count) {
    rows(section, count, [](const std::vector<std::string>&) {});
    f.notes.push_back(
        fmt::format("{}: section {} ignored (the deck's potential section sets the "
                    "pair coefficients)",
                    lines.name(), section));
  }

  ParticleFile read() {
    f.format = "LAMMPS data";
    f.path = lines.name();
    std::string title;
    if (!lines.next(title)) lines.fail("empty file (a LAMMPS data file starts with a title line)");
    std::string text, comment;
    bool in_header = true;
    while (content(text, &comment)) {
      const auto w = words(text);
      if (in_header && header(w)) continue;
      const bool was_header = in_header;
      in_header = false;
      const std::string name = joined(w, 0);
      if (std::find(kForeignSections.begin(), kForeignSections.end(), name) !=
          kForeignSections.end())
        lines.fail("section " + name + ": atom_style atomic has no such section");
      if (std::find(kSections.begin(), kSections.end(), name) == kSections.end())
        lines.fail(was_header ? "unknown header line or section '" + shown_text(name) + "'"
                              : "unknown section '" + shown_text(name) + "'");
      need_header(name);
      if (f.types.empty()) {
        for (long long t = 1; t <= ntypes; ++t) f.types.push_back({std::to_string(t), 0.0, 0});
        for (int d = 0; d < 3; ++d)
          if (!box[d]) lines.fail(fmt::format("the header has no '{0}lo {0}hi' line", "xyz"[d]));
      }
      const std::string style = words(comment).empty() ? "" : words(comment)[0];
      if (name == "Masses") {
        masses();
      } else if (name == "Atom Type Labels") {
        labels();
      } else if (name == "Atoms") {
        atoms(style);
      } else if (name == "Velocities") {
        velocities();
      } else if (name == "Pair Coeffs") {
        skip(name, ntypes);
      } else {
        skip(name, ntypes * (ntypes + 1) / 2);
      }
    }
    if (natoms < 0) lines.fail("no 'N atoms' header line");
    if (!have_atoms) lines.fail("no Atoms section");
    return std::move(f);
  }
};

}  // namespace

ParticleFile read_lammps_data(std::istream& in, const std::string& name) {
  Reader r(in, name);
  return r.read();
}

}  // namespace mdremap::io
