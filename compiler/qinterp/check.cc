// The quantised-IR checker: graph-level and tensor rules; check_ops.cc has the per-op rules.
#include "compiler/qinterp/check.h"

#include <fmt/format.h>

#include <cmath>

#include "compiler/ir/verifier.h"
#include "compiler/qinterp/check_ops.h"
#include "compiler/qinterp/fp16.h"

namespace npu::compiler::qinterp {
namespace {

Status CheckActivationShape(const ir::Tensor& t) {
  const ir::Shape& s = t.shape();
  if (s.empty()) {
    return InvalidArgument(fmt::format("activation %{} is a scalar", t.name()));
  }
  for (int64_t d : s) {
    if (d < 1) {
      return InvalidArgument(
          fmt::format("activation %{} has an empty dim in {}", t.name(), ir::ShapeText(s)));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckActivationParams(const ir::Tensor& t) {
  if (t.dtype() != ir::DType::kInt8) {
    return InvalidArgument(
        fmt::format("activation %{} is {}, not i8", t.name(), ir::DTypeName(t.dtype())));
  }
  const ir::QuantParams& q = t.quant();
  if (q.scale.size() != 1 || q.zero_point.size() != 1 || q.axis != -1) {
    return InvalidArgument(fmt::format(
        "activation %{} needs one scale and one zero point (per tensor), has {} and {} (axis {})",
        t.name(), q.scale.size(), q.zero_point.size(), q.axis));
  }
  if (!std::isfinite(q.scale[0]) || !(q.scale[0] > 0.0f)) {
    return InvalidArgument(fmt::format("activation %{} has scale {}: must be positive and finite",
                                       t.name(), q.scale[0]));
  }
  if (q.zero_point[0] < -128 || q.zero_point[0] > 127) {
    return InvalidArgument(fmt::format("activation %{} has zero point {}, outside [-128, 127]",
                                       t.name(), q.zero_point[0]));
  }
  return Status::Ok();
}

namespace {

// A pool sum's int32 sums (not an int8 activation): the op checks give their shape.
bool IsPoolSums(const ir::Tensor& t) {
  return t.dtype() == ir::DType::kInt32 && t.producer() != nullptr &&
         t.producer()->kind() == ir::OpKind::kPoolSum;
}

// A node of an int8 graph, or of a mixed one: by the type it computes in.
Status CheckNodeOfMixedGraph(const ir::Node& n) {
  if (n.kind() == ir::OpKind::kDequantizeLinear || n.kind() == ir::OpKind::kQuantizeLinear) {
    return CheckConversionNode(n);
  }
  if (n.output(0)->dtype() == ir::DType::kFloat16) return CheckFp16Node(n);
  for (const ir::Tensor* t : n.inputs()) {
    if (t != nullptr && !t->is_constant() && !IsPoolSums(*t)) NPU_TRY(CheckActivationParams(*t));
  }
  return CheckQuantizedNode(n);
}

}  // namespace

Status CheckQuantizedGraph(const ir::Graph& graph) {
  if (IsFp16Graph(graph)) return CheckFp16Graph(graph);
  // 1. Structure and types.
  NPU_TRY(ir::Verify(graph));
  // 2. Every value that flows at run time is an activation of batch 1: int8 with its parameters,
  //    or (in a mixed graph) FP16, which the FP16 rules check.
  const auto check_activation = [](const ir::Tensor& t) -> Status {
    if (t.dtype() == ir::DType::kFloat16) return CheckFp16Activation(t);
    if (IsPoolSums(t)) return Status::Ok();  // i32, checked by the pool ops that use it
    NPU_TRY(CheckActivationParams(t));
    return CheckActivationShape(t);
  };
  for (const ir::Tensor* t : graph.tensors()) {
    if (t->is_constant() || (t->producer() == nullptr && t->users().empty())) continue;
    NPU_TRY(check_activation(*t));
  }
  for (const ir::Tensor* t : graph.inputs()) NPU_TRY(check_activation(*t));
  for (const ir::Tensor* t : graph.outputs()) {
    if (t->is_constant()) {
      return InvalidArgument(fmt::format("graph output %{} is a constant", t->name()));
    }
  }
  // 3. The ops.
  for (const ir::Node* n : graph.nodes()) NPU_TRY(CheckNodeOfMixedGraph(*n));
  return Status::Ok();
}

}  // namespace npu::compiler::qinterp
