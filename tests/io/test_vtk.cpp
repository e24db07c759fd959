// VTK trajectory: .vtp frames read back with vtkXMLPolyDataReader, and a valid .pvd index.
#include <gtest/gtest.h>
#include <vtkCellArray.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPPolyDataReader.h>
#include <vtkXMLPolyDataReader.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "io/vtk_writer.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

namespace fs = std::filesystem;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST(VtkWriter, FramesReadBackWithPointsVerticesAndArrays) {
  test::TempDir dir;
  VtkTrajectoryWriter w(dir.path().string(), "lj");
  const std::size_t n = 31;
  const Frame a = test::random_frame(n, 5, 0);
  const Frame b = test::random_frame(n, 6, 250);
  w.write_frame(a);
  w.write_frame(b);
  EXPECT_EQ(w.frames_written(), 2u);
  // Until finish() the set is staged: nothing of an earlier run's set is replaced yet.
  EXPECT_FALSE(fs::exists(w.frame_path(250)));
  EXPECT_FALSE(fs::exists(w.collection_path()));
  EXPECT_NE(slurp(w.collection_path() + ".partial").find("file=\"lj_250.vtp.partial\""),
            std::string::npos);
  w.finish();

  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(w.frame_path(250).c_str());
  reader->Update();
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), static_cast<vtkIdType>(n));
  ASSERT_EQ(poly->GetNumberOfVerts(), static_cast<vtkIdType>(n));
  for (vtkIdType c = 0; c < poly->GetNumberOfCells(); ++c)
    EXPECT_EQ(poly->GetCellType(c), VTK_VERTEX);

  vtkPointData* pd = poly->GetPointData();
  vtkDataArray* ids = pd->GetArray("id");
  vtkDataArray* types = pd->GetArray("type");
  vtkDataArray* vel = pd->GetArray("velocity");
  vtkDataArray* frc = pd->GetArray("force");
  ASSERT_NE(ids, nullptr);
  ASSERT_NE(types, nullptr);
  // The reader maps Int64 to the platform's 64-bit type, so check the file's declared types.
  EXPECT_EQ(ids->GetDataTypeSize(), 8);
  EXPECT_EQ(types->GetDataTypeSize(), 4);
  const std::string header = slurp(w.frame_path(250)).substr(0, 4096);
  EXPECT_NE(header.find("type=\"Int64\" Name=\"id\""), std::string::npos) << header;
  EXPECT_NE(header.find("type=\"Int32\" Name=\"type\""), std::string::npos) << header;
  EXPECT_NE(header.find("type=\"Float64\" Name=\"velocity\" NumberOfComponents=\"3\""),
            std::string::npos);
  ASSERT_NE(vel, nullptr);
  ASSERT_NE(frc, nullptr);
  EXPECT_EQ(vel->GetNumberOfComponents(), 3);
  EXPECT_EQ(frc->GetNumberOfComponents(), 3);
  // The frame's step, time and box as field data.
  vtkFieldData* fd = poly->GetFieldData();
  ASSERT_NE(fd->GetArray("step"), nullptr);
  EXPECT_EQ(fd->GetArray("step")->GetComponent(0, 0), 250.0);
  ASSERT_NE(fd->GetArray("TimeValue"), nullptr);
  EXPECT_EQ(fd->GetArray("TimeValue")->GetComponent(0, 0), b.time);
  ASSERT_NE(fd->GetArray("box_lo"), nullptr);
  ASSERT_NE(fd->GetArray("box_len"), nullptr);
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(fd->GetArray("box_lo")->GetComponent(0, d), b.box_lo[d]);
    EXPECT_EQ(fd->GetArray("box_len")->GetComponent(0, d), b.box_len[d]);
  }
  for (vtkIdType i = 0; i < static_cast<vtkIdType>(n); ++i) {
    double p[3];
    poly->GetPoint(i, p);
    EXPECT_EQ(static_cast<std::int64_t>(ids->GetComponent(i, 0)), b.id[i]);
    EXPECT_EQ(static_cast<std::int32_t>(types->GetComponent(i, 0)), b.type[i]);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(p[d], b.x[3 * i + d]);
      EXPECT_EQ(vel->GetComponent(i, d), b.v[3 * i + d]);
      EXPECT_EQ(frc->GetComponent(i, d), b.f[3 * i + d]);
    }
  }

  // The collection lists both frames in order with their times; no temporary files remain.
  const std::string pvd = slurp(w.collection_path());
  EXPECT_NE(pvd.find("<VTKFile type=\"Collection\""), std::string::npos) << pvd;
  const auto first =
      pvd.find("<DataSet timestep=\"0\" step=\"0\" group=\"\" part=\"0\" file=\"lj_0.vtp\"/>");
  const auto second = pvd.find(
      "<DataSet timestep=\"1.25\" step=\"250\" group=\"\" part=\"0\" file=\"lj_250.vtp\"/>");
  EXPECT_NE(first, std::string::npos) << pvd;
  EXPECT_NE(second, std::string::npos) << pvd;
  EXPECT_LT(first, second);
  EXPECT_NE(pvd.find("</Collection>\n</VTKFile>"), std::string::npos);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().extension(), ".partial") << entry.path();
}

