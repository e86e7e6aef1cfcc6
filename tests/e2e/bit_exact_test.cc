// End to end on the virtual platform: compile a layer for a config, run the binary through the
// firmware on the SystemC model, and compare every output byte with the integer reference. One
// case per process (SystemC elaborates once), many shapes and configs: odd sizes, every kind of
// tiling, both dataflows, a deliberately tiny SRAM, slow and conflict-prone memories.
#include <gtest/gtest.h>

#include "compiler/compile.h"
#include "compiler/reference/reference_conv.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "workloads/single_layer.h"
#include "workloads/synthetic_conv.h"

namespace npu {
namespace {

using workloads::Activation;
using workloads::SyntheticConvSpec;

struct Case {
  std::string name;
  std::vector<std::string> overrides;  // onto the default config
  std::string builtin;                 // a built-in workload, or
  SyntheticConvSpec layer;             // a synthetic layer
};

SyntheticConvSpec Layer(uint32_t h, uint32_t w, uint32_t c, uint32_t out_c, uint32_t k,
                        uint32_t stride, uint32_t dilation, bool same, Activation act) {
  SyntheticConvSpec s;
  s.name = "layer";
  s.in_h = h, s.in_w = w, s.in_c = c, s.out_c = out_c;
  s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride;
  s.dilation_h = s.dilation_w = dilation;
  if (same) workloads::SetSamePadding(s);
  s.activation = act;
  s.input_zero_point = -7;
  s.output_zero_point = 5;
  s.seed = h * 131 + c * 7 + out_c;
  return s;
}

SyntheticConvSpec Fc(uint32_t in, uint32_t out) {
  SyntheticConvSpec s = Layer(1, 1, in, out, 1, 1, 1, false, Activation::kNone);
  s.fully_connected = true;
  return s;
}

// Names the case in test output instead of dumping its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class BitExact : public ::testing::TestWithParam<Case> {};

TEST_P(BitExact, PlatformMatchesIntegerReference) {
  const Case& c = GetParam();
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", c.overrides);
  ASSERT_TRUE(config.ok()) << config.status().message();
  compiler::ConvLayer layer;
  std::vector<int8_t> input;
  if (!c.builtin.empty()) {
    StatusOr<workloads::Workload> w = workloads::MakeSingleLayerWorkload(c.builtin);
    ASSERT_TRUE(w.ok()) << w.status().message();
    layer = w->layer;
    input = w->input;
  } else {
    StatusOr<compiler::ConvLayer> l = workloads::MakeSyntheticConv(c.layer);
    ASSERT_TRUE(l.ok()) << l.status().message();
    layer = *l;
    input = workloads::MakeInputTensor(layer.InputBytes(), c.layer.seed + 1);
  }
  StatusOr<spec::Program> program = compiler::CompileConvLayer(*config, layer);
  ASSERT_TRUE(program.ok()) << program.status().message();
  StatusOr<platform::RunResult> run =
      platform::RunBinary(*config, spec::SealProgram(*program), {input}, {});
  ASSERT_TRUE(run.ok()) << run.status().message();
  StatusOr<std::vector<int8_t>> expected = compiler::ReferenceConv(layer, input);
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_EQ(run->outputs.size(), 1u);
  ASSERT_EQ(run->outputs[0].size(), expected->size());
  for (size_t i = 0; i < expected->size(); ++i) {
    ASSERT_EQ(run->outputs[0][i], (*expected)[i]) << "output byte " << i;
  }
  EXPECT_EQ(run->counters[spec::regs::kMacs], layer.Macs());
  EXPECT_GT(run->counters[spec::regs::kCycles], 0u);
}

const std::vector<std::string> kTiny = {
    "mac.rows=4",           "mac.cols=4",   "mac.acc_buffer_bytes=1024",
    "sram.size_bytes=2048", "sram.banks=4", "sram.bank_width_bytes=4"};

INSTANTIATE_TEST_SUITE_P(
    Shapes, BitExact,
    ::testing::Values(
        Case{"conv3x3_default", {}, "conv3x3", {}},
        Case{"fc_default", {}, "fc", {}},
        Case{"conv3x3_output_stationary", {"mac.dataflow=OUTPUT_STATIONARY"}, "conv3x3", {}},
        Case{"odd_7x5x3_to_33_array4", {"mac.rows=4", "mac.cols=4"}, "",
             Layer(7, 5, 3, 33, 3, 1, 1, true, Activation::kRelu)},
        Case{"stride2_5x5_array8_os", {"mac.rows=8", "mac.cols=8",
                                       "mac.dataflow=OUTPUT_STATIONARY"}, "",
             Layer(13, 11, 8, 17, 5, 2, 1, true, Activation::kRelu6)},
        Case{"dilation2_array16", {"mac.rows=16", "mac.cols=16"}, "",
             Layer(15, 15, 16, 24, 3, 1, 2, true, Activation::kNone)},
        Case{"stem_7x7_stride2", {}, "", Layer(32, 32, 3, 16, 7, 2, 1, true, Activation::kRelu)},
        Case{"pointwise_large_array", {"mac.rows=64", "mac.cols=64"}, "",
             Layer(14, 14, 64, 128, 1, 1, 1, false, Activation::kNone)},
        Case{"tiny_sram_forces_all_tiling", kTiny, "",
             Layer(12, 12, 20, 20, 3, 1, 1, true, Activation::kRelu)},
        Case{"tiny_sram_os", [] {
               auto o = kTiny;
               o.push_back("mac.dataflow=OUTPUT_STATIONARY");
               return o;
             }(), "", Layer(9, 14, 6, 11, 3, 2, 1, true, Activation::kNone)},
        Case{"fc_array64_os", {"mac.rows=64", "mac.cols=64", "mac.dataflow=OUTPUT_STATIONARY"},
             "", Fc(300, 77)},
        Case{"slow_conflicting_memory",
             {"sram.banks=1", "sram.bank_width_bytes=4", "dma.outstanding_bursts=1",
              "dma.load_channels=1", "dma.burst_bytes=16", "dram.bytes_per_cycle=2",
              "cmd.queue_depth=1", "cmd.fetch_batch=1"},
             "", Layer(10, 10, 8, 8, 3, 1, 1, true, Activation::kRelu)},
        Case{"many_channels_big_bursts",
             {"dma.load_channels=4", "dma.store_channels=3", "dma.burst_bytes=4096",
              "act.lanes=1", "act.pipeline_cycles=20"},
             "", Layer(20, 20, 32, 48, 3, 1, 1, true, Activation::kRelu6)}),
    [](const ::testing::TestParamInfo<Case>& info) { return info.param.name; });

}  // namespace
}  // namespace npu
