// Row bands of a concatenation (compiler/network/concat_bands.h): a squeeze-and-excitation's
// depthwise output, in channel groups each pooled on chip and concatenated in DRAM, read by the
// product's row strips, splits into the rows the first strip reads and the rest; the same bytes
// (the integer reference on both graphs), bit-exact on the NPU in any token-legal order, the
// first band on chip and less DRAM traffic. Other concatenations stay whole.
#include "compiler/network/concat_bands.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/network/channel_groups.h"
#include "compiler/network/fusion_nodes.h"
#include "compiler/network/row_strips.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

// 16 KiB: the 20 x 14 x 48 = 13,440-byte depthwise output takes over three quarters of it, so
// its channel groups pool on chip and reach the concatenation through views
// (channel_groups.h).
spec::NpuConfig SmallConfig() {
  return Config({"sram.size_bytes=16384", "mac.rows=8", "mac.cols=8"});
}

// The squeeze-and-excitation block in pooled channel groups, then row strips.
ir::Graph GroupedAndStripped(const spec::NpuConfig& config, const ir::Graph& whole) {
  ir::Graph g = whole.Clone();
  EXPECT_EQ(SplitChannelGroups(config, g, GroupedPairs::kPooled)->size(), 1u);
  EXPECT_FALSE(SplitRowStrips(config, g)->empty());
  return g;
}

// The row slices reading each channel concatenation of images, by the concatenation's rows.
std::vector<std::pair<int64_t, std::vector<std::pair<int64_t, int64_t>>>> SlicedConcats(
    const ir::Graph& g) {
  std::vector<std::pair<int64_t, std::vector<std::pair<int64_t, int64_t>>>> out;
  for (const ir::Node* n : g.NodesOfKind(ir::OpKind::kConcat)) {
    if (n->attrs().GetInt("axis", 0) != 3 || !IsImage(n->output(0))) continue;
    std::vector<std::pair<int64_t, int64_t>> slices;
    for (const ir::Node* u : n->output(0)->users()) {
      if (const std::optional<std::pair<int64_t, int64_t>> r = RowsSliced(*u)) {
        slices.push_back(*r);
      }
    }
    out.emplace_back(n->output(0)->shape()[1], slices);
  }
  return out;
}

TEST(ConcatBands, TheFirstStripsRowsOfAPooledConcatenationBecomeABandOfTheirOwn) {
  const spec::NpuConfig config = SmallConfig();
  const ir::Graph whole = SqueezeExcitationBlock("se", 23);
  const ir::Graph grouped = GroupedAndStripped(config, whole);
  // The groups' concatenation (20 rows), read by the strips in row slices from row 0.
  int64_t strip_rows = 0;
  for (const auto& [rows, slices] : SlicedConcats(grouped)) {
    if (rows != 20) continue;
    ASSERT_GE(slices.size(), 2u);
    for (const auto& [r0, r1] : slices) {
      if (r0 == 0) strip_rows = r1;
    }
  }
  ASSERT_GT(strip_rows, 0);
  ASSERT_LT(strip_rows, 20);

  ir::Graph banded = grouped.Clone();
  StatusOr<std::vector<std::string>> split = BandConcatsByRowReaders(banded);
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->size(), 1u);
  // Now two concatenations of the six groups' rows: the first strip's, read whole, and the rest.
  std::vector<int64_t> band_rows;
  for (const auto& [rows, slices] : SlicedConcats(banded)) band_rows.push_back(rows);
  std::sort(band_rows.begin(), band_rows.end());
  EXPECT_EQ(std::count(band_rows.begin(), band_rows.end(), 20), 0);
  EXPECT_NE(std::find(band_rows.begin(), band_rows.end(), strip_rows), band_rows.end());
  EXPECT_NE(std::find(band_rows.begin(), band_rows.end(), 20 - strip_rows), band_rows.end());
  ExpectSameBytes(whole, banded, {1u, 2u, 3u});

  // Compiled as they are (kAuto may keep another variant): the first band stays on chip, where
  // the whole concatenation went through DRAM, and the network moves less DRAM traffic.
  CompileOptions off;
  off.row_strips = CompileOptions::RowStrips::kOff;
  const CompiledModel before = ExpectBitExact(grouped, config, 1, off);
  const CompiledModel after = ExpectBitExact(banded, config, 2, off);
  EXPECT_TRUE(LayerNamed(after, "scale#strip0").on_chip.input[0]);
  EXPECT_FALSE(LayerNamed(before, "scale#strip0").on_chip.input[0]);
  EXPECT_LT(after.cost.dram_bytes(), before.cost.dram_bytes());
  // The whole compile splits the same way and stays bit-exact.
  ExpectBitExact(whole, config, 1);
}

TEST(ConcatBands, OtherConcatenationsStayWhole) {
  const spec::NpuConfig config = SmallConfig();
  // Without strips reading it, the groups' concatenation is read whole by the product.
  ir::Graph grouped = SqueezeExcitationBlock("se", 23);
  ASSERT_EQ(SplitChannelGroups(config, grouped, GroupedPairs::kPooled)->size(), 1u);
  ir::Graph same = grouped.Clone();
  EXPECT_TRUE(BandConcatsByRowReaders(same)->empty());
  // A concatenation of rows (the strips' outputs) or of parts no view reaches stays whole too.
  QuantGraphBuilder b("two", 5);
  ir::Tensor* x = b.Input("x", 8, 8, 8);
  ir::Tensor* c = b.Concat({b.Conv(x, "a", {.out_c = 8}), b.Conv(x, "b", {.out_c = 8})}, "cat");
  ir::Graph plain = b.Finish({b.Conv(c, "c", {.out_c = 8})});
  EXPECT_TRUE(BandConcatsByRowReaders(plain)->empty());
}

}  // namespace
}  // namespace npu::compiler::testing
