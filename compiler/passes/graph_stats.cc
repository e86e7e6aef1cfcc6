// MAC and op counts.
#include "compiler/passes/graph_stats.h"

namespace npu::compiler::passes {
namespace {

int64_t NodeMacs(const ir::Node& n) {
  const ir::Tensor* out = n.num_outputs() ? n.output(0) : nullptr;
  if (out == nullptr || out->shape().empty()) return 0;
  const int64_t outputs = ir::NumElements(out->shape());
  switch (n.kind()) {
    case ir::OpKind::kConv:
    case ir::OpKind::kFusedConv:
    case ir::OpKind::kQLinearConv: {
      const ir::Tensor* w = n.input(n.kind() == ir::OpKind::kQLinearConv ? 3 : 1);
      if (w == nullptr || w->shape().size() != 4) return 0;
      return outputs * w->shape()[1] * w->shape()[2] * w->shape()[3];
    }
    case ir::OpKind::kGemm: {
      const ir::Tensor* a = n.input(0);
      if (a == nullptr || a->shape().size() != 2) return 0;
      return outputs * a->shape()[n.attrs().GetInt("transA", 0) ? 0 : 1];
    }
    case ir::OpKind::kMatMul:
    case ir::OpKind::kQLinearMatMul: {
      const ir::Tensor* a = n.input(0);
      return a == nullptr || a->shape().empty() ? 0 : outputs * a->shape().back();
    }
    default:
      return 0;
  }
}

}  // namespace

int64_t CountMacs(const ir::Graph& graph) {
  int64_t macs = 0;
  for (const ir::Node* n : graph.nodes()) macs += NodeMacs(*n);
  return macs;
}

std::map<std::string, int64_t> CountOps(const ir::Graph& graph) {
  std::map<std::string, int64_t> counts;
  for (const ir::Node* n : graph.nodes()) ++counts[std::string(ir::OpName(n->kind()))];
  return counts;
}

}  // namespace npu::compiler::passes
