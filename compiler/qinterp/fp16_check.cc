// The FP16 graph checker (fp16.h).
#include <fmt/format.h>

#include "compiler/ir/verifier.h"
#include "compiler/qinterp/check.h"
#include "compiler/qinterp/fp16.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;

}  // namespace

Status CheckFp16Activation(const ir::Tensor& t) {
  if (t.dtype() != ir::DType::kFloat16) {
    return InvalidArgument(
        fmt::format("activation %{} is {}, not f16", t.name(), ir::DTypeName(t.dtype())));
  }
  if (!t.quant().empty()) {
    return InvalidArgument(fmt::format("f16 activation %{} carries quantisation parameters", t.name()));
  }
  const ir::Shape& s = t.shape();
  if (s.empty() || s[0] != 1) {
    return InvalidArgument(
        fmt::format("activation %{} {}: batch 1 expected", t.name(), ir::ShapeText(s)));
  }
  for (int64_t d : s) {
    if (d < 1) return InvalidArgument(fmt::format("activation %{} has an empty dim", t.name()));
  }
  if (s.size() == 4 && t.layout() != ir::Layout::kNHWC) {
    return InvalidArgument(fmt::format("4-D activation %{} is not NHWC", t.name()));
  }
  return Status::Ok();
}

namespace {

Status Bad(const ir::Node& n, const std::string& what) {
  return InvalidArgument(fmt::format("FP16 node '{}' ({}): {}", n.name(), ir::OpName(n.kind()), what));
}

Status CheckClamp(const ir::Node& n) {
  for (const char* name : {"fp16_clamp_min", "fp16_clamp_max"}) {
    if (!n.attrs().Has(name)) return Bad(n, fmt::format("no {}", name));
    const int64_t v = n.attrs().GetInt(name, -1);
    if (v < 0 || v > 0xFFFF) return Bad(n, fmt::format("{} {} is not 16 bits", name, v));
  }
  return Status::Ok();
}

Status CheckConstant(const ir::Node& n, int i, ir::DType dtype, const ir::Shape& shape) {
  const ir::Tensor* t = n.input(i);
  if (t == nullptr || !t->is_constant() || t->dtype() != dtype || t->shape() != shape) {
    return Bad(n, fmt::format("input {} must be a {} constant {}", i, ir::DTypeName(dtype),
                              ir::ShapeText(shape)));
  }
  return Status::Ok();
}

Status CheckConv(const ir::Node& n) {
  const ir::Shape& x = n.input(0)->shape();
  if (x.size() != 4 || n.num_inputs() != 3 || n.input(1)->shape().size() != 4) {
    return Bad(n, "needs x [1,H,W,C], 4-D weights and a bias");
  }
  const ir::Shape& w = n.input(1)->shape();
  const int64_t group = n.attrs().GetInt("group", 1);
  if (group < 1 || x[3] % group != 0 || w[0] % group != 0 || w[3] != x[3] / group) {
    return Bad(n, fmt::format("group {} does not fit input {} and weights {}", group,
                              ir::ShapeText(x), ir::ShapeText(w)));
  }
  NPU_TRY(CheckConstant(n, 1, ir::DType::kFloat16, w));
  NPU_TRY(CheckConstant(n, 2, ir::DType::kFloat32, {w[0]}));
  if (n.output(0)->shape().size() != 4 || n.output(0)->shape()[3] != w[0]) {
    return Bad(n, "the output is not [1,H,W,O]");
  }
  if (n.attrs().GetInts("kernel_shape", {}) != std::vector<int64_t>{w[1], w[2]}) {
    return Bad(n, "kernel_shape disagrees with the weights");
  }
  return CheckClamp(n);
}

Status CheckGemm(const ir::Node& n) {
  if (n.num_inputs() != 3 || n.input(1)->shape().size() != 2) return Bad(n, "needs x, w [N,K], b");
  const ir::Shape& w = n.input(1)->shape();
  if (n.input(0)->shape().back() != w[1]) return Bad(n, "x's last dim is not K");
  if (n.attrs().GetInt("transB", 0) != 1) return Bad(n, "transB must be 1");
  NPU_TRY(CheckConstant(n, 1, ir::DType::kFloat16, w));
  NPU_TRY(CheckConstant(n, 2, ir::DType::kFloat32, {w[0]}));
  return CheckClamp(n);
}

Status CheckPool(const ir::Node& n) {
  if (n.input(0)->shape().size() != 4) return Bad(n, "needs x [1,H,W,C]");
  if (n.kind() == OpKind::kGlobalAveragePool) return Status::Ok();
  const auto k = n.attrs().GetInts("kernel_shape", {}), s = n.attrs().GetInts("strides", {});
  const auto p = n.attrs().GetInts("pads", {});
  if (k.size() != 2 || s.size() != 2 || p.size() != 4) return Bad(n, "needs kernel_shape, strides, pads");
  for (int d = 0; d < 2; ++d) {
    if (k[d] < 1 || s[d] < 1) return Bad(n, "a kernel or stride below 1");
  }
  for (int d = 0; d < 4; ++d) {
    if (p[d] < 0 || p[d] >= k[d % 2]) return Bad(n, "a pad reaching past the kernel");
  }
  return Status::Ok();
}

}  // namespace

