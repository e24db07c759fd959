// Pictures checked as images (ctest label "viz"), with what tools/setup.sh installs: a short melt
// written as a VTK trajectory and rendered by VTK's own Python (python3-vtk9, under xvfb-run
// without a display), and the `compare --plot` bar chart (gnuplot). The image checks are the
// Python scripts beside this file; docs/trajectory.png is the first one's picture
// (MDREMAP_KEEP_PNG=path keeps it).
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "require.hpp"

namespace {

using mdremap::test::quoted;
namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed at scope exit.
class Scratch {
 public:
  Scratch() {
    std::string tmpl = (fs::temp_directory_path() / "mdremap-viz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// Runs `command` with its output to `log`; returns the exit status and the output.
int run(const std::string& command, const std::string& log, std::string& output) {
  const int status = std::system((command + " >" + quoted(log) + " 2>&1").c_str());
  std::ifstream in(log);
  output.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return status == -1 || !WIFEXITED(status) ? -1 : WEXITSTATUS(status);
}

const std::string kSource = MDREMAP_SOURCE_DIR;
const std::string kMdremap = MDREMAP_BINARY;

mdremap::test::Tool python_with_vtk() {
  return mdremap::test::python_with("numpy, vtkmodules.vtkIOImage, vtkmodules.vtkRenderingOpenGL2",
                                    "python3-vtk9 python3-numpy");
}

TEST(VtkPython, RendersFirstAndLastFrameOfARun) {
  const auto python = python_with_vtk();
  MDREMAP_REQUIRE(python);
  const auto display = mdremap::test::display_launcher();
  MDREMAP_REQUIRE(display);
  Scratch dir;
  // A 500-atom fcc crystal at T 3.0 (inputs/lj_melt.yaml, 5^3 cells) melting: frames 0, 50, 100.
  std::string out;
  ASSERT_EQ(run(quoted(kMdremap) + " md " + quoted(kSource + "/inputs/lj_melt.yaml") +
                    " --steps 100 --quiet --set system.lattice.cells=[5,5,5]" +
                    " --set neighbor.check=true --set output.vtk.every=50" +
                    " --set output.vtk.dir=" + quoted(dir.file("")),
                dir.file("md.log"), out),
            0)
      << out;
  const std::string png = dir.file("trajectory.png");
  const int rc = run(display.path + quoted(python.path) + " " +
                         quoted(kSource + "/tests/viz/render_trajectory.py") + " " +
                         quoted(dir.file("traj.pvd")) + " " + quoted(png) +
                         " --atoms 500 --frames 3 --fcc-density 0.8442",
                     dir.file("render.log"), out);
  std::cout << out;
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("OK render_trajectory"), std::string::npos) << out;
  if (const char* keep = std::getenv("MDREMAP_KEEP_PNG"))
    fs::copy_file(png, keep, fs::copy_options::overwrite_existing);
}

TEST(ComparePlot, OneBarGroupPerMode) {
  const auto python = python_with_vtk();
  MDREMAP_REQUIRE(python);
  const auto gnuplot =
      mdremap::test::program("gnuplot", nullptr, "apt-get install gnuplot-nox", true);
  MDREMAP_REQUIRE(gnuplot);
  Scratch dir;
  const std::string png = dir.file("compare.png");
  std::string out;
  ASSERT_EQ(run(quoted(kMdremap) + " compare " + quoted(kSource + "/inputs/lj_melt.yaml") +
                    " --modes gather,dup,auto --steps 10 --rounds 1 --repeats 2" +
                    " --set system.lattice.cells=[6,6,6] --plot " + quoted(png),
                dir.file("compare.log"), out),
            0)
      << out;
  const int rc = run(quoted(python.path) + " " + quoted(kSource + "/tests/viz/check_bar_plot.py") +
                         " " + quoted(png) + " 3",
                     dir.file("check.log"), out);
  std::cout << out;
  ASSERT_EQ(rc, 0) << out;
  EXPECT_NE(out.find("OK check_bar_plot: 3 bar groups"), std::string::npos) << out;
}

}  // namespace
