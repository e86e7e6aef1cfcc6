// Fusions into the NPU's compound ops (one convolution or addition with its bias and activation
// in a single pass over the data):
//   FuseConvActivation: Conv [-> Add(per-channel constant)] [-> Relu | Clip(0,6) | Clip(0,inf)]
//     becomes one FusedConv {activation = none | relu | relu6}; the Add folds into the bias.
//     Every Conv becomes a FusedConv, so later stages see one convolution op.
//   FuseAddActivation: Add -> Relu | Clip(0,6) becomes FusedAdd {activation}.
// Each step requires the intermediate result to have no other reader (and not be a graph
// output); the node is rewritten in place so the order stays topological.
#include "compiler/interp/op_util.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// The per-output-channel values of `add`'s other operand if it is a constant that broadcasts
// along `conv_out`'s channel axis only, e.g. [C,1,1] or [1,C,1,1] for NCHW, [C] for NHWC.
std::optional<std::vector<float>> ChannelBias(const ir::Node& add, const ir::Tensor* conv_out) {
  if (add.kind() != ir::OpKind::kAdd || add.num_inputs() != 2) return std::nullopt;
  const ir::Tensor* other = add.input(0) == conv_out ? add.input(1) : add.input(0);
  if (other == conv_out || conv_out->shape().size() != 4) return std::nullopt;
  std::optional<std::vector<float>> values = FloatConstant(other);
  if (!values || other->shape().size() > 4) return std::nullopt;
  const interp::Act4D a = interp::ActDims(interp::TensorRef::TypeOnly(*conv_out));
  ir::Shape padded = other->shape();
  padded.insert(padded.begin(), 4 - padded.size(), 1);
  if (padded != interp::ActShape(1, a.c, 1, 1, a.nhwc)) return std::nullopt;
  return values;
}

// Absorbs a following per-channel Add into `conv`'s bias; returns whether it did.
bool AbsorbBias(ir::Graph& g, ir::Node* conv) {
  ir::Node* add = SoleUser(g, conv->output(0));
  if (add == nullptr) return false;
  const std::optional<std::vector<float>> extra = ChannelBias(*add, conv->output(0));
  if (!extra || !CanReplace(g, *add, conv->output(0))) return false;
  const size_t out_c = extra->size();
  std::vector<float> bias(out_c, 0.0f);
  if (conv->input(2) != nullptr) {
    const std::optional<std::vector<float>> old = FloatConstant(conv->input(2));
    if (!old) return false;
    bias = *old;
  }
  for (size_t c = 0; c < out_c; ++c) bias[c] += (*extra)[c];
  const std::string name = g.UniqueName(conv->output(0)->name() + ".bias");
  g.SetNodeInput(conv, 2, g.AddConstant(name, {static_cast<int64_t>(out_c)}, bias));
  ReplaceNode(g, add, conv->output(0));
  return true;
}

// Absorbs a following Relu / Clip(0,6) into `node` (FusedConv or FusedAdd): "none" if none.
std::string AbsorbActivation(ir::Graph& g, ir::Node* node) {
  ir::Node* act = SoleUser(g, node->output(0));
  if (act == nullptr) return "none";
  const std::optional<std::string> name = ActivationName(*act);
  if (!name || !CanReplace(g, *act, node->output(0))) return "none";
  ReplaceNode(g, act, node->output(0));
  return *name;
}

}  // namespace

Status FuseConvActivation(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* conv : graph.NodesOfKind(ir::OpKind::kConv)) {
    if (AbsorbBias(graph, conv)) ctx.Count("fuse-conv-activation.bias");
    const std::string activation = AbsorbActivation(graph, conv);
    conv->set_kind(ir::OpKind::kFusedConv);
    conv->attrs().Set("activation", activation);
    ctx.Count("fuse-conv-activation." + activation);
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

Status FuseAddActivation(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* add : graph.NodesOfKind(ir::OpKind::kAdd)) {
    if (add->output(0)->dtype() != ir::DType::kFloat32) continue;
    const std::string activation = AbsorbActivation(graph, add);
    if (activation == "none") continue;  // a plain Add stays an Add
    add->set_kind(ir::OpKind::kFusedAdd);
    add->attrs().Set("activation", activation);
    ctx.Count("fuse-add-activation." + activation);
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
