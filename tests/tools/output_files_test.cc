// All-or-nothing output files: nothing is written when any file cannot be, special files are
// written in place and never replaced, and names from a model cannot leave their directory.
#include "tools/common/output_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace npu::tools {
namespace {

namespace fs = std::filesystem;

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

class OutputFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("output_files_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> Listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::recursive_directory_iterator(dir_)) {
      names.push_back(fs::relative(e.path(), dir_).string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  static std::string Read(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  fs::path dir_;
};

TEST_F(OutputFilesTest, WritesEveryFileAndItsDirectories) {
  OutputFiles files;
  files.AddDirectory(Path("out/deep"));
  files.Add(Path("out/deep/a.json"), "A");
  files.Add(Path("b.csv"), "B");
  ASSERT_TRUE(files.Commit().ok());
  EXPECT_EQ(Read(Path("out/deep/a.json")), "A");
  EXPECT_EQ(Read(Path("b.csv")), "B");
  EXPECT_EQ(Listing(), (std::vector<std::string>{"b.csv", "out", "out/deep", "out/deep/a.json"}));
}

TEST_F(OutputFilesTest, OneUnwritableFileLeavesNothingBehind) {
  std::ofstream(Path("old.json")) << "old";
  OutputFiles files;
  files.AddDirectory(Path("new_dir"));
  files.Add(Path("new_dir/a.svg"), "A");
  files.Add(Path("old.json"), "new");
  files.Add(Path("missing/x.csv"), "X");  // no such directory
  const Status s = files.Commit();
  EXPECT_FALSE(s.ok());
  EXPECT_HAS(s.message(), "cannot write '" + Path("missing/x.csv") + "'");
  EXPECT_EQ(Read(Path("old.json")), "old");                      // not replaced
  EXPECT_EQ(Listing(), (std::vector<std::string>{"old.json"}));  // no new directory, no temporary
}

TEST_F(OutputFilesTest, ADirectoryInTheWayIsRefused) {
  fs::create_directories(Path("report.json"));
  OutputFiles files;
  files.Add(Path("report.json"), "{}");
  EXPECT_HAS(files.Commit().message(), "it is a directory");
}

TEST_F(OutputFilesTest, AFifoIsWrittenNotReplaced) {
  ASSERT_EQ(mkfifo(Path("pipe").c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = Read(Path("pipe")); });
  OutputFiles files;
  files.Add(Path("pipe"), "through the pipe");
  files.Add(Path("plain.txt"), "P");
  const Status s = files.Commit();
  reader.join();
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(received, "through the pipe");
  struct stat st;
  ASSERT_EQ(stat(Path("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));  // still the FIFO
  EXPECT_EQ(Read(Path("plain.txt")), "P");
}

TEST_F(OutputFilesTest, AFileNameFromAModelStaysInItsDirectory) {
  EXPECT_EQ(SafeFileName("../../etc/passwd"), "_.._.._etc_passwd");
  EXPECT_EQ(SafeFileName(".."), "_..");
  EXPECT_EQ(SafeFileName(""), "_");
  EXPECT_EQ(SafeFileName(".hidden"), "_.hidden");
  EXPECT_EQ(SafeFileName("resnet/fc:0"), "resnet_fc_0");
  EXPECT_EQ(SafeFileName("logits-1.2"), "logits-1.2");
}

}  // namespace
}  // namespace npu::tools
