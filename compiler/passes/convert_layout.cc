// Layout conversion to NHWC, the NPU's activation layout, for the whole network at once so that
// transposes appear only at its borders. Weights stay OIHW (the op semantics read them that way in
// either layout; the NPU backend packs them per tile anyway).
//   1. Plan, in topological order: a node converts if it is layout-aware (Conv, FusedConv,
//      BatchNormalization, pools, ConvTranspose, ChannelShuffle) and reads a 4-D NCHW activation,
//      or if it is elementwise, Concat/Split, Pad, Slice, a reduction or Resize and reads at
//      least one converted tensor (all its other activations being 4-D); an exporter's Transpose
//      back from NHWC converts too (its NHWC value is its input). Its 4-D outputs become NHWC.
//   2. Rewrite: converted nodes read the NHWC version of each activation (a Transpose [0,2,3,1]
//      for one that is not converted, e.g. a graph input, made once per tensor); their constant
//      operands are permuted the same way, Concat's/Split's axis, Slice's and reductions' axes,
//      Pad's pads and Resize's scales/sizes remapped. Nodes that are
//      not converted but read a converted tensor get a Transpose [0,3,1,2] back, except Flatten
//      and Reshape where the two element orders coincide (H*W == 1 or C == 1, e.g. resnet's
//      pool -> flatten) and a Flatten/Reshape to [N, C*H*W] feeding only Gemms with constant B,
//      whose K axis is permuted instead. A converted graph output gets a Transpose back and keeps
//      its name.
//   3. Merge consecutive Transposes (pairs that undo each other vanish), sort, re-infer the types.
#include <fmt/format.h>

#include <unordered_map>
#include <unordered_set>

#include "compiler/interp/op_semantics.h"
#include "compiler/passes/layout_util.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

class LayoutConverter {
 public:
  explicit LayoutConverter(ir::Graph& g) : g_(g) {}

  void Plan() {
    for (const ir::Node* n : g_.nodes()) {
      if (!Converts(*n)) continue;
      converted_nodes_.insert(n);
      for (const ir::Tensor* out : n->outputs()) {
        if (out->shape().size() == 4) converted_.insert(out);  // not a keepdims=0 reduction's
      }
    }
  }

  int64_t Rewrite() {
    for (ir::Node* n : g_.nodes()) {
      if (converted_nodes_.count(n)) {
        RewriteConverted(n);
      } else {
        RewriteReader(n);
      }
    }
    std::unordered_set<const ir::Tensor*> renamed;  // an output may be listed twice
    for (size_t i = 0; i < g_.outputs().size(); ++i) {
      ir::Tensor* out = g_.outputs()[i];
      if (!converted_.count(out)) continue;
      ir::Tensor* back = NCHWVersion(out);
      if (back != out && renamed.insert(out).second) {
        const std::string name = out->name();
        g_.RenameTensor(out, g_.UniqueName(name + "_nhwc"));
        g_.RenameTensor(back, name);
      }
      g_.SetOutput(i, back);
    }
    return static_cast<int64_t>(converted_nodes_.size());
  }

  int64_t transposes() const { return transposes_; }

 private:
  // An exporter's Transpose to NCHW of an NHWC-tagged tensor (ConvNeXt's permute back after
  // its channels-last block): its output's NHWC value is its input, no transpose needed.
  static bool IsTransposeBackFromNHWC(const ir::Node& n) {
    return n.kind() == ir::OpKind::kTranspose && n.input(0) != nullptr &&
           n.input(0)->layout() == ir::Layout::kNHWC &&
           n.input(0)->dtype() == ir::DType::kFloat32 && n.attrs().GetInts("perm") == kToNCHW;
  }

  bool Converts(const ir::Node& n) const {
    if (IsTransposeBackFromNHWC(n)) return true;
    switch (RoleOf(n.kind())) {
      case Role::kLayoutAware:
        return IsNCHWActivation(n.input(0)) || converted_.count(n.input(0));
      case Role::kPad:
        return converted_.count(n.input(0)) && n.input(1) && n.input(1)->is_constant() &&
               n.input(1)->dtype() == ir::DType::kInt64 && n.input(1)->shape() == ir::Shape{8};
      case Role::kElementwise:
      case Role::kConcat: {
        bool any = false;
        for (const ir::Tensor* t : n.inputs()) {
          if (t == nullptr) continue;
          if (t->is_constant() ? t->shape().size() > 4 : !IsActivation4D(t)) return false;
          any = any || converted_.count(t);
        }
        return any;
      }
      case Role::kSlice:
        return converted_.count(n.input(0)) && ConstantOperands(n, 1);
      case Role::kReduce: {
        const std::vector<int64_t> axes = n.attrs().GetInts("axes");
        return converted_.count(n.input(0)) && n.num_inputs() == 1 &&
               (n.attrs().GetInt("keepdims", 1) != 0 || ReductionKeepsOrder(axes));
      }
      case Role::kResize: {
        const ir::Tensor* s = n.input(2) ? n.input(2) : n.input(3);
        return converted_.count(n.input(0)) && s != nullptr && s->is_constant() &&
               s->shape() == ir::Shape{4};
      }
      case Role::kKeep:
        return false;
    }
    return false;
  }

  // Inputs from `first` on are absent or int64 constants.
  static bool ConstantOperands(const ir::Node& n, size_t first) {
    for (size_t i = first; i < n.num_inputs(); ++i) {
      const ir::Tensor* t = n.input(i);
      if (t != nullptr && (!t->is_constant() || t->dtype() != ir::DType::kInt64)) return false;
    }
    return true;
  }

