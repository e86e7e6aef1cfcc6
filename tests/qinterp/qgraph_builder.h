// Hand-built quantised graphs for the integer interpreter and checker tests: activations with
// their parameters, int8 OHWI weights, int32 biases, and nodes with every attribute the
// contract requires (docs/quantized-ir.md), overridable per test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::qinterp_test {

class QGraphBuilder {
 public:
  // An int8 activation graph input (4-D shapes are NHWC).
  ir::Tensor* Input(const std::string& name, ir::Shape shape, float scale, int32_t zero_point);
  // Symmetric per-output-channel int8 weights (one scale per row, all 0.01 unless given).
  ir::Tensor* Weights(const std::string& name, ir::Shape shape, std::vector<int8_t> values);
  ir::Tensor* Bias(const std::string& name, std::vector<int32_t> values);

  // kFusedConv: 3x3 window attributes from `kernel` etc.; multiplier/shift the same for every
  // output channel.
  ir::Tensor* Conv(const std::string& name, ir::Tensor* x, ir::Tensor* w, ir::Tensor* b,
                   ir::Shape out_shape, float scale, int32_t zero_point, int64_t group,
                   std::vector<int64_t> pads, int32_t multiplier, int32_t shift);
  // A node of `kind` with output `out_shape` and the given attributes.
  ir::Tensor* Node(ir::OpKind kind, const std::string& name, std::vector<ir::Tensor*> inputs,
                   ir::Shape out_shape, float scale, int32_t zero_point, ir::Attributes attrs);

  // Marks the outputs and returns the graph.
  ir::Graph Finish(const std::vector<ir::Tensor*>& outputs);
  ir::Graph& graph() { return g_; }

 private:
  ir::Graph g_{"qtest"};
};

// Clamp attributes (-128, 127 unless given).
void SetClamp(ir::Attributes& a, int64_t lo = -128, int64_t hi = 127);

}  // namespace npu::compiler::qinterp_test
