// The CPU kernels (hw/spec/cpu_ops.h lists them): each computes one quantised IR op
// (docs/quantized-ir.md) from operands already read from DRAM. Internal to firmware/cpu.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::fw::cpu {

// An operand: its description and its bytes (empty for an absent optional input).
struct Operand {
  const spec::TensorDesc* desc = nullptr;
  std::vector<uint8_t> bytes;

  bool present() const { return desc != nullptr && desc->dtype() != spec::DTYPE_UNSPECIFIED; }
  std::span<const int8_t> i8() const {
    return {reinterpret_cast<const int8_t*>(bytes.data()), bytes.size()};
  }
  std::span<const int32_t> i32() const {
    return {reinterpret_cast<const int32_t*>(bytes.data()), bytes.size() / 4};
  }
  int32_t zero_point() const { return desc->zero_point(); }
};

// A tensor as (h, w, c): the last dim is c, the one before w, the rest h ([K] is 1x1xK).
struct Hwc {
  uint64_t h = 1, w = 1, c = 1;
};
Hwc HwcOf(const spec::TensorDesc& t);

struct Call {
  const spec::CpuOp& op;
  std::vector<Operand> inputs;
  std::vector<std::vector<int8_t>> outputs;  // sized from the output descriptions

  // Attributes; CheckCpuOp (kernel_checks.h) has checked the ones a kernel reads (a missing
  // optional one reads as `fallback`).
  int64_t Int(std::string_view name, int64_t fallback = 0) const;
  std::vector<int64_t> Ints(std::string_view name) const;
};

using Kernel = Status (*)(Call& call);
// The kernel named `name`, or null.
Kernel FindKernel(std::string_view name);

// mac_kernels.cc
Status FusedConv(Call& call);
Status Gemm(Call& call);
// vector_kernels.cc
Status MaxPool(Call& call);
Status AveragePool(Call& call);
Status GlobalAveragePool(Call& call);
// tensor_kernels.cc
Status Lut(Call& call);
Status Binary(Call& call);  // add, fused_add, mul, max, min, with broadcasting
Status Concat(Call& call);
Status Slice(Call& call);
Status Transpose(Call& call);
Status ChannelShuffle(Call& call);
Status Pad(Call& call);
Status Resize(Call& call);
// norm_kernels.cc
Status Softmax(Call& call);
Status LayerNorm(Call& call);
Status Reduce(Call& call);  // reduce_mean, reduce_sum, reduce_max
Status MatMul(Call& call);

}  // namespace npu::fw::cpu
