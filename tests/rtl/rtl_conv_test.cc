// The RTL reference (hw/rtl) against hw/spec: each case runs CONV instructions on the verilated
// NPU_RTL_ROWS x NPU_RTL_COLS array and checks the accumulator bit-exact against
// spec::ComputeConv, every instruction's cycles within max(1 %, 2 cycles) of
// spec::ConvArrayCycles (chained as spec::FoldChain says) and its fold count exactly. The RTL
// feeder reads a byte per row per cycle with no SRAM banks behind it, so it measures the array's
// folds alone; where the banks cannot keep up, ConvComputeCycles (operand streaming) is longer.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "Vnpu_conv_engine.h"
#include "hw/spec/config.h"
#include "hw/spec/timing_model.h"
#include "tests/rtl/rtl_bench.h"
#include "verilated.h"

namespace npu::rtl {
namespace {

constexpr uint32_t kRows = NPU_RTL_ROWS, kCols = NPU_RTL_COLS;

spec::NpuConfig Config(spec::Dataflow dataflow, spec::FoldPipelining pipelining) {
  spec::NpuConfig c = spec::DefaultConfig();
  c.mutable_mac()->set_rows(kRows);
  c.mutable_mac()->set_cols(kCols);
  c.mutable_mac()->set_dataflow(dataflow);
  c.mutable_mac()->set_fold_pipelining(pipelining);
  c.mutable_mac()->set_row_groups(1);  // the RTL array has no row or column groups
  c.mutable_mac()->set_col_groups(1);  // (hw/rtl/README.md)
  return c;
}

// One verilated engine for the whole binary, reset before each run.
class Engine {
 public:
  Engine() : top_(std::make_unique<Vnpu_conv_engine>(&context_)) {}
  // Runs State().insns; false if it did not finish within `max_cycles`.
  bool Run(const spec::NpuConfig& config, uint64_t max_cycles) {
    top_->df_os_in = config.mac().dataflow() == spec::OUTPUT_STATIONARY;
    top_->pipe_in = static_cast<uint8_t>(config.mac().fold_pipelining());
    top_->rst = 1;
    top_->start = 0;
    Tick();
    Tick();
    top_->rst = 0;
    top_->start = 1;
    Tick();
    top_->start = 0;
    for (uint64_t n = 0; n < max_cycles; ++n) {
      if (!top_->busy) return true;
      Tick();
    }
    return false;
  }

