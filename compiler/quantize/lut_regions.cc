// Region analysis, in topological order: a node joins a region when it is elementwise and every
// non-constant input is the same root or already in that root's region.
#include "compiler/quantize/lut_regions.h"

#include <fmt/format.h>

#include "compiler/interp/interpreter.h"
#include "compiler/quantize/activations.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

// Ops whose emitter merges a following ReLU into its clamp (GraphQuantizer::FollowActivations).
bool MergesActivations(OpKind k) {
  return k == OpKind::kFusedConv || k == OpKind::kGemm || k == OpKind::kMatMul ||
         k == OpKind::kMaxPool || k == OpKind::kAveragePool || k == OpKind::kGlobalAveragePool ||
         k == OpKind::kAdd || k == OpKind::kFusedAdd || k == OpKind::kMul;
}

bool IsScalarConstant(const ir::Tensor* t) {
  return t != nullptr && t->is_constant() && t->dtype() == ir::DType::kFloat32 &&
         ir::NumElements(t->shape()) == 1;
}

}  // namespace

LutRegions FindLutRegions(const ir::Graph& g) {
  LutRegions r;
  auto root_of = [&](const ir::Tensor* t) {
    auto it = r.root.find(t);
    return it == r.root.end() ? t : it->second;
  };
  for (const ir::Node* n : g.nodes()) {
    if (!ir::IsElementwise(n->kind()) || n->num_outputs() != 1) continue;
    const ir::Tensor* root = nullptr;
    bool ok = true;
    for (const ir::Tensor* in : n->inputs()) {
      if (in == nullptr || IsScalarConstant(in)) continue;
      if (in->is_constant() || (root != nullptr && root_of(in) != root)) ok = false;
      root = root_of(in);
    }
    if (!ok || root == nullptr || n->output(0)->shape() != root->shape()) continue;
    // A ReLU the op before it takes as its clamp stays out.
    const ir::Tensor* in = n->input(0);
    const ir::Node* p = in->producer();
    if (!ActivationOf(*n).empty() && p != nullptr && !r.members.count(p) &&
        MergesActivations(p->kind()) && in->users().size() == 1 && !g.IsGraphOutput(in)) {
      continue;
    }
    r.members.insert(n);
    r.root[n->output(0)] = root;
  }
  for (const ir::Node* n : r.members) {
    const ir::Tensor* out = n->output(0);
    bool inside = !g.IsGraphOutput(out);
    for (const ir::Node* u : out->users()) inside &= r.members.count(u) > 0;
    if (!inside) r.exported.insert(out);
  }
  return r;
}

StatusOr<std::vector<float>> EvaluateRegion(const ir::Graph& g, const LutRegions& regions,
                                            const ir::Tensor& exported,
                                            const std::vector<float>& x) {
  const ir::Tensor* root = regions.root.at(&exported);
  ir::Graph f("lut");
  std::unordered_map<const ir::Tensor*, ir::Tensor*> map;
  map[root] = f.AddInput("x", ir::DType::kFloat32, {int64_t(x.size())}, ir::Layout::kNone);
  for (const ir::Node* n : g.nodes()) {
    if (!regions.members.count(n) || regions.root.at(n->output(0)) != root) continue;
    std::vector<ir::Tensor*> inputs;
    for (const ir::Tensor* in : n->inputs()) {
      if (in == nullptr) {
        inputs.push_back(nullptr);
      } else if (in->is_constant()) {
        ir::Tensor* c = f.AddConstant(f.UniqueName(in->name()), {}, std::vector<float>{});
        c->set_bytes(in->dtype(), in->bytes());
        c->set_shape(in->shape());
        inputs.push_back(c);
      } else {
        inputs.push_back(map.at(in));
      }
    }
    ir::Node* copy =
        f.AddNode(n->kind(), n->name(), inputs, {f.UniqueName(n->output(0)->name())}, n->attrs());
    map[n->output(0)] = copy->output(0);
    if (n->output(0) == &exported) break;
  }
  f.AddOutput(map.at(&exported));
  NPU_ASSIGN_OR_RETURN(std::vector<interp::HostTensor> out,
                       interp::Interpret(f, {interp::HostTensor::FromValues<float>(
                                                {int64_t(x.size())}, x, ir::Layout::kNone)}));
  const auto values = out.at(0).values<float>();
  if (values.size() != x.size()) {
    return Internal(fmt::format("table of '{}': {} values for {} inputs", exported.name(),
                                values.size(), x.size()));
  }
  return std::vector<float>(values.begin(), values.end());
}

}  // namespace npu::compiler::quantize
