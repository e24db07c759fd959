#include "io/vtk_writer.hpp"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIdTypeArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkTypeInt32Array.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "io/paths.hpp"
#include "io/staged_file.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {

namespace fs = std::filesystem;

namespace {

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// Shortest text that reads back to the same double, so ParaView sees the exact frame time.
std::string number(double value) {
  char buf[32];
  return std::string(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr);
}

void rename_into_place(const std::string& tmp, const std::string& path) {
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw Error("cannot write '" + path + "': rename failed (" + ec.message() + ")");
  }
}

void write_text(const std::string& path, const std::string& text) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr)
    throw Error("cannot write '" + path + "': " + std::string(std::strerror(errno)));
  const bool ok = std::fwrite(text.data(), 1, text.size(), out) == text.size();
  if (std::fclose(out) != 0 || !ok) throw Error("cannot write '" + path + "' (disk full?)");
}

template <class Array>
void add_vector_array(vtkPolyData* poly, const char* name, const std::vector<double>& values,
                      std::size_t n) {
  if (values.empty()) return;
  vtkNew<Array> array;
  array->SetName(name);
  array->SetNumberOfComponents(3);
  array->SetNumberOfTuples(static_cast<vtkIdType>(n));
  std::copy(values.begin(), values.end(), array->GetPointer(0));
  poly->GetPointData()->AddArray(array);
}

}  // namespace

VtkTrajectoryWriter::VtkTrajectoryWriter(std::string dir, std::string basename, int piece,
                                         int pieces)
    : dir_(std::move(dir)), basename_(std::move(basename)), piece_(piece), pieces_(pieces) {
  if (basename_.empty()) throw Error("VTK output: empty base name");
  if (pieces_ < 1 || piece_ < 0 || piece_ >= pieces_)
    throw Error("VTK output: piece " + std::to_string(piece_) + " of " + std::to_string(pieces_));
  check_writable(collection_path());
  if (piece_ != 0) return;                                        // piece 0 owns the set
  collection_ = std::make_unique<StagedFile>(collection_path());  // the lock of the whole set
  remove_stale_frames();
}

void VtkTrajectoryWriter::remove_stale_frames() const {
  const std::string prefix = basename_ + "_";
  const std::string partial = StagedFile::kSuffix;
  auto ends_with = [](const std::string& name, const std::string& tail) {
    return name.size() >= tail.size() &&
           name.compare(name.size() - tail.size(), tail.size(), tail) == 0;
  };
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) == 0 &&
        (ends_with(name, ".vtp" + partial) || ends_with(name, ".pvtp" + partial))) {
      std::error_code rm;
      if (fs::remove(entry.path(), rm)) ++removed;
    }
  }
  if (removed > 0)
    StagedFile::note("removed " + std::to_string(removed) + " '" + prefix + "*.vtp" + partial +
                     "' frame(s) in '" + dir_ + "', left by an earlier run that stopped");
}

std::string VtkTrajectoryWriter::frame_path(std::int64_t step) const {
  const char* ext = split() ? ".pvtp" : ".vtp";
  return (fs::path(dir_) / (basename_ + "_" + std::to_string(step) + ext)).string();
}

std::string VtkTrajectoryWriter::piece_path(std::int64_t step, int piece) const {
  return (fs::path(dir_) /
          (basename_ + "_" + std::to_string(step) + "_" + std::to_string(piece) + ".vtp"))
      .string();
}

std::string VtkTrajectoryWriter::collection_path() const {
  return (fs::path(dir_) / (basename_ + ".pvd")).string();
}

