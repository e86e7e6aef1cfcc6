// CheckReductionLimits.
#include "compiler/quantize/reduction_limits.h"

#include <fmt/format.h>

#include <optional>

#include "compiler/qinterp/check_ops.h"

namespace npu::compiler::quantize {
namespace {

// How many products (or values) one output of `n` sums; nullopt for ops that sum none.
std::optional<int64_t> ReductionLength(const ir::Node& n) {
  switch (n.kind()) {
    case ir::OpKind::kConv:
    case ir::OpKind::kFusedConv: {  // weights [O][I/group][kh][kw]: all but O
      const ir::Shape& w = n.input(1)->shape();
      return w.empty() || w[0] == 0 ? 0 : ir::NumElements(w) / w[0];
    }
    case ir::OpKind::kGemm:
    case ir::OpKind::kMatMul:
    case ir::OpKind::kLayerNormalization: {  // the input's last dim
      const ir::Shape& x = n.input(0)->shape();
      return x.empty() ? 0 : x.back();
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

Status CheckReductionLimits(const ir::Graph& float_graph) {
  for (const ir::Node* n : float_graph.nodes()) {
    const std::optional<int64_t> length = ReductionLength(*n);
    if (!length || *length <= qinterp::kMaxReduction) continue;
    return InvalidArgument(fmt::format(
        "node '{}' ({}) sums {} products per output; the NPU's int32 accumulators hold exact sums "
        "of at most {} (docs/integer-semantics.md): the model cannot be quantised for it",
        n->name(), ir::OpName(n->kind()), *length, qinterp::kMaxReduction));
  }
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
