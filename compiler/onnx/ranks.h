// Tensor ranks during import. torch.onnx.export writes no value_info for intermediate tensors,
// yet import needs ranks: to give Softmax of opset < 13 its opset-13 meaning, to default a
// Transpose's perm, and to tell 4-D activations (Layout::kNCHW) apart. Ranks follow from the
// op alone far more often than shapes do, so import propagates them itself; full shapes are left
// to shape inference.
#pragma once

#include <optional>
#include <unordered_map>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::compiler::onnx_detail {

class RankMap {
 public:
  // A constant's or graph input's rank is its shape's (static after import resolved it); a node
  // output's is what Set recorded.
  std::optional<int> Get(const ir::Tensor* t) const;
  void Set(const ir::Tensor* t, int rank) { ranks_[t] = rank; }

 private:
  std::unordered_map<const ir::Tensor*, int> ranks_;
};

// The rank of the (single) output of a node of `kind` with these inputs and attributes (after
// import normalisation), or nullopt when it depends on a value or an unknown rank.
std::optional<int> OutputRank(ir::OpKind kind, const std::vector<ir::Tensor*>& inputs,
                              const ir::Attributes& attrs, const RankMap& ranks);

}  // namespace npu::compiler::onnx_detail
