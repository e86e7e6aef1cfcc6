// The firmware's load-time checks of CPU ops (firmware/cpu/kernel_checks.h): operands whose
// shapes disagree with the kernel, missing or out-of-range attributes, and tensor descriptions
// whose sizes could wrap around are refused before any kernel runs. Several cases are inputs
// fuzz_program and fuzz_platform found reading or writing outside a kernel's buffers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "firmware/cpu/cpu_op.h"

namespace npu::fw {
namespace {

constexpr uint64_t kImageBytes = 1 << 20;

spec::TensorDesc Int8(const std::string& name, std::vector<uint32_t> shape, uint32_t offset = 0) {
  spec::TensorDesc t;
  t.set_name(name);
  uint32_t bytes = 1;
  for (uint32_t d : shape) {
    t.add_shape(d);
    bytes *= d;
  }
  t.set_dtype(spec::INT8);
  t.set_size_bytes(bytes);
  t.set_dram_offset(offset);
  return t;
}

void SetInts(spec::CpuOp& op, const std::string& name, std::vector<int64_t> values) {
  spec::CpuAttr* a = op.add_attrs();
  a->set_name(name);
  for (int64_t v : values) a->add_ints(v);
}

spec::CpuOp Op(const std::string& kernel, std::vector<spec::TensorDesc> inputs,
               spec::TensorDesc output) {
  spec::CpuOp op;
  op.set_name("op");
  op.set_kernel(kernel);
  for (spec::TensorDesc& t : inputs) *op.add_inputs() = std::move(t);
  *op.add_outputs() = std::move(output);
  return op;
}

void ExpectRefused(const spec::CpuOp& op, const std::string& needle) {
  const Status s = CheckCpuOp(op, kImageBytes);
  ASSERT_FALSE(s.ok()) << "accepted";
  EXPECT_EQ(s.kind(), ErrorKind::kDataLoss);
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

spec::CpuOp PadOp(uint32_t out_w) {
  spec::CpuOp op = Op("pad", {Int8("x", {1, 4, 4, 2})}, Int8("y", {1, 6, out_w, 2}, 4096));
  SetInts(op, "pads", {0, 1, 1, 0, 0, 1, 1, 0});
  return op;
}

TEST(CpuOpChecks, APadThatFitsItsOutputIsAccepted) {
  const Status s = CheckCpuOp(PadOp(6), kImageBytes);
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(CpuOpChecks, APadWhoseOutputIsTooSmallIsRefused) {  // fuzz_program: heap overflow in Pad
  ExpectRefused(PadOp(5), "'y' has shape [1,6,5,2], the kernel needs [1,6,6,2]");
}

TEST(CpuOpChecks, PadsOfTheWrongCountAreRefused) {
  spec::CpuOp op = PadOp(6);
  op.mutable_attrs(0)->mutable_ints()->RemoveLast();
  ExpectRefused(op, "attribute 'pads' has 7 values, expected 8");
}

TEST(CpuOpChecks, AChannelShuffleOfAFlatTensorIsRefused) {  // fuzz_platform: read past shape
  spec::CpuOp op = Op("channel_shuffle", {Int8("x", {16})}, Int8("y", {16}, 4096));
  SetInts(op, "group", {2});
  ExpectRefused(op, "'x' must be 4-D of batch 1");
}

TEST(CpuOpChecks, ATransposeWithoutPermIsRefused) {  // fuzz_program: perm[d] of an empty perm
  ExpectRefused(Op("transpose", {Int8("x", {2, 3})}, Int8("y", {3, 2}, 4096)),
                "attribute 'perm' is missing");
}

TEST(CpuOpChecks, ASliceLeavingItsInputIsRefused) {
  spec::CpuOp op = Op("slice", {Int8("x", {8})}, Int8("y", {4}, 4096));
  SetInts(op, "starts", {6});
  SetInts(op, "steps", {1});
  ExpectRefused(op, "dim 0: 4 values from 6 by 1 leave the input's 8");
}

TEST(CpuOpChecks, AnOutOfRangeShiftIsRefused) {
  spec::CpuOp op = Op("add", {Int8("a", {8}), Int8("b", {1}, 64)}, Int8("y", {8}, 4096));
  SetInts(op, "a_multiplier", {1});
  SetInts(op, "b_multiplier", {1});
  SetInts(op, "shift", {63});
  ExpectRefused(op, "attribute shift=63 is outside [1, 62]");
}

TEST(CpuOpChecks, AMatMulDeeperThanTheIrAllowsIsRefused) {
  spec::CpuOp op =
      Op("matmul", {Int8("a", {1, 70000}), Int8("b", {70000, 1}, 131072)}, Int8("y", {1, 1}, 4096));
  SetInts(op, "multiplier", {1 << 30});
  SetInts(op, "shift", {31});
  ExpectRefused(op, "K = 70000 is more than 65535");
}

TEST(CpuOpChecks, AShapeWhoseElementCountWrapsIsRefused) {
  spec::TensorDesc x = Int8("x", {1});
  x.clear_shape();
  for (int i = 0; i < 4; ++i) x.add_shape(65536);  // 2^64 elements: 0 once wrapped
  x.set_size_bytes(0);
  ExpectRefused(Op("lut", {x}, Int8("y", {1}, 4096)), "tensor 'x': 0 bytes for");
}

TEST(CpuOpChecks, AZeroDimensionIsRefused) {
  ExpectRefused(Op("lut", {Int8("x", {4, 0})}, Int8("y", {4, 0}, 4096)),
                "tensor 'x': a dimension is 0");
}

TEST(CpuOpChecks, AnInt8ZeroPointOutsideInt8IsRefused) {
  spec::TensorDesc x = Int8("x", {4});
  x.set_zero_point(1 << 30);
  ExpectRefused(Op("lut", {x}, Int8("y", {4}, 4096)), "tensor 'x': int8 zero point 1073741824");
}

}  // namespace
}  // namespace npu::fw