Status CheckFp16Node(const ir::Node& n) {
  for (const ir::Tensor* t : n.inputs()) {
    if (t != nullptr && !t->is_constant()) NPU_TRY(CheckFp16Activation(*t));
  }
  NPU_TRY(CheckFp16Activation(*n.output(0)));
  switch (n.kind()) {
    case OpKind::kFusedConv:
      return CheckConv(n);
    case OpKind::kGemm:
      return CheckGemm(n);
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return CheckPool(n);
    case OpKind::kAdd: {
      if (n.num_inputs() != 2 || n.input(0)->is_constant() || n.input(1)->is_constant() ||
          n.input(0)->shape() != n.input(1)->shape()) {
        return Bad(n, "needs two activations of one shape");
      }
      const int64_t relu = n.attrs().GetInt("fp16_relu", 0);
      return relu == 0 || relu == 1 ? Status::Ok() : Bad(n, "fp16_relu must be 0 or 1");
    }
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kIdentity:
      if (ir::NumElements(n.input(0)->shape()) != ir::NumElements(n.output(0)->shape())) {
        return Bad(n, "a view changing the number of elements");
      }
      return Status::Ok();
    default:
      return Unimplemented(fmt::format("FP16 node '{}': {} has no FP16 form", n.name(),
                                       ir::OpName(n.kind())));
  }
}

Status CheckConversionNode(const ir::Node& n) {
  const bool to_fp16 = n.kind() == OpKind::kDequantizeLinear;
  if (n.num_inputs() != 1 || n.input(0) == nullptr || n.input(0)->is_constant() ||
      n.input(0)->shape() != n.output(0)->shape()) {
    return InvalidArgument(fmt::format("conversion '{}' ({}): needs one activation of the output's shape",
                                       n.name(), ir::OpName(n.kind())));
  }
  const ir::Tensor& int8 = to_fp16 ? *n.input(0) : *n.output(0);
  const ir::Tensor& fp16 = to_fp16 ? *n.output(0) : *n.input(0);
  NPU_TRY(CheckActivationParams(int8).WithContext(fmt::format("conversion '{}'", n.name())));
  return CheckFp16Activation(fp16).WithContext(fmt::format("conversion '{}'", n.name()));
}

bool IsFp16Graph(const ir::Graph& graph) {
  if (graph.inputs().empty()) return false;
  for (const ir::Tensor* t : graph.inputs()) {
    if (t->dtype() != ir::DType::kFloat16) return false;
  }
  for (const ir::Node* n : graph.nodes()) {
    if (n->output(0)->dtype() != ir::DType::kFloat16) return false;
  }
  return true;
}

Status CheckFp16Graph(const ir::Graph& graph) {
  NPU_TRY(ir::Verify(graph));
  for (const ir::Tensor* t : graph.inputs()) NPU_TRY(CheckFp16Activation(*t));
  for (const ir::Tensor* t : graph.outputs()) {
    if (t->is_constant()) return InvalidArgument(fmt::format("graph output %{} is a constant", t->name()));
  }
  for (const ir::Node* n : graph.nodes()) NPU_TRY(CheckFp16Node(*n));
  return Status::Ok();
}

}  // namespace npu::compiler::qinterp
