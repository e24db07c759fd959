// ParaView opens the .pvd collection as a time series (each time's step and box read from the
// frame's field data) and renders it to a PNG (ctest label "viz"). pvpython is
// optional (tools/setup.sh does not install ParaView): CMake registers this test only where it
// finds pvpython and passes it in $MDREMAP_PVPYTHON; run by hand without one, the case skips.
// Without a display the render runs under xvfb-run (Debian's ParaView has no EGL).
// tests/viz/ renders the same kind of collection with VTK's own Python, in every CI run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "io/vtk_writer.hpp"
#include "io_test_util.hpp"
#include "require.hpp"

namespace mdremap::io {
namespace {

using test::run_shell;
using test::shell_quote;

const char* const kScript = R"PY(
import sys
from paraview.simple import *

pvd, png, n_frames, n_atoms = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
reader = PVDReader(FileName=pvd)
times = list(reader.TimestepValues)
assert len(times) == n_frames, times
reader.UpdatePipeline(times[-1])
info = reader.GetDataInformation()
assert info.GetNumberOfPoints() == n_atoms, info.GetNumberOfPoints()
names = reader.PointData.keys()
for name in ("id", "type", "velocity", "force"):
    assert name in names, names
# Each time of the series is its frame, with the frame's step and box as field data.
from paraview import servermanager
for k, t in enumerate(times):
    reader.UpdatePipeline(t)
    data = servermanager.Fetch(reader)
    field = data.GetFieldData()
    step = int(field.GetArray("step").GetTuple1(0))
    assert step == 50 * k, (t, step)
    box = field.GetArray("box_len").GetTuple3(0)
    assert box == (5.0, 6.0, 7.0), box
    assert field.GetArray("box_lo").GetTuple3(0) == (-0.5, -0.5, -0.5)
    print("time", t, "step", step, "box", box)
view = GetActiveViewOrCreate("RenderView")
view.ViewTime = times[-1]
display = Show(reader, view)
display.SetRepresentationType("Points")
display.PointSize = 6
ColorBy(display, ("POINTS", "type"))
ResetCamera(view)
Render(view)
SaveScreenshot(png, view, ImageResolution=[320, 240])
print("OK ParaView", GetParaViewVersion(), "times", times)
)PY";

TEST(VtkViz, ParaViewLoadsCollectionAndRendersPng) {
  const auto pvpython = mdremap::test::program(
      "pvpython", "MDREMAP_PVPYTHON",
      "apt-get install paraview python3-paraview, or set MDREMAP_PVPYTHON", false);
  MDREMAP_REQUIRE(pvpython);
  const auto launcher = mdremap::test::display_launcher();
  MDREMAP_REQUIRE(launcher);

  test::TempDir dir;
  const std::size_t n = 200;
  VtkTrajectoryWriter w(dir.path().string(), "lj");
  for (int k = 0; k < 3; ++k) w.write_frame(test::random_frame(n, 70 + k, 50 * k));

  const std::string script = dir.file("render.py");
  std::ofstream(script) << kScript;
  const std::string png = dir.file("lj.png");
  const std::string log = dir.file("pvpython.log");
  const int rc = run_shell(launcher.path + shell_quote(pvpython.path) + " " + shell_quote(script) +
                           " " + shell_quote(w.collection_path()) + " " + shell_quote(png) + " 3 " +
                           std::to_string(n) + " >" + shell_quote(log) + " 2>&1");
  std::ifstream in(log);
  const std::string output((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(rc, 0) << output;
  EXPECT_NE(output.find("OK ParaView"), std::string::npos) << output;

  std::ifstream image(png, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(image)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u) << "PNG missing or empty";
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  if (const char* keep = std::getenv("MDREMAP_KEEP_PNG"))
    std::ofstream(keep, std::ios::binary) << bytes;
}

}  // namespace
}  // namespace mdremap::io