void VtkTrajectoryWriter::write_frame(const Frame& frame) {
  if (finished_) throw Error("VTK output '" + collection_path() + "': write after finish");
  const std::size_t n = frame.id.size();
  const std::string path = split() ? piece_path(frame.step, piece_) : frame_path(frame.step);
  auto require = [&](bool ok, const std::string& what) {
    if (!ok) throw Error("VTK frame '" + path + "': " + what);
  };
  require(frame.x.size() == 3 * n, "position array (Frame::x) must hold 3 values per atom id");
  require(frame.type.size() == n, "type array must hold one value per atom id");
  require(frame.v.empty() || frame.v.size() == 3 * n, "velocity array has the wrong size");
  require(frame.f.empty() || frame.f.size() == 3 * n, "force array has the wrong size");

  vtkNew<vtkPolyData> poly;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(n));
  std::copy(frame.x.begin(), frame.x.end(),
            static_cast<double*>(points->GetData()->GetVoidPointer(0)));
  poly->SetPoints(points);

  // One VTK_VERTEX per atom, built directly as offsets/connectivity (no per-cell insert).
  vtkNew<vtkIdTypeArray> offsets, connectivity;
  offsets->SetNumberOfValues(static_cast<vtkIdType>(n) + 1);
  connectivity->SetNumberOfValues(static_cast<vtkIdType>(n));
  for (vtkIdType i = 0; i <= static_cast<vtkIdType>(n); ++i) offsets->SetValue(i, i);
  for (vtkIdType i = 0; i < static_cast<vtkIdType>(n); ++i) connectivity->SetValue(i, i);
  vtkNew<vtkCellArray> verts;
  verts->SetData(offsets, connectivity);
  poly->SetVerts(verts);

  vtkNew<vtkTypeInt64Array> ids;
  ids->SetName("id");
  ids->SetNumberOfValues(static_cast<vtkIdType>(n));
  std::copy(frame.id.begin(), frame.id.end(), ids->GetPointer(0));
  poly->GetPointData()->AddArray(ids);
  vtkNew<vtkTypeInt32Array> types;
  types->SetName("type");
  types->SetNumberOfValues(static_cast<vtkIdType>(n));
  std::copy(frame.type.begin(), frame.type.end(), types->GetPointer(0));
  poly->GetPointData()->AddArray(types);
  add_vector_array<vtkDoubleArray>(poly, "velocity", frame.v, n);
  add_vector_array<vtkDoubleArray>(poly, "force", frame.f, n);
  // The frame's step, time and box as field data (one tuple each): "TimeValue" is the name
  // VTK's readers give a data set's time.
  vtkNew<vtkTypeInt64Array> step;
  step->SetName("step");
  step->InsertNextValue(frame.step);
  poly->GetFieldData()->AddArray(step);
  vtkNew<vtkDoubleArray> time;
  time->SetName("TimeValue");
  time->InsertNextValue(frame.time);
  poly->GetFieldData()->AddArray(time);
  for (const auto& [name, values] :
       {std::pair{"box_lo", frame.box_lo}, std::pair{"box_len", frame.box_len}}) {
    vtkNew<vtkDoubleArray> box;
    box->SetName(name);
    box->SetNumberOfComponents(3);
    box->InsertNextTuple(values);
    poly->GetFieldData()->AddArray(box);
  }

  const std::string tmp = StagedFile::staging_name(path);  // renamed into place by finish()
  vtkNew<vtkXMLPolyDataWriter> writer;
  writer->SetFileName(tmp.c_str());
  writer->SetInputData(poly);
  // Raw appended binary with LZ4: much faster than the default base64 + zlib for big frames.
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();
  writer->SetCompressorTypeToLZ4();
  if (writer->Write() != 1 || writer->GetErrorCode() != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    throw Error("cannot write VTK frame '" + path + "' (disk full or directory removed?)");
  }
  if (split()) piece_files_.push_back(fs::path(path).filename().string());
  entries_.push_back(
      {frame.step, frame.time, fs::path(frame_path(frame.step)).filename().string()});
  if (piece_ != 0) return;
  // The staged summary names the staged pieces, so a run that stops leaves an openable set.
  if (split())
    write_summary(StagedFile::staging_name(frame_path(frame.step)), frame.step, !frame.v.empty(),
                  !frame.f.empty(), StagedFile::kSuffix);
  summaries_.push_back({frame.step, !frame.v.empty(), !frame.f.empty()});
  write_collection(collection_->staging(), StagedFile::kSuffix);
}

void VtkTrajectoryWriter::finish_pieces() {
  for (const auto& file : piece_files_) {
    const std::string path = (fs::path(dir_) / file).string();
    rename_into_place(StagedFile::staging_name(path), path);
  }
  piece_files_.clear();
}

void VtkTrajectoryWriter::finish() {
  if (finished_) return;
  finish_pieces();
  finished_ = true;
  if (!collection_) return;  // a piece past 0: piece 0 finishes the set
  if (split()) {  // every rank's pieces are in place: summaries naming them, then into place
    for (const auto& m : summaries_) {
      const std::string path = frame_path(m.step);
      write_summary(StagedFile::staging_name(path), m.step, m.velocity, m.force, "");
      rename_into_place(StagedFile::staging_name(path), path);
    }
  } else {
    for (const auto& entry : entries_) {
      const std::string path = (fs::path(dir_) / entry.file).string();
      rename_into_place(StagedFile::staging_name(path), path);
    }
  }
  write_collection(collection_->staging(), "");
  collection_->commit();
  collection_.reset();
}

// The summary of a split frame (VTK's PPolyData): the arrays every piece holds, as the pieces
// are written above (points, id, type, velocity, force), and the pieces' files.
void VtkTrajectoryWriter::write_summary(const std::string& tmp, std::int64_t step, bool velocity,
                                        bool force, const std::string& piece_suffix) const {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"PPolyData\" version=\"1.0\" byte_order=\"LittleEndian\" "
      "header_type=\"UInt64\">\n"
      "  <PPolyData GhostLevel=\"0\">\n"
      "    <PPointData>\n"
      "      <PDataArray type=\"Int64\" Name=\"id\"/>\n"
      "      <PDataArray type=\"Int32\" Name=\"type\"/>\n";
  if (velocity)
    xml += "      <PDataArray type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\"/>\n";
  if (force)
    xml += "      <PDataArray type=\"Float64\" Name=\"force\" NumberOfComponents=\"3\"/>\n";
  xml +=
      "    </PPointData>\n"
      "    <PPoints>\n"
      "      <PDataArray type=\"Float64\" Name=\"Points\" NumberOfComponents=\"3\"/>\n"
      "    </PPoints>\n";
  for (int k = 0; k < pieces_; ++k)
    xml += "    <Piece Source=\"" +
           xml_escape(fs::path(piece_path(step, k)).filename().string() + piece_suffix) + "\"/>\n";
  xml += "  </PPolyData>\n</VTKFile>\n";
  write_text(tmp, xml);
}

// Writes the collection to `tmp` (the locked staging file), naming each frame with `suffix`.
void VtkTrajectoryWriter::write_collection(const std::string& tmp,
                                           const std::string& frame_suffix) const {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  // timestep is the time (what ParaView reads); step the MD step of the frame.
  for (const auto& e : entries_)
    xml += "    <DataSet timestep=\"" + number(e.time) + "\" step=\"" + std::to_string(e.step) +
           "\" group=\"\" part=\"0\" file=\"" + xml_escape(e.file + frame_suffix) + "\"/>\n";
  xml += "  </Collection>\n</VTKFile>\n";
  write_text(tmp, xml);
}

}  // namespace mdremap::io
