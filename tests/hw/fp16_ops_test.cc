// FP16 on the platform: a 3x3 CONV and a 1x1 CONV accumulating into the same FP32 tile, ACT
// (bias, ReLU6 bounds), a max POOL and an ELTWISE add with ReLU, all fp16, run on three
// configs. The outputs must equal the operations written out here from docs/fp16-semantics.md
// (sums in double, exact for these operands; FP16 rounding by the compiler's own binary16
// type, not hw/spec/fp16), and each unit must take exactly its spec::IdealCycles.
// Then the conversions on the same configs: an int8 tensor through LUT fp16_out (in place), an
// FP16 average POOL, and ELTWISE int8_out twice (the max(a, a) conversion; an add with ReLU),
// bit-exact against spec::DequantizeToFp16 and spec::QuantizeFp16, each unit at its ideal cycles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "hw/spec/config.h"
#include "hw/spec/fp16.h"
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

constexpr uint32_t kHW = 6, kCin = 8, kN = 12, kPooled = 3;
// DRAM offsets (the instructions are at 0) and SRAM addresses.
constexpr uint32_t kX = 1 << 20, kW3 = kX + 4096, kW1 = kX + 8192, kParams = kX + 12288,
                   kB = kX + 16384, kActOut = kX + 20480, kEltOut = kX + 24576;
constexpr uint32_t kSramX = 0, kSramW3 = 1024, kSramW1 = 4096, kSramParams = 4608,
                   kSramB = 4864, kSramAct = 8192, kSramPool = 12288, kSramElt = 12800;

// Round to FP16 independently of hw/spec where the compiler has binary16 (GCC).
uint16_t RoundToFp16(float f) {
#if defined(__FLT16_MANT_DIG__) && defined(__GNUC__) && !defined(__clang__)
  const _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
#else
  return spec::FloatToFp16(f);
#endif
}

// Multiples of 1/step in [-range, range]: exact in FP16, their products exact in double.
std::vector<float> Values(size_t n, int range_steps, float step, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> q(-range_steps, range_steps);
  std::vector<float> v(n);
  for (float& x : v) x = q(rng) / step;
  return v;
}

std::vector<uint8_t> Fp16Bytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * 2);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint16_t h = RoundToFp16(values[i]);
    bytes[2 * i] = h & 0xFF, bytes[2 * i + 1] = h >> 8;
  }
  return bytes;
}

struct Data {
  std::vector<float> x = Values(kHW * kHW * kCin, 64, 32, 1);   // [-2, 2]
  std::vector<float> w3 = Values(kN * 9 * kCin, 8, 32, 2);      // [-1/4, 1/4]
  std::vector<float> w1 = Values(kN * kCin, 8, 32, 3);
  std::vector<float> bias = Values(kN, 16, 8, 4);               // [-2, 2]
  std::vector<float> b = Values(kN, 32, 16, 5);                 // [-2, 2]
};

spec::ConvArgs Conv3x3() {
  spec::ConvArgs c;
  c.fp16 = true;
  c.in_addr = kSramX, c.in_h = c.in_w = kHW, c.in_c = kCin;
  c.kernel_h = c.kernel_w = 3, c.pad_top = c.pad_left = 1;
  c.out_h = c.out_w = kHW, c.out_c = kN;
  c.wt_addr = kSramW3;
  return c;
}

spec::ConvArgs Conv1x1() {
  spec::ConvArgs c = Conv3x3();
  c.kernel_h = c.kernel_w = 1, c.pad_top = c.pad_left = 0;
  c.wt_addr = kSramW1;
  c.accumulate = true;
  return c;
}

spec::ActArgs Act() {
  spec::ActArgs a;
  a.fp16 = true;
  a.pixels = kHW * kHW, a.channels = kN, a.out_pixel_stride = kN;
  a.param_addr = kSramParams, a.out_addr = kSramAct;
  a.fp16_clamp_min = RoundToFp16(0.0f), a.fp16_clamp_max = RoundToFp16(6.0f);
  return a;
}

