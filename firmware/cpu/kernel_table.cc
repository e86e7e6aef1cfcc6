// The kernel table (explicit, no static registration) and the helpers every kernel uses.
#include <algorithm>

#include "firmware/cpu/kernels.h"
#include "hw/spec/cpu_ops.h"

namespace npu::fw::cpu {
namespace {

constexpr KernelEntry kKernels[] = {
    {"fused_conv", CheckConvolution, FusedConv},
    {"gemm", CheckConvolution, Gemm},
    {"max_pool", CheckPool, Pool},
    {"average_pool", CheckPool, Pool},
    {"global_average_pool", CheckPool, Pool},
    {"add", CheckBinary, Binary},
    {"fused_add", CheckBinary, Binary},
    {"mul", CheckBinary, Binary},
    {"max", CheckBinary, Binary},
    {"min", CheckBinary, Binary},
    {"lut", CheckLut, Lut},
    {"concat", CheckConcat, Concat},
    {"slice", CheckSlice, Slice},
    {"transpose", CheckTranspose, Transpose},
    {"channel_shuffle", CheckChannelShuffle, ChannelShuffle},
    {"pad", CheckPad, Pad},
    {"resize", CheckResize, Resize},
    {"softmax", CheckSoftmax, Softmax},
    {"layer_normalization", CheckLayerNorm, LayerNorm},
    {"reduce_mean", CheckReduce, Reduce},
    {"reduce_sum", CheckReduce, Reduce},
    {"reduce_max", CheckReduce, Reduce},
    {"matmul", CheckMatMul, MatMul},
};

}  // namespace

const KernelEntry* FindKernel(std::string_view name) {
  for (const KernelEntry& e : kKernels) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Hwc HwcOf(const spec::TensorDesc& t) {
  const int rank = t.shape_size();
  if (rank == 0) return {};
  Hwc g;
  g.c = t.shape(rank - 1);
  if (rank >= 2) g.w = t.shape(rank - 2);
  for (int d = 0; d + 2 < rank; ++d) g.h *= t.shape(d);
  return g;
}

int64_t Call::Int(std::string_view name, int64_t fallback) const {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  return a != nullptr && a->ints_size() == 1 ? a->ints(0) : fallback;
}

std::vector<int64_t> Call::Ints(std::string_view name) const {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  if (a == nullptr) return {};
  return {a->ints().begin(), a->ints().end()};
}

}  // namespace npu::fw::cpu
