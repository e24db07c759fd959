#include "md/system_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace mdremap::md {

namespace {

// The file's atoms by id: order[k] is the file row of the atom with the k-th smallest id.
std::vector<std::size_t> id_order(const io::ParticleFile& f) {
  std::vector<std::size_t> order(f.n());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return f.id[a] < f.id[b]; });
  return order;
}

std::string type_names(const MdParams& p) {
  std::string s;
  for (const auto& t : p.types) s += (s.empty() ? "" : ", ") + t.name;
  return s;
}

}  // namespace

void read_system_file(io::DeckSection& sys, MdParams& p) {
  p.system_file = sys.get<std::string>("file", "");
  if (p.system_file.empty()) sys.fail("file", "is empty (a LAMMPS data, XYZ, GSD or H5MD file)");
  const std::string format = io::one_of(sys, "format", "auto", io::particle_formats());
  const long long frame = sys.get<long long>("frame", -1);
  const std::string velocities = io::one_of(sys, "velocities", "auto", {"auto", "file", "draw"});
  auto f = std::make_shared<io::ParticleFile>(io::read_particle_file(p.system_file, format, frame));
  if (static_cast<std::int64_t>(f->n()) > kMaxAtoms)
    throw InputError(p.system_file, 0,
                     fmt::format("{} atoms: at most {} are supported", f->n(), kMaxAtoms));
  if (velocities == "file" && f->v.empty())
    sys.fail("velocities",
             fmt::format("is 'file' but {} ({}) holds no velocities", p.system_file, f->format));
  p.file_velocities = velocities != "draw" && !f->v.empty();
  p.file = std::move(f);
}

void map_file_types(io::DeckSection& sys, MdParams& p) {
  const io::ParticleFile& f = *p.file;
  const std::size_t nt = f.types.size();
  // The first atom of each file type, for errors that name a line.
  std::vector<std::size_t> first(nt, f.n());
  for (std::size_t i = f.n(); i-- > 0;) first[f.type[i]] = i;
  p.file_type.assign(nt, -1);
  if (p.types.empty()) {
    // No system.types: the file's types, in its order (its masses, or 1).
    for (std::size_t k = 0; k < nt; ++k) {
      TypeSpec t;
      t.name = f.types[k].name;
      t.mass = f.types[k].mass > 0 ? f.types[k].mass : 1.0;
      t.mass_given = f.types[k].mass > 0;
      p.types.push_back(t);
      p.file_type[k] = static_cast<int>(k);
    }
    if (p.types.size() > 8)
      sys.fail("file",
               fmt::format("{} holds {} atom types: at most 8 are supported", p.system_file, nt));
    return;
  }
  for (std::size_t k = 0; k < nt; ++k) {
    const io::ParticleType& ft = f.types[k];
    int t = -1;
    if (f.named_types) {
      for (std::size_t d = 0; d < p.types.size(); ++d)
        if (p.types[d].name == ft.name) t = static_cast<int>(d);
    } else if (k < p.types.size()) {
      t = static_cast<int>(k);
    }
    if (t < 0) {
      if (first[k] == f.n()) continue;  // a type no atom has
      const std::string what =
          f.named_types
              ? fmt::format("type '{}' is not in system.types ({})", ft.name, type_names(p))
              : fmt::format(
                    "type {} has no system.types entry (the deck defines {}: "
                    "{}; the file's types match them in order)",
                    ft.name, p.types.size(), type_names(p));
      throw f.at_atom(first[k], what);
    }
    p.file_type[k] = t;
    TypeSpec& spec = p.types[t];
    if (ft.mass > 0) {
      if (spec.mass_given && spec.mass != ft.mass) {
        const std::string what = fmt::format(
            "mass {} of type {} differs from system.types[{}].mass = {}: remove "
            "the deck's mass or make them agree",
            ft.mass, ft.name, spec.name, spec.mass);
        if (ft.mass_line > 0) throw InputError(f.path, ft.mass_line, what);
        throw f.at_atom(first[k], what);
      }
      spec.mass = ft.mass;
      spec.mass_given = true;
    }
  }
}

HostSystem system_from_file(const MdParams& p) {
  const io::ParticleFile& f = *p.file;
  HostSystem s;
  for (int d = 0; d < 3; ++d) s.lo[d] = f.lo[d], s.len[d] = f.len[d];
  const std::size_t n = f.n();
  const auto order = id_order(f);
  s.x.resize(3 * n);
  s.v.assign(3 * n, 0.0);
  s.type.resize(n);
  s.id.resize(n);
  if (!f.image.empty()) s.image.resize(3 * n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = order[k];
    for (int d = 0; d < 3; ++d) {
      s.x[3 * k + d] = f.x[3 * i + d];
      if (p.file_velocities) s.v[3 * k + d] = f.v[3 * i + d];
      if (!f.image.empty()) s.image[3 * k + d] = f.image[3 * i + d];
    }
    s.type[k] = p.file_type[f.type[i]];
    s.id[k] = static_cast<std::int64_t>(k);
  }
  return s;
}

std::string describe_system_file(const MdParams& p) {
  const io::ParticleFile& f = *p.file;
  std::string frame;
  if (f.frames > 1) frame = fmt::format(", frame {} of {}", f.frame, f.frames);
  return fmt::format(
      "system from {} ({}{}, step {}): {} atoms of {} type{}, box {:g} x {:g} x "
      "{:g}, velocities {}{}",
      f.path, f.format, frame, f.step, f.n(), p.types.size(), p.types.size() == 1 ? "" : "s",
      f.len[0], f.len[1], f.len[2],
      p.file_velocities ? "from the file" : fmt::format("drawn at temperature {:g}", p.temperature),
      f.image.empty() ? "" : ", image counts from the file");
}

std::vector<std::string> system_file_notes(const MdParams& p) {
  const io::ParticleFile& f = *p.file;
  std::vector<std::string> notes = f.notes;
  std::string open;
  for (int d = 0; d < 3; ++d)
    if (!f.periodic[d]) open += (open.empty() ? "" : ", ") + std::string(1, "xyz"[d]);
  if (!open.empty())
    notes.push_back(
        fmt::format("{}: the box is not periodic along {} in the file; this run's box "
                    "is periodic along every axis (the atoms lie inside it)",
                    f.path, open));
  if (!f.v.empty() && !p.file_velocities)
    notes.push_back(
        fmt::format("{}: the file's velocities are not used (system.velocities: "
                    "draw)",
                    f.path));
  return notes;
}

std::vector<std::int64_t> given_atom_ids(const MdParams& p) {
  std::vector<std::int64_t> ids(static_cast<std::size_t>(p.natoms()));
  if (!p.file) {
    std::iota(ids.begin(), ids.end(), std::int64_t{1});
    return ids;
  }
  const auto order = id_order(*p.file);
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = p.file->id[order[k]];
  return ids;
}

}  // namespace mdremap::md
