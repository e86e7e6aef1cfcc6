// RESIZE layers on the virtual platform: quantised graphs with a resize compiled, run by the
// firmware on the SystemC model, every output byte equal to the integer reference, and the
// compiler's exact replay equal to the platform instruction by instruction (start and end of
// each) and in total cycles; on-chip operands, channel and column blocks, taps per tile. One case
// per process (SystemC elaborates once).
#include <gtest/gtest.h>

#include <functional>

#include "compiler/network/compile_model.h"
#include "compiler/qinterp/qinterp.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/network/network_test_util.h"
#include "tests/network/quant_graph_builder.h"

namespace npu::compiler::testing {
namespace {

struct Case {
  std::string name;
  std::string config;  // a SweepConfigs() name
  std::function<ir::Graph()> graph;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

spec::NpuConfig Named(const std::string& name) {
  for (const NamedConfig& c : SweepConfigs()) {
    if (c.name == name) return c.config;
  }
  ADD_FAILURE() << "no config " << name;
  return spec::DefaultConfig();
}

// x -> [conv] -> resize (mode, half-pixel) -> [conv].
ir::Graph Resize(int64_t h, int64_t w, int64_t c, int64_t out_h, int64_t out_w,
                 const std::string& mode, bool convs) {
  QuantGraphBuilder b("resize", 13);
  ir::Tensor* x = b.Input("x", h, w, convs ? 4 : c);
  if (convs) x = b.Conv(x, "conv_in", {.out_c = c, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}});
  x = b.Resize(x, "resize", out_h, out_w, ResizeTapsOf(mode, "half_pixel", h, out_h),
               ResizeTapsOf(mode, "half_pixel", w, out_w));
  if (convs) x = b.Conv(x, "conv_out", {.out_c = 6, .kh = 1, .kw = 1});
  return b.Finish({x});
}

class ResizeOnPlatform : public ::testing::TestWithParam<Case> {};

TEST_P(ResizeOnPlatform, BitExactAndPredictedExactly) {
  const Case& c = GetParam();
  const spec::NpuConfig config = Named(c.config);
  const ir::Graph g = c.graph();
  StatusOr<CompiledModel> m = CompileModel(config, g);
  ASSERT_TRUE(m.ok()) << m.status().message();
  for (const ModelLayer& l : m->layers) EXPECT_FALSE(l.on_cpu) << l.name;
  const std::vector<std::vector<int8_t>> inputs = RandomInputs(g, 31);
  StatusOr<std::vector<std::vector<int8_t>>> expected = qinterp::InterpretQuantized(g, inputs);
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  StatusOr<platform::RunResult> run =
      platform::RunBinary(config, spec::SealProgram(m->program), inputs, {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(run->outputs, *expected);
  std::vector<spec::InsnRecord> timeline;
  StatusOr<CostEstimate> cost = PredictCost(config, m->instructions, &timeline);
  ASSERT_TRUE(cost.ok());
  ASSERT_EQ(timeline.size(), run->records.size());
  for (size_t i = 0; i < timeline.size(); ++i) {
    ASSERT_EQ(timeline[i].start, run->records[i].start)
        << "#" << i << " " << spec::Disassemble(m->instructions[i]);
    ASSERT_EQ(timeline[i].end, run->records[i].end)
        << "#" << i << " " << spec::Disassemble(m->instructions[i]);
  }
  EXPECT_EQ(m->cost.cycles, run->counters[spec::regs::kCycles]);
}

INSTANTIATE_TEST_SUITE_P(
    Layers, ResizeOnPlatform,
    ::testing::Values(
        Case{"bilinear_5x7x6_to_11x17", "default",
             [] { return Resize(5, 7, 6, 11, 17, "linear", false); }},
        Case{"nearest_down_13x9x5_to_7x4_os8", "os8",
             [] { return Resize(13, 9, 5, 7, 4, "nearest", false); }},
        Case{"bilinear_on_chip", "default", [] { return Resize(6, 7, 8, 13, 15, "linear", true); }},
        Case{"bilinear_convs_tiny", "tiny", [] { return Resize(6, 7, 8, 13, 15, "linear", true); }},
        Case{"channel_blocks_tiny", "tiny",
             [] { return Resize(4, 20, 64, 9, 50, "linear", false); }},
        Case{"column_blocks_tiny", "tiny",
             [] { return Resize(3, 50, 3, 5, 1500, "linear", false); }},
        Case{"bilinear_33_to_65_big", "big",
             [] { return Resize(33, 33, 4, 65, 65, "linear", true); }}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace npu::compiler::testing
