// One-dimensional networks run as columns (column_signals.h).
#include "compiler/lower/column_signals.h"

#include <algorithm>
#include <utility>

namespace npu::compiler::lowering {
namespace {

// Layers whose fields this file swaps, and CPU layers, whose tensors the firmware is told by
// their IR shapes and bytes (cpu_op_desc.h), the same either way.
bool Transposable(const NetLayer& layer) {
  return layer.conv_parts() != nullptr || std::holds_alternative<PoolLayer>(layer.work) ||
         std::holds_alternative<EltwiseLayer>(layer.work) ||
         std::holds_alternative<LutLayer>(layer.work) ||
         std::holds_alternative<NormLayer>(layer.work) || layer.on_cpu();
}

void Transpose(ConvLayer& c) {
  std::swap(c.in_h, c.in_w);
  std::swap(c.kernel_h, c.kernel_w);  // [o][1][k][i] and [o][k][1][i]: the same weights
  std::swap(c.stride_h, c.stride_w);
  std::swap(c.dilation_h, c.dilation_w);
  std::swap(c.pad_top, c.pad_left);
  std::swap(c.pad_bottom, c.pad_right);
}

void Transpose(PoolLayer& p) {
  std::swap(p.in_h, p.in_w);
  std::swap(p.kernel_h, p.kernel_w);
  std::swap(p.stride_h, p.stride_w);
  std::swap(p.pad_top, p.pad_left);
  std::swap(p.pad_bottom, p.pad_right);
  std::swap(p.out_h, p.out_w);
}

void Transpose(NetLayer& layer) {
  if (auto* parts = std::get_if<std::vector<ConvPart>>(&layer.work)) {
    for (ConvPart& part : *parts) Transpose(part.conv);
  } else if (auto* pool = std::get_if<PoolLayer>(&layer.work)) {
    Transpose(*pool);
  } else if (auto* e = std::get_if<EltwiseLayer>(&layer.work)) {
    std::swap(e->h, e->w);
  } else if (auto* lut = std::get_if<LutLayer>(&layer.work)) {
    std::swap(lut->h, lut->w);
  } else if (auto* norm = std::get_if<NormLayer>(&layer.work)) {
    std::swap(norm->h, norm->w);
  }
}

}  // namespace

bool RunSignalsAsColumns(Network& net) {
  const auto one_row = [](const ActivationValue& v) { return v.h == 1; };
  if (!std::all_of(net.values.begin(), net.values.end(), one_row) ||
      std::none_of(net.values.begin(), net.values.end(),
                   [](const ActivationValue& v) { return v.w > 1; }) ||
      !std::all_of(net.layers.begin(), net.layers.end(), Transposable)) {
    return false;
  }
  for (ActivationValue& v : net.values) std::swap(v.h, v.w);
  for (NetLayer& layer : net.layers) Transpose(layer);
  return true;
}

}  // namespace npu::compiler::lowering
