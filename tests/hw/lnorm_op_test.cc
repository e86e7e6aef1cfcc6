// LNORM on the platform: a hand-built program whose output is each pixel's layer normalisation
// (spec::LayerNormRows, the ISA's definition), whose vector cycles follow the normaliser's two
// passes, which the compiler's exact replay times instruction by instruction, and which faults on
// an NPU without the normaliser.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/hand_config.h"
#include "tests/common/program_builder.h"
#include "tests/hw/replay_check.h"

namespace npu {
namespace {

using testing::Duration;
using Bytes = std::vector<int8_t>;

// SRAM (and blob) layout: parameter records, then the pixels; the result further on.
constexpr uint32_t kParams = 0, kPixels = 1024, kResult = 4096;
constexpr uint32_t kPixelCount = 20, kC = 48;

spec::NpuConfig Config(uint32_t dividers) {
  spec::NpuConfig c = ::npu::testing::HandConfig();  // 32 lanes, pipeline 4, 16 banks of 16 B
  c.mutable_act()->set_norm_dividers(dividers);
  return c;
}

spec::LnormArgs Args() {
  spec::LnormArgs n;
  n.in_addr = kPixels, n.out_addr = kResult, n.param_addr = kParams;
  n.pixels = kPixelCount, n.channels = kC;
  n.in_zero_point = -5, n.out_zero_point = 4, n.eps_term = 300;
  n.clamp_min = -120, n.clamp_max = 125;
  return n;
}

std::vector<spec::LayerNormChannel> Channels() {
  std::vector<spec::LayerNormChannel> channels;
  for (uint32_t c = 0; c < kC; ++c) {
    channels.push_back({int32_t(c * 7 % 255) - 127, int32_t(c * 131) - 3000,
                        int32_t(1u << 30) + int32_t(c * 7777), int32_t(38 + c % 4)});
  }
  return channels;
}

Bytes Blob() {
  Bytes blob(kPixels + kPixelCount * kC);
  std::span<uint8_t> params(reinterpret_cast<uint8_t*>(blob.data()), kC * spec::kLnormParamBytes);
  const std::vector<spec::LayerNormChannel> channels = Channels();
  for (uint32_t c = 0; c < kC; ++c) spec::WriteLnormParams(params, c, channels[c]);
  // Each pixel its own spread: pixel p's values vary by about p, pixel 0 not at all.
  for (uint32_t i = 0; i < kPixelCount * kC; ++i) {
    blob[kPixels + i] = int8_t(int(i / kC) * ((i * 53 + 7) % 13) - 60);
  }
  return blob;
}

// The ISA's definition: each pixel's layer normalisation.
Bytes Expected(const Bytes& blob) {
  const spec::LnormArgs n = Args();
  Bytes out(kPixelCount * kC);
  spec::LayerNormRows({blob.data() + kPixels, kPixelCount * kC}, n.in_zero_point, n.eps_term,
                      Channels(), n.out_zero_point, n.clamp_min, n.clamp_max, out);
  return out;
}

// LOAD the blob to SRAM 0, LNORM once it is there, STORE the result.
testing::VectorOpRun RunLnorm(const spec::NpuConfig& config,
                             fw::LoadChecks checks = fw::LoadChecks::kAll) {
  return testing::RunVectorOp(config, Blob(), {spec::Opcode::kLnorm, 0, 0, Args()}, kResult,
                              kPixelCount * kC, checks);
}


TEST(LnormOp, NormalisesEachPixel) {
  const testing::VectorOpRun run = RunLnorm(Config(8));
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  const Bytes expected = Expected(Blob());
  EXPECT_EQ(run.result->outputs.at(0), expected);
  // Pixel 0 has no spread: its q is 0 everywhere, so each channel's beta alone.
  EXPECT_NE(expected[0], expected[1]);
  // 960 elements: 4 + ceil(960 / 32 lanes) + 32 (the first square root) + ceil(960 / 8
  // dividers) = 4 + 30 + 32 + 120 = 186. SRAM alone: records 768 B (48 words), input and output
  // 960 B each (60 words) on 16 banks: 3 + 4 + 4 = 11 cycles, under the normaliser's.
  EXPECT_EQ(Duration(*run.result, 1), 186u);
  EXPECT_EQ(spec::IdealCycles(Config(8), run.insns[1]), 186u);
  EXPECT_EQ(spec::VectorLaneOps(run.insns[1]), 1920u);
  // A division per element and a square root per pixel.
  EXPECT_EQ(run.result->records.at(1).events.vector_divides, 980u);
}

TEST(LnormOp, MoreDividersNormaliseFaster) {
  // 32 dividers: 4 + 30 + 32 + 30 = 96 cycles; the same bytes.
  const testing::VectorOpRun run = RunLnorm(Config(32));
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  EXPECT_EQ(run.result->outputs.at(0), Expected(Blob()));
  EXPECT_EQ(Duration(*run.result, 1), 96u);
}

TEST(LnormOp, ReplayMatchesThePlatformInstructionByInstruction) {
  const spec::NpuConfig config = Config(8);
  const testing::VectorOpRun run = RunLnorm(config);
  ASSERT_TRUE(run.result.ok()) << run.result.status().message();
  testing::ExpectReplayMatchesRun(config, run.insns, *run.result);
}

TEST(LnormOp, AnNpuWithoutTheNormaliserFaults) {
  const testing::VectorOpRun run = RunLnorm(Config(0), fw::LoadChecks::kLayoutOnly);
  ASSERT_FALSE(run.result.ok());
  const std::string fault(run.result.status().message());
  EXPECT_NE(fault.find("error 'bad instruction' at instruction 1"), std::string::npos) << fault;
  EXPECT_NE(fault.find("no layer normaliser"), std::string::npos) << fault;
}

}  // namespace
}  // namespace npu
