// The firmware's load-time checks of CPU ops (firmware/cpu/cpu_op.h, each kernel's check): operands
// whose shapes disagree with the kernel, missing or out-of-range attributes, and tensor
// descriptions whose sizes could wrap around are refused before any kernel runs. Several cases are
// inputs fuzz_program and fuzz_platform found reading or writing outside a kernel's buffers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "firmware/cpu/cpu_op.h"
#include "tests/firmware/cpu_op_builders.h"

namespace npu::fw {
namespace {

using testing::ExpectRefused;
using testing::Int8;
using testing::kImageBytes;
using testing::Op;
using testing::SetInts;

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