// A frame split over ranks, one piece each, joined by a .pvtp summary that VTK's own
// parallel reader opens (the same reader ParaView uses); here two writers in one process.
TEST(VtkWriter, PiecesAreJoinedByTheParallelSummary) {
  test::TempDir dir;
  const Frame all = test::random_frame(40, 3, 100);
  Frame part[2];
  for (int k = 0; k < 2; ++k) {  // atoms 0..24 on piece 0, 25..39 on piece 1
    const std::size_t i0 = k == 0 ? 0 : 25, i1 = k == 0 ? 25 : 40;
    Frame& p = part[k];
    p.step = all.step;
    p.time = all.time;
    p.x.assign(all.x.begin() + 3 * i0, all.x.begin() + 3 * i1);
    p.v.assign(all.v.begin() + 3 * i0, all.v.begin() + 3 * i1);
    p.f.assign(all.f.begin() + 3 * i0, all.f.begin() + 3 * i1);
    p.id.assign(all.id.begin() + i0, all.id.begin() + i1);
    p.type.assign(all.type.begin() + i0, all.type.begin() + i1);
  }
  VtkTrajectoryWriter w0(dir.path().string(), "lj", 0, 2);
  VtkTrajectoryWriter w1(dir.path().string(), "lj", 1, 2);
  w0.write_frame(part[0]);
  w1.write_frame(part[1]);
  EXPECT_EQ(w0.frame_path(100), dir.file("lj_100.pvtp"));
  // While the run goes on, the staged summary names the staged pieces (a stopped run's set opens).
  const std::string staged = slurp(w0.frame_path(100) + ".partial");
  EXPECT_NE(staged.find("Source=\"lj_100_1.vtp.partial\""), std::string::npos) << staged;
  EXPECT_NE(slurp(w0.collection_path() + ".partial").find("file=\"lj_100.pvtp.partial\""),
            std::string::npos);
  w1.finish_pieces();
  w0.finish_pieces();
  w1.finish();
  w0.finish();
  EXPECT_NE(slurp(w0.collection_path()).find("file=\"lj_100.pvtp\""), std::string::npos);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().extension(), ".partial") << entry.path();

  vtkNew<vtkXMLPPolyDataReader> reader;
  reader->SetFileName(w0.frame_path(100).c_str());
  reader->Update();
  vtkPolyData* poly = reader->GetOutput();
  ASSERT_EQ(poly->GetNumberOfPoints(), 40);
  EXPECT_EQ(poly->GetNumberOfVerts(), 40);
  vtkDataArray* ids = poly->GetPointData()->GetArray("id");
  vtkDataArray* vel = poly->GetPointData()->GetArray("velocity");
  ASSERT_NE(ids, nullptr);
  ASSERT_NE(vel, nullptr);
  ASSERT_NE(poly->GetPointData()->GetArray("force"), nullptr);
  ASSERT_NE(poly->GetPointData()->GetArray("type"), nullptr);
  const auto slot = test::slot_of_id(all);
  std::vector<int> seen(40, 0);
  for (vtkIdType i = 0; i < 40; ++i) {
    const auto id = static_cast<std::int64_t>(ids->GetTuple1(i));
    ASSERT_GE(id, 0);
    ASSERT_LT(id, 40);
    ++seen[id];
    double p[3];
    poly->GetPoint(i, p);
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(p[d], all.x[3 * slot[id] + d]);
      EXPECT_EQ(vel->GetComponent(i, d), all.v[3 * slot[id] + d]);
    }
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 40) << "every atom once";
}

