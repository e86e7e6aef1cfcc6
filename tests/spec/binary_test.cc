// The binary envelope refuses foreign, outdated and damaged files.
#include "hw/spec/binary.h"

#include <gtest/gtest.h>

namespace npu::spec {
namespace {

Program Sample() {
  Program p;
  p.set_arch_fingerprint(42);
  p.set_model_name("sample");
  p.set_instructions(std::string(64, '\1'));
  return p;
}

TEST(Binary, SealedProgramOpens) {
  StatusOr<Program> p = OpenProgram(SealProgram(Sample()));
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->model_name(), "sample");
}

TEST(Binary, RefusesNonBinary) {
  EXPECT_NE(OpenProgram("hello world").status().message().find("not an NPU binary"),
            std::string::npos);
  EXPECT_EQ(OpenProgram("").status().kind(), ErrorKind::kInvalidArgument);
}

TEST(Binary, RefusesOtherVersion) {
  BinaryEnvelope e;
  ASSERT_TRUE(e.ParseFromString(SealProgram(Sample())));
  e.set_format_version(kBinaryFormatVersion + 1);
  const Status s = OpenProgram(e.SerializeAsString()).status();
  EXPECT_EQ(s.kind(), ErrorKind::kFailedPrecondition);
  EXPECT_NE(s.message().find("version 3"), std::string::npos) << s.message();
}

TEST(Binary, RefusesBadChecksum) {
  BinaryEnvelope e;
  ASSERT_TRUE(e.ParseFromString(SealProgram(Sample())));
  std::string program = e.program();
  program[program.size() - 1] ^= 1;
  e.set_program(program);
  const Status s = OpenProgram(e.SerializeAsString()).status();
  EXPECT_EQ(s.kind(), ErrorKind::kDataLoss);
  EXPECT_NE(s.message().find("checksum"), std::string::npos);
}

TEST(Binary, RefusesTruncatedFile) {
  const std::string sealed = SealProgram(Sample());
  EXPECT_FALSE(OpenProgram(sealed.substr(0, sealed.size() / 2)).ok());
}

}  // namespace
}  // namespace npu::spec
