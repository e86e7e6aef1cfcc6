// CpuOps built by hand for the tests of the firmware's load-time CPU op checks: tensor
// descriptions whose sizes agree with their shapes, attributes set or replaced, and the
// assertion that an op is refused with a given reason.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "firmware/cpu/cpu_op.h"

namespace npu::fw::testing {

inline constexpr uint64_t kImageBytes = 1 << 20;

inline spec::TensorDesc Tensor(const std::string& name, std::vector<uint32_t> shape,
                               spec::DataType dtype, uint32_t offset) {
  spec::TensorDesc t;
  t.set_name(name);
  uint32_t bytes = dtype == spec::INT32 ? 4 : 1;
  for (uint32_t d : shape) {
    t.add_shape(d);
    bytes *= d;
  }
  t.set_dtype(dtype);
  t.set_size_bytes(bytes);
  t.set_dram_offset(offset);
  return t;
}

inline spec::TensorDesc Int8(const std::string& name, std::vector<uint32_t> shape,
                             uint32_t offset = 0) {
  return Tensor(name, std::move(shape), spec::INT8, offset);
}

inline spec::TensorDesc Int32(const std::string& name, std::vector<uint32_t> shape) {
  return Tensor(name, std::move(shape), spec::INT32, 0);
}

// The output description: placed apart from the inputs.
inline spec::TensorDesc Out(std::vector<uint32_t> shape) { return Int8("y", shape, 1 << 19); }

// Sets the attribute `name` to `values`, replacing it if the op has it.
inline void SetInts(spec::CpuOp& op, const std::string& name, std::vector<int64_t> values) {
  spec::CpuAttr* a = nullptr;
  for (spec::CpuAttr& have : *op.mutable_attrs()) {
    if (have.name() == name) a = &have;
  }
  if (a == nullptr) a = op.add_attrs();
  a->set_name(name);
  a->clear_ints();
  for (int64_t v : values) a->add_ints(v);
}

inline void RemoveAttr(spec::CpuOp& op, const std::string& name) {
  auto* attrs = op.mutable_attrs();
  for (int i = 0; i < attrs->size(); ++i) {
    if (attrs->Get(i).name() == name) attrs->DeleteSubrange(i--, 1);
  }
}

inline spec::CpuOp Op(const std::string& kernel, std::vector<spec::TensorDesc> inputs,
                      spec::TensorDesc output) {
  spec::CpuOp op;
  op.set_name("op");
  op.set_kernel(kernel);
  for (spec::TensorDesc& t : inputs) *op.add_inputs() = std::move(t);
  *op.add_outputs() = std::move(output);
  return op;
}

inline void ExpectRefused(const spec::CpuOp& op, const std::string& needle) {
  const Status s = CheckCpuOp(op, kImageBytes);
  ASSERT_FALSE(s.ok()) << "accepted";
  EXPECT_EQ(s.kind(), ErrorKind::kDataLoss);
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

inline void ExpectAccepted(const spec::CpuOp& op) {
  const Status s = CheckCpuOp(op, kImageBytes);
  EXPECT_TRUE(s.ok()) << s.message();
}

}  // namespace npu::fw::testing
