// Lookup-table regions (docs/quantization.md): a chain of elementwise float ops that reads one
// activation (its root) and scalar constants only — Sigmoid, HardSwish, Tanh, Erf, Exp,
// LeakyRelu, a Div/Mul/Add/Pow by a scalar, and products of the root with such a chain
// (x * sigmoid(x), GELU's x * 0.5 * (1 + erf(x / sqrt 2))) — is a function of one int8 value:
// the quantised graph computes it with one 256-entry table per tensor the region hands on.
// Internal to compiler/quantize.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

struct LutRegions {
  std::unordered_set<const ir::Node*> members;                    // nodes inside a region
  std::unordered_map<const ir::Tensor*, const ir::Tensor*> root;  // member output -> its root
  // Member outputs read outside their region (or graph outputs): each becomes one LUT node.
  std::unordered_set<const ir::Tensor*> exported;
};

// The regions of `g`. A ReLU/Clip that the quantiser merges into the op before it (that op's
// only reader) is left out, as are ops whose result is not elementwise in the root.
LutRegions FindLutRegions(const ir::Graph& g);

// The float function from the root to `exported` on the 256 values `x`, in the graph's own ops
// (the float interpreter evaluates them).
StatusOr<std::vector<float>> EvaluateRegion(const ir::Graph& g, const LutRegions& regions,
                                            const ir::Tensor& exported,
                                            const std::vector<float>& x);

}  // namespace npu::compiler::quantize
