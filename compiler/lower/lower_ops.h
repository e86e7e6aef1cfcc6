// The per-op conversions of LowerGraph, internal to compiler/lower: each turns one IR node, whose
// activation operands are already values, into a NetLayer (layer parameters, quantisation, the
// decomposition note).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/lower/network.h"
#include "compiler/lower/strided_view.h"
#include "hw/spec/status.h"

namespace npu::compiler::lowering {

// InvalidArgument "node 'NAME' (op): what": the error every lowering gives about a node.
Status BadNode(const ir::Node& node, const std::string& what);
// The int attribute `name`; absent, `fallback` if given, else an error naming the node.
StatusOr<int64_t> IntAttr(const ir::Node& node, const std::string& name,
                          std::optional<int64_t> fallback = std::nullopt);
// The int list attribute `name`, of exactly `size` values.
StatusOr<std::vector<int64_t>> IntsAttr(const ir::Node& node, const std::string& name, size_t size);

// The quantisation of an IR activation as a value's (scale, zero point).
struct QuantOf {
  float scale = 1.0f;
  int32_t zero_point = 0;
};

// Fills `layer.work`, `op` and `note` from `node` (inputs/output values already set).
Status LowerConv(const ir::Node& node, const Network& net, NetLayer& layer);
Status LowerGemm(const ir::Node& node, const Network& net, NetLayer& layer);
Status LowerPool(const ir::Node& node, const Network& net, NetLayer& layer);
// lower_elementwise.cc. Which of the node's operands ELTWISE reads as a (the full one) and b.
struct EltwiseOperands {
  bool swapped = false;  // a is the node's second input
};
Status LowerEltwise(const ir::Node& node, const Network& net, NetLayer& layer,
                    const EltwiseOperands& operands);
Status LowerLut(const ir::Node& node, const Network& net, NetLayer& layer);
// DequantizeLinear / QuantizeLinear of a mixed-precision graph: LUT to FP16, ELTWISE to int8.
Status LowerConversion(const ir::Node& node, const Network& net, NetLayer& layer);
// lower_norm.cc: layer_normalization over the channels -> LNORM (NormLayer).
Status LowerLayerNorm(const ir::Node& node, const Network& net, NetLayer& layer);
// lower_data.cc.
Status LowerTranspose(const ir::Node& node, const Network& net, NetLayer& layer);
// lower_matmul.cc: a product of two activations read through views of layer.inputs (a, b) and
// written through a view of layer.output.
struct MatMulViews {
  StridedView a, b, y;
};
Status LowerMatMul(const ir::Node& node, const Network& net, NetLayer& layer,
                   const MatMulViews& views);
// lower_resize.cc.
Status LowerResize(const ir::Node& node, const Network& net, NetLayer& layer);
// lower_shuffle.cc: channel_shuffle -> a copy layer that permutes (CopyLayer::group).
Status LowerChannelShuffle(const ir::Node& node, const Network& net, NetLayer& layer);

}  // namespace npu::compiler::lowering
