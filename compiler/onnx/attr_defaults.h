// Attribute normalisation on import, so the rest of the compiler reads one convention whatever
// the opset or exporter (compiler/onnx/README.md, "Normalised on import"): defaults written out,
// auto_pad resolved to explicit pads, Softmax given its opset-13 meaning, attributes that only
// matter for training dropped.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/onnx/ranks.h"
#include "hw/spec/status.h"

namespace npu::compiler::onnx_detail {

// Normalises `attrs` of a node of `kind` reading `inputs` (already resolved to IR tensors).
// `where` names the node in errors.
Status NormalizeAttributes(ir::OpKind kind, const std::vector<ir::Tensor*>& inputs,
                           ir::Attributes& attrs, const RankMap& ranks, int64_t opset,
                           const std::string& where);

}  // namespace npu::compiler::onnx_detail
