// Per-op rules of the quantised-IR checker. Internal to compiler/qinterp.
#pragma once

#include <string>

#include "compiler/ir/graph.h"
#include "hw/spec/arith.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// The longest reduction whose int32 sum cannot overflow (hw/spec/arith.h).
inline constexpr int64_t kMaxReduction = spec::kMaxReduction;

// Checks one node of a quantised graph whose tensors have already passed the tensor checks.
Status CheckQuantizedNode(const ir::Node& node);

// check_tensor_ops.cc: lookup tables, broadcasting binary ops, data movement, softmax, layer
// norm, reductions, matmul. Unimplemented for any other op.
Status CheckTensorOp(const ir::Node& node);

// Shared by the rules: each fails naming the node.
Status Bad(const ir::Node& n, const std::string& what);
Status ExpectInputs(const ir::Node& n, size_t count);
Status ExpectActivation(const ir::Node& n, const ir::Tensor* t, const char* role);
Status ExpectActivation4D(const ir::Node& n, const ir::Tensor* t, const char* role);
Status ExpectConstant(const ir::Node& n, const ir::Tensor* t, ir::DType dtype,
                      const ir::Shape& shape, const char* role);
Status ExpectWeightQuant(const ir::Node& n, const ir::Tensor* w, int64_t channels);
Status ExpectOutputShape(const ir::Node& n, const ir::Shape& shape);
Status ExpectSameQuant(const ir::Node& n, const ir::Tensor* in, const ir::Tensor* out);
Status ExpectActivationName(const ir::Node& n);

}  // namespace npu::compiler::qinterp