  // Slice's axes (input 3, default 0..n-1) remapped; Reduce's and Split's/Concat's attributes
  // remapped; Resize's scales / sizes permuted.
  void RemapAxes(ir::Node* n, Role role) {
    if (role == Role::kConcat) {
      const int64_t axis = n->attrs().GetInt("axis", 0);
      n->attrs().Set("axis", NHWCAxis(axis < 0 ? axis + 4 : axis));
    } else if (role == Role::kReduce && n->attrs().Has("axes")) {
      n->attrs().Set("axes", NHWCAxes(n->attrs().GetInts("axes")));
    } else if (role == Role::kSlice) {
      std::vector<int64_t> axes;
      if (n->input(3) != nullptr) {
        const std::span<const int64_t> v = n->input(3)->data<int64_t>();
        axes.assign(v.begin(), v.end());
      } else {
        for (int64_t i = 0; i < ir::NumElements(n->input(1)->shape()); ++i) axes.push_back(i);
      }
      const std::vector<int64_t> remapped = NHWCAxes(axes);
      g_.SetNodeInput(n, 3,
                      g_.AddConstant<int64_t>(g_.UniqueName(n->name() + ".axes_nhwc"),
                                              {static_cast<int64_t>(remapped.size())}, remapped));
    } else if (role == Role::kResize) {
      for (size_t i = 2; i < 4; ++i) {
        if (n->input(i) != nullptr) g_.SetNodeInput(n, i, PermutedPerAxis(g_, *n->input(i)));
      }
    }
  }

  void RewriteConverted(ir::Node* n) {
    if (IsTransposeBackFromNHWC(*n)) {  // kept for readers wanting NCHW; erased if none does
      alias_[n->output(0)] = n->input(0);
      return;
    }
    const Role role = RoleOf(n->kind());
    const size_t data_inputs = n->num_inputs();  // Slice's axes input may be added below
    for (size_t i = 0; i < data_inputs; ++i) {
      ir::Tensor* t = n->input(i);
      if (t == nullptr) continue;
      const bool data_input = i == 0 || role == Role::kElementwise || role == Role::kConcat;
      if (role == Role::kPad && i == 1) {
        g_.SetNodeInput(n, i, PermutedPads(g_, *t));
      } else if (!data_input) {
        continue;  // weights, BN parameters, pad value: layout-independent
      } else if (t->is_constant()) {
        g_.SetNodeInput(n, i, PermutedConstant(g_, *t));
      } else {
        g_.SetNodeInput(n, i, NHWCVersion(t));
      }
    }
    RemapAxes(n, role);
  }

  void RewriteReader(ir::Node* n) {
    for (size_t i = 0; i < n->num_inputs(); ++i) {
      ir::Tensor* t = n->input(i);
      if (t == nullptr || !converted_.count(t)) continue;
      auto alias = alias_.find(t);
      if (ReadsSameOrder(*n, *t)) {
        if (alias != alias_.end()) g_.SetNodeInput(n, i, alias->second);
        continue;
      }
      if (alias != alias_.end()) continue;  // its own Transpose computes the NCHW value
      if (i == 0 && PermuteGemmWeights(g_, *n, *t)) continue;
      g_.SetNodeInput(n, i, NCHWVersion(t));
    }
  }

  ir::Tensor* NHWCVersion(ir::Tensor* t) {
    if (auto a = alias_.find(t); a != alias_.end()) return a->second;
    if (converted_.count(t) || t->layout() == ir::Layout::kNHWC) return t;
    ir::Tensor*& v = to_nhwc_[t];
    if (v == nullptr) v = NewTranspose(t, kToNHWC, g_.UniqueName(t->name() + "_nhwc"));
    return v;
  }

  ir::Tensor* NCHWVersion(ir::Tensor* t) {
    if (alias_.count(t)) return t;  // still computed by its own Transpose
    ir::Tensor*& v = to_nchw_[t];
    if (v == nullptr) v = NewTranspose(t, kToNCHW, g_.UniqueName(t->name() + "_nchw"));
    return v;
  }

  ir::Tensor* NewTranspose(ir::Tensor* t, const std::vector<int64_t>& perm,
                           const std::string& out) {
    ++transposes_;
    ir::Attributes attrs;
    attrs.Set("perm", perm);
    return g_.AddNode(ir::OpKind::kTranspose, "layout." + out, {t}, {out}, attrs)->output(0);
  }

  ir::Graph& g_;
  std::unordered_set<const ir::Node*> converted_nodes_;
  std::unordered_set<const ir::Tensor*> converted_;
  std::unordered_map<const ir::Tensor*, ir::Tensor*> to_nhwc_, to_nchw_;
  std::unordered_map<const ir::Tensor*, ir::Tensor*> alias_;  // NHWC values of Transposes back
  int64_t transposes_ = 0;
};

}  // namespace

Status ConvertLayoutNHWC(ir::Graph& graph, PassContext& ctx) {
  LayoutConverter converter(graph);
  converter.Plan();
  const int64_t nodes = converter.Rewrite();
  if (nodes == 0) return Status::Ok();  // no 4-D activations: nothing to do
  ctx.Count("convert-layout.nodes", nodes);
  ctx.Count("convert-layout.transposes-inserted", converter.transposes());
  ctx.Count("convert-layout.transposes-merged", ComposeTransposes(graph));
  graph.RemoveUnusedTensors();
  NPU_TRY(graph.SortTopologically());
  PassContext retype;
  return InferShapes(graph, retype);
}

}  // namespace npu::compiler::passes
