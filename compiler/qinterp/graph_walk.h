// The interpreters' loop (the integer one and the FP16 one): run each node in graph order on the
// values of its inputs, hand each result to an observer, free a value after its last reader
// (graph outputs are kept), and return the outputs. Internal to compiler/qinterp.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::qinterp {

// `values` holds the graph inputs' values; run(node, values, y) computes the node's output into
// y, sized to the output's elements; observe(tensor, y) sees it before it is stored.
template <class Value, class Run, class Observe>
std::vector<Value> WalkGraph(const ir::Graph& graph,
                             std::unordered_map<const ir::Tensor*, Value> values, Run run,
                             Observe observe) {
  std::unordered_map<const ir::Tensor*, size_t> readers;
  for (const ir::Node* n : graph.nodes()) {
    for (const ir::Tensor* t : n->inputs()) ++readers[t];
  }
  const std::unordered_set<const ir::Tensor*> keep(graph.outputs().begin(), graph.outputs().end());
  for (const ir::Node* n : graph.nodes()) {
    const ir::Tensor* out = n->output(0);
    Value y(static_cast<size_t>(ir::NumElements(out->shape())));
    run(*n, values, y);
    observe(*out, y);
    values[out] = std::move(y);
    for (const ir::Tensor* t : n->inputs()) {
      if (!t->is_constant() && --readers[t] == 0 && !keep.count(t)) values.erase(t);
    }
  }
  std::vector<Value> result;
  for (const ir::Tensor* t : graph.outputs()) result.push_back(values.at(t));
  return result;
}

}  // namespace npu::compiler::qinterp
