// Shape inference and its checking twin. Both walk the graph in order and apply each op's type
// rule (compiler/interp/op_semantics.h). Steps per node:
//   1. describe the inputs: type, plus the value of int64 constants and of small int64 tensors
//      computed earlier in the walk (ONNX-style data propagation, so Reshape(x, Concat(Gather(
//      Shape(x), 0), -1)) gets a static shape before constant folding);
//   2. apply the rule;
//   3. InferShapes stores the types, VerifyShapes compares them with the stored ones;
//   4. if the outputs are small int64 tensors and the inputs' values are known (or the op is
//      Shape), compute them for the nodes downstream.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "compiler/interp/op_semantics.h"
#include "compiler/passes/passes.h"

namespace npu::compiler::passes {
namespace {

using interp::HostTensor;
using interp::TensorRef;
using interp::TensorType;

// int64 tensors up to this size are propagated: enough for any shape vector.
constexpr int64_t kMaxPropagatedElements = 64;

bool Propagatable(const TensorType& t) {
  return t.dtype == ir::DType::kInt64 && ir::NumElements(t.shape) <= kMaxPropagatedElements;
}

// An empty value tensor (a slice past the end, a zero-size dimension) has nothing to compute and
// no kernel takes one; shape computations (int64) may be empty.
Status CheckNotEmpty(const ir::Node& node, size_t output, const TensorType& t) {
  if (t.dtype == ir::DType::kInt64 || ir::NumElements(t.shape) > 0) return Status::Ok();
  return InvalidArgument(fmt::format(
      "node '{}' ({}): output %{} {} is empty; the model must not "
      "compute empty tensors",
      node.name(), ir::OpName(node.kind()), node.output(output)->name(), ir::ShapeText(t.shape)));
}

using OnNode = std::function<Status(const ir::Node&, const std::vector<TensorType>&)>;

Status Walk(const ir::Graph& g, const OnNode& on_node) {
  std::unordered_map<const ir::Tensor*, HostTensor> known;
  for (const ir::Tensor* t : g.inputs()) {
    if (t->dtype() == ir::DType::kUnknown) {
      return InvalidArgument(fmt::format("graph input %{} has no element type", t->name()));
    }
    NPU_TRY(interp::CheckAllocatable({t->dtype(), t->shape(), t->layout()},
                                     "graph input %" + t->name()));
  }
  for (const ir::Node* node : g.nodes()) {
    // 1. Inputs.
    std::vector<TensorRef> in;
    bool all_known = true;
    for (const ir::Tensor* t : node->inputs()) {
      if (t == nullptr) {
        in.emplace_back();
        continue;
      }
      if (t->dtype() == ir::DType::kUnknown) {
        return InvalidArgument(
            fmt::format("node '{}' reads %{}, whose type is unknown", node->name(), t->name()));
      }
      TensorRef r = TensorRef::TypeOnly(*t);
      auto it = known.find(t);
      if (it != known.end()) r.data = it->second.data.data();
      if (t->is_constant() && (r.dtype != ir::DType::kFloat32 || r.num_elements() <= 16)) {
        r.data = t->bytes().data();  // shape operands and scalar bounds; not weights
      }
      all_known = all_known && r.has_value();
      in.push_back(std::move(r));
    }
    // 2-3. Rule, then store or compare.
    NPU_ASSIGN_OR_RETURN(const std::vector<TensorType> types, interp::InferOutputTypes(*node, in));
    for (size_t i = 0; i < types.size(); ++i) {
      NPU_TRY(interp::CheckAllocatable(types[i], "%" + node->output(i)->name()));
      NPU_TRY(CheckNotEmpty(*node, i, types[i]));
    }
    NPU_TRY(on_node(*node, types));
    // 4. Propagate small int64 values.
    const bool small = std::all_of(types.begin(), types.end(), Propagatable);
    if (!small || (!all_known && node->kind() != ir::OpKind::kShape)) continue;
    std::vector<HostTensor> out;
    for (const TensorType& t : types) out.push_back(HostTensor::Zeros(t));
    NPU_TRY(interp::RunKernel(*node, in, out));
    for (size_t i = 0; i < out.size(); ++i) known[node->output(i)] = std::move(out[i]);
  }
  return Status::Ok();
}

std::string TypeText(const TensorType& t) {
  return fmt::format("{}{} {}", ir::DTypeName(t.dtype), ir::ShapeText(t.shape),
                     ir::LayoutName(t.layout));
}

}  // namespace

Status InferShapes(ir::Graph& graph, PassContext& ctx) {
  int64_t changed = 0;
  const Status status =
      Walk(graph, [&](const ir::Node& node, const std::vector<TensorType>& types) {
        for (size_t i = 0; i < types.size(); ++i) {
          ir::Tensor* t = node.output(i);
          if (TensorType{t->dtype(), t->shape(), t->layout()} != types[i]) ++changed;
          t->set_dtype(types[i].dtype);
          t->set_shape(types[i].shape);
          t->set_layout(types[i].layout);
        }
        return Status::Ok();
      });
  ctx.Count("infer-shapes.changed", changed);
  return status.WithContext(fmt::format("shape inference of graph '{}'", graph.name()));
}

Status VerifyShapes(const ir::Graph& graph) {
  return Walk(graph, [](const ir::Node& node, const std::vector<TensorType>& types) {
    for (size_t i = 0; i < types.size(); ++i) {
      const ir::Tensor* t = node.output(i);
      const TensorType stored{t->dtype(), t->shape(), t->layout()};
      if (stored != types[i]) {
        return InvalidArgument(fmt::format("node '{}' ({}): %{} is {} but the op's rule gives {}",
                                           node.name(), ir::OpName(node.kind()), t->name(),
                                           TypeText(stored), TypeText(types[i])));
      }
    }
    return Status::Ok();
  });
}

}  // namespace npu::compiler::passes
