// The elementwise layers' field checks and the lookup tables built from unary functions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "compiler/layer/copy_layer.h"
#include "compiler/layer/eltwise_layer.h"
#include "compiler/layer/gather_layer.h"
#include "compiler/layer/lut_layer.h"
#include "compiler/layer/lut_table.h"
#include "compiler/schedule/eltwise_emitter.h"
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
  ExpectError(CheckEltwiseLayer(e), "the constant b has 5 bytes; its broadcast needs 6");
  e.b_constant.resize(6);
  EXPECT_TRUE(CheckEltwiseLayer(e).ok());
  e.c = 70000, e.b_constant.clear(), e.broadcast = spec::Broadcast::kChannel;
  EXPECT_EQ(CheckEltwiseLayer(e).kind(), ErrorKind::kUnimplemented);
  e.shift = 63;
  ExpectError(CheckEltwiseLayer(e), "shift = 63");
}

// The FP16 -> int8 conversion: an FP16 add of a scalar -0 (2 bytes) quantised to int8.
TEST(EltwiseLayer, Int8OutNeedsFp16AndHalvesTheOutput) {
  EltwiseLayer e;
  e.name = "q";
  e.h = 1, e.w = 2, e.c = 3;
  e.broadcast = spec::Broadcast::kScalar;
  e.b_constant = {0x00, int8_t(0x80)};
  e.int8_out = true;
  ExpectError(CheckEltwiseLayer(e), "int8_out without fp16");
  e.fp16 = true;
  EXPECT_TRUE(CheckEltwiseLayer(e).ok());
  EXPECT_EQ(e.ElementBytes(), 2u);
  EXPECT_EQ(e.OutputElementBytes(), 1u);
  e.b_constant.resize(1);
  ExpectError(CheckEltwiseLayer(e), "the constant b has 1 bytes; its broadcast needs 2");
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
  StatusOr<VectorChoice<CopyTiling>> c = ChooseCopyTiling(config, copy, {}, 100);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_TRUE(c->tiling.chunk % 7 == 0 || c->tiling.chunk < 7) << c->tiling.chunk;
  EXPECT_LE(c->plan.sram_bytes, 100u);
  copy.c = 0;
  ExpectError(CheckCopyLayer(copy), "layer 'gather'");
  ExpectError(ChooseCopyTiling(config, CopyLayer{"big", 1, 1, 4}, {}, 1).status(), "no tiling fits");
}

TEST(VectorTilingMemory, RemembersPerShapeKindAndContextNeverAnotherLayersCheckOrError) {
  // The searches are remembered for the process (eltwise_tiling.h): an equal shape, kind and
  // context gets the remembered choice; another kind, context or budget its own; a layer whose
  // fields are out of range is refused even where an equal shape was remembered; an error names
  // its own layer.
  const spec::NpuConfig config = spec::DefaultConfig();
  EltwiseLayer add;
  add.name = "add", add.h = 56, add.w = 56, add.c = 64;
  const auto choose = [&](const EltwiseLayer& l, uint64_t budget) {
    StatusOr<VectorChoice<EltwiseTiling>> r = ChooseEltwiseTiling(config, l, {}, budget);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? *r : VectorChoice<EltwiseTiling>{};
  };
  const VectorChoice<EltwiseTiling> int8 = choose(add, 16384);
  EXPECT_LE(int8.plan.sram_bytes, 16384u);
  EltwiseLayer values = add;  // other zero points and multipliers: the same instructions' timing
  values.a_zero_point = 3, values.a_multiplier = 7, values.shift = 9;
  EXPECT_EQ(choose(values, 16384).tiling.chunk, int8.tiling.chunk);
  EltwiseLayer fp16 = add;  // two bytes an element: half the elements in the same budget
  fp16.fp16 = true;
  EXPECT_EQ(choose(fp16, 16384).tiling.chunk * 2, int8.tiling.chunk);
  EXPECT_LT(choose(add, 4096).tiling.chunk, int8.tiling.chunk);
  EXPECT_EQ(choose(add, 16384).tiling.chunk, int8.tiling.chunk);
  EltwiseLayer out_of_range = add;
  out_of_range.b_multiplier = 40000;
  ExpectError(ChooseEltwiseTiling(config, out_of_range, {}, 16384).status(),
              "layer 'add': b_multiplier = 40000");
  LutLayer lut{"table", "", 56, 56, 64, std::vector<int8_t>(spec::kLutEntries)};
  ASSERT_TRUE(ChooseLutTiling(config, lut, {}, 16384).ok());
  lut.table.pop_back();
  ExpectError(ChooseLutTiling(config, lut, {}, 16384).status(), "layer 'table'");
  ExpectError(ChooseCopyTiling(config, CopyLayer{"first", 1, 1, 4}, {}, 1).status(), "'first'");
  ExpectError(ChooseCopyTiling(config, CopyLayer{"second", 1, 1, 4}, {}, 1).status(), "'second'");
  // A shuffle of the same shape is searched on its own: its chunks are whole pixels (its LOADs
  // scatter them), two of which do not fit 100 bytes.
  const CopyLayer copy{"copy", 8, 8, 64}, shuffle{"shuffle", 8, 8, 64, 4};
  const StatusOr<VectorChoice<CopyTiling>> plain = ChooseCopyTiling(config, copy, {}, 100);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_LT(plain->tiling.chunk, 64u);
  ExpectError(ChooseCopyTiling(config, shuffle, {}, 100).status(), "layer 'shuffle'");
}

