// The elementwise layers' field checks and the lookup tables built from unary functions.
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/layer/copy_layer.h"
#include "compiler/layer/eltwise_layer.h"
#include "compiler/layer/lut_layer.h"
#include "compiler/layer/lut_table.h"
#include "compiler/tiling/eltwise_tiling.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

int LutIndexOf(int x) { return x + 128; }

void ExpectError(const Status& s, const std::string& needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

TEST(EltwiseLayer, ChecksNameTheLayerAndTheField) {
  EltwiseLayer e;
  e.name = "e";
  e.h = 2, e.w = 3, e.c = 4;
  EXPECT_TRUE(CheckEltwiseLayer(e).ok());
  e.b_multiplier = 40000;
  ExpectError(CheckEltwiseLayer(e), "layer 'e': b_multiplier = 40000");
  e.b_multiplier = 1, e.op = spec::EltwiseOp::kMul;
  ExpectError(CheckEltwiseLayer(e), "b_multiplier = 1 must be 0");
  e.b_multiplier = 0, e.a_multiplier = INT32_MIN;  // a's multiplier is 32-bit
  EXPECT_TRUE(CheckEltwiseLayer(e).ok());
  e.broadcast = spec::Broadcast::kPixel;
  e.b_constant = std::vector<int8_t>(5);
  ExpectError(CheckEltwiseLayer(e), "the constant b has 5 values; its broadcast needs 6");
  e.b_constant.resize(6);
  EXPECT_TRUE(CheckEltwiseLayer(e).ok());
  e.c = 70000, e.b_constant.clear(), e.broadcast = spec::Broadcast::kChannel;
  EXPECT_EQ(CheckEltwiseLayer(e).kind(), ErrorKind::kUnimplemented);
  e.shift = 63;
  ExpectError(CheckEltwiseLayer(e), "shift = 63");
}

TEST(EltwiseLayer, BElementsPerBroadcast) {
  EltwiseLayer e;
  e.h = 2, e.w = 3, e.c = 4;
  const std::pair<spec::Broadcast, uint64_t> cases[] = {{spec::Broadcast::kNone, 24},
                                                        {spec::Broadcast::kChannel, 4},
                                                        {spec::Broadcast::kPixel, 6},
                                                        {spec::Broadcast::kScalar, 1}};
  for (const auto& [mode, n] : cases) {
    e.broadcast = mode;
    EXPECT_EQ(e.BElements(), n);
  }
}

TEST(EltwiseTiling, ChunksNeverStraddleAPixelWhenSmallerThanOne) {
  const std::vector<ElementChunk> whole = Chunks(12, 8);
  ASSERT_EQ(whole.size(), 2u);
  EXPECT_EQ(whole[1].offset, 8u);
  EXPECT_EQ(whole[1].count, 4u);
  // Pixels of 5, chunks of 2: 2+2+1 per pixel.
  const std::vector<ElementChunk> cut = Chunks(10, 2, 5);
  ASSERT_EQ(cut.size(), 6u);
  EXPECT_EQ(cut[2].offset, 4u);
  EXPECT_EQ(cut[2].count, 1u);
  EXPECT_EQ(cut[3].offset, 5u);
  // Chunks of whole pixels run on.
  EXPECT_EQ(Chunks(30, 10, 5).size(), 3u);
}

TEST(CopyTiling, ChunksOfWholePixelsInTwoSlots) {
  CopyLayer copy{"gather", 6, 5, 7};
  EXPECT_TRUE(CheckCopyLayer(copy).ok());
  const VectorPlan plan = PlanCopySram(copy, CopyTiling{35}, 1);
  EXPECT_EQ(plan.a.slots, 2u);
  EXPECT_EQ(plan.sram_bytes, 70u);
  EXPECT_EQ(PlanCopySram(copy, CopyTiling{210}, 1).a.slots, 1u);  // one chunk: one slot
  // The chosen chunk covers whole pixels, or part of one, and fits the budget.
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<VectorChoice<CopyTiling>> c = ChooseCopyTiling(config, copy, 100);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->tiling.chunk % 7 == 0 || c->tiling.chunk < 7) << c->tiling.chunk;
  EXPECT_LE(c->plan.sram_bytes, 100u);
  copy.c = 0;
  ExpectError(CheckCopyLayer(copy), "layer 'gather'");
  ExpectError(ChooseCopyTiling(config, CopyLayer{"big", 1, 1, 4}, 1).status(), "no tiling fits");
}

