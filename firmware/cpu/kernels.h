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

  // Attributes; the kernel's check has bounded the ones it reads (a missing optional one reads as
  // `fallback`, the default its check assumed: operand_rules.h IntAttr).
  int64_t Int(std::string_view name, int64_t fallback = 0) const;
  std::vector<int64_t> Ints(std::string_view name) const;
};

using Kernel = Status (*)(Call& call);
// What a kernel requires of its operands and attributes, checked when the binary is loaded
// (CheckCpuOp): once it passes, the kernel indexes only inside its operands and its arithmetic is
// defined, whatever the binary says.
using KernelCheck = Status (*)(const spec::CpuOp& op);

struct KernelEntry {
  std::string_view name;
  KernelCheck check;
  Kernel run;  // requires `check` to have passed
};
// The kernel named `name`, or null.
const KernelEntry* FindKernel(std::string_view name);

// mac_kernels.cc
Status CheckConvolution(const spec::CpuOp& op);  // fused_conv, gemm
Status FusedConv(Call& call);
Status Gemm(Call& call);
// vector_kernels.cc
Status CheckPool(const spec::CpuOp& op);
Status Pool(Call& call);  // max_pool, average_pool, global_average_pool
// tensor_kernels.cc
Status CheckLut(const spec::CpuOp& op);
Status Lut(Call& call);
Status CheckBinary(const spec::CpuOp& op);
Status Binary(Call& call);  // add, fused_add, mul, max, min, with broadcasting
Status CheckConcat(const spec::CpuOp& op);
Status Concat(Call& call);
Status CheckSlice(const spec::CpuOp& op);
Status Slice(Call& call);
Status CheckTranspose(const spec::CpuOp& op);
Status Transpose(Call& call);
Status CheckChannelShuffle(const spec::CpuOp& op);
Status ChannelShuffle(Call& call);
Status CheckPad(const spec::CpuOp& op);
Status Pad(Call& call);
Status CheckResize(const spec::CpuOp& op);
Status Resize(Call& call);
// norm_kernels.cc
Status CheckSoftmax(const spec::CpuOp& op);
Status Softmax(Call& call);
Status CheckLayerNorm(const spec::CpuOp& op);
Status LayerNorm(Call& call);
Status CheckReduce(const spec::CpuOp& op);
Status Reduce(Call& call);  // reduce_mean, reduce_sum, reduce_max
Status CheckMatMul(const spec::CpuOp& op);
Status MatMul(Call& call);

}  // namespace npu::fw::cpu