TEST(GatherLayer, MergesDimsAndKeepsTheInnermostRun) {
  // Attention's head split: [S=5, H=3, D=4] -> [H, S, D].
  std::optional<GatherLayer> heads = TransposeOf("heads", {5, 3, 4}, {1, 0, 2});
  ASSERT_TRUE(heads);
  EXPECT_EQ(heads->dims, (std::vector<uint64_t>{3, 5, 4}));
  EXPECT_EQ(heads->in_strides, (std::vector<uint64_t>{4, 12, 1}));
  EXPECT_EQ(heads->LineBytes(), 20u);
  EXPECT_EQ(heads->Lines(), 3u);
  // Depth-to-space [H, W, s, s, C] -> [H, s, W, s, C]: s and C merge into one run.
  std::optional<GatherLayer> d2s = TransposeOf("d2s", {2, 3, 2, 2, 5}, {0, 2, 1, 3, 4});
  ASSERT_TRUE(d2s);
  EXPECT_EQ(d2s->dims, (std::vector<uint64_t>{2, 2, 3, 10}));
  EXPECT_EQ(d2s->in_strides, (std::vector<uint64_t>{60, 10, 20, 1}));
  // Dims of one drop out; moving the innermost axis is not a DMA transpose.
  EXPECT_EQ(TransposeOf("t", {1, 4, 1, 6}, {2, 1, 0, 3})->dims, (std::vector<uint64_t>{1, 24}));
  EXPECT_FALSE(TransposeOf("k", {5, 3, 4}, {1, 2, 0}));
  EXPECT_TRUE(KeepsMemoryOrder({1, 4, 1, 6}, {2, 1, 0, 3}));
  EXPECT_FALSE(KeepsMemoryOrder({5, 3, 4}, {1, 0, 2}));
  // A long run is cut at a divisor so that two rows fit any SRAM.
  std::optional<GatherLayer> wide = TransposeOf("w", {3, 2, 3000}, {1, 0, 2});
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->dims, (std::vector<uint64_t>{2, 3, 3, 1000}));
  EXPECT_EQ(wide->in_strides, (std::vector<uint64_t>{3000, 6000, 1000, 1}));
  EXPECT_FALSE(TransposeOf("prime", {3, 2, 1031}, {1, 0, 2}));  // no divisor >= 64
  // A crop of [4, 5, 3] to rows 1..2, columns 2..4: runs of 3 x 3 bytes from offset 21.
  std::optional<GatherLayer> crop = SliceOf("crop", {4, 5, 3}, {1, 2, 0}, {1, 1, 1}, {2, 3, 3});
  ASSERT_TRUE(crop);
  EXPECT_EQ(crop->dims, (std::vector<uint64_t>{2, 9}));
  EXPECT_EQ(crop->in_strides, (std::vector<uint64_t>{15, 1}));
  EXPECT_EQ(crop->in_offset, 21u);
  // Every other row; a step on the innermost axis (single bytes) or backwards is no gather.
  EXPECT_EQ(SliceOf("rows", {4, 5, 3}, {0, 0, 0}, {2, 1, 1}, {2, 5, 3})->in_strides,
            (std::vector<uint64_t>{30, 1}));
  EXPECT_FALSE(SliceOf("odd", {4, 5, 3}, {0, 0, 0}, {1, 1, 2}, {4, 5, 2}));
  EXPECT_FALSE(SliceOf("back", {4, 5, 3}, {3, 0, 0}, {-1, 1, 1}, {4, 5, 3}));
  EXPECT_TRUE(CheckGatherLayer(*heads).ok());
  GatherLayer bad = *heads;
  bad.in_strides.back() = 2;
  ExpectError(CheckGatherLayer(bad), "layer 'heads'");
}

// Runs LOADs and STOREs in stream order over byte arrays (DRAM: input at 0, output after it).
void RunDma(const std::vector<spec::Instruction>& insns, std::vector<uint8_t>& dram,
            std::vector<uint8_t>& sram) {
  for (const spec::Instruction& insn : insns) {
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    for (uint64_t i2 = 0; i2 < d.n2; ++i2) {
      for (uint64_t i1 = 0; i1 < d.n1; ++i1) {
        for (uint64_t b = 0; b < d.run_bytes; ++b) {
          uint8_t& at_dram = dram.at(d.dram_offset + i2 * d.dram_stride2 + i1 * d.dram_stride1 + b);
          uint8_t& at_sram = sram.at(d.sram_addr + i2 * d.sram_stride2 + i1 * d.sram_stride1 + b);
          if (insn.opcode == spec::Opcode::kLoad)
            at_sram = at_dram;
          else
            at_dram = at_sram;
        }
      }
    }
  }
}

