// ReadWholeFile: every byte of files larger than its read chunk, empty files, and the errors.
#include "hw/spec/file_io.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace npu::spec {
namespace {

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          (name + "." + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "." +
           std::to_string(getpid())))
      .string();
}

TEST(ReadWholeFile, ReadsEveryByteOfALargeOrAnEmptyFile) {
  std::mt19937 rng(3);
  std::string bytes(3 * (size_t{1} << 20) + 17, '\0');  // three read chunks and a part
  for (char& b : bytes) b = char(rng());
  const std::string path = TempPath("read_whole_file");
  for (const std::string& contents : {bytes, std::string()}) {
    std::ofstream(path, std::ios::binary) << contents;
    const StatusOr<std::string> read = ReadWholeFile(path, "test file");
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, contents);
  }
  std::filesystem::remove(path);
}

TEST(ReadWholeFile, MissingFilesAndFoldersAreNamedErrors) {
  const StatusOr<std::string> missing = ReadWholeFile("/nonexistent/model.onnx", "model");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open model '/nonexistent/model.onnx'"),
            std::string::npos);
  const std::string folder = std::filesystem::temp_directory_path().string();
  const StatusOr<std::string> dir = ReadWholeFile(folder, "model");
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("is a directory"), std::string::npos);
}

}  // namespace
}  // namespace npu::spec
