// check_writable: output paths are checked before a run starts, with the path in the message.
#include <gtest/gtest.h>

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

TEST(Paths, ReadOnlyDirectoryIsRefusedForNonRoot) {
  if (::geteuid() == 0) GTEST_SKIP() << "root bypasses directory permissions";
  test::TempDir dir;
  std::filesystem::create_directory(dir.file("ro"));
  std::filesystem::permissions(
      dir.file("ro"), std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  const std::string msg = message_of(dir.file("ro/out.h5"));
  std::filesystem::permissions(dir.file("ro"), std::filesystem::perms::owner_all);
  EXPECT_NE(msg.find("not writable"), std::string::npos) << msg;
}

}  // namespace
}  // namespace mdremap::io
