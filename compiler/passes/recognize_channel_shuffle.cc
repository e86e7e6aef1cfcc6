// ShuffleNet's channel shuffle, Reshape(x [N,C,H,W] -> [N,g,C/g,H,W]) -> Transpose([0,2,1,3,4])
// -> Reshape(-> [N,C,H,W]), becomes one ChannelShuffle {group = g} (docs/ir.md), which the layout
// pass keeps in NHWC as a per-pixel channel permutation instead of three 5-D ops that need NCHW.
// Each intermediate must have no other reader. After it, no such chain is left.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// The 4-D input and group of a shuffle chain ending at `back` (a Reshape), or {nullptr, 0}.
std::pair<ir::Tensor*, int64_t> MatchShuffle(const ir::Graph& g, const ir::Node& back) {
  const ir::Node* t = SoleProducer(g, back.input(0), ir::OpKind::kTranspose);
  if (t == nullptr || t->attrs().GetInts("perm") != std::vector<int64_t>{0, 2, 1, 3, 4}) return {};
  const ir::Node* split = SoleProducer(g, t->input(0), ir::OpKind::kReshape);
  if (split == nullptr) return {};
  ir::Tensor* x = split->input(0);
  const ir::Shape& s = x->shape();
  const ir::Shape& five = split->output(0)->shape();
  if (s.size() != 4 || x->dtype() != ir::DType::kFloat32 || back.output(0)->shape() != s ||
      five.size() != 5) {
    return {};
  }
  const int64_t g_count = five[1];
  if (five != ir::Shape{s[0], g_count, g_count == 0 ? 0 : s[1] / g_count, s[2], s[3]} ||
      g_count < 1 || s[1] % g_count != 0) {
    return {};
  }
  return {x, g_count};
}

}  // namespace

Status RecognizeChannelShuffle(ir::Graph& graph, PassContext& ctx) {
  bool changed = false;
  for (ir::Node* back : graph.NodesOfKind(ir::OpKind::kReshape)) {
    const auto [x, group] = MatchShuffle(graph, *back);
    if (x == nullptr) continue;
    ir::Node* t = back->input(0)->producer();
    ir::Node* split = t->input(0)->producer();
    ir::Attributes attrs;
    attrs.Set("group", group);
    ir::Node* shuffle =
        graph.AddNode(ir::OpKind::kChannelShuffle, back->name(), {x},
                      {graph.UniqueName(back->output(0)->name() + ".shuffled")}, attrs);
    ReplaceNode(graph, back, shuffle->output(0));
    EraseIfDead(graph, {t, split});
    ctx.Count("recognize-channel-shuffle.shuffles");
    changed = true;
  }
  return changed ? Retype(graph) : Status::Ok();
}

}  // namespace npu::compiler::passes