spec::PoolArgs Pool() {
  spec::PoolArgs p;
  p.fp16 = true;
  p.in_addr = kSramAct, p.in_h = p.in_w = kHW, p.channels = kN;
  p.kernel_h = p.kernel_w = p.stride_h = p.stride_w = 2;
  p.out_h = p.out_w = kPooled, p.out_addr = kSramPool, p.out_pixel_stride = kN;
  return p;
}

spec::EltwiseArgs Eltwise() {
  spec::EltwiseArgs e;
  e.fp16 = true, e.fp16_relu = true;
  e.a_addr = kSramPool, e.b_addr = kSramB, e.out_addr = kSramElt;
  e.count = kPooled * kPooled * kN, e.channels = kN;
  e.broadcast = uint32_t(spec::Broadcast::kChannel);
  return e;
}

spec::Program Program(const spec::NpuConfig& config, const Data& d) {
  std::vector<uint8_t> params(kN * spec::kActParamBytes);
  for (uint32_t n = 0; n < kN; ++n) {
    spec::WriteActParams(params, n, {std::bit_cast<int32_t>(d.bias[n]), 0, 0});
  }
  testing::ProgramBuilder p(config);
  p.Input(kX, kHW * kHW * kCin * 2)
      .Constant(kW3, Fp16Bytes(d.w3))
      .Constant(kW1, Fp16Bytes(d.w1))
      .Constant(kParams, params)
      .Constant(kB, Fp16Bytes(d.b));
  p.Output(kActOut, kHW * kHW * kN * 2).Output(kEltOut, kPooled * kPooled * kN * 2);
  // Every LOAD before the first CONV, so no DMA shares the banks with the units timed below.
  p.Add(testing::Load(kX, kSramX, kHW * kHW * kCin * 2));
  p.Add(testing::Load(kParams, kSramParams, kN * spec::kActParamBytes));
  p.Add(testing::Load(kB, kSramB, kN * 2));
  p.Add(testing::Load(kW3, kSramW3, kN * 9 * kCin * 2));
  p.Add(testing::Load(kW1, kSramW1, kN * kCin * 2, 0, kC | kV));
  p.Add({spec::Opcode::kConv, kL, 0, Conv3x3()});
  p.Add({spec::Opcode::kConv, 0, kV, Conv1x1()});
  p.Add({spec::Opcode::kAct, kC | kL, 0, Act()});
  p.Add({spec::Opcode::kPool, 0, 0, Pool()});
  p.Add({spec::Opcode::kEltwise, 0, kS, Eltwise()});
  p.Add(testing::Store(kSramAct, kActOut, kHW * kHW * kN * 2, kV, 0));
  p.Add(testing::Store(kSramElt, kEltOut, kPooled * kPooled * kN * 2));
  return p.Build();
}

float XAt(const Data& d, int y, int x, uint32_t c) {
  if (y < 0 || y >= int(kHW) || x < 0 || x >= int(kHW)) return 0.0f;
  return d.x[(y * kHW + x) * kCin + c];
}

float FromFp16(uint16_t h) { return spec::Fp16ToFloat(h); }  // exact: checked exhaustively

// The ACT output and the ELTWISE output, from the definitions.
std::pair<std::vector<uint16_t>, std::vector<uint16_t>> Expected(const Data& d) {
  std::vector<uint16_t> act(kHW * kHW * kN), elt(kPooled * kPooled * kN);
  for (int oy = 0; oy < int(kHW); ++oy) {
    for (int ox = 0; ox < int(kHW); ++ox) {
      for (uint32_t n = 0; n < kN; ++n) {
        double s3 = 0, s1 = 0;
        for (int ky = 0; ky < 3; ++ky) {
          for (int kx = 0; kx < 3; ++kx) {
            for (uint32_t c = 0; c < kCin; ++c) {
              s3 += double(XAt(d, oy + ky - 1, ox + kx - 1, c)) * d.w3[((n * 3 + ky) * 3 + kx) * kCin + c];
            }
          }
        }
        for (uint32_t c = 0; c < kCin; ++c) s1 += double(XAt(d, oy, ox, c)) * d.w1[n * kCin + c];
        const float acc = static_cast<float>(s3) + static_cast<float>(s1);  // FP32, as the tile
        const float y = std::clamp(FromFp16(RoundToFp16(acc + d.bias[n])), 0.0f, 6.0f);
        act[(oy * kHW + ox) * kN + n] = RoundToFp16(y);
      }
    }
  }
  for (uint32_t py = 0; py < kPooled; ++py) {
    for (uint32_t px = 0; px < kPooled; ++px) {
      for (uint32_t n = 0; n < kN; ++n) {
        float m = -INFINITY;
        for (uint32_t i = 0; i < 4; ++i) {
          m = std::max(m, FromFp16(act[((2 * py + i / 2) * kHW + 2 * px + i % 2) * kN + n]));
        }
        const float sum = FromFp16(RoundToFp16(m + d.b[n]));
        elt[(py * kPooled + px) * kN + n] = RoundToFp16(std::max(sum, 0.0f));
      }
    }
  }
  return {act, elt};
}

