// Extended XYZ (the form ASE, OVITO and QUIP write): per frame a line with the atom count, a
// comment line of key=value pairs (Lattice="ax ay az bx by bz cx cy cz" for the box,
// Properties=name:type:columns:... for the columns, pbc="T T T"), then one line per atom. A
// plain XYZ frame (no Properties) has the columns species x y z; a box is required.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "io/particle_file.hpp"
#include "io/text_lines.hpp"

namespace mdremap::io {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// The comment line's key=value pairs (keys lower-cased; values unquoted), in the extended XYZ
// form: values quoted with "..." may hold spaces; a bare key is a flag ("T").
std::map<std::string, std::string> key_values(const std::string& line, const TextLines& lines) {
  std::map<std::string, std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    if (i >= line.size()) break;
    const std::size_t b = i;
    while (i < line.size() && line[i] != '=' && line[i] != ' ' && line[i] != '\t') ++i;
    const std::string key = lower(line.substr(b, i - b));
    std::string value = "T";
    if (i < line.size() && line[i] == '=') {
      ++i;
      if (i < line.size() && line[i] == '"') {
        const auto close = line.find('"', i + 1);
        if (close == std::string::npos) lines.fail("unterminated quote in the comment line");
        value = line.substr(i + 1, close - i - 1);
        i = close + 1;
      } else {
        const std::size_t v = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
        value = line.substr(v, i - v);
      }
    }
    out[key] = value;
  }
  return out;
}

struct Column {
  std::string name;  // lower-cased
  char kind;         // S, R, I, L
  int count;
  int first;  // first word of the atom line
};

std::vector<Column> parse_properties(const std::string& text, const TextLines& lines) {
  std::vector<std::string> parts;
  std::size_t b = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ':') {
      parts.push_back(text.substr(b, i - b));
      b = i + 1;
    }
  if (parts.size() % 3 != 0)
    lines.fail("Properties=" + shown_text(text) + ": expected name:type:count triples");
  std::vector<Column> cols;
  int at = 0;
  for (std::size_t k = 0; k < parts.size(); k += 3) {
    const std::string kind = parts[k + 1];
    if (kind != "S" && kind != "R" && kind != "I" && kind != "L")
      lines.fail("Properties: column '" + shown_text(parts[k]) + "' has type '" + shown_text(kind) +
                 "' (expected S, R, I or L)");
    const int count = lines.number_of<int>(parts[k + 2], "Properties column count");
    if (count < 1 || count > 9)
      lines.fail(fmt::format("Properties: column '{}' has {} values", parts[k], count));
    cols.push_back({lower(parts[k]), kind[0], count, at});
    at += count;
  }
  return cols;
}

}  // namespace

