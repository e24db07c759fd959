// check_writable: output paths are checked before a run starts, with the path in the message.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "io/paths.hpp"
#include "io_test_util.hpp"
#include "mdremap/error.hpp"

namespace mdremap::io {
namespace {

std::string message_of(const std::string& path) {
  try {
    check_writable(path);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

TEST(Paths, WritableDirectoryAndRelativePathPass) {
  test::TempDir dir;
  EXPECT_NO_THROW(check_writable(dir.file("out.h5")));
  std::ofstream(dir.file("existing.csv")) << "x\n";
  EXPECT_NO_THROW(check_writable(dir.file("existing.csv")));
  EXPECT_NO_THROW(check_writable("relative_name_in_cwd.h5"));  // parent is "."
  EXPECT_FALSE(std::filesystem::exists("relative_name_in_cwd.h5")) << "must create nothing";
}

TEST(Paths, MissingDirectoryIsNamed) {
  test::TempDir dir;
  const std::string path = dir.file("missing/sub/out.h5");
  const std::string msg = message_of(path);
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not exist"), std::string::npos) << msg;
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing"))) << "must not create directories";
}

TEST(Paths, ParentThatIsAFileIsRefused) {
  // Tests run as root, which may write anywhere; a regular file as parent is refused for all.
  const std::string msg = message_of("/etc/passwd/x.h5");
  EXPECT_NE(msg.find("/etc/passwd/x.h5"), std::string::npos) << msg;
  EXPECT_NE(msg.find("not a directory"), std::string::npos) << msg;
}

TEST(Paths, DirectoryAsOutputAndEmptyPathAreRefused) {
  test::TempDir dir;
  EXPECT_NE(message_of(dir.path().string()).find("is a directory"), std::string::npos);
  EXPECT_FALSE(message_of("").empty());
}

// Root may write anywhere, so as root (CI) the check runs as user nobody: real and effective
// uid, since access() checks the real one; the saved uid stays root to switch back.
class RunAsNobody {
 public:
  RunAsNobody() : active_(::geteuid() == 0) {
    if (active_ && ::setresuid(65534, 65534, 0) != 0) {
      std::perror("setresuid(nobody)");
      active_ = false;
      failed_ = true;
    }
  }
  ~RunAsNobody() {
    if (active_ && ::setresuid(0, 0, 0) != 0) {
      std::perror("setresuid(root)");
      std::abort();  // the other tests must not go on as nobody
    }
  }
  RunAsNobody(const RunAsNobody&) = delete;
  RunAsNobody& operator=(const RunAsNobody&) = delete;
  bool failed() const { return failed_; }

 private:
  bool active_;
  bool failed_ = false;
};

TEST(Paths, ReadOnlyDirectoryIsRefused) {
  test::TempDir dir;
  namespace fs = std::filesystem;
  const std::string ro = dir.file("ro");
  fs::create_directory(ro);
  // The scratch directory open to nobody whatever the umask; `ro`: read and enter for everyone
  // (nobody included), write for no one.
  fs::permissions(dir.path(), fs::perms::others_read | fs::perms::others_exec,
                  fs::perm_options::add);
  fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read |
                          fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec);
  std::string msg;
  {
    RunAsNobody nobody;
    ASSERT_FALSE(nobody.failed()) << "cannot switch to user nobody";
    msg = message_of(ro + "/out.h5");
  }
  fs::permissions(ro, fs::perms::owner_all);
  EXPECT_NE(msg.find("not writable"), std::string::npos) << msg;
  EXPECT_NE(msg.find(ro), std::string::npos) << msg;
}

}  // namespace
}  // namespace mdremap::io
