// Recognises torch's LayerNorm export below opset 17 over the last axis,
//   m = ReduceMean(x, [-1]); d = Sub(x, m); v = ReduceMean(Pow(d, 2), [-1]);
//   y = Div(d, Sqrt(Add(v, eps))) [; y = Mul(y, gamma)] [; y = Add(y, beta)]
// and replaces it by one LayerNormalization {axis=-1, epsilon=eps} (scale gamma, or ones; bias
// beta), which computes the same to within float rounding. Every intermediate must be read only
// inside the pattern; gamma and beta must be constants over the last dim.
// After it, no such chain is left.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

bool LastAxisMean(const ir::Node* n, int64_t rank) {
  if (n == nullptr || n->kind() != ir::OpKind::kReduceMean || n->num_inputs() != 1 ||
      n->attrs().GetInt("keepdims", 1) == 0) {
    return false;
  }
  const std::vector<int64_t> axes = n->attrs().GetInts("axes");
  return axes.size() == 1 && (axes[0] == -1 || axes[0] == rank - 1);
}

std::optional<float> Scalar(const ir::Tensor* t) {
  const std::optional<std::vector<float>> v = FloatConstant(t);
  return v && v->size() == 1 ? std::optional<float>((*v)[0]) : std::nullopt;
}

// A constant over the last dim (`len` values, or one broadcast), else nullopt.
std::optional<std::vector<float>> LastDimConstant(const ir::Tensor* t, int64_t len) {
  std::optional<std::vector<float>> v = FloatConstant(t);
  if (!v) return std::nullopt;
  if (v->size() == 1) return std::vector<float>(len, (*v)[0]);
  if (static_cast<int64_t>(v->size()) != len || t->shape().empty() || t->shape().back() != len) {
    return std::nullopt;
  }
  return v;
}

struct LayerNormMatch {
  ir::Tensor* x = nullptr;
  float eps = 0;
  std::vector<ir::Node*> nodes;  // the pattern, last first
};

// Matches the core Div backwards; nullopt if `div` does not end the pattern.
std::optional<LayerNormMatch> MatchCore(const ir::Graph& g, ir::Node* div) {
  if (div->kind() != ir::OpKind::kDiv) return std::nullopt;
  ir::Node* sqrt = SoleProducer(g, div->input(1), ir::OpKind::kSqrt);
  ir::Node* sub = div->input(0) ? div->input(0)->producer() : nullptr;
  if (sqrt == nullptr || sub == nullptr || sub->kind() != ir::OpKind::kSub) return std::nullopt;
  ir::Node* add = SoleProducer(g, sqrt->input(0), ir::OpKind::kAdd);
  if (add == nullptr) return std::nullopt;
  const auto [eps_t, var_t] = ConstantAndOther(*add);
  const std::optional<float> eps = Scalar(eps_t);
  ir::Node* var = SoleProducer(g, var_t, ir::OpKind::kReduceMean);
  ir::Node* pow = var ? SoleProducer(g, var->input(0), ir::OpKind::kPow) : nullptr;
  ir::Tensor* x = sub->input(0);
  const int64_t rank = x ? static_cast<int64_t>(x->shape().size()) : 0;
  if (!eps || pow == nullptr || pow->input(0) != sub->output(0) || Scalar(pow->input(1)) != 2.0f ||
      !LastAxisMean(var, rank) || rank == 0) {
    return std::nullopt;
  }
  ir::Node* mean = SoleProducer(g, sub->input(1), ir::OpKind::kReduceMean);
  const auto& d_users = sub->output(0)->users();
  if (mean == nullptr || mean->input(0) != x || !LastAxisMean(mean, rank) || d_users.size() != 2 ||
      g.IsGraphOutput(sub->output(0))) {
    return std::nullopt;
  }
  return LayerNormMatch{x, *eps, {div, sqrt, add, var, pow, sub, mean}};
}

}  // namespace

Status RecognizeLayerNorm(ir::Graph& graph, PassContext& ctx) {
  bool changed = false;
  for (ir::Node* div : graph.NodesOfKind(ir::OpKind::kDiv)) {
    std::optional<LayerNormMatch> m = MatchCore(graph, div);
    if (!m) continue;
    const int64_t len = m->x->shape().back();
    // Optional affine tail: Mul(gamma) then Add(beta), each the previous result's only reader.
    ir::Node* last = div;
    std::vector<ir::Node*> tail;  // the accepted Mul and Add
    std::vector<float> gamma(len, 1.0f);
    std::optional<std::vector<float>> beta;
    ir::Node* next = SoleUser(graph, last->output(0));
    if (next && next->kind() == ir::OpKind::kMul) {
      const auto [k, y] = ConstantAndOther(*next);
      if (auto v = LastDimConstant(k, len); v && y == last->output(0)) {
        gamma = *v;
        last = next;
        tail.push_back(next);
        next = SoleUser(graph, last->output(0));
      }
    }
    if (next && next->kind() == ir::OpKind::kAdd) {
      const auto [k, y] = ConstantAndOther(*next);
      if (auto v = LastDimConstant(k, len); v && y == last->output(0)) {
        beta = v;
        last = next;
        tail.push_back(next);
      }
    }
    const std::string base = last->output(0)->name();
    std::vector<ir::Tensor*> in = {
        m->x, graph.AddConstant(graph.UniqueName(base + ".scale"), {len}, gamma)};
    if (beta) in.push_back(graph.AddConstant(graph.UniqueName(base + ".bias"), {len}, *beta));
    ir::Attributes attrs;
    attrs.Set("axis", int64_t{-1});
    attrs.Set("epsilon", m->eps);
    ir::Node* ln = graph.AddNode(ir::OpKind::kLayerNormalization, div->name(), in,
                                 {graph.UniqueName(base + ".ln")}, attrs);
    ReplaceNode(graph, last, ln->output(0));
    for (auto it = tail.rbegin(); it != tail.rend(); ++it) {
      if (*it != last) EraseIfDead(graph, {*it});
    }
    if (last != div) EraseIfDead(graph, {div});
    m->nodes.erase(m->nodes.begin());  // the Div: erased above or by ReplaceNode
    EraseIfDead(graph, m->nodes);
    ctx.Count("recognize-layernorm.replaced");
    changed = true;
  }
  return changed ? Retype(graph) : Status::Ok();
}

}  // namespace npu::compiler::passes
