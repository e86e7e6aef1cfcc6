// Rewriting helpers.
#include "compiler/passes/rewrite_util.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "compiler/passes/passes.h"

namespace npu::compiler::passes {

ir::Node* SoleUser(const ir::Graph& g, const ir::Tensor* t) {
  if (t->users().size() != 1 || g.IsGraphOutput(t)) return nullptr;
  return t->users()[0];
}

bool CanReplace(const ir::Graph& g, const ir::Node& node, const ir::Tensor* replacement) {
  const ir::Tensor* out = node.output(0);
  if (!g.IsGraphOutput(out)) return true;
  const auto& in = g.inputs();
  return !replacement->is_constant() && !g.IsGraphOutput(replacement) &&
         std::find(in.begin(), in.end(), replacement) == in.end();
}

void ReplaceNode(ir::Graph& g, ir::Node* node, ir::Tensor* replacement) {
  NPU_CHECK(CanReplace(g, *node, replacement));
  ir::Tensor* out = node->output(0);
  const bool was_output = g.IsGraphOutput(out);
  const std::string name = out->name();
  g.ReplaceAllUsesWith(out, replacement);
  g.EraseNode(node);
  if (was_output) {
    g.RenameTensor(out, g.UniqueName(name + ".dead"));
    g.RenameTensor(replacement, name);
  }
}

void EraseIfDead(ir::Graph& g, const std::vector<ir::Node*>& nodes) {
  for (ir::Node* n : nodes) {
    bool dead = true;
    for (const ir::Tensor* out : n->outputs()) {
      dead = dead && out->users().empty() && !g.IsGraphOutput(out);
    }
    if (dead) g.EraseNode(n);
  }
}

ir::Node* SoleProducer(const ir::Graph& g, const ir::Tensor* t, ir::OpKind kind) {
  ir::Node* p = t != nullptr ? t->producer() : nullptr;
  if (p == nullptr || p->kind() != kind || t->users().size() != 1 || g.IsGraphOutput(t)) {
    return nullptr;
  }
  return p;
}

std::pair<ir::Tensor*, ir::Tensor*> ConstantAndOther(const ir::Node& n) {
  if (n.num_inputs() != 2 || n.input(0) == nullptr || n.input(1) == nullptr) return {};
  ir::Tensor *a = n.input(0), *b = n.input(1);
  if (a->is_constant() == b->is_constant()) return {};
  return a->is_constant() ? std::pair{a, b} : std::pair{b, a};
}

Status Retype(ir::Graph& g) {
  g.RemoveUnusedTensors();
  NPU_TRY(g.SortTopologically());
  PassContext retype;
  return InferShapes(g, retype);
}

ir::Tensor* AddConstant(ir::Graph& g, const std::string& base, const interp::HostTensor& value) {
  ir::Tensor* t = g.AddConstant<uint8_t>(g.UniqueName(base), value.shape, {});
  t->set_bytes(value.dtype, value.data);
  return t;
}

std::optional<std::vector<float>> FloatConstant(const ir::Tensor* t) {
  if (t == nullptr || !t->is_constant() || t->dtype() != ir::DType::kFloat32) return std::nullopt;
  const std::span<const float> v = t->data<float>();
  return std::vector<float>(v.begin(), v.end());
}

std::optional<std::pair<float, float>> ClipBounds(const ir::Node& clip) {
  float lo = clip.attrs().GetFloat("min", -std::numeric_limits<float>::infinity());
  float hi = clip.attrs().GetFloat("max", std::numeric_limits<float>::infinity());
  for (size_t i = 1; i < clip.num_inputs() && i < 3; ++i) {
    if (clip.input(i) == nullptr) continue;
    const std::optional<std::vector<float>> v = FloatConstant(clip.input(i));
    if (!v || v->size() != 1) return std::nullopt;
    (i == 1 ? lo : hi) = (*v)[0];
  }
  return std::make_pair(lo, hi);
}

std::optional<std::string> ActivationName(const ir::Node& node) {
  if (node.kind() == ir::OpKind::kRelu) return "relu";
  if (node.kind() != ir::OpKind::kClip) return std::nullopt;
  const auto bounds = ClipBounds(node);
  if (!bounds || bounds->first != 0.0f) return std::nullopt;
  if (bounds->second == 6.0f) return "relu6";
  if (bounds->second == std::numeric_limits<float>::infinity()) return "relu";
  return std::nullopt;
}

}  // namespace npu::compiler::passes