ParticleFile read_xyz(std::istream& in, const std::string& name, std::int64_t frame) {
  TextLines lines(in, name);
  // Frames are found by their counts (the frame asked for may be the last of many): a first
  // pass notes the line of each frame's count, a second reads the frame asked for.
  const std::streampos start = in.tellg();
  std::vector<int> first_line;
  {
    std::string line;
    while (lines.next(line)) {
      const auto w = words(line);
      if (w.empty()) continue;  // blank lines between frames
      if (w.size() != 1)
        lines.fail("expected the atom count of a frame, got '" + shown_text(line) + "'");
      const auto n = lines.number_of<long long>(w[0], "atom count");
      if (n < 1 || n > std::numeric_limits<std::int32_t>::max())
        lines.fail(fmt::format("atom count {} (expected 1 to 2^31-1)", n));
      first_line.push_back(lines.number());
      for (long long k = 0; k <= n; ++k)
        if (!lines.next(line))
          lines.fail(fmt::format("the file ends inside a frame of {} atoms", n));
    }
  }
  const std::int64_t k =
      resolve_frame(frame, static_cast<std::int64_t>(first_line.size()), name, "XYZ frame");
  in.clear();
  in.seekg(start);
  TextLines again(in, name);
  std::string line;
  while (again.number() < first_line[k] && again.next(line)) {
  }
  // `line` holds the count of frame k (the line read at offset k).
  ParticleFile f;
  f.path = name;
  f.format = "extended XYZ";
  f.frame = k;
  f.frames = static_cast<std::int64_t>(first_line.size());
  f.named_types = true;
  const std::int64_t n = again.number_of<long long>(words(line)[0], "atom count");
  if (!again.next(line)) again.fail("the file ends before the comment line");
  const auto kv = key_values(line, again);
  f.box_line[0] = f.box_line[1] = f.box_line[2] = again.number();
  auto lattice = kv.find("lattice");
  if (lattice == kv.end())
    again.fail("no Lattice=\"ax ay az bx by bz cx cy cz\" in the comment line: the box is needed");
  const auto lw = words(lattice->second);
  if (lw.size() != 9) again.fail("Lattice= needs 9 numbers (three cell vectors)");
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      const double c = again.number_of<double>(lw[3 * a + b], "Lattice");
      if (a == b)
        f.len[a] = c;
      else if (c != 0.0)
        again.fail("Lattice= is not diagonal: only orthogonal boxes are read");
    }
  if (auto pbc = kv.find("pbc"); pbc != kv.end()) {
    const auto pw = words(pbc->second);
    if (pw.size() != 3) again.fail("pbc= needs three flags (\"T T T\")");
    for (int d = 0; d < 3; ++d) {
      const std::string v = lower(pw[d]);
      if (v == "t" || v == "true" || v == "1")
        f.periodic[d] = true;
      else if (v == "f" || v == "false" || v == "0")
        f.periodic[d] = false;
      else
        again.fail("pbc= flag '" + shown_text(pw[d]) + "' is not T or F");
    }
  }
  std::vector<Column> cols;
  if (auto p = kv.find("properties"); p != kv.end())
    cols = parse_properties(p->second, again);
  else
    cols = {{"species", 'S', 1, 0}, {"pos", 'R', 3, 1}};
  const Column *species = nullptr, *pos = nullptr, *vel = nullptr, *momenta = nullptr,
               *mass = nullptr, *id = nullptr;
  std::size_t width = 0;
  for (const auto& c : cols) {
    width += c.count;
    const Column* p = &c;
    if (c.name == "species" || c.name == "element" || c.name == "type_name")
      species = p;
    else if (c.name == "pos" || c.name == "positions")
      pos = p;
    else if (c.name == "vel" || c.name == "velo" || c.name == "velocities")
      vel = p;
    else if (c.name == "momenta")
      momenta = p;
    else if (c.name == "masses" || c.name == "mass")
      mass = p;
    else if (c.name == "id")
      id = p;
    else
      f.notes.push_back(fmt::format("{}:{}: column '{}' ignored", name, again.number(), c.name));
  }
  if (species == nullptr || species->kind != 'S' || species->count != 1)
    again.fail("Properties: no species:S:1 column (the atoms' type names)");
  if (pos == nullptr || pos->kind != 'R' || pos->count != 3)
    again.fail("Properties: no pos:R:3 column");
  if (vel != nullptr && momenta != nullptr) again.fail("both velocities and momenta columns");
  if (momenta != nullptr && mass == nullptr)
    again.fail(
        "a momenta column without a masses column: velocities are momenta over masses "
        "(write masses, or velocities as vel:R:3)");
  for (const Column* c : {vel, momenta})
    if (c != nullptr && (c->kind != 'R' || c->count != 3))
      again.fail("Properties: column '" + c->name + "' must be R:3");
  if (mass != nullptr && (mass->kind != 'R' || mass->count != 1))
    again.fail("Properties: column 'masses' must be R:1");
  if (id != nullptr && (id->kind != 'I' || id->count != 1))
    again.fail("Properties: column 'id' must be I:1");

  std::map<std::string, int> type_index;
  f.x.reserve(3 * static_cast<std::size_t>(std::min<std::int64_t>(n, 1 << 20)));
  if (vel != nullptr || momenta != nullptr) f.v.reserve(f.x.capacity());
  for (std::int64_t a = 0; a < n; ++a) {
    if (!again.next(line)) again.fail("the file ends inside the frame");
    const auto w = words(line);
    if (w.size() != width)
      again.fail(fmt::format("expected {} columns ({}), got {}", width,
                             kv.count("properties") ? "from Properties" : "species x y z",
                             w.size()));
    const std::string& s = w[species->first];
    auto [it, added] = type_index.emplace(s, static_cast<int>(f.types.size()));
    if (added) f.types.push_back({s, 0.0, 0});
    f.type.push_back(it->second);
    for (int d = 0; d < 3; ++d)
      f.x.push_back(again.number_of<double>(w[pos->first + d], std::string(1, "xyz"[d])));
    double m = 0;
    if (mass != nullptr) {
      m = again.number_of<double>(w[mass->first], "mass");
      if (!(m > 0)) again.fail(fmt::format("mass {} must be positive", m));
      ParticleType& t = f.types[it->second];
      if (t.mass_line != 0 && t.mass != m)
        again.fail(
            fmt::format("species {} has mass {} here and {} on line {}: masses are per "
                        "type",
                        s, m, t.mass, t.mass_line));
      if (t.mass_line == 0) t.mass = m, t.mass_line = again.number();
    }
    if (vel != nullptr || momenta != nullptr) {
      const Column* c = vel != nullptr ? vel : momenta;
      for (int d = 0; d < 3; ++d) {
        const double q = again.number_of<double>(w[c->first + d], c->name);
        f.v.push_back(vel != nullptr ? q : q / m);
      }
    }
    f.id.push_back(id != nullptr ? again.number_of<long long>(w[id->first], "id") : a + 1);
    f.line.push_back(again.number());
  }
  return f;
}

}  // namespace mdremap::io
