// Small IR subgraphs several test suites build the same way.
#pragma once

#include <string>

#include "compiler/ir/graph.h"

namespace npu::testing {

// Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])) named `out`: the chain old ONNX
// exporters write for x.view(x.size(0), -1).
inline compiler::ir::Tensor* AddShapeChainReshape(compiler::ir::Graph& g, compiler::ir::Tensor* x,
                                                  const std::string& out) {
  namespace ir = compiler::ir;
  ir::Attributes axes, axis;
  axes.Set("axes", std::vector<int64_t>{0});
  axis.Set("axis", int64_t{0});
  ir::Tensor* s = g.AddNode(ir::OpKind::kShape, "shape", {x}, {"s"})->output();
  ir::Tensor* zero = g.AddConstant<int64_t>("zero", {}, {0});
  ir::Tensor* n = g.AddNode(ir::OpKind::kGather, "gather", {s, zero}, {"n"})->output();
  ir::Tensor* n1 = g.AddNode(ir::OpKind::kUnsqueeze, "unsq", {n}, {"n1"}, axes)->output();
  ir::Tensor* rest = g.AddConstant<int64_t>("rest", {1}, {-1});
  ir::Tensor* t = g.AddNode(ir::OpKind::kConcat, "cat", {n1, rest}, {"t"}, axis)->output();
  return g.AddNode(ir::OpKind::kReshape, "reshape", {x, t}, {out})->output();
}

}  // namespace npu::testing