TEST(TransposeEmission, MovesExactlyThePermutationInChunksThatFit) {
  std::mt19937 rng(11);
  const spec::NpuConfig config = spec::DefaultConfig();
  for (int trial = 0; trial < 60; ++trial) {
    const size_t rank = 2 + rng() % 4;
    std::vector<uint64_t> shape(rank);
    for (uint64_t& d : shape) d = 1 + rng() % 6;
    shape.back() += 1;  // a run of more than one byte (else the next axis is the innermost)
    std::vector<int64_t> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end() - 1, rng);  // the innermost axis stays
    const std::optional<GatherLayer> t = TransposeOf("t", shape, perm);
    ASSERT_TRUE(t);
    // Budgets from two rows (the least any tiling needs) up: chunks of parts of lines too.
    const uint64_t n = t->Elements(), budget = 2 * t->dims.back() + rng() % 300;
    StatusOr<VectorChoice<GatherTiling>> choice = ChooseGatherTiling(config, *t, budget);
    ASSERT_TRUE(choice.ok()) << choice.status().message();
    std::vector<uint8_t> dram(2 * n), sram(budget);
    for (uint64_t i = 0; i < n; ++i) dram[i] = uint8_t(rng());
    RunDma(EmitGather(*t, choice->tiling, choice->plan, {DramTensor(0, 1), DramTensor(n, 1)}), dram,
           sram);
    // Reference: output index (row-major over the permuted shape) -> input index.
    std::vector<uint64_t> stride(rank, 1), index(rank, 0);
    for (size_t d = rank - 1; d-- > 0;) stride[d] = stride[d + 1] * shape[d + 1];
    for (uint64_t o = 0; o < n; ++o) {
      uint64_t rest = o, in = 0;
      for (size_t d = rank; d-- > 0;) {
        in += rest % shape[perm[d]] * stride[perm[d]];
        rest /= shape[perm[d]];
      }
      ASSERT_EQ(dram[n + o], dram[in]) << "trial " << trial << " element " << o;
    }
  }
}

TEST(GatherEmission, SlicesMoveExactlyTheirElements) {
  std::mt19937 rng(5);
  const spec::NpuConfig config = spec::DefaultConfig();
  for (int trial = 0; trial < 60; ++trial) {
    const size_t rank = 2 + rng() % 3;
    std::vector<uint64_t> shape(rank), out(rank);
    std::vector<int64_t> start(rank), step(rank);
    for (size_t d = 0; d < rank; ++d) {
      shape[d] = 1 + rng() % 7;
      step[d] = d + 1 == rank ? 1 : 1 + rng() % 3;
      start[d] = rng() % shape[d];
      out[d] = 1 + rng() % ((shape[d] - start[d] + step[d] - 1) / step[d]);
    }
    const std::optional<GatherLayer> g = SliceOf("s", shape, start, step, out);
    if (!g) {  // only a slice keeping one element of the innermost axis moves single bytes
      EXPECT_EQ(out.back(), 1u) << trial;
      continue;
    }
    uint64_t n_in = 1, n_out = 1;
    for (size_t d = 0; d < rank; ++d) n_in *= shape[d], n_out *= out[d];
    const uint64_t budget = 2 * g->dims.back() + rng() % 100;
    StatusOr<VectorChoice<GatherTiling>> choice = ChooseGatherTiling(config, *g, budget);
    ASSERT_TRUE(choice.ok()) << choice.status().message();
    std::vector<uint8_t> dram(n_in + n_out), sram(budget);
    for (uint64_t i = 0; i < n_in; ++i) dram[i] = uint8_t(rng());
    RunDma(EmitGather(*g, choice->tiling, choice->plan, {DramTensor(0, 1), DramTensor(n_in, 1)}),
           dram, sram);
    for (uint64_t o = 0; o < n_out; ++o) {
      uint64_t rest = o, in = 0, stride = 1;
      for (size_t d = rank; d-- > 0;) {
        in += (start[d] + rest % out[d] * step[d]) * stride;
        rest /= out[d];
        stride *= shape[d];
      }
      ASSERT_EQ(dram[n_in + o], dram[in]) << "trial " << trial << " element " << o;
    }
  }
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
  ExpectError(CheckLutLayer({"l", "", 1, 1, 1, {1, 2}}),
              "layer 'l': table of 2 bytes; a lookup table has 256 entries of 1");
  // To FP16: 256 entries of 2 bytes, and an output of 2 bytes an element.
  LutLayer to_fp16{"c", "to fp16", 1, 1, 1, s, true};
  ExpectError(CheckLutLayer(to_fp16), "table of 256 bytes; a lookup table to FP16 has 256 entries of 2");
  to_fp16.table.resize(512);
  EXPECT_TRUE(CheckLutLayer(to_fp16).ok());
  EXPECT_EQ(to_fp16.OutputElementBytes(), 2u);
}

}  // namespace
}  // namespace npu::compiler
