// Whole networks end to end on the virtual platform: a built-in model through the front end,
// quantisation and CompileModel, run by the firmware on the SystemC model, every output byte
// compared with the integer reference; and every layer's predicted cycles (the completion
// partition of docs/report.md) and DRAM bytes exactly as measured, CPU ops and the firmware's
// time between steps included. Every built-in model on four configs: default (224x224 images,
// the targets' config); a small 8x8 array with a small SRAM; a large 64x64 output-stationary
// array with a large SRAM; a 16x16 output-stationary array with 256 KiB; and models with ops
// forced onto the control core (the CPU fallback). One case per process (SystemC elaborates
// once).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "compiler/network/model_pipeline.h"
#include "compiler/passes/pipeline.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/report/run_report.h"
#include "platform/run.h"
#include "tests/network/platform_configs.h"
#include "workloads/models/models.h"

namespace npu {
namespace {

struct Case {
  std::string name;
  std::string model;
  int64_t image_size;  // 0: the model's default
  std::vector<std::string> overrides;
  std::vector<std::string> cpu_ops = {};  // forced onto the control core
  int weight_bits = 8;                    // 4: W4A8 (int4 weights on the MAC array)
  double auto_budget_db = -1;             // >= 0: --precision auto with this budget
  bool fp16 = false;                      // --precision fp16: against the FP16 reference
  bool mixed_fp16 = false;  // every other convolution / FC layer FP16, the rest int8
  double auto_target_db = 0;  // > 0: --precision auto --accuracy-target-db (int4/int8/FP16)
};

// The float graph's convolutions and fully connected layers, every other one from the second.
std::set<std::string> EveryOtherMacLayer(const Case& c) {
  StatusOr<compiler::ir::Graph> g = workloads::BuildModel(c.model, {.image_size = c.image_size});
  EXPECT_TRUE(g.ok());
  compiler::passes::PassContext ctx;
  EXPECT_TRUE(compiler::passes::RunPipeline(*g, {}, ctx).ok());
  std::set<std::string> names;
  int k = 0;
  for (const compiler::ir::Node* n : g->nodes()) {
    using compiler::ir::OpKind;
    const bool mac = n->kind() == OpKind::kFusedConv || n->kind() == OpKind::kGemm;
    if (mac && k++ % 2 == 1) names.insert(n->name());
  }
  return names;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The corpus's miniature resnext, the one case with grouped convolutions.
const std::string kResnext = NPU_SOURCE_DIR "/tests/corpus/data/resnext.op17.onnx";

class NetworkOnPlatform : public ::testing::TestWithParam<Case> {};

TEST_P(NetworkOnPlatform, BitExactAndPredictedPerLayer) {
  const Case& c = GetParam();
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", c.overrides);
  ASSERT_TRUE(config.ok()) << config.status().message();
  compiler::ModelPipelineOptions options;
  options.image_size = c.image_size;
  options.compile.cpu_ops = c.cpu_ops;
  options.quantize.weight_bits = c.weight_bits;
  options.auto_precision = c.auto_budget_db >= 0 || c.auto_target_db > 0;
  options.accuracy_budget_db = std::max(c.auto_budget_db, 0.0);
  if (c.auto_target_db > 0) options.accuracy_target_db = c.auto_target_db;
  options.fp16 = c.fp16;
  if (c.mixed_fp16) options.quantize.fp16_layers = EveryOtherMacLayer(c);
  StatusOr<compiler::PreparedModel> p = compiler::PrepareModel(c.model, *config, options);
  ASSERT_TRUE(p.ok()) << p.status().message();
  const spec::Program& program = p->compiled.program;
  StatusOr<platform::RunResult> run =
      platform::RunBinary(*config, spec::SealProgram(program), p->inputs, {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  ASSERT_EQ(run->outputs.size(), p->expected.size());
  for (size_t o = 0; o < p->expected.size(); ++o) {
    ASSERT_EQ(run->outputs[o].size(), p->expected[o].size());
    for (size_t i = 0; i < p->expected[o].size(); ++i) {
      ASSERT_EQ(run->outputs[o][i], p->expected[o][i]) << "output " << o << " byte " << i;
    }
  }
  const report::RunReport r = report::BuildRunReport(
      {c.model, &*config, &program, &run->counters, &run->records, &run->steps, run->cycles});
  EXPECT_EQ(r.macs, p->compiled.cost.macs);
  // The least DRAM traffic, from the binary, is the compiler's; what the NPU ran moved at least
  // that (a CPU op's traffic counts its tensors, not the constants it holds).
  EXPECT_EQ(r.min_dram_bytes, p->compiled.min_dram_bytes);
  // Both count a row strip's halo rows and repeated constants once.
  EXPECT_EQ(r.roofline_cycles, p->compiled.roofline_cycles);
  if (r.cpu_steps == 0) {
    EXPECT_GE(report::DramRatio(r), 1.0);
  }
  // W4A8: the constant-weight CONVs run int4 (and only then).
  uint32_t int4_convs = 0, fp16_convs = 0, convs = 0, grouped_convs = 0, dwconvs = 0;
  for (const spec::Instruction& insn : p->compiled.instructions) {
    dwconvs += std::holds_alternative<spec::DwConvArgs>(insn.args);
    if (const auto* conv = std::get_if<spec::ConvArgs>(&insn.args)) {
      grouped_convs += conv->groups > 1;
      int4_convs += conv->weights_int4;
      fp16_convs += conv->fp16;
      ++convs;
      // FP16: one CONV per output (never accumulating), so each sum is rounded once, as the
      // reference rounds it.
      EXPECT_FALSE(conv->fp16 && conv->accumulate);
    }
  }
  EXPECT_EQ(grouped_convs > 0, c.model == kResnext);  // only it has grouped convolutions
  // The depthwise datapath, where the config has one, takes mobilenet_v2's int8 depthwise layers
  // (int4 and FP16 ones stay on the MAC array).
  EXPECT_EQ(dwconvs > 0, config->act().depthwise_taps() > 0 && c.model == "mobilenet_v2" &&
                             c.weight_bits == 8 && !c.fp16);
  if (c.mixed_fp16 || c.auto_target_db > 0) {  // FP16 and int8 CONVs, conversions between
    EXPECT_GT(fp16_convs, 0u);
    EXPECT_GT(r.fp16_macs, 0u);
    if (c.mixed_fp16) {
      EXPECT_LT(fp16_convs, convs);
    }
    uint32_t to_fp16 = 0, to_int8 = 0;
    for (const spec::Instruction& insn : p->compiled.instructions) {
      if (const auto* lut = std::get_if<spec::LutArgs>(&insn.args)) to_fp16 += lut->fp16_out;
      if (const auto* e = std::get_if<spec::EltwiseArgs>(&insn.args)) to_int8 += e->int8_out;
    }
    if (fp16_convs < convs) {
      EXPECT_GT(to_fp16 + to_int8, 0u);
    }
    if (c.mixed_fp16) {
      EXPECT_GT(to_fp16, 0u);
      EXPECT_GT(to_int8, 0u);
    }
  } else {
    EXPECT_EQ(fp16_convs, c.fp16 ? convs : 0u);
    EXPECT_EQ(r.fp16_macs, c.fp16 ? r.macs : 0u);
  }
  if (c.auto_target_db > 0) {
    EXPECT_FALSE(p->fp16_layers.empty());
  } else if (c.auto_budget_db < 0) {
    EXPECT_EQ(int4_convs > 0, c.weight_bits == 4);
    EXPECT_EQ(r.int4_macs > 0, c.weight_bits == 4);
  } else {  // mixed: the layers the choice named, and only those, run int4
    EXPECT_FALSE(p->int4_layers.empty());
    EXPECT_GT(r.int4_macs, 0u);
    EXPECT_LT(r.int4_macs, r.macs);
  }
  // Each fused group lists its layers' figures summed: a row-strip group its strips' layers, a
  // channel-group split its groups'.
  for (const report::GroupReport& g : r.groups) {
    const bool strips = g.kind == "row_strips";
    uint32_t layers = 0, parts = 0;
    uint64_t cycles = 0;
    for (const report::LayerReport& l : r.layers) {
      if ((strips ? l.fused_group : l.channel_group) != g.name) continue;
      ++layers;
      cycles += l.cycles;
      parts = std::max(parts, (strips ? l.strip : l.channel_part) + 1);
    }
    EXPECT_EQ(g.layers, layers) << g.name;
    EXPECT_EQ(g.cycles, cycles) << g.name;
    EXPECT_EQ(strips ? g.strips : g.channel_groups, parts) << g.name;
    EXPECT_EQ(strips ? g.channel_groups : g.strips, 0u) << g.name;
  }
  for (const report::LayerReport& l : r.layers) {
    EXPECT_EQ(l.predicted_cycles, l.cycles) << l.name;
  }
  EXPECT_EQ(r.predicted_cycles, r.cycles);
  // Busy cycles: the compute and vector queues' instructions (one unit each, never overlapping
  // themselves), [start, end) summed over the layers, are their queues' busy counters.
  for (const spec::Queue q : {spec::Queue::kCompute, spec::Queue::kVector}) {
    uint64_t busy = 0;
    for (const report::LayerReport& l : r.layers) busy += l.busy_cycles[int(q)];
    EXPECT_EQ(busy, r.queues[int(q)].busy_cycles) << spec::QueueName(q);
  }
  // DRAM bytes: the compiler predicts and the report measures each layer's by one rule
  // (spec::DramTraffic: its instruction fetch, LOADs and STOREs, or a CPU op's operands), so they
  // agree exactly, and the NPU layers' add up to the NPU's DRAM counters.
  ASSERT_EQ(int(r.layers.size()), program.layers_size());
  uint64_t npu_read = 0, npu_written = 0;
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const report::LayerReport& l = r.layers[i];
    EXPECT_EQ(l.dram_read_bytes + l.dram_write_bytes, program.layers(int(i)).predicted_dram_bytes())
        << l.name;
    if (l.engine == "cpu") continue;
    npu_read += l.dram_read_bytes;
    npu_written += l.dram_write_bytes;
  }
  EXPECT_EQ(npu_read, r.dram_read_bytes);
  EXPECT_EQ(npu_written, r.dram_write_bytes);
  // The forced ops ran on the control core, in steps of their own; the rest on the NPU.
  uint32_t cpu_layers = 0;
  for (const report::LayerReport& l : r.layers) cpu_layers += l.engine == "cpu";
  EXPECT_EQ(r.cpu_steps, cpu_layers);
  EXPECT_EQ(cpu_layers > 0, !c.cpu_ops.empty());
  EXPECT_EQ(r.cpu_cycles > 0, !c.cpu_ops.empty());
  EXPECT_EQ(r.npu_cycles + r.cpu_cycles + r.other_cycles, r.cycles);
}

const std::vector<std::string>& kSmall = testing::kSmallArray;
const std::vector<std::string>& kLarge = testing::kLargeOutputStationary;
const std::vector<std::string>& kOs16 = testing::kOutputStationary16;

INSTANTIATE_TEST_SUITE_P(
    Models, NetworkOnPlatform,
    ::testing::Values(
        Case{"resnet18_default", "resnet18", 0, {}},
        Case{"mobilenet_v2_default", "mobilenet_v2", 0, {}},
        Case{"small_cnn_default", "small_cnn", 0, {}}, Case{"mlp_default", "mlp", 0, {}},
        Case{"resnet18_small", "resnet18", 64, kSmall},
        Case{"mobilenet_v2_small", "mobilenet_v2", 64, kSmall},
        Case{"small_cnn_small", "small_cnn", 0, kSmall}, Case{"mlp_small", "mlp", 0, kSmall},
        Case{"resnet18_large_os", "resnet18", 128, kLarge},
        Case{"mobilenet_v2_large_os", "mobilenet_v2", 128, kLarge},
        Case{"small_cnn_large_os", "small_cnn", 0, kLarge}, Case{"mlp_large_os", "mlp", 0, kLarge},
        Case{"resnet18_os16", "resnet18", 96, kOs16},
        Case{"mobilenet_v2_os16", "mobilenet_v2", 96, kOs16},
        Case{"small_cnn_os16", "small_cnn", 48, kOs16}, Case{"mlp_os16", "mlp", 0, kOs16},
        // The CPU fallback: ops forced onto the control core between NPU runs.
        Case{"resnet18_cpu_adds_pool", "resnet18", 64, {}, {"fused_add", "max_pool"}},
        Case{"mobilenet_v2_cpu_tail_small",
             "mobilenet_v2",
             64,
             kSmall,
             {"global_average_pool", "gemm", "add"}},
        Case{"small_cnn_cpu_convs_os16", "small_cnn", 48, kOs16, {"fused_conv"}},
        // W4A8 on three configs.
        Case{"resnet18_w4a8_default", "resnet18", 0, {}, {}, 4},
        Case{"mobilenet_v2_w4a8_small", "mobilenet_v2", 64, kSmall, {}, 4},
        Case{"small_cnn_w4a8_os16", "small_cnn", 48, kOs16, {}, 4},
        Case{"mlp_w4a8_large_os", "mlp", 0, kLarge, {}, 4},
        // --precision auto: int4 and int8 layers in one program.
        Case{"small_cnn_auto_os16", "small_cnn", 48, kOs16, {}, 8, 12.0},
        Case{"mobilenet_v2_auto_small", "mobilenet_v2", 64, kSmall, {}, 8, 3.0},
        Case{"mlp_auto_large_os", "mlp", 0, kLarge, {}, 8, 20.0},
        // --precision auto with a target above int8's: FP16 and int8 layers, chosen.
        Case{"small_cnn_auto_target_default", "small_cnn", 0, {}, {}, 8, -1, false, false, 40.0},
        Case{"mlp_auto_target_small", "mlp", 0, kSmall, {}, 8, -1, false, false, 45.0},
        // FP16 (docs/fp16-semantics.md), on four configs, against the FP16 reference.
        Case{"resnet18_fp16_default", "resnet18", 64, {}, {}, 8, -1, true},
        Case{"mobilenet_v2_fp16_small", "mobilenet_v2", 64, kSmall, {}, 8, -1, true},
        Case{"small_cnn_fp16_os16", "small_cnn", 48, kOs16, {}, 8, -1, true},
        Case{"mlp_fp16_large_os", "mlp", 0, kLarge, {}, 8, -1, true},
        // Mixed int8 and FP16 layers (conversions on every border), on four configs.
        Case{"resnet18_mixed_fp16_default", "resnet18", 64, {}, {}, 8, -1, false, true},
        Case{"mobilenet_v2_mixed_fp16_small", "mobilenet_v2", 64, kSmall, {}, 8, -1, false, true},
        Case{"small_cnn_mixed_fp16_os16", "small_cnn", 48, kOs16, {}, 8, -1, false, true},
        Case{"mlp_mixed_fp16_large_os", "mlp", 0, kLarge, {}, 8, -1, false, true},
        // Row groups: 3 copies of a 3x3 depthwise kernel in the 32 rows, 2 of the 16-channel
        // expansion's 1x1; and on a 64-row array the first 3x3 over 3 channels (K = 27) twice.
        Case{"mobilenet_v2_row_groups", "mobilenet_v2", 96, {"mac.row_groups=3"}},
        Case{"small_cnn_row_groups_64", "small_cnn", 48,
             {"mac.rows=64", "mac.cols=64", "mac.row_groups=2"}},
        // Grouped convolutions as grouped CONVs (the corpus's miniature resnext: 4 groups of 2
        // to 8 channels), int8 on the small array and FP16 on the default config.
        Case{"resnext_grouped_small", kResnext, 0, kSmall},
        Case{"resnext_grouped_fp16_default", kResnext, 0, {}, {}, 8, -1, true},
        // The vector unit's depthwise datapath (DWCONV), 9 taps a lane: alone, with row groups,
        // and beside FP16 layers (which stay on the MAC array).
        Case{"mobilenet_v2_depthwise_datapath", "mobilenet_v2", 96, {"act.depthwise_taps=9"}},
        Case{"mobilenet_v2_depthwise_datapath_rg_small", "mobilenet_v2", 64,
             {"mac.rows=8", "mac.cols=8", "sram.size_bytes=131072", "mac.row_groups=2",
              "act.depthwise_taps=9", "act.lanes=16"}},
        Case{"mobilenet_v2_depthwise_datapath_mixed_fp16", "mobilenet_v2", 64,
             {"act.depthwise_taps=9"}, {}, 8, -1, false, true}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace npu