TEST(LutTable, IdentityAndScaling) {
  const std::vector<int8_t> id = BuildLutTable([](double x) { return x; }, {0.5f, 3, 0.5f, 3});
  for (int k = 0; k < 256; ++k) EXPECT_EQ(id[k], k - 128);
  // x * 2 with the output scale doubled: also the identity; with it halved, saturation.
  const std::vector<int8_t> doubled =
      BuildLutTable([](double x) { return 2 * x; }, {0.5f, 0, 0.25f, 0});
  EXPECT_EQ(doubled[LutIndexOf(-128)], -128);
  EXPECT_EQ(doubled[LutIndexOf(10)], 40);
  EXPECT_EQ(doubled[LutIndexOf(40)], 127);
}

TEST(LutTable, RoundsHalvesAwayFromZeroAndClamps) {
  // f(x) = x / 4 on integers: 2 -> 0.5 -> 1, -2 -> -0.5 -> -1, 6 -> 1.5 -> 2, 1 -> 0.25 -> 0.
  const std::vector<int8_t> t =
      BuildLutTable([](double x) { return x / 4; }, {1.0f, 0, 1.0f, 0, -1, 1});
  EXPECT_EQ(t[LutIndexOf(2)], 1);
  EXPECT_EQ(t[LutIndexOf(-2)], -1);
  EXPECT_EQ(t[LutIndexOf(1)], 0);
  EXPECT_EQ(t[LutIndexOf(6)], 1);  // 2, clamped to 1
  EXPECT_EQ(t[LutIndexOf(-100)], -1);
  const std::vector<int8_t> odd = BuildLutTable(
      [](double x) { return x == 0  ? NAN
                            : x > 0 ? INFINITY
                                    : -INFINITY; }, {1.0f, 0, 1.0f, 7});
  EXPECT_EQ(odd[LutIndexOf(0)], 7);
  EXPECT_EQ(odd[LutIndexOf(1)], 127);
  EXPECT_EQ(odd[LutIndexOf(-1)], -128);
}

TEST(LutTable, CommonFunctions) {
  // sigmoid in [0, 1] with output scale 1/256, zero point -128: 0 -> 0.5 -> 0.
  const std::vector<int8_t> s = BuildLutTable(unary::Sigmoid, {0.1f, 0, 1.0f / 256, -128});
  EXPECT_EQ(s[LutIndexOf(0)], 0);
  EXPECT_EQ(s[LutIndexOf(-128)], -128);  // sigmoid(-12.8) = 2.8e-6
  EXPECT_EQ(s[LutIndexOf(127)], 127);    // 0.99999695 * 256 - 128 = 127.99 -> 128 -> 127
  for (int k = 1; k < 256; ++k) EXPECT_GE(s[k], s[k - 1]);
  EXPECT_DOUBLE_EQ(unary::HardSwish(3), 3);
  EXPECT_DOUBLE_EQ(unary::HardSwish(-3), 0);
  EXPECT_DOUBLE_EQ(unary::HardSwish(1), 1 * (1.0 / 6 + 0.5));
  EXPECT_NEAR(unary::Gelu(1), 0.8413447460685429, 1e-12);
  EXPECT_NEAR(unary::Silu(1), 0.7310585786300049, 1e-12);
  EXPECT_TRUE(CheckLutLayer({"l", "sigmoid", 1, 1, 1, s}).ok());
  ExpectError(CheckLutLayer({"l", "", 1, 1, 1, {1, 2}}), "layer 'l': table has 2 entries");
}

}  // namespace
}  // namespace npu::compiler
