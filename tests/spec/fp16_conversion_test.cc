// The int8 <-> FP16 conversions of the vector unit (docs/fp16-semantics.md, "Conversions"): LUT's
// fp16_out against a table written out here (special entries pass through as bits), ELTWISE's
// int8_out against values computed by hand (ties to even, saturation at both ends within the
// clamps, NaN, ReLU first, the a = b conversion form); the faults, the encoding of both fields,
// and their sizes, SRAM accesses, footprints and timing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "tests/common/hand_config.h"
#include "hw/spec/config.h"
#include "hw/spec/footprint.h"
#include "hw/spec/fp16.h"
#include "hw/spec/insn_bounds.h"
#include "hw/spec/isa.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"
#include "hw/spec/unit_accesses.h"

namespace npu::spec {
namespace {

Fp16 H(float f) { return FloatToFp16(f); }

std::vector<int8_t> Fp16Array(const std::vector<Fp16>& values) {
  std::vector<int8_t> bytes(values.size() * kFp16Bytes);
  for (size_t i = 0; i < values.size(); ++i) StoreFp16(bytes.data(), i, values[i]);
  return bytes;
}

int32_t ScaleBits(float inv_scale) { return static_cast<int32_t>(FloatToBits(inv_scale)); }

TEST(Fp16Lut, Fp16OutLooksUpFp16EntriesAndCopiesTheirBits) {
  // The compiler's table for int8 scale 0.25, zero point -3; three entries replaced by specials.
  std::vector<Fp16> entries(kLutEntries);
  for (int k = 0; k < int(kLutEntries); ++k) entries[k] = DequantizeToFp16(k - 128 + 3, 0.25f);
  entries[128 + 5] = 0x7D01;  // a signalling NaN with a payload
  entries[128 + 6] = kFp16NegInf;
  entries[128 + 7] = 0xFFFF;  // a negative NaN
  LutArgs l;
  l.fp16_out = true;
  l.count = 7;
  const std::vector<int8_t> in = {-128, 127, 0, -3, 5, 6, 7};
  std::vector<int8_t> out;
  ASSERT_EQ(CheckLut(l), "");
  ComputeLut(l, in, Fp16Array(entries), out);
  ASSERT_EQ(out.size(), 14u);
  // (q + 3) / 4, exact in FP16.
  const std::vector<Fp16> want = {H(-31.25f), H(32.5f), H(0.75f), 0x0000, 0x7D01, 0xFC00, 0xFFFF};
  for (size_t i = 0; i < want.size(); ++i) EXPECT_EQ(LoadFp16(out.data(), i), want[i]) << i;
  // A scale FP16 cannot hold: 0.1f (0.100000001...) rounds once to 0x2E66 (0.0999755859375),
  // not to 0x2E67 (0.10009765625).
  for (int k = 0; k < int(kLutEntries); ++k) entries[k] = DequantizeToFp16(k - 128, 0.1f);
  l.count = 2;
  ComputeLut(l, std::vector<int8_t>{1, -1}, Fp16Array(entries), out);
  EXPECT_EQ(LoadFp16(out.data(), 0), 0x2E66);
  EXPECT_EQ(LoadFp16(out.data(), 1), 0xAE66);
}

TEST(Fp16Lut, SizesAccessesAndTimingCountTwoBytesAnOutputElement) {
  LutArgs l;
  l.table_addr = 0, l.in_addr = 4096, l.out_addr = 8192, l.count = 1000, l.fp16_out = true;
  EXPECT_EQ(LutTableBytes(l), 512u);
  EXPECT_EQ(LutOutputBytes(l), 2000u);
  const Instruction insn{Opcode::kLut, 0, 0, l};
  const std::vector<SramAccess> accesses = {
      {0, 512, 1, 0, false}, {4096, 1000, 1, 0, false}, {8192, 2000, 1, 0, true}};
  EXPECT_EQ(UnitSramAccesses(insn), accesses);
  const std::vector<Footprint> f = Footprints(insn);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[0].begin == 0 && f[0].end == 512 && !f[0].write);
  EXPECT_TRUE(f[1].begin == 4096 && f[1].end == 5096 && !f[1].write);
  EXPECT_TRUE(f[2].begin == 8192 && f[2].end == 10192 && f[2].write);
  // Default config: 32 lanes at 2 cycles an FP16 element, pipeline 4: 4 + ceil(2 * 1000 / 32).
  NpuConfig c = ::npu::testing::HandConfig();
  EXPECT_EQ(VectorLaneCycles(c, insn), 2000u);
  EXPECT_EQ(IdealCycles(c, insn), 67u);
  c.mutable_act()->set_fp16_element_cycles(1);
  EXPECT_EQ(IdealCycles(c, insn), 4u + 32);
  // The int8 form is unchanged: 256-byte table, count bytes out, one cycle an element.
  l.fp16_out = false;
  EXPECT_EQ(LutTableBytes(l), 256u);
  EXPECT_EQ(LutOutputBytes(l), 1000u);
  EXPECT_EQ(IdealCycles(::npu::testing::HandConfig(), {Opcode::kLut, 0, 0, l}), 4u + 32);
  // The bounds check uses the FP16 sizes: a table 256 bytes from the end no longer fits.
  l.fp16_out = true;
  l.table_addr = 16384 - 256, l.in_addr = 0, l.out_addr = 1024;
  const MemoryBounds bounds{0, 16384, 0};
  EXPECT_NE(CheckInstructionBounds({Opcode::kLut, 0, 0, l}, bounds), "");
  l.table_addr = 16384 - 512;
  EXPECT_EQ(CheckInstructionBounds({Opcode::kLut, 0, 0, l}, bounds), "");
}

// ELTWISE max with b = a (the same bytes) and broadcast none: the FP16 -> int8 conversion.
EltwiseArgs Conversion(uint32_t count, float inv_scale, int32_t zero_point) {
  EltwiseArgs e;
  e.fp16 = true, e.int8_out = true;
  e.op = uint32_t(EltwiseOp::kMax);
  e.count = count;
  e.a_multiplier = ScaleBits(inv_scale);
  e.out_zero_point = zero_point;
  return e;
}

std::vector<int8_t> Convert(const EltwiseArgs& e, const std::vector<Fp16>& values) {
  const std::vector<int8_t> a = Fp16Array(values);
  std::vector<int8_t> out;
  EXPECT_EQ(CheckEltwise(e), "");
  ComputeEltwise(e, a, a, out);
  EXPECT_EQ(out.size(), e.count);
  return out;
}

TEST(Fp16Eltwise, Int8OutRoundsTiesToEvenAndNaNToTheZeroPoint) {
  const std::vector<Fp16> v = {H(2.5f), H(3.5f),    H(-2.5f), H(-0.5f), H(0.5f),
                               H(1.5f), H(-128.5f), H(100),   kFp16NaN, 0xFD01};
  EXPECT_EQ(Convert(Conversion(10, 1.0f, 0), v),
            (std::vector<int8_t>{2, 4, -2, 0, 0, 2, -128, 100, 0, 0}));
  EXPECT_EQ(Convert(Conversion(10, 1.0f, 3), v),
            (std::vector<int8_t>{5, 7, 1, 3, 3, 5, -125, 103, 3, 3}));
  // 0x2E66 (0.0999755859375) x 20 = 1.99951171875: 2. x 0.5 (a scale of 2): 0.0499...: 0.
  EXPECT_EQ(Convert(Conversion(1, 20.0f, 0), {0x2E66}), std::vector<int8_t>{2});
  EXPECT_EQ(Convert(Conversion(2, 0.5f, 0), {0x2E66, H(5)}), (std::vector<int8_t>{0, 2}));
}

TEST(Fp16Eltwise, Int8OutSaturatesAtBothEndsWithinTheClamps) {
  const std::vector<Fp16> v = {kFp16Inf, kFp16NegInf, kFp16Max, 0xFBFF, H(15), H(-29), H(-31)};
  EXPECT_EQ(Convert(Conversion(7, 1.0f, 0), v),
            (std::vector<int8_t>{127, -128, 127, -128, 15, -29, -31}));
  EltwiseArgs e = Conversion(7, 1.0f, 10);
  e.clamp_min = -20, e.clamp_max = 30;
  EXPECT_EQ(Convert(e, v), (std::vector<int8_t>{30, -20, 30, -20, 25, -19, -20}));
  // QuantizeFp16 saturates to int32; the zero point is added in 64 bits, so INT32_MAX + 127
  // clamps to 127 rather than wrapping to a negative value (and INT32_MIN + 127 to -128).
  EXPECT_EQ(Convert(Conversion(2, 1e30f, 127), {kFp16Max, 0xFBFF}),
            (std::vector<int8_t>{127, -128}));
  EXPECT_EQ(Convert(Conversion(2, 1e30f, -128), {kFp16Max, 0xFBFF}),
            (std::vector<int8_t>{127, -128}));
}

TEST(Fp16Eltwise, Int8OutQuantisesAfterTheOpAndRelu) {
  EltwiseArgs e = Conversion(2, 0.5f, -4);
  e.op = uint32_t(EltwiseOp::kAdd);
  const std::vector<int8_t> a = Fp16Array({H(-3), H(2.5f)}), b = Fp16Array({H(1), H(0.5f)});
  std::vector<int8_t> out;
  ComputeEltwise(e, a, b, out);
  EXPECT_EQ(out, (std::vector<int8_t>{-5, -2}));  // -2 x 0.5 = -1; 3 x 0.5 = 1.5 -> 2
  e.fp16_relu = true;
  ComputeEltwise(e, a, b, out);
  EXPECT_EQ(out, (std::vector<int8_t>{-4, -2}));  // -2 becomes +0 first
  // A product with b broadcast as a scalar: 3 x 3 = 9, x 0.5 = 4.5 -> 4 (ties to even).
  e.fp16_relu = false;
  e.op = uint32_t(EltwiseOp::kMul), e.broadcast = uint32_t(Broadcast::kScalar);
  e.out_zero_point = 0;
  ComputeEltwise(e, Fp16Array({H(3), H(-1)}), Fp16Array({H(3)}), out);
  EXPECT_EQ(out, (std::vector<int8_t>{4, -2}));  // -3 x 0.5 = -1.5 -> -2
}

TEST(Fp16Eltwise, TheConversionFormAgreesWithQuantizeFp16OnEveryFp16Value) {
  std::vector<Fp16> all(0x10000);
  for (uint32_t h = 0; h < all.size(); ++h) all[h] = static_cast<Fp16>(h);
  const EltwiseArgs e = Conversion(uint32_t(all.size()), 0.37f, -7);
  const std::vector<int8_t> out = Convert(e, all);
  for (uint32_t h = 0; h < all.size(); ++h) {
    const int64_t want = std::clamp<int64_t>(-7 + int64_t{QuantizeFp16(all[h], 0.37f)}, -128, 127);
    ASSERT_EQ(out[h], want) << std::hex << h;
  }
}

TEST(Fp16Eltwise, Int8OutNeedsFp16AndAFinitePositiveScale) {
  EltwiseArgs e = Conversion(4, 1.0f, 0);
  ASSERT_EQ(CheckEltwise(e), "");
  EXPECT_EQ(EltwiseInt8OutScale(e), 1.0f);  // a_multiplier 0x3F800000
  e.a_multiplier = 1;  // the least FP32 subnormal: finite and above 0
  EXPECT_EQ(CheckEltwise(e), "");
  for (const float bad : {0.0f, -0.0f, -1.0f, INFINITY, -INFINITY, std::nanf("")}) {
    e.a_multiplier = ScaleBits(bad);
    EXPECT_NE(CheckEltwise(e).find("int8_out with a_multiplier"), std::string::npos) << bad;
  }
  e = Conversion(4, 1.0f, 0);
  e.fp16 = false;
  EXPECT_EQ(CheckEltwise(e), "int8_out without fp16");
}

TEST(Fp16Eltwise, Int8OutWritesOneByteAnElementAtTheFp16LaneRate) {
  EltwiseArgs e = Conversion(640, 1.0f, 0);
  e.a_addr = 0, e.b_addr = 0, e.out_addr = 4096;
  EXPECT_EQ(EltwiseBytes(e), 1280u);
  EXPECT_EQ(EltwiseBBytes(e), 1280u);
  EXPECT_EQ(EltwiseOutBytes(e), 640u);
  const Instruction insn{Opcode::kEltwise, 0, 0, e};
  const std::vector<SramAccess> accesses = {
      {0, 1280, 1, 0, false}, {0, 1280, 1, 0, false}, {4096, 640, 1, 0, true}};
  EXPECT_EQ(UnitSramAccesses(insn), accesses);
  const std::vector<Footprint> f = Footprints(insn);
  ASSERT_EQ(f.size(), 3u);
  EXPECT_TRUE(f[2].begin == 4096 && f[2].end == 4736 && f[2].write);
  // As the FP16 ELTWISE: 4 + 2 x 2 x 640 / 32.
  EXPECT_EQ(IdealCycles(::npu::testing::HandConfig(), insn), 4u + 2 * 2 * 640 / 32);
  // The bounds check: the int8 output fits where an FP16 one would not.
  const MemoryBounds bounds{0, 4096 + 640, 0};
  EXPECT_EQ(CheckInstructionBounds(insn, bounds), "");
  e.int8_out = false;
  EXPECT_EQ(EltwiseOutBytes(e), 1280u);
  EXPECT_NE(CheckInstructionBounds({Opcode::kEltwise, 0, 0, e}, bounds), "");
}

TEST(Fp16Isa, Fp16OutAndInt8OutEncodeAtBits112And228) {
  const LutArgs l{1, 2, 3, 4, true};
  StatusOr<InsnWord> w = Encode({Opcode::kLut, 0, 0, l});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ((*w)[14], 1);  // bit 112
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<LutArgs>(back->args), l);
  EXPECT_NE(Disassemble(*back).find("count=4 fp16_out=1"), std::string::npos);
  InsnWord reserved = *w;
  reserved[21] |= 4;  // bit 170, after bypass: reserved
  EXPECT_NE(Decode(reserved.data()).status().message().find("reserved bits 170..255"),
            std::string::npos);
  const EltwiseArgs e = Conversion(5, 0.25f, -3);
  w = Encode({Opcode::kEltwise, 0, 0, e});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ((*w)[28] >> 4 & 1, 1);  // bit 228
  back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<EltwiseArgs>(back->args), e);
  EXPECT_NE(Disassemble(*back).find("fp16=1 fp16_relu=0 int8_out=1"), std::string::npos);
}

}  // namespace
}  // namespace npu::spec