TEST(VtkWriter, VelocityAndForceAreOptional) {
  test::TempDir dir;
  VtkTrajectoryWriter w(dir.path().string(), "pos");
  Frame f = test::random_frame(4, 1, 10);
  f.v.clear();
  f.f.clear();
  w.write_frame(f);
  w.finish();
  vtkNew<vtkXMLPolyDataReader> reader;
  reader->SetFileName(w.frame_path(10).c_str());
  reader->Update();
  vtkPointData* pd = reader->GetOutput()->GetPointData();
  EXPECT_NE(pd->GetArray("id"), nullptr);
  EXPECT_NE(pd->GetArray("type"), nullptr);
  EXPECT_EQ(pd->GetArray("velocity"), nullptr);
  EXPECT_EQ(pd->GetArray("force"), nullptr);
}

TEST(VtkWriter, BadDirectoryAndFramesAreReported) {
  test::TempDir dir;
  try {
    VtkTrajectoryWriter w(dir.file("nope"), "lj");
    FAIL() << "expected Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("nope")), std::string::npos) << e.what();
  }
  VtkTrajectoryWriter w(dir.path().string(), "lj");
  Frame f = test::random_frame(4, 1, 0);
  f.x.pop_back();
  EXPECT_THROW(w.write_frame(f), Error);
  EXPECT_FALSE(fs::exists(w.collection_path())) << "no .pvd for a frame that was not written";
}

// One run at a time per collection; an earlier run's set stays whole until a new run
// completes; frames a killed run left as .partial are removed at the next start, with a note.
TEST(VtkWriter, SetIsLockedStagedAndCleanedUp) {
  test::TempDir dir;
  {
    VtkTrajectoryWriter first(dir.path().string(), "lj");
    first.write_frame(test::random_frame(5, 1, 0));
    first.finish();
  }
  const std::string old_frame = slurp(dir.file("lj_0.vtp"));
  std::vector<std::string> notes;
  StagedFile::set_note_handler([&](const std::string& s) { notes.push_back(s); });
  {
    VtkTrajectoryWriter killed(dir.path().string(), "lj");
    EXPECT_THROW(VtkTrajectoryWriter(dir.path().string(), "lj"), OutputBusy);
    killed.write_frame(test::random_frame(5, 2, 0));
    killed.write_frame(test::random_frame(5, 3, 10));
  }  // no finish(): as a killed run
  EXPECT_EQ(slurp(dir.file("lj_0.vtp")), old_frame);
  EXPECT_TRUE(fs::exists(dir.file("lj_10.vtp.partial")));
  EXPECT_FALSE(fs::exists(dir.file("lj_10.vtp")));
  {
    VtkTrajectoryWriter next(dir.path().string(), "lj");
    EXPECT_FALSE(fs::exists(dir.file("lj_10.vtp.partial")));
    next.write_frame(test::random_frame(5, 4, 0));
    next.finish();
  }
  StagedFile::set_note_handler(nullptr);
  ASSERT_EQ(notes.size(), 2u);  // the collection's partial file and the frames
  EXPECT_NE(notes[0].find("lj.pvd.partial"), std::string::npos) << notes[0];
  EXPECT_NE(notes[1].find("removed 2 'lj_*.vtp.partial' frame(s)"), std::string::npos) << notes[1];
  EXPECT_NE(slurp(dir.file("lj_0.vtp")), old_frame);
  for (const auto& entry : fs::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().extension(), ".partial") << entry.path();
}

}  // namespace
}  // namespace mdremap::io