std::vector<uint16_t> AsFp16(const std::vector<int8_t>& bytes) {
  std::vector<uint16_t> v(bytes.size() / 2);
  for (size_t i = 0; i < v.size(); ++i) v[i] = spec::LoadFp16(bytes.data(), i);
  return v;
}

spec::NpuConfig Config(int which) {
  spec::NpuConfig c = spec::DefaultConfig();  // 32 x 32 weight-stationary, FP16 at half rate
  if (which == 1) {
    c.mutable_mac()->set_rows(8), c.mutable_mac()->set_cols(8);
    c.mutable_mac()->set_dataflow(spec::OUTPUT_STATIONARY);
    c.mutable_mac()->set_fp16_mac_cycles(4);
  } else if (which == 2) {
    c.mutable_mac()->set_rows(16), c.mutable_mac()->set_cols(4);
    c.mutable_mac()->set_fp16_mac_cycles(1);
    c.mutable_act()->set_fp16_element_cycles(1);
    c.mutable_act()->set_lanes(8);
    c.mutable_sram()->set_banks(4);
  }
  return c;
}

class Fp16Ops : public ::testing::TestWithParam<int> {};

TEST_P(Fp16Ops, ConvActPoolEltwiseAreBitExactAndTakeTheirIdealCycles) {
  const spec::NpuConfig config = Config(GetParam());
  ASSERT_TRUE(spec::Validate(config).ok());
  const Data d;
  const std::vector<uint8_t> x = Fp16Bytes(d.x);
  StatusOr<platform::RunResult> r = platform::RunBinary(
      config, spec::SealProgram(Program(config, d)), {std::vector<int8_t>(x.begin(), x.end())}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const auto [act, elt] = Expected(d);
  EXPECT_EQ(AsFp16(r->outputs[0]), act);
  EXPECT_EQ(AsFp16(r->outputs[1]), elt);
  const auto saturated = std::count(act.begin(), act.end(), RoundToFp16(6.0f));
  const auto zero = std::count(act.begin(), act.end(), 0);
  EXPECT_LT(saturated + zero, long(act.size() * 3 / 4)) << "most values should pass the clamp";
  // Each unit alone: the CONVs, ACT, POOL and ELTWISE take exactly their ideal cycles.
  const auto took = [&](size_t i) { return r->records.at(i).end - r->records.at(i).start; };
  const spec::ConvArgs first = Conv3x3();
  EXPECT_EQ(took(5), spec::IdealCycles(config, {spec::Opcode::kConv, 0, 0, first}));
  spec::FoldChain chain;  // the second may continue the first's folds
  chain.Ended(first, r->records.at(5).end);
  const spec::ConvArgs second = Conv1x1();
  EXPECT_EQ(took(6), spec::IdealCycles(config, {spec::Opcode::kConv, 0, 0, second},
                                       chain.Predecessor(config, second, r->records.at(6).start)));
  EXPECT_EQ(took(7), spec::IdealCycles(config, {spec::Opcode::kAct, 0, 0, Act()}));
  EXPECT_EQ(took(8), spec::IdealCycles(config, {spec::Opcode::kPool, 0, 0, Pool()}));
  EXPECT_EQ(took(9), spec::IdealCycles(config, {spec::Opcode::kEltwise, 0, 0, Eltwise()}));
  // The energy model prices these MACs as FP16 ones (the event counts them apart).
  for (size_t i : {5, 6}) {
    EXPECT_EQ(r->records.at(i).events.fp16_macs, r->records.at(i).events.macs);
    EXPECT_GT(r->records.at(i).events.macs, 0u);
  }
  // The FP16 rates are what those cycles charge: at 2 cycles a MAC the 3x3 CONV's stream is
  // twice the int8 one's.
  spec::ConvArgs int8 = first;
  int8.fp16 = false;
  EXPECT_EQ(spec::ConvStream(config, first),
            spec::ConvStream(config, int8) * config.mac().fp16_mac_cycles());
}

// The conversion program: int8 x (scale kInScale, zero point kInZero) -> LUT fp16_out in place
// -> 2x2 average POOL -> ELTWISE max(a, a) int8_out; and LUT's output + b (per channel), ReLU,
// ELTWISE int8_out.
constexpr uint32_t kCount = kHW * kHW * kN, kPooledCount = kPooled * kPooled * kN;
constexpr float kInScale = 0.0421f, kOutScale = 0.0625f, kSumScale = 0.05f;
constexpr int32_t kInZero = -5, kOutZero = 3, kSumZero = -20, kPoolClampMin = -30;
constexpr uint32_t kQX = 1 << 20, kQTable = kQX + 4096, kQB = kQX + 8192, kQLut = kQX + 12288,
                   kQPool8 = kQX + 16384, kQSum8 = kQX + 20480;
constexpr uint32_t kSramTable = 0, kSramQ = 1024, kSramQB = 2048, kSramQPool = 4096,
                   kSramPool8 = 8192, kSramSum8 = 8704;

spec::LutArgs ToFp16() {
  spec::LutArgs l;
  l.fp16_out = true;
  l.in_addr = l.out_addr = kSramQ;  // in place: the unit reads the whole input first
  l.table_addr = kSramTable, l.count = kCount;
  return l;
}

spec::PoolArgs AveragePool() {
  spec::PoolArgs p = Pool();
  p.in_addr = kSramQ, p.out_addr = kSramQPool;
  p.mode = uint32_t(spec::PoolMode::kAverage);
  return p;
}

spec::EltwiseArgs ToInt8() {
  spec::EltwiseArgs e;
  e.fp16 = true, e.int8_out = true;
  e.op = uint32_t(spec::EltwiseOp::kMax);
  e.a_addr = e.b_addr = kSramQPool, e.out_addr = kSramPool8, e.count = kPooledCount;
  e.a_multiplier = static_cast<int32_t>(spec::FloatToBits(1.0f / kOutScale));
  e.out_zero_point = kOutZero, e.clamp_min = kPoolClampMin;
  return e;
}

spec::EltwiseArgs AddReluToInt8() {
  spec::EltwiseArgs e = Eltwise();
  e.int8_out = true;
  e.a_addr = kSramQ, e.b_addr = kSramQB, e.out_addr = kSramSum8, e.count = kCount;
  e.a_multiplier = static_cast<int32_t>(spec::FloatToBits(1.0f / kSumScale));
  e.out_zero_point = kSumZero;
  return e;
}

spec::Program ConversionProgram(const spec::NpuConfig& config, const Data& d) {
  std::vector<uint16_t> table(spec::kLutEntries);
  for (int k = 0; k < int(table.size()); ++k) {
    table[k] = spec::DequantizeToFp16(k - 128 - kInZero, kInScale);
  }
  std::vector<uint8_t> table_bytes(table.size() * 2);
  std::memcpy(table_bytes.data(), table.data(), table_bytes.size());  // little-endian host
  testing::ProgramBuilder p(config);
  p.Input(kQX, kCount).Constant(kQTable, table_bytes).Constant(kQB, Fp16Bytes(d.b));
  p.Output(kQLut, kCount * 2).Output(kQPool8, kPooledCount).Output(kQSum8, kCount);
  p.Add(testing::Load(kQTable, kSramTable, table_bytes.size()));
  p.Add(testing::Load(kQB, kSramQB, kN * 2));
  p.Add(testing::Load(kQX, kSramQ, kCount, 0, kV));
  p.Add({spec::Opcode::kLut, kL, 0, ToFp16()});
  p.Add({spec::Opcode::kPool, 0, 0, AveragePool()});
  p.Add({spec::Opcode::kEltwise, 0, 0, ToInt8()});
  p.Add({spec::Opcode::kEltwise, 0, kS, AddReluToInt8()});
  p.Add(testing::Store(kSramQ, kQLut, kCount * 2, kV, 0));
  p.Add(testing::Store(kSramPool8, kQPool8, kPooledCount));
  p.Add(testing::Store(kSramSum8, kQSum8, kCount));
  return p.Build();
}

int8_t Quantize(uint16_t r, float scale, int32_t zero_point, int32_t lo) {
  const int64_t q = zero_point + int64_t{spec::QuantizeFp16(r, 1.0f / scale)};
  return static_cast<int8_t>(std::clamp<int64_t>(q, lo, 127));
}

TEST_P(Fp16Ops, Int8ToFp16AndBackAreBitExactAndTakeTheirIdealCycles) {
  const spec::NpuConfig config = Config(GetParam());
  const Data d;
  std::mt19937 rng(6);
  std::vector<int8_t> x(kCount);
  for (int8_t& v : x) v = static_cast<int8_t>(int(rng() % 256) - 128);
  StatusOr<platform::RunResult> r =
      platform::RunBinary(config, spec::SealProgram(ConversionProgram(config, d)), {x}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  // LUT: each int8 value's real value, rounded once to FP16.
  std::vector<uint16_t> lut(kCount);
  for (uint32_t i = 0; i < kCount; ++i) lut[i] = spec::DequantizeToFp16(x[i] - kInZero, kInScale);
  EXPECT_EQ(AsFp16(r->outputs[0]), lut);
  // POOL (four taps summed in FP32 row by row, divided by 4, rounded), then max(a, a) = a
  // quantised; and the add with ReLU quantised.
  std::vector<int8_t> pool8(kPooledCount), sum8(kCount);
  for (uint32_t py = 0; py < kPooled; ++py) {
    for (uint32_t px = 0; px < kPooled; ++px) {
      for (uint32_t n = 0; n < kN; ++n) {
        float sum = 0.0f;
        for (uint32_t i = 0; i < 4; ++i) {
          sum += FromFp16(lut[((2 * py + i / 2) * kHW + 2 * px + i % 2) * kN + n]);
        }
        const uint32_t o = (py * kPooled + px) * kN + n;
        pool8[o] = Quantize(RoundToFp16(sum / 4.0f), kOutScale, kOutZero, kPoolClampMin);
      }
    }
  }
  for (uint32_t i = 0; i < kCount; ++i) {
    const float y = FromFp16(RoundToFp16(FromFp16(lut[i]) + d.b[i % kN]));
    sum8[i] = Quantize(RoundToFp16(std::max(y, 0.0f)), kSumScale, kSumZero, -128);
  }
  EXPECT_EQ(r->outputs[1], pool8);
  EXPECT_EQ(r->outputs[2], sum8);
  EXPECT_GT(std::count(pool8.begin(), pool8.end(), kPoolClampMin), 0) << "the clamp should bite";
  EXPECT_GT(std::count(sum8.begin(), sum8.end(), 127), 0) << "some values should saturate";
  // The vector unit alone after the loads: each instruction at exactly its ideal cycles.
  const auto took = [&](size_t i) { return r->records.at(i).end - r->records.at(i).start; };
  EXPECT_EQ(took(3), spec::IdealCycles(config, {spec::Opcode::kLut, 0, 0, ToFp16()}));
  EXPECT_EQ(took(4), spec::IdealCycles(config, {spec::Opcode::kPool, 0, 0, AveragePool()}));
  EXPECT_EQ(took(5), spec::IdealCycles(config, {spec::Opcode::kEltwise, 0, 0, ToInt8()}));
  EXPECT_EQ(took(6), spec::IdealCycles(config, {spec::Opcode::kEltwise, 0, 0, AddReluToInt8()}));
}

INSTANTIATE_TEST_SUITE_P(Configs, Fp16Ops, ::testing::Values(0, 1, 2));

}  // namespace
}  // namespace npu
