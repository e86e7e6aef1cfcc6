// A CONV computing a tile of a matrix product of two activations on the platform: a strided LOAD
// brings a K x N block of a row-major activation b into SRAM as it is, CONV reads it with
// weights_kn and subtracts both zero points, ACT requantises. The result must equal the product
// written out by hand (not through hw/spec/semantics), and the CONV must take exactly the cycles
// of a plain CONV of the same shape run just before it on the same operands.
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/spec/arith.h"
#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

using testing::kC;
using testing::kL;
using testing::kS;
using testing::kV;

// a: M x K (a 1 x M x K region); b: the K x N block at (row kB0, column kN0) of a K_B x N_B
// row-major activation.
constexpr uint32_t kM = 23, kK = 19, kN = 13;
constexpr uint32_t kRowsB = 30, kColsB = 40, kB0 = 3, kN0 = 5;
constexpr int32_t kZa = -7, kZb = 11, kZy = 3;
constexpr int32_t kMultiplier = 1 << 30, kShift = 41;  // 2^-11
constexpr uint32_t kA = 1 << 20, kB = kA + 4096;       // DRAM offsets (the instructions are at 0)
constexpr uint32_t kParams = kA + 8192, kOut = kA + 12288;
constexpr uint32_t kSramA = 0, kSramW = 1024, kSramParams = 2048, kSramOut = 4096;

std::vector<int8_t> Pattern(size_t n, int seed) {
  std::vector<int8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = int8_t((i * 37 + seed * 11) % 251 - 125);
  return v;
}

spec::ConvArgs Tile(bool matmul) {
  spec::ConvArgs c;
  c.in_addr = kSramA;
  c.in_h = 1, c.in_w = kM, c.in_c = kK;
  c.out_h = 1, c.out_w = kM, c.out_c = kN;
  c.wt_addr = kSramW;
  c.acc_addr = matmul ? 1024 : 0;
  c.weights_kn = matmul;
  c.in_zero_point = matmul ? kZa : 0;
  c.wt_zero_point = matmul ? kZb : 0;
  return c;
}

std::vector<uint8_t> Params() {
  std::vector<uint8_t> block(kN * spec::kActParamBytes);
  for (uint32_t n = 0; n < kN; ++n) spec::WriteActParams(block, n, {0, kMultiplier, kShift});
  return block;
}

// LOAD a, the b block (strided: K runs of N bytes, one per row of b) and the ACT records; the
// plain CONV, the matrix-product CONV, ACT, STORE.
spec::Program Program(const spec::NpuConfig& config) {
  testing::ProgramBuilder p(config);
  p.Input(kA, kM * kK).Input(kB, kRowsB * kColsB).Constant(kParams, Params());
  p.Output(kOut, kM * kN);
  p.Add(testing::Load(kA, kSramA, kM * kK));
  spec::DmaArgs block;
  block.dram_offset = kB + kB0 * kColsB + kN0;
  block.sram_addr = kSramW;
  block.run_bytes = kN;
  block.n1 = kK;
  block.dram_stride1 = kColsB;
  block.sram_stride1 = kN;
  p.Add({spec::Opcode::kLoad, 0, 0, block});
  p.Add(testing::Load(kParams, kSramParams, kN * spec::kActParamBytes, 0, kC));
  p.Add({spec::Opcode::kConv, kL, 0, Tile(false)});
  p.Add({spec::Opcode::kConv, 0, kV, Tile(true)});
  spec::ActArgs act;
  act.acc_addr = 1024;
  act.pixels = kM, act.channels = kN;
  act.param_addr = kSramParams;
  act.out_addr = kSramOut;
  act.out_pixel_stride = kN;
  act.out_zero_point = kZy;
  p.Add({spec::Opcode::kAct, kC, kS, act});
  p.Add(testing::Store(kSramOut, kOut, kM * kN, kV, 0));
  return p.Build();
}

// requantise(sum over k of (a - z_a)(b - z_b)), from the definition.
std::vector<int8_t> Expected(const std::vector<int8_t>& a, const std::vector<int8_t>& b) {
  std::vector<int8_t> y(kM * kN);
  for (uint32_t m = 0; m < kM; ++m) {
    for (uint32_t n = 0; n < kN; ++n) {
      int32_t acc = 0;
      for (uint32_t k = 0; k < kK; ++k) {
        acc += (a[m * kK + k] - kZa) * (b[(kB0 + k) * kColsB + kN0 + n] - kZb);
      }
      y[m * kN + n] = spec::Requantize(acc, 0, kMultiplier, kShift, kZy, -128, 127);
    }
  }
  return y;
}

TEST(MatMulConv, StridedBlockOfAnActivationWithZeroPointsIsExactAndTakesPlainConvCycles) {
  spec::NpuConfig config = spec::DefaultConfig();
  config.mutable_mac()->set_rows(4);
  config.mutable_mac()->set_cols(8);
  // ceil(K=19 / 4) * ceil(N=13 / 8) = 10 folds of max(M = 23, R = 4), + 2*4 + 8 - 2.
  ASSERT_EQ(spec::ConvComputeCycles(config, Tile(true)), 244u);
  ASSERT_EQ(spec::IdealCycles(config, {spec::Opcode::kConv, 0, 0, Tile(true)}), 244u);
  const std::vector<int8_t> a = Pattern(kM * kK, 1), b = Pattern(kRowsB * kColsB, 2);
  StatusOr<platform::RunResult> r =
      platform::RunBinary(config, spec::SealProgram(Program(config)), {a, b}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->outputs[0], Expected(a, b));
  const auto clamped = std::count_if(r->outputs[0].begin(), r->outputs[0].end(),
                                     [](int8_t v) { return v == -128 || v == 127; });
  EXPECT_LT(clamped, kM * kN / 10) << "the products should not all saturate";
  const hw::InsnRecord &plain = r->records.at(3), &matmul = r->records.at(4);
  EXPECT_EQ(plain.end - plain.start, 244u);
  EXPECT_EQ(matmul.end - matmul.start, 244u);
  EXPECT_EQ(matmul.bank_conflict, 0u);
  EXPECT_EQ(r->counters[spec::regs::kMacs], 2u * kM * kN * kK);
}

}  // namespace
}  // namespace npu
