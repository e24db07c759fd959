#include "io/gsd_writer.hpp"

#include <algorithm>
#include <cmath>

#include "io/gsd_file.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

namespace {

// The chunks of a frame, in the order they are written (the index is sorted by name id).
const std::vector<std::string> kChunks = {
    "configuration/step", "configuration/box",  "particles/N",
    "particles/types",    "particles/typeid",   "particles/mass",
    "particles/position", "particles/velocity", "particles/image"};
constexpr std::uint32_t kSchemaVersion = (1u << 16) | 4u;  // hoomd 1.4

}  // namespace

GsdFields GsdFields::from_names(const std::vector<std::string>& names) {
  GsdFields f{false, false, false};
  for (const auto& n : names) {
    if (n == "position")
      f.position = true;
    else if (n == "velocity")
      f.velocity = true;
    else if (n == "image")
      f.image = true;
    else
      throw Error("unknown GSD field '" + n + "' (valid: position, velocity, image)");
  }
  if (!f.position) throw Error("the GSD fields must include position");
  return f;
}

GsdTrajectoryWriter::GsdTrajectoryWriter(const std::string& path, const GsdOptions& options)
    : path_(path), options_(options) {
  if (options_.n_atoms == 0) throw Error("GSD file '" + path + "': no atoms to write");
  if (options_.type_names.empty()) throw Error("GSD file '" + path + "': no type names");
  staged_ = std::make_unique<StagedFile>(path);
  file_ = std::make_unique<gsd::Writer>(*staged_, options_.application, "hoomd", kSchemaVersion,
                                        kChunks);
}

GsdTrajectoryWriter::~GsdTrajectoryWriter() = default;

std::uint64_t GsdTrajectoryWriter::frames_written() const {
  return file_ ? file_->frames() : 0;
}

void GsdTrajectoryWriter::write_frame(const Frame& fr) {
  if (!file_) throw Error("GSD file '" + path_ + "': write after close");
  const std::size_t n = options_.n_atoms;
  const std::string at = "GSD file '" + path_ + "' at step " + std::to_string(fr.step) + ": ";
  if (fr.id.size() != n || fr.x.size() != 3 * n || fr.type.size() != n)
    throw Error(at + "the frame does not hold " + std::to_string(n) + " atoms");
  if (options_.fields.velocity && fr.v.size() != 3 * n) throw Error(at + "no velocities");
  if (!fr.image.empty() && fr.image.size() != 3 * n) throw Error(at + "image array size");
  slot_.assign(n, n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto id = fr.id[i];
    if (id < 0 || static_cast<std::size_t>(id) >= n || slot_[id] != n)
      throw Error(at + "atom ids are not 0.." + std::to_string(n - 1));
    slot_[id] = i;
  }
  const std::uint64_t step = static_cast<std::uint64_t>(std::max<std::int64_t>(fr.step, 0));
  const float box[6] = {float(fr.box_len[0]), float(fr.box_len[1]), float(fr.box_len[2]), 0, 0, 0};
  const std::uint32_t count = static_cast<std::uint32_t>(n);
  file_->chunk("configuration/step", gsd::kUInt64, 1, 1, &step);
  file_->chunk("configuration/box", gsd::kFloat, 6, 1, box);
  file_->chunk("particles/N", gsd::kUInt32, 1, 1, &count);
  std::size_t width = 1;
  for (const auto& t : options_.type_names) width = std::max(width, t.size() + 1);
  std::vector<char> types(options_.type_names.size() * width, '\0');
  for (std::size_t t = 0; t < options_.type_names.size(); ++t)
    options_.type_names[t].copy(&types[t * width], options_.type_names[t].size());
  file_->chunk("particles/types", gsd::kInt8, options_.type_names.size(),
               static_cast<std::uint32_t>(width), types.data());
  std::vector<std::uint32_t> typeid_(n);
  for (std::size_t k = 0; k < n; ++k) typeid_[k] = static_cast<std::uint32_t>(fr.type[slot_[k]]);
  file_->chunk("particles/typeid", gsd::kUInt32, n, 1, typeid_.data());
  if (file_->frames() == 0 && !options_.type_mass.empty()) {
    std::vector<float> mass(n);
    for (std::size_t k = 0; k < n; ++k) {
      const auto t = static_cast<std::size_t>(fr.type[slot_[k]]);
      if (t >= options_.type_mass.size()) throw Error(at + "atom type outside the mass table");
      mass[k] = static_cast<float>(options_.type_mass[t]);
    }
    file_->chunk("particles/mass", gsd::kFloat, n, 1, mass.data());
  }
  // Positions about the box centre, wrapped into [-L/2, L/2) in single precision; the image
  // counts take up what the wrap moved.
  std::vector<float> pos(3 * n);
  std::vector<std::int32_t> image(3 * n, 0);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = slot_[k];
    for (int d = 0; d < 3; ++d) {
      const double len = fr.box_len[d];
      double r = fr.x[3 * i + d] - fr.box_lo[d];
      const double shift = std::floor(r / len);
      r -= shift * len;
      float c = static_cast<float>(r - 0.5 * len);
      std::int32_t moved = static_cast<std::int32_t>(shift);
      const float half = static_cast<float>(0.5 * len);
      if (c >= half) c -= static_cast<float>(len), ++moved;
      if (c < -half) c = -half;
      pos[3 * k + d] = c;
      image[3 * k + d] = (fr.image.empty() ? 0 : fr.image[3 * i + d]) + moved;
    }
  }
  file_->chunk("particles/position", gsd::kFloat, n, 3, pos.data());
  if (options_.fields.velocity) {
    std::vector<float> vel(3 * n);
    for (std::size_t k = 0; k < n; ++k)
      for (int d = 0; d < 3; ++d) vel[3 * k + d] = static_cast<float>(fr.v[3 * slot_[k] + d]);
    file_->chunk("particles/velocity", gsd::kFloat, n, 3, vel.data());
  }
  if (options_.fields.image) file_->chunk("particles/image", gsd::kInt32, n, 3, image.data());
  file_->end_frame();
}

void GsdTrajectoryWriter::close() {
  if (!file_) return;
  file_.reset();
  staged_->commit();
  staged_.reset();
}

}  // namespace mdremap::io
