// What the firmware refuses to load, and what the hardware refuses to run: each case gives a
// clear error, never a crash or a hang. The hardware cases hand the NPU instructions the
// firmware's checks would refuse (fw::LoadChecks::kLayoutOnly), to test the hardware's own.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using testing::ProgramBuilder;

Status RunExpectingError(const std::string& binary, const spec::NpuConfig& config,
                         fw::LoadChecks checks = fw::LoadChecks::kAll) {
  platform::RunOptions options;
  options.load_checks = checks;
  StatusOr<platform::RunResult> r = platform::RunBinary(config, binary, {}, options);
  EXPECT_FALSE(r.ok());
  return r.status();
}

// The hardware's own checks, past the firmware's.
Status HardwareError(const std::string& binary, const spec::NpuConfig& config) {
  return RunExpectingError(binary, config, fw::LoadChecks::kLayoutOnly);
}

void ExpectMessage(const Status& s, const std::string& needle) {
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(Firmware, RefusesBinaryForAnotherArchitecture) {
  spec::NpuConfig other = spec::DefaultConfig();
  other.set_name("wide");
  other.mutable_mac()->set_cols(64);
  const std::string binary = ProgramBuilder(other).Sealed();
  const Status s = RunExpectingError(binary, spec::DefaultConfig());
  EXPECT_EQ(s.kind(), ErrorKind::kFailedPrecondition);
  ExpectMessage(s, "compiled for architecture 'wide'");
}

TEST(Firmware, RefusesOtherFormatVersion) {
  spec::BinaryEnvelope envelope;
  ASSERT_TRUE(envelope.ParseFromString(ProgramBuilder(spec::DefaultConfig()).Sealed()));
  envelope.set_format_version(99);
  ExpectMessage(RunExpectingError(envelope.SerializeAsString(), spec::DefaultConfig()),
                "format version 99 is not supported");
}

TEST(Firmware, RefusesBadChecksum) {
  spec::BinaryEnvelope envelope;
  ASSERT_TRUE(envelope.ParseFromString(ProgramBuilder(spec::DefaultConfig()).Sealed()));
  envelope.set_checksum(envelope.checksum() ^ 1);
  ExpectMessage(RunExpectingError(envelope.SerializeAsString(), spec::DefaultConfig()),
                "checksum mismatch");
}

TEST(Firmware, RefusesNonBinary) {
  ExpectMessage(RunExpectingError("MZ\x90 certainly not a binary", spec::DefaultConfig()),
                "not an NPU binary");
}

TEST(Firmware, RefusesImageLargerThanDram) {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_dram()->set_size_bytes(1 << 20);
  ProgramBuilder program(config);
  program.Output(900 * 1024, 200 * 1024);
  ExpectMessage(RunExpectingError(program.Sealed(), config), "bytes of DRAM; the board has");
}

TEST(Hardware, UnknownOpcodeFaultsAtItsIndex) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ProgramBuilder program(config);
  program.Add(testing::Load(1 << 20, 0, 64));
  program.AddRaw(spec::InsnWord{0x7F});
  const Status s = HardwareError(program.Sealed(), config);
  ExpectMessage(s, "error 'bad instruction' at instruction 1");
  ExpectMessage(s, "unknown opcode 127");
}

TEST(Hardware, DmaOutsideDramIsABusError) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ProgramBuilder program(config);
  program.Add(testing::Load(0xFFFF'FF00, 0, 256));
  ExpectMessage(HardwareError(program.Sealed(), config), "error 'bus error' at instruction 0");
}

TEST(Hardware, DmaOutsideSramFaults) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ProgramBuilder program(config);
  program.Add(testing::Load(1 << 20, (1 << 20) - 16, 64));
  ExpectMessage(HardwareError(program.Sealed(), config), "SRAM access out of range");
}

TEST(Hardware, BadRequantisationShiftFaults) {
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::ActArgs act;
  act.pixels = 1;
  act.channels = 1;
  act.out_pixel_stride = 1;
  act.param_addr = 4096;  // zeroed SRAM: shift 0 is outside 1..62
  act.out_addr = 8192;
  ProgramBuilder program(config);
  program.Add({spec::Opcode::kAct, 0, 0, act});
  ExpectMessage(HardwareError(program.Sealed(), config), "bad requantisation parameter");
}

TEST(Hardware, WeightsKnOutsideAOneByOneKernelFaults) {
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::ConvArgs conv;
  conv.in_h = conv.in_w = 3;
  conv.in_c = conv.out_h = conv.out_w = conv.out_c = 1;
  conv.kernel_h = conv.kernel_w = 3;
  conv.weights_kn = true;
  ProgramBuilder program(config);
  program.Add({spec::Opcode::kConv, 0, 0, conv});
  const Status s = HardwareError(program.Sealed(), config);
  ExpectMessage(s, "error 'bad instruction' at instruction 0");
  ExpectMessage(s, "weights_kn with a 3x3 kernel (1x1 only)");
}

TEST(Hardware, WaitForATokenNeverGivenIsReportedAsAHang) {
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::ConvArgs conv;
  conv.in_h = conv.in_w = conv.in_c = conv.out_h = conv.out_w = conv.out_c = 1;
  ProgramBuilder program(config);
  program.Add({spec::Opcode::kConv, testing::kL, 0, conv});
  const Status s = HardwareError(program.Sealed(), config);
  ExpectMessage(s, "the NPU hung");
  ExpectMessage(s, "compute queue waits for a token from the load queue");
}

// The instructions the hardware faults on above, refused by the firmware before the doorbell
// (one run per process: SystemC elaborates once).
TEST(Firmware, RefusesAnUnknownOpcodeBeforeTheDoorbell) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ProgramBuilder program(config);
  program.AddRaw(spec::InsnWord{0x7F});
  ExpectMessage(RunExpectingError(program.Sealed(), config), "instruction 0: unknown opcode 127");
}

TEST(Firmware, RefusesAnSramAddressPastTheSram) {
  const spec::NpuConfig config = spec::DefaultConfig();
  ProgramBuilder program(config);
  program.Add(testing::Load(0, (1 << 20) - 16, 64));
  ExpectMessage(RunExpectingError(program.Sealed(), config), "past the end of SRAM");
}

TEST(Firmware, RefusesAWaitForATokenNeverGiven) {
  const spec::NpuConfig config = spec::DefaultConfig();
  spec::ConvArgs conv;
  conv.in_h = conv.in_w = conv.in_c = conv.out_h = conv.out_w = conv.out_c = 1;
  ProgramBuilder program(config);
  program.Add({spec::Opcode::kConv, testing::kL, 0, conv});
  ExpectMessage(RunExpectingError(program.Sealed(), config), "the run would deadlock");
}

}  // namespace
}  // namespace npu
