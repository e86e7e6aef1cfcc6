// The interpreter loop: check the graph, bind the inputs, run each node's kernel in order, free
// values after their last reader.
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "compiler/qinterp/check.h"
#include "compiler/qinterp/fp16.h"
#include "compiler/qinterp/graph_walk.h"
#include "compiler/qinterp/kernels.h"
#include "compiler/qinterp/qinterp.h"
#include "compiler/qinterp/tensor_kernels.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;
using Values = std::unordered_map<const ir::Tensor*, std::vector<int8_t>>;

// A tensor's geometry as the kernels see it: [1,H,W,C] is (H, W, C), [1,K] is (1, 1, K).
QIn InOf(const ir::Tensor& t, const std::vector<int8_t>& v) {
  QIn in{v, 1, 1, ir::NumElements(t.shape()), t.quant().zero_point[0]};
  if (t.shape().size() == 4) in.h = t.shape()[1], in.w = t.shape()[2], in.c = t.shape()[3];
  return in;
}

QOut OutOf(const ir::Tensor& t, std::vector<int8_t>& v) {
  const QIn g = InOf(t, v);
  return {v, g.h, g.w, g.c, g.zp};
}

// Each input's values: a computed value, or a constant's data.
std::vector<std::span<const int8_t>> InputSpans(const ir::Node& n, const Values& values) {
  std::vector<std::span<const int8_t>> in;
  for (const ir::Tensor* t : n.inputs()) {
    if (t->is_constant()) {
      in.push_back({reinterpret_cast<const int8_t*>(t->bytes().data()), t->bytes().size()});
    } else {
      in.push_back(values.at(t));
    }
  }
  return in;
}

// Computes `n`'s output from operand values the checker has vouched for.
void RunNode(const ir::Node& n, const Values& values, std::vector<int8_t>& y) {
  if (n.kind() == OpKind::kDequantizeLinear || n.kind() == OpKind::kQuantizeLinear) {
    return RunConversionNode(n, values, y);
  }
  if (n.output(0)->dtype() == ir::DType::kFloat16) return RunFp16Node(n, values, y);  // mixed
  if (RunTensorKernel(n, InputSpans(n, values), y)) return;
  const ir::Tensor& out = *n.output(0);
  const QIn x = InOf(*n.input(0), values.at(n.input(0)));
  QOut o = OutOf(out, y);
  switch (n.kind()) {
    case OpKind::kFusedConv: {
      const QConvAttrs a = *ReadConvAttrs(n, o.c);
      const auto w = n.input(1)->data<int8_t>();
      const auto b = n.input(2)->data<int32_t>();
      if (a.group > 1 && a.group == x.c && a.group == o.c) {
        DepthwiseConvKernel(x, w, b, a, o);
      } else {
        ConvKernel(x, w, b, a, o);
      }
      return;
    }
    case OpKind::kGemm:
      GemmKernel(x, n.input(1)->data<int8_t>(), n.input(2)->data<int32_t>(),
                 *ReadRequant(n, n.input(1)->shape()[0]), o);
      return;
    case OpKind::kMaxPool:
      MaxPoolKernel(x, *ReadPoolAttrs(n), o);
      return;
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool: {
      QPoolAttrs a = *ReadPoolAttrs(n);
      if (n.kind() == OpKind::kGlobalAveragePool) a.window = QWindow{.kh = x.h, .kw = x.w};
      AveragePoolKernel(x, a, o);
      return;
    }
    default:  // kFlatten, kReshape, kIdentity: the same bytes
      y = values.at(n.input(0));
      return;
  }
}

Status CheckInputs(const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs) {
  if (inputs.size() != graph.inputs().size()) {
    return InvalidArgument(fmt::format("graph '{}' has {} inputs, {} given", graph.name(),
                                       graph.inputs().size(), inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Tensor* t = graph.inputs()[i];
    const int64_t bytes = ir::NumElements(t->shape()) * (t->dtype() == ir::DType::kFloat16 ? 2 : 1);
    if (static_cast<int64_t>(inputs[i].size()) != bytes) {
      return InvalidArgument(fmt::format("input {} '{}' has {} bytes, the graph expects {} ({} {})",
                                         i, t->name(), inputs[i].size(), bytes,
                                         ir::DTypeName(t->dtype()), ir::ShapeText(t->shape())));
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<std::vector<int8_t>>> InterpretQuantized(
    const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs,
    const QInterpretOptions& options) {
  if (IsFp16Graph(graph)) return InterpretFp16(graph, inputs, options);
  // 1. Refuse what the contract does not describe, before touching any value.
  NPU_TRY(CheckQuantizedGraph(graph));
  NPU_TRY(CheckInputs(graph, inputs));
  // 2. Bind inputs, run the nodes in order (freeing values after their last reader).
  Values values;
  for (size_t i = 0; i < inputs.size(); ++i) values[graph.inputs()[i]] = inputs[i];
  return WalkGraph(graph, std::move(values), RunNode,
                   [&](const ir::Tensor& t, const std::vector<int8_t>& y) {
                     if (options.observe) options.observe(t, y);
                   });
}

}  // namespace npu::compiler::qinterp