 private:
  void Tick() {
    top_->clk = 0;
    top_->eval();
    top_->clk = 1;
    top_->eval();
  }
  VerilatedContext context_;
  std::unique_ptr<Vnpu_conv_engine> top_;
};

Engine& TheEngine() {
  static Engine engine;
  return engine;
}

// Runs `convs` back to back; "" if everything matches hw/spec.
std::string RunAndCheck(const std::vector<spec::ConvArgs>& convs, const spec::NpuConfig& config,
                        uint32_t seed = 1) {
  Prepare(convs, seed);
  uint64_t budget = 1000;
  for (uint64_t c : ExpectedCycles(config)) budget += 2 * c;
  if (!TheEngine().Run(config, budget)) return "did not finish";
  std::vector<uint64_t> measured;
  const std::string problems = Check(config, &measured);
  if (std::getenv("NPU_RTL_VERBOSE")) {  // the figures of docs/timing-fidelity.md
    const std::vector<uint64_t> want = ExpectedCycles(config);
    for (size_t i = 0; i < measured.size(); ++i) {
      fmt::print(
          "{} {} | {} | folds {} | rtl {} spec {}\n", spec::Dataflow_Name(config.mac().dataflow()),
          spec::FoldPipelining_Name(config.mac().fold_pipelining()), FormatConv(State().insns[i]),
          spec::ConvFolds(config, State().insns[i]), measured[i], want[i]);
    }
  }
  return problems;
}

spec::ConvArgs Conv(uint32_t out_h, uint32_t out_w, uint32_t out_c, uint32_t k, uint32_t in_c) {
  spec::ConvArgs c;
  c.out_h = out_h, c.out_w = out_w, c.out_c = out_c;
  c.kernel_h = c.kernel_w = k;
  c.in_c = in_c;
  c.in_h = out_h + k - 1, c.in_w = out_w + k - 1;
  c.in_zero_point = 3, c.wt_zero_point = -2;
  return c;
}

struct Mode {
  spec::Dataflow dataflow;
  spec::FoldPipelining pipelining;
};
const Mode kModes[] = {{spec::WEIGHT_STATIONARY, spec::DOUBLE_BUFFERED},
                       {spec::WEIGHT_STATIONARY, spec::SINGLE_BUFFERED},
                       {spec::WEIGHT_STATIONARY, spec::NONE},
                       {spec::OUTPUT_STATIONARY, spec::DOUBLE_BUFFERED},
                       {spec::OUTPUT_STATIONARY, spec::SINGLE_BUFFERED},
                       {spec::OUTPUT_STATIONARY, spec::NONE}};

std::string Name(const Mode& m) {
  return fmt::format("{} {}", spec::Dataflow_Name(m.dataflow),
                     spec::FoldPipelining_Name(m.pipelining));
}

// The corner cases, in every mode: streams shorter than R, exactly 2R - 1, one output, K and N
// not multiples of the array, padding, stride and dilation, a [K][N] weight block, depthwise,
// grouped.
TEST(RtlCorners, EveryModeMatchesTheSpec) {
  const uint32_t r = kRows;
  std::vector<spec::ConvArgs> cases = {Conv(1, 2, kCols + 3, 1, r + 1),      // T < R (WS)
                                       Conv(1, 2 * r - 1, kCols, 1, 2 * r),  // T = 2R - 1 (WS)
                                       Conv(1, 1, 1, 1, 1),                  // one output
                                       Conv(3, 5, kCols / 2 + 1, 3, 3)};     // K = 27
  spec::ConvArgs padded = Conv(4, 4, 5, 3, 2);
  padded.in_h = padded.in_w = 4;
  padded.pad_top = padded.pad_left = 1;
  padded.pad_value = 7;
  spec::ConvArgs strided = Conv(3, 3, 4, 3, 2);
  strided.stride_h = strided.stride_w = 2;
  strided.dilation_w = 2;
  strided.in_h = 7, strided.in_w = 9;
  spec::ConvArgs kn = Conv(2, 3, kCols + 1, 1, r + 2);
  kn.weights_kn = true;
  // Depthwise (a channel per column, per-PE operands): padded 3x3 over more channels than
  // columns, and a strided 5x5 whose 25 taps exceed the rows of the smaller arrays.
  spec::ConvArgs dw = Conv(5, 4, kCols + 3, 3, kCols + 3);
  dw.depthwise = true;
  dw.in_h = 5, dw.in_w = 4;
  dw.pad_top = dw.pad_left = 1;
  dw.pad_value = -5;
  spec::ConvArgs dw_strided = Conv(3, 2, 6, 5, 6);
  dw_strided.depthwise = true;
  dw_strided.stride_h = dw_strided.stride_w = 2;
  dw_strided.in_h = 9, dw_strided.in_w = 7;
  // Grouped (each column fed its group's channels): 4 groups of 3 input and 5 output channels,
  // K = 27 over more columns than the smaller arrays have; 2 strided groups of 8, K = 72.
  spec::ConvArgs grouped = Conv(3, 4, 20, 3, 12);
  grouped.groups = 4;
  grouped.pad_top = 1, grouped.in_h = 4;
  grouped.pad_value = 2;
  spec::ConvArgs grouped_strided = Conv(2, 3, 16, 3, 16);
  grouped_strided.groups = 2;
  grouped_strided.stride_h = grouped_strided.stride_w = 2;
  grouped_strided.in_h = 5, grouped_strided.in_w = 7;
  cases.insert(cases.end(), {padded, strided, kn, dw, dw_strided, grouped, grouped_strided});
  for (const Mode& m : kModes) {
    const spec::NpuConfig config = Config(m.dataflow, m.pipelining);
    for (size_t i = 0; i < cases.size(); ++i) {
      EXPECT_EQ(RunAndCheck({cases[i]}, config), "") << Name(m) << " case " << i;
    }
  }
}

// Accumulating CONVs into one tile: WS chains them whatever their K, OS only with the same K;
// NONE never chains. A CONV into another tile afterwards starts a new chain.
TEST(RtlChains, AccumulatingConvsContinueTheFoldChain) {
  const uint32_t r = kRows;
  std::vector<spec::ConvArgs> chain = {Conv(2, 3, kCols + 1, 1, r + 3), Conv(2, 3, kCols + 1, 1, 5),
                                       Conv(2, 3, kCols + 1, 1, 2 * r),
                                       Conv(2, 3, kCols + 1, 1, 5)};
  for (size_t i = 1; i < chain.size(); ++i) chain[i].accumulate = true;
  spec::ConvArgs other = Conv(2, 2, 3, 1, 4);
  other.acc_addr = 6 * (kCols + 1);
  chain.push_back(other);
  for (const Mode& m : kModes) {
    EXPECT_EQ(RunAndCheck(chain, Config(m.dataflow, m.pipelining)), "") << Name(m);
  }
}

// Every distinct CONV the compiler emits for the built-in models on this array
// (tests/rtl/data, written by rtl_conv_corpus), alone, in both dataflows.
std::vector<spec::ConvArgs> ModelConvs() {
  const std::string path =
      fmt::format("{}/tests/rtl/data/convs_{}x{}.txt", NPU_SOURCE_DIR, kRows, kCols);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseConvs(text.str());
}

void CheckModelConvs(spec::Dataflow dataflow) {
  const std::vector<spec::ConvArgs> convs = ModelConvs();
  ASSERT_FALSE(convs.empty());
  const spec::NpuConfig config = Config(dataflow, spec::DOUBLE_BUFFERED);
  for (size_t i = 0; i < convs.size(); ++i) {
    EXPECT_EQ(RunAndCheck({convs[i]}, config, static_cast<uint32_t>(i)), "")
        << "line " << i + 1 << ": " << FormatConv(convs[i]);
  }
}

TEST(RtlModelConvs, WeightStationary) { CheckModelConvs(spec::WEIGHT_STATIONARY); }
TEST(RtlModelConvs, OutputStationary) { CheckModelConvs(spec::OUTPUT_STATIONARY); }

}  // namespace
}  // namespace npu::rtl
