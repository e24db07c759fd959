#pragma once
// Outside tools a test needs (a Python with some modules, pvpython, xvfb-run): found or not, and
// what to do when not. MDREMAP_REQUIRE skips the case with the install hint; under CI (CI=true)
// it fails instead when tools/setup.sh installs the tool, since the set-up promised it.
// tests/CMakeLists.txt gives each case that calls MDREMAP_REQUIRE (or GTEST_SKIP) a ctest entry
// of its own, so a skip shows as skipped there, not as a pass.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace mdremap::test {

struct Tool {
  bool found = false;
  std::string path;     // how to call it (a command prefix for display_launcher)
  std::string missing;  // what is missing and how to install it
  bool from_setup;      // tools/setup.sh installs it
  explicit operator bool() const { return found; }
};

// CI=true (or any value but "", "0", "false"): the machine was set up by tools/setup.sh.
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string v(ci);
  return !v.empty() && v != "0" && v != "false";
}

inline std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline bool succeeds(const std::string& command) {
  const int status = std::system((command + " >/dev/null 2>&1").c_str());
  return status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// First interpreter that imports `modules` ($MDREMAP_PYTHON first, then python3 on PATH, then
// Debian's /usr/bin/python3, which pyenv shims may hide). `packages`: the Debian packages that
// provide them, all in tools/setup.sh.
inline Tool python_with(const std::string& modules, const std::string& packages) {
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("MDREMAP_PYTHON")) candidates.emplace_back(env);
  candidates.insert(candidates.end(), {"python3", "/usr/bin/python3"});
  Tool t{false,
         {},
         "no python3 that imports " + modules + " (apt-get install " + packages +
             ", or set MDREMAP_PYTHON)",
         true};
  for (const auto& py : candidates)
    if (succeeds(quoted(py) + " -c 'import " + modules + "'")) {
      t.found = true;
      t.path = py;
      break;
    }
  return t;
}

// `name` from $env_var, else from PATH.
inline Tool program(const std::string& name, const char* env_var, const std::string& hint,
                    bool from_setup) {
  Tool t{false, {}, name + " not found (" + hint + ")", from_setup};
  if (const char* env = env_var != nullptr ? std::getenv(env_var) : nullptr)
    t.path = env;
  else if (succeeds("command -v " + quoted(name)))
    t.path = name;
  t.found = !t.path.empty();
  return t;
}

// A command prefix that gives an X display: none when $DISPLAY is set, else xvfb-run
// (tools/setup.sh installs it; Debian's VTK and ParaView render through GLX, no EGL).
inline Tool display_launcher() {
  if (std::getenv("DISPLAY") != nullptr) return Tool{true, "", "", true};
  Tool t = program("xvfb-run", nullptr, "apt-get install xvfb xauth", true);
  if (t) t.path = "xvfb-run -a -s '-screen 0 1280x1024x24' ";
  return t;
}

}  // namespace mdremap::test

// Skips (outside CI, or a tool setup.sh does not install) or fails (CI) when `tool` is missing.
#define MDREMAP_REQUIRE(tool)                                                        \
  do {                                                                               \
    const ::mdremap::test::Tool& mdremap_tool_ = (tool);                             \
    if (!mdremap_tool_) {                                                            \
      if (mdremap_tool_.from_setup && ::mdremap::test::in_ci())                      \
        FAIL() << "CI: " << mdremap_tool_.missing << "; tools/setup.sh installs it"; \
      GTEST_SKIP() << mdremap_tool_.missing;                                         \
    }                                                                                \
  } while (0)
