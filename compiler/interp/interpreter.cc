// The interpreter loop. Steps:
//   1. check the graph's structure and the inputs against the graph inputs;
//   2. for each node in order: type its outputs with the op's rule, allocate, run the kernel;
//   3. free each value after its last use (resnet18 then peaks at a few activations, not all);
//   4. return the graph outputs.
#include "compiler/interp/interpreter.h"

#include <fmt/format.h>

#include <unordered_map>

#include "compiler/interp/op_semantics.h"
#include "compiler/ir/verifier.h"

namespace npu::compiler::interp {
namespace {

Status CheckInputs(const ir::Graph& graph, const std::vector<HostTensor>& inputs) {
  if (inputs.size() != graph.inputs().size()) {
    return InvalidArgument(fmt::format("graph '{}' has {} inputs, {} given", graph.name(),
                                       graph.inputs().size(), inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Tensor& t = *graph.inputs()[i];
    const HostTensor& v = inputs[i];
    NPU_TRY(CheckAllocatable(v.type(), "input %" + t.name()));
    if (v.dtype != t.dtype() || v.shape != t.shape() ||
        v.data.size() != size_t(v.num_elements()) * ir::DTypeBytes(v.dtype)) {
      return InvalidArgument(fmt::format("input %{} is {}{}, the value given is {}{} ({} bytes)",
                                         t.name(), ir::DTypeName(t.dtype()),
                                         ir::ShapeText(t.shape()), ir::DTypeName(v.dtype),
                                         ir::ShapeText(v.shape), v.data.size()));
    }
  }
  return Status::Ok();
}

class Run {
 public:
  Run(const ir::Graph& g, const std::vector<HostTensor>& inputs) : graph_(g) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      TensorRef r = inputs[i].ref();
      r.layout = g.inputs()[i]->layout();
      refs_[g.inputs()[i]] = r;
    }
    for (const ir::Node* n : g.nodes()) {
      for (const ir::Tensor* t : n->inputs()) {
        if (t != nullptr) ++uses_[t];
      }
    }
    for (const ir::Tensor* t : g.outputs()) ++uses_[t];  // outputs are never freed
  }

  Status Step(const ir::Node& node, const InterpretOptions& options) {
    std::vector<TensorRef> in;
    in.reserve(node.num_inputs());
    for (const ir::Tensor* t : node.inputs()) in.push_back(RefOf(t));
    NPU_ASSIGN_OR_RETURN(const std::vector<TensorType> types, InferOutputTypes(node, in));
    std::vector<HostTensor> out;
    out.reserve(types.size());
    for (size_t i = 0; i < types.size(); ++i) {
      NPU_TRY(CheckAllocatable(types[i], "%" + node.output(i)->name()));
      out.push_back(HostTensor::Zeros(types[i]));
    }
    NPU_TRY(RunKernel(node, in, out));
    for (const ir::Tensor* t : node.inputs()) Release(t);
    for (size_t i = 0; i < out.size(); ++i) {
      if (options.observe) options.observe(*node.output(i), out[i]);
      HostTensor& slot = values_[node.output(i)] = std::move(out[i]);
      refs_[node.output(i)] = slot.ref();
    }
    return Status::Ok();
  }

  HostTensor Result(const ir::Tensor* t) {
    auto it = values_.find(t);
    if (it != values_.end()) return it->second;
    const TensorRef r = RefOf(t);  // a graph input or constant returned as an output
    HostTensor h = HostTensor::Zeros({r.dtype, r.shape, r.layout});
    if (!h.data.empty()) std::memcpy(h.data.data(), r.data, h.data.size());
    return h;
  }

 private:
  TensorRef RefOf(const ir::Tensor* t) const {
    if (t == nullptr) return {};
    if (t->is_constant()) return TensorRef::Of(*t);
    return refs_.at(t);  // present: Verify() checked the order
  }

  void Release(const ir::Tensor* t) {
    if (t == nullptr || --uses_[t] > 0) return;
    values_.erase(t);
  }

  const ir::Graph& graph_;
  std::unordered_map<const ir::Tensor*, TensorRef> refs_;
  std::unordered_map<const ir::Tensor*, HostTensor> values_;
  std::unordered_map<const ir::Tensor*, int> uses_;
};

}  // namespace

StatusOr<std::vector<HostTensor>> Interpret(const ir::Graph& graph,
                                            const std::vector<HostTensor>& inputs,
                                            const InterpretOptions& options) {
  NPU_TRY(ir::Verify(graph, {.require_types = false}));
  NPU_TRY(CheckInputs(graph, inputs));
  Run run(graph, inputs);
  for (const ir::Node* node : graph.nodes()) NPU_TRY(run.Step(*node, options));
  std::vector<HostTensor> outputs;
  for (const ir::Tensor* t : graph.outputs()) outputs.push_back(run.Result(t));
  return outputs;
}

}  // namespace npu::compiler::interp
