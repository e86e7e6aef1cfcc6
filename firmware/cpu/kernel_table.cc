// The kernel table (explicit, no static registration) and the helpers every kernel uses.
#include <algorithm>

#include "firmware/cpu/kernels.h"
#include "hw/spec/cpu_ops.h"

namespace npu::fw::cpu {
namespace {

struct Entry {
  std::string_view name;
  Kernel kernel;
};

constexpr Entry kKernels[] = {
    {"fused_conv", FusedConv},
    {"gemm", Gemm},
    {"max_pool", MaxPool},
    {"average_pool", AveragePool},
    {"global_average_pool", GlobalAveragePool},
    {"add", Binary},
    {"fused_add", Binary},
    {"mul", Binary},
    {"max", Binary},
    {"min", Binary},
    {"lut", Lut},
    {"concat", Concat},
    {"slice", Slice},
    {"transpose", Transpose},
    {"channel_shuffle", ChannelShuffle},
    {"pad", Pad},
    {"resize", Resize},
    {"softmax", Softmax},
    {"layer_normalization", LayerNorm},
    {"reduce_mean", Reduce},
    {"reduce_sum", Reduce},
    {"reduce_max", Reduce},
    {"matmul", MatMul},
};

}  // namespace

Kernel FindKernel(std::string_view name) {
  for (const Entry& e : kKernels) {
    if (e.name == name) return e.kernel;
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
