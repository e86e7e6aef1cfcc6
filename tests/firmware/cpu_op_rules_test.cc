// The kernels' rules, one case each: a valid op of every kernel is accepted, and each rule refuses
// the op that breaks it, naming the operand or attribute. The firmware once checked CPU ops twice
// with two sets of rules that differed; these cases hold the rules that only one of them had (so
// the single set keeps their union), and the two places where it deliberately follows the
// quantised IR instead (window values up to 2^16, pool windows of any size).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "firmware/cpu/cpu_op.h"
#include "tests/firmware/cpu_op_builders.h"

namespace npu::fw {
namespace {

using testing::ExpectAccepted;
using testing::ExpectRefused;
using testing::Int32;
using testing::Int8;
using testing::kImageBytes;
using testing::Op;
using testing::Out;
using testing::RemoveAttr;
using testing::SetInts;

std::vector<int64_t> Repeat(int64_t value, size_t n) { return std::vector<int64_t>(n, value); }

// x [1,4,4,2] * w [4,3,3,2] padded by 1 -> [1,4,4,4].
spec::CpuOp Conv() {
  spec::CpuOp op =
      Op("fused_conv", {Int8("x", {1, 4, 4, 2}), Int8("w", {4, 3, 3, 2}), Int32("b", {4})},
         Out({1, 4, 4, 4}));
  SetInts(op, "kernel_shape", {3, 3});
  SetInts(op, "strides", {1, 1});
  SetInts(op, "pads", {1, 1, 1, 1});
  SetInts(op, "dilations", {1, 1});
  SetInts(op, "group", {1});
  SetInts(op, "multiplier", Repeat(1 << 30, 4));
  SetInts(op, "shift", Repeat(31, 4));
  SetInts(op, "clamp_min", {-128});
  SetInts(op, "clamp_max", {127});
  return op;
}

spec::CpuOp Gemm() {
  spec::CpuOp op = Op("gemm", {Int8("x", {2, 8}), Int8("w", {4, 8}), Int32("b", {4})}, Out({2, 4}));
  SetInts(op, "multiplier", Repeat(1 << 30, 4));
  SetInts(op, "shift", Repeat(31, 4));
  return op;
}

// A 2x2 average pool of stride 2 over [1,4,4,2].
spec::CpuOp AveragePool() {
  spec::CpuOp op = Op("average_pool", {Int8("x", {1, 4, 4, 2})}, Out({1, 2, 2, 2}));
  SetInts(op, "kernel_shape", {2, 2});
  SetInts(op, "strides", {2, 2});
  SetInts(op, "pads", {0, 0, 0, 0});
  SetInts(op, "count_include_pad", {0});
  SetInts(op, "multiplier", {1 << 30});
  SetInts(op, "shift", {30});
  return op;
}

// [4,1] + [3] -> [4,3].
spec::CpuOp Binary(const std::string& kernel) {
  spec::CpuOp op = Op(kernel, {Int8("a", {4, 1}), Int8("b", {3}, 64)}, Out({4, 3}));
  if (kernel == "mul") {
    SetInts(op, "multiplier", {1 << 30});
  } else {
    SetInts(op, "a_multiplier", {1});
    SetInts(op, "b_multiplier", {1});
  }
  SetInts(op, "shift", {31});
  return op;
}

spec::CpuOp Lut() {
  spec::CpuOp op = Op("lut", {Int8("x", {2, 3})}, Out({2, 3}));
  SetInts(op, "table", Repeat(0, 256));
  return op;
}

spec::CpuOp Slice() {
  spec::CpuOp op = Op("slice", {Int8("x", {8})}, Out({4}));
  SetInts(op, "starts", {0});
  SetInts(op, "steps", {2});
  return op;
}

spec::CpuOp ChannelShuffle() {
  spec::CpuOp op = Op("channel_shuffle", {Int8("x", {1, 2, 2, 4})}, Out({1, 2, 2, 4}));
  SetInts(op, "group", {2});
  return op;
}

spec::CpuOp Softmax() {
  spec::CpuOp op = Op("softmax", {Int8("x", {2, 4})}, Out({2, 4}));
  SetInts(op, "axis", {1});
  SetInts(op, "exp_table", Repeat(1, 256));
  return op;
}

spec::CpuOp LayerNorm() {
  spec::CpuOp op =
      Op("layer_normalization", {Int8("x", {2, 4}), Int8("w", {4}), Int32("b", {4})}, Out({2, 4}));
  SetInts(op, "multiplier", Repeat(1 << 30, 4));
  SetInts(op, "shift", Repeat(31, 4));
  return op;
}

spec::CpuOp ReduceMean() {
  spec::CpuOp op = Op("reduce_mean", {Int8("x", {2, 4})}, Out({2, 1}));
  SetInts(op, "axes", {1});
  SetInts(op, "keepdims", {1});
  SetInts(op, "multiplier", {1 << 30});
  SetInts(op, "shift", {30});
  return op;
}

// [2,3,4] x [4,5] -> [2,3,5].
spec::CpuOp MatMul() {
  spec::CpuOp op = Op("matmul", {Int8("a", {2, 3, 4}), Int8("b", {4, 5}, 64)}, Out({2, 3, 5}));
  SetInts(op, "multiplier", {1 << 30});
  SetInts(op, "shift", {31});
  return op;
}

spec::CpuOp Pad() {
  spec::CpuOp op = Op("pad", {Int8("x", {2, 2})}, Out({3, 4}));
  SetInts(op, "pads", {1, 1, 0, 1});
  return op;
}

spec::CpuOp Concat() {
  spec::CpuOp op = Op("concat", {Int8("p", {2, 3}), Int8("q", {2, 1}, 64)}, Out({2, 4}));
  SetInts(op, "axis", {1});
  return op;
}

TEST(CpuOpRules, AValidOpOfEveryKernelIsAccepted) {
  for (const spec::CpuOp& op :
       {Conv(), Gemm(), AveragePool(), Binary("add"), Binary("mul"), Binary("max"), Lut(), Slice(),
        ChannelShuffle(), Softmax(), LayerNorm(), ReduceMean(), MatMul(), Pad(), Concat()}) {
    SCOPED_TRACE(op.kernel());
    ExpectAccepted(op);
  }
}

TEST(CpuOpRules, TheMessageNamesTheOpItsKernelAndTheRuleOnce) {
  spec::CpuOp op = Lut();
  *op.mutable_outputs(0) = Out({3, 2});
  const Status s = CheckCpuOp(op, kImageBytes);
  EXPECT_EQ(s.message(), "CPU op 'op' (lut): 'y' has shape [3,2], the kernel needs [2,3]");
}

struct Broken {
  const char* rule;
  std::function<spec::CpuOp()> op;
  const char* reason;
};

template <typename Edit>
std::function<spec::CpuOp()> With(spec::CpuOp (*base)(), Edit edit) {
  return [=] {
    spec::CpuOp op = base();
    edit(op);
    return op;
  };
}

std::function<spec::CpuOp()> WithInts(spec::CpuOp (*base)(), std::string name,
                                      std::vector<int64_t> values) {
  return With(base, [=](spec::CpuOp& op) { SetInts(op, name, values); });
}

std::function<spec::CpuOp()> Without(spec::CpuOp (*base)(), std::string name) {
  return With(base, [=](spec::CpuOp& op) { RemoveAttr(op, name); });
}

std::function<spec::CpuOp()> WithOutput(spec::CpuOp (*base)(), std::vector<uint32_t> shape) {
  return With(base, [=](spec::CpuOp& op) { *op.mutable_outputs(0) = Out(shape); });
}

spec::CpuOp Add() { return Binary("add"); }
spec::CpuOp Mul() { return Binary("mul"); }

// Rules the kernel table's checks lacked (they came from the checker that ran before them).
std::vector<Broken> TableLacked() {
  return {
      {"conv input 4-D",
       With(Conv,
            [](spec::CpuOp& op) {
              *op.mutable_inputs(0) = Int8("x", {16, 2});
            }),
       "'x' must be 4-D of batch 1, is [16,2]"},
      {"conv weights as kernel_shape says", WithInts(Conv, "kernel_shape", {1, 1}),
       "'w' has shape [4,3,3,2], the kernel needs [4,1,1,2]"},
      {"conv output the window's", WithOutput(Conv, {1, 2, 8, 4}),
       "'y' has shape [1,2,8,4], the kernel needs [1,4,4,4]"},
      {"conv multipliers positive", WithInts(Conv, "multiplier", {0, 1, 1, 1}),
       "attribute multiplier[0]=0 is outside [1, 2147483647]"},
      {"clamp ordered",
       With(Conv,
            [](spec::CpuOp& op) {
              SetInts(op, "clamp_min", {10});
              SetInts(op, "clamp_max", {0});
            }),
       "clamp_min 10 > clamp_max 0"},
      {"gemm input [..., K]",
       With(Gemm,
            [](spec::CpuOp& op) {
              *op.mutable_inputs(0) = Int8("x", {8});
              *op.mutable_outputs(0) = Out({4});
            }),
       "are not [..., K] and [N, K]"},
      {"gemm bias [N]",
       With(Gemm,
            [](spec::CpuOp& op) {
              *op.mutable_inputs(2) = Int32("b", {2, 2});
            }),
       "'b' has shape [2,2], the kernel needs [4]"},
      {"pool input 4-D",
       With(AveragePool,
            [](spec::CpuOp& op) {
              *op.mutable_inputs(0) = Int8("x", {4, 4, 2});
            }),
       "'x' must be 4-D of batch 1"},
      {"pool output the window's", WithOutput(AveragePool, {1, 1, 4, 2}),
       "'y' has shape [1,1,4,2], the kernel needs [1,2,2,2]"},
      {"pool pads under the kernel", WithInts(AveragePool, "pads", {2, 0, 0, 0}),
       "pads [2,0,0,0] must be smaller than the kernel [2,2]"},
      {"average pool multiplier positive", WithInts(AveragePool, "multiplier", {-5}),
       "attribute multiplier=-5 is outside [1, 2147483647]"},
      {"binary output the broadcast", WithOutput(Add, {2, 4, 3}),
       "'y' has shape [2,4,3], the kernel needs [4,3]"},
      {"add multipliers required", Without(Add, "a_multiplier"),
       "attribute 'a_multiplier' is missing"},
      {"add multipliers int16", WithInts(Add, "b_multiplier", {40000}),
       "attribute b_multiplier=40000 is outside [-32768, 32767]"},
      {"add clamp int8", WithInts(Add, "clamp_min", {-200}),
       "attribute clamp_min=-200 is outside [-128, 127]"},
      {"mul multiplier required", Without(Mul, "multiplier"), "attribute 'multiplier' is missing"},
      {"mul shift required", Without(Mul, "shift"), "attribute 'shift' is missing"},
      {"lut output the input's shape", WithOutput(Lut, {6}),
       "'y' has shape [6], the kernel needs [2,3]"},
      {"slice step not 0", WithInts(Slice, "steps", {0}),
       "dim 0: 4 values from 0 by 0 leave the input's 8"},
      {"channel shuffle batch 1",
       With(ChannelShuffle,
            [](spec::CpuOp& op) {
              *op.mutable_inputs(0) = Int8("x", {2, 1, 2, 4});
              *op.mutable_outputs(0) = Out({2, 1, 2, 4});
            }),
       "'x' must be 4-D of batch 1, is [2,1,2,4]"},
      {"softmax output the input's shape", WithOutput(Softmax, {4, 2}),
       "'y' has shape [4,2], the kernel needs [2,4]"},
      {"layer norm output the input's shape", WithOutput(LayerNorm, {8}),
       "'y' has shape [8], the kernel needs [2,4]"},
      {"layer norm clamp int8", WithInts(LayerNorm, "clamp_max", {128}),
       "attribute clamp_max=128 is outside [-128, 127]"},
      {"reduce axes required", Without(ReduceMean, "axes"), "attribute 'axes' is missing"},
      {"reduce axes once", WithInts(ReduceMean, "axes", {1, 1}), "axes lists dim 1 twice"},
      {"reduce keepdims 0 or 1", WithInts(ReduceMean, "keepdims", {2}),
       "attribute keepdims=2 is outside [0, 1]"},
      {"reduce output the kept shape", WithOutput(ReduceMean, {2}),
       "'y' has shape [2], the kernel needs [2,1]"},
      {"reduce_mean multiplier required", Without(ReduceMean, "multiplier"),
       "attribute 'multiplier' is missing"},
      {"matmul output batch the broadcast", WithOutput(MatMul, {3, 2, 3, 5}),
       "'y' has shape [3,2,3,5], the kernel needs [2,3,5]"},
      {"matmul multiplier positive", WithInts(MatMul, "multiplier", {0}),
       "attribute multiplier=0 is outside [1, 2147483647]"},
      {"an int attribute holds one int", WithInts(Pad, "value", {1, 2}),
       "attribute 'value' has 2 values, expected 1"},
  };
}

// Rules the checker that ran first lacked (they came from the kernel table's checks).
std::vector<Broken> CheckerLacked() {
  return {
      {"a default inside its range too",
       With(Concat,
            [](spec::CpuOp& op) {
              op.clear_attrs();
              op.clear_inputs();
              *op.add_inputs() = Int8("p", {});
              *op.mutable_outputs(0) = Out({});
            }),
       "attribute axis=0 (its default) is outside [0, -1]"},
      {"softmax of a scalar",
       With(Softmax,
            [](spec::CpuOp& op) {
              RemoveAttr(op, "axis");
              *op.mutable_inputs(0) = Int8("x", {});
              *op.mutable_outputs(0) = Out({});
            }),
       "input 'x' is a scalar"},
      {"count_include_pad 0 or 1", WithInts(AveragePool, "count_include_pad", {2}),
       "attribute count_include_pad=2 is outside [0, 1]"},
  };
}

void ExpectEachRefused(const std::vector<Broken>& cases) {
  for (const Broken& c : cases) {
    SCOPED_TRACE(c.rule);
    ExpectRefused(c.op(), c.reason);
  }
}

TEST(CpuOpRules, RulesOnlyTheFirstCheckerHadAreKept) { ExpectEachRefused(TableLacked()); }
TEST(CpuOpRules, RulesOnlyTheKernelTableHadAreKept) { ExpectEachRefused(CheckerLacked()); }

// The kernel table's checks bounded window values by 65535; the quantised IR allows 2^16.
TEST(CpuOpRules, WindowValuesUpTo65536AreAcceptedAsTheIrDoes) {
  spec::CpuOp op = AveragePool();
  SetInts(op, "strides", {65536, 65536});
  *op.mutable_outputs(0) = Out({1, 1, 1, 2});
  ExpectAccepted(op);
  SetInts(op, "strides", {65537, 1});
  ExpectRefused(op, "attribute strides[0]=65537 is outside [1, 65536]");
}

// The kernel table's checks refused pools of more than 65535 taps; the quantised IR does not
// bound them, and the kernel sums a window in int64.
TEST(CpuOpRules, APoolOf65536TapsIsAcceptedAsTheIrDoes) {
  spec::CpuOp op = AveragePool();
  *op.mutable_inputs(0) = Int8("x", {1, 256, 256, 1});
  *op.mutable_outputs(0) = Out({1, 1, 1, 1});
  SetInts(op, "kernel_shape", {256, 256});
  ExpectAccepted(op);
}

// The kernel table's checks bounded resize tap indices by 1024 (the weight's bound): a resize of an
// input wider than 1025, the CPU's case, was refused.
TEST(CpuOpRules, ResizeTapsMayIndexPast1024) {
  spec::CpuOp op = Op("resize", {Int8("x", {1, 2000, 1, 1})}, Out({1, 1, 1, 1}));
  SetInts(op, "h_taps", {1998, 1999, 512});
  SetInts(op, "w_taps", {0, 0, 0});
  ExpectAccepted(op);
  SetInts(op, "h_taps", {1998, 2000, 512});
  ExpectRefused(op, "h_taps[0] samples 1998 and 2000 of the input's 2000");
  SetInts(op, "h_taps", {0, 0, 1025});
  ExpectRefused(op, "weighing 1025 (at most 1024)");
}

}  // namespace
}  // namespace npu::fw
