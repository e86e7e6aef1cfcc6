// Random byte flips in valid binaries (tests/firmware/byte_flip.h) never crash the loader: each
// is refused or accepted, and every CPU op of an accepted one runs on a byte array standing for
// DRAM without crashing, because the checks keep each kernel inside its operands whatever the
// file says. (flipped_binary_run_test.cc runs accepted ones on the platform.)
#include "tests/firmware/byte_flip.h"

#include <gtest/gtest.h>

#include "firmware/program_check.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "tests/common/memory_bus.h"
#include "tests/firmware/loader_test_programs.h"

namespace npu {
namespace {

constexpr int kFlipsPerProgram = 3000;
constexpr uint64_t kMaxDramForKernels = 64 << 20;  // larger flipped images: check only

struct Tally {
  int refused = 0, accepted = 0, cpu_ops_run = 0;
};

void FlipAndLoad(const spec::Program& valid, const spec::NpuConfig& config, Tally& tally) {
  const testing::ByteFlipper flipper(valid);
  std::mt19937 rng(1234);
  for (int i = 0; i < kFlipsPerProgram; ++i) {
    const StatusOr<spec::Program> p = spec::OpenProgram(flipper.Next(rng));
    if (!p.ok() || !fw::CheckProgram(*p, fw::LimitsOf(config)).ok()) {
      ++tally.refused;
      continue;
    }
    ++tally.accepted;
    if (p->dram_bytes() > kMaxDramForKernels) continue;
    std::vector<uint8_t> dram(p->dram_bytes());
    for (const spec::Step& step : p->steps()) {
      if (!step.has_cpu()) continue;
      (void)testing::RunCpuOpInMemory(step.cpu(), dram);  // refused or run: never a crash
      ++tally.cpu_ops_run;
    }
  }
}

TEST(ByteFlips, LayerWithACpuOp) {
  const spec::NpuConfig config = spec::DefaultConfig();
  Tally tally;
  FlipAndLoad(testing::LayerWithCpuOp(config), config, tally);
  EXPECT_GT(tally.refused, 0);
  EXPECT_GT(tally.accepted, 0);
  EXPECT_GT(tally.cpu_ops_run, 0);
}

// Every kernel kind of a small CNN on the control core: convolutions, pools, additions, gemm.
TEST(ByteFlips, ModelOnTheControlCore) {
  const spec::NpuConfig config = spec::DefaultConfig();
  Tally tally;
  FlipAndLoad(testing::CompiledModel(
                  "small_cnn", config,
                  {"fused_conv", "max_pool", "fused_add", "global_average_pool", "gemm"}),
              config, tally);
  EXPECT_GT(tally.refused, 0);
  EXPECT_GT(tally.cpu_ops_run, 0);
}

// Softmax, layer normalisation, matrix products, transposes and reshapes of a transformer.
TEST(ByteFlips, TransformerOnTheControlCore) {
  const spec::NpuConfig config = spec::DefaultConfig();
  Tally tally;
  FlipAndLoad(
      testing::CompiledModel(NPU_SOURCE_DIR "/tests/corpus/data/transformer_encoder.op17.onnx",
                             config, {"matmul", "transpose", "add", "gemm"}),
      config, tally);
  EXPECT_GT(tally.refused, 0);
  EXPECT_GT(tally.cpu_ops_run, 0);
}

}  // namespace
}  // namespace npu
