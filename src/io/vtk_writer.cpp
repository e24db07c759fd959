#include "io/vtk_writer.hpp"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
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

VtkTrajectoryWriter::VtkTrajectoryWriter(std::string dir, std::string basename)
    : dir_(std::move(dir)), basename_(std::move(basename)) {
  if (basename_.empty()) throw Error("VTK output: empty base name");
  check_writable(collection_path());
  collection_ = std::make_unique<StagedFile>(collection_path());  // the lock of the whole set
  remove_stale_frames();
}

void VtkTrajectoryWriter::remove_stale_frames() const {
  const std::string prefix = basename_ + "_";
  const std::string suffix = std::string(".vtp") + StagedFile::kSuffix;
  std::size_t removed = 0;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > prefix.size() + suffix.size() && name.rfind(prefix, 0) == 0 &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      std::error_code rm;
      if (fs::remove(entry.path(), rm)) ++removed;
    }
  }
  if (removed > 0)
    StagedFile::note("removed " + std::to_string(removed) + " '" + prefix + "*" + suffix +
                     "' frame(s) in '" + dir_ + "', left by an earlier run that stopped");
}

std::string VtkTrajectoryWriter::frame_path(std::int64_t step) const {
  return (fs::path(dir_) / (basename_ + "_" + std::to_string(step) + ".vtp")).string();
}

std::string VtkTrajectoryWriter::collection_path() const {
  return (fs::path(dir_) / (basename_ + ".pvd")).string();
}

void VtkTrajectoryWriter::write_frame(const Frame& frame) {
  if (!collection_) throw Error("VTK output '" + collection_path() + "': write after finish");
  const std::size_t n = frame.id.size();
  const std::string path = frame_path(frame.step);
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
  entries_.emplace_back(frame.time, fs::path(path).filename().string());
  write_collection(collection_->staging(), StagedFile::kSuffix);
}

void VtkTrajectoryWriter::finish() {
  if (!collection_) return;
  for (const auto& entry : entries_) {
    const std::string path = (fs::path(dir_) / entry.second).string();
    rename_into_place(StagedFile::staging_name(path), path);
  }
  write_collection(collection_->staging(), "");
  collection_->commit();
  collection_.reset();
}

// Writes the collection to `tmp` (the locked staging file), naming each frame with `suffix`.
void VtkTrajectoryWriter::write_collection(const std::string& tmp,
                                           const std::string& frame_suffix) const {
  std::string xml =
      "<?xml version=\"1.0\"?>\n"
      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
      "  <Collection>\n";
  for (const auto& [time, file] : entries_)
    xml += "    <DataSet timestep=\"" + number(time) + "\" group=\"\" part=\"0\" file=\"" +
           xml_escape(file + frame_suffix) + "\"/>\n";
  xml += "  </Collection>\n</VTKFile>\n";

  std::FILE* out = std::fopen(tmp.c_str(), "w");
  if (out == nullptr)
    throw Error("cannot write '" + tmp + "': " + std::string(std::strerror(errno)));
  const bool ok = std::fwrite(xml.data(), 1, xml.size(), out) == xml.size();
  if (std::fclose(out) != 0 || !ok) throw Error("cannot write '" + tmp + "' (disk full?)");
}

}  // namespace mdremap::io
