// Rank rules, one per op family (ONNX semantics, opset 13+ attribute conventions).
#include "compiler/onnx/ranks.h"

#include <algorithm>

namespace npu::compiler::onnx_detail {
namespace {

using ir::OpKind;

constexpr int64_t kMaxRank = 64;  // beyond any real tensor; larger "ranks" come from bad files

std::optional<int> InputRank(const std::vector<ir::Tensor*>& inputs, size_t i,
                             const RankMap& ranks) {
  return i < inputs.size() && inputs[i] != nullptr ? ranks.Get(inputs[i]) : std::nullopt;
}

// Broadcasting: the largest input rank, known only when every input's rank is.
std::optional<int> BroadcastRank(const std::vector<ir::Tensor*>& inputs, const RankMap& ranks) {
  int rank = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::optional<int> r = InputRank(inputs, i, ranks);
    if (!r) return std::nullopt;
    rank = std::max(rank, *r);
  }
  return rank;
}

// numpy matmul: 1-D operands lose their dim; otherwise batch dims broadcast.
std::optional<int> MatMulRank(std::optional<int> a, std::optional<int> b) {
  if (!a || !b) return std::nullopt;
  if (*a == 1 && *b == 1) return 0;
  if (*a == 1) return *b - 1;
  if (*b == 1) return *a - 1;
  return std::max(*a, *b);
}

// Conv and pools: kernel_shape fixes the spatial rank even when the input's is unknown.
std::optional<int> SpatialRank(const std::vector<ir::Tensor*>& inputs, size_t x,
                               const ir::Attributes& attrs, const RankMap& ranks) {
  const std::vector<int64_t> kernel = attrs.GetInts("kernel_shape");
  if (!kernel.empty()) return static_cast<int>(kernel.size()) + 2;
  return InputRank(inputs, x, ranks);
}

std::optional<int> ReshapeRank(const std::vector<ir::Tensor*>& inputs) {
  const ir::Tensor* shape = inputs.size() > 1 ? inputs[1] : nullptr;
  if (shape == nullptr) return std::nullopt;
  if (shape->shape().size() == 1 && shape->shape()[0] >= 0 && shape->shape()[0] <= kMaxRank) {
    return static_cast<int>(shape->shape()[0]);  // constant, or a value_info-declared 1-D shape
  }
  return std::nullopt;
}

std::optional<int> AxesRank(const std::vector<ir::Tensor*>& inputs, const ir::Attributes& attrs,
                            const RankMap& ranks, int sign) {
  std::optional<int> r = InputRank(inputs, 0, ranks);
  if (!r || !attrs.Has("axes")) return std::nullopt;
  return *r + sign * static_cast<int>(attrs.GetInts("axes").size());
}

// Reductions keep the rank (keepdims, import writes it out) or drop the reduced axes.
std::optional<int> ReduceRank(const std::vector<ir::Tensor*>& inputs, const ir::Attributes& attrs,
                              const RankMap& ranks) {
  std::optional<int> r = InputRank(inputs, 0, ranks);
  if (!r || attrs.GetInt("keepdims", 1) != 0) return r;
  if (!attrs.Has("axes")) return attrs.GetInt("noop_with_empty_axes", 0) != 0 ? *r : 0;
  return *r - static_cast<int>(attrs.GetInts("axes").size());
}

// Expand: the larger of the input's rank and the target shape's length.
std::optional<int> ExpandRank(const std::vector<ir::Tensor*>& inputs, const RankMap& ranks) {
  std::optional<int> r = InputRank(inputs, 0, ranks), target = ReshapeRank(inputs);
  if (!r || !target) return std::nullopt;
  return std::max(*r, *target);
}

}  // namespace

std::optional<int> RankMap::Get(const ir::Tensor* t) const {
  if (t->producer() == nullptr) return static_cast<int>(t->shape().size());  // static by now
  auto it = ranks_.find(t);
  return it == ranks_.end() ? std::nullopt : std::optional<int>(it->second);
}

std::optional<int> OutputRank(OpKind kind, const std::vector<ir::Tensor*>& inputs,
                              const ir::Attributes& attrs, const RankMap& ranks) {
  switch (kind) {
    case OpKind::kAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kPow:
    case OpKind::kMax:
    case OpKind::kMin:
      return BroadcastRank(inputs, ranks);
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      return ReduceRank(inputs, attrs, ranks);
    case OpKind::kExpand:
      return ExpandRank(inputs, ranks);
    case OpKind::kConstantOfShape:  // the length of its shape operand
      return ReshapeRank({nullptr, inputs.empty() ? nullptr : inputs[0]});
    case OpKind::kRange:
      return 1;
    case OpKind::kConvTranspose:
    case OpKind::kConv:
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kQLinearConv:
      return SpatialRank(inputs, 0, attrs, ranks);
    case OpKind::kFlatten:
    case OpKind::kGemm:
      return 2;
    case OpKind::kMatMul:
    case OpKind::kQLinearMatMul:
      return MatMulRank(InputRank(inputs, 0, ranks),
                        InputRank(inputs, kind == OpKind::kMatMul ? 1 : 3, ranks));
    case OpKind::kShape:
      return 1;
    case OpKind::kReshape:
      return ReshapeRank(inputs);
    case OpKind::kTranspose:
      if (attrs.Has("perm")) return static_cast<int>(attrs.GetInts("perm").size());
      return InputRank(inputs, 0, ranks);
    case OpKind::kGather: {
      std::optional<int> data = InputRank(inputs, 0, ranks), index = InputRank(inputs, 1, ranks);
      if (!data || !index) return std::nullopt;
      return *data + *index - 1;
    }
    case OpKind::kUnsqueeze:
      return AxesRank(inputs, attrs, ranks, +1);
    case OpKind::kSqueeze:
      return AxesRank(inputs, attrs, ranks, -1);
    case OpKind::kConcat:
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (std::optional<int> r = InputRank(inputs, i, ranks)) return r;
      }
      return std::nullopt;
    default:  // the first input's: elementwise ops, BatchNorm, Softmax, Pad, Q/DQ, Slice, Split,
              // Resize, LayerNormalization, Cast, ...
      return InputRank(inputs, 0, ranks);
  }
}

}  // namespace npu::compiler::onnx_detail
