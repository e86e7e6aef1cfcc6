// Batch replication: slice, copy, concatenate.
#include "compiler/network/batch.h"

#include <fmt/format.h>

#include <unordered_map>

namespace npu::compiler {
namespace {

using TensorMap = std::unordered_map<const ir::Tensor*, ir::Tensor*>;

void CopyType(const ir::Tensor& from, ir::Tensor* to) {
  to->set_dtype(from.dtype());
  to->set_shape(from.shape());
  to->set_layout(from.layout());
  to->quant() = from.quant();
}

ir::Shape Batched(ir::Shape s, int64_t batch) {
  s[0] = batch;
  return s;
}

// Copy `i` of every node, reading `map` (constants shared through `constants`).
void CopyNodes(const ir::Graph& q, int64_t i, TensorMap& map, TensorMap& constants, ir::Graph& g) {
  for (const ir::Node* n : q.nodes()) {
    std::vector<ir::Tensor*> inputs;
    for (const ir::Tensor* t : n->inputs()) {
      if (t == nullptr) {
        inputs.push_back(nullptr);
      } else if (t->is_constant()) {
        auto [it, fresh] = constants.emplace(t, nullptr);
        if (fresh) {
          it->second = g.AddConstant(t->name(), t->shape(), std::vector<int8_t>{});
          it->second->set_bytes(t->dtype(), t->bytes());
          it->second->quant() = t->quant();
        }
        inputs.push_back(it->second);
      } else {
        inputs.push_back(map.at(t));
      }
    }
    std::vector<std::string> outputs;
    for (const ir::Tensor* t : n->outputs()) outputs.push_back(fmt::format("{}#{}", t->name(), i));
    ir::Node* copy =
        g.AddNode(n->kind(), fmt::format("{}#{}", n->name(), i), inputs, outputs, n->attrs());
    for (size_t k = 0; k < n->num_outputs(); ++k) {
      CopyType(*n->output(k), copy->output(k));
      map[n->output(k)] = copy->output(k);
    }
  }
}

}  // namespace

StatusOr<ir::Graph> ReplicateBatch(const ir::Graph& q, int64_t batch) {
  if (batch < 1) return InvalidArgument(fmt::format("batch {}: must be at least 1", batch));
  if (batch == 1) return q.Clone();
  for (const ir::Tensor* t : q.inputs()) {
    if (t->shape().empty() || t->shape()[0] != 1) {
      return InvalidArgument(
          fmt::format("input '{}' {} is not of batch 1", t->name(), ir::ShapeText(t->shape())));
    }
  }
  ir::Graph g(q.name());
  std::vector<ir::Tensor*> inputs;
  for (const ir::Tensor* t : q.inputs()) {
    ir::Tensor* in = g.AddInput(t->name(), t->dtype(), Batched(t->shape(), batch), t->layout());
    in->quant() = t->quant();
    inputs.push_back(in);
  }
  TensorMap constants;
  std::vector<TensorMap> copies(batch);
  for (int64_t i = 0; i < batch; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {  // image i of each input
      const ir::Tensor* t = q.inputs()[k];
      std::vector<int64_t> starts(t->shape().size(), 0), steps(t->shape().size(), 1);
      starts[0] = i;
      ir::Attributes a;
      a.Set("starts", starts);
      a.Set("steps", steps);
      const std::string name = fmt::format("{}#{}", t->name(), i);
      ir::Tensor* slice = g.AddNode(ir::OpKind::kSlice, name, {inputs[k]}, {name}, a)->output(0);
      CopyType(*t, slice);
      copies[i][t] = slice;
    }
    CopyNodes(q, i, copies[i], constants, g);
  }
  for (const ir::Tensor* t : q.outputs()) {
    std::vector<ir::Tensor*> parts;
    for (int64_t i = 0; i < batch; ++i) parts.push_back(copies[i].at(t));
    ir::Attributes axis;
    axis.Set("axis", int64_t{0});
    ir::Tensor* out =
        g.AddNode(ir::OpKind::kConcat, t->name() + ".batch", parts, {t->name()}, axis)->output(0);
    CopyType(*t, out);
    out->set_shape(Batched(t->shape(), batch));
    g.AddOutput(out);
  }
  return g;
}

}  // namespace npu::compiler
