// Nodes of fused layer groups (fusion_nodes.h).
#include "compiler/network/fusion_nodes.h"

#include <string>
#include <utility>
#include <vector>

namespace npu::compiler {

using ir::Node;
using ir::OpKind;
using ir::Tensor;

bool IsImage(const Tensor* t) {
  return t != nullptr && t->dtype() == ir::DType::kInt8 && t->layout() == ir::Layout::kNHWC &&
         t->shape().size() == 4 && t->shape()[0] == 1;
}

int64_t ImageBytes(const Tensor* t) { return ir::NumElements(t->shape()); }

int64_t QuarterOfSram(const spec::NpuConfig& config) {
  return int64_t{config.sram().size_bytes()} / 4;
}

bool IsImageConv(const Node& n) {
  return n.kind() == OpKind::kFusedConv && n.num_inputs() >= 2 &&
         n.attrs().GetInts("kernel_shape", {}).size() == 2 && IsImage(n.input(0)) &&
         IsImage(n.output(0));
}

bool IsDepthwiseConv(const Node& n) {
  if (!IsImageConv(n)) return false;
  const int64_t c = n.input(0)->shape()[3];
  return c > 1 && n.attrs().GetInt("group", 1) == c && n.output(0)->shape()[3] == c;
}

bool IsTable(const Node& n, Tables tables) {
  if (n.kind() == OpKind::kLut) return true;
  return tables == Tables::kPerPixel && n.kind() == OpKind::kLayerNormalization &&
         IsImage(n.input(0)) && IsImage(n.output(0)) && n.attrs().GetInt("axis", -1) == 3;
}

Node* ConvWriting(const ir::Graph& g, const Tensor* t, Node** table, Tables tables) {
  Node* p = t->producer();
  Node* lut = nullptr;
  if (p != nullptr && IsTable(*p, tables)) {
    const Tensor* in = p->input(0);
    if (in->users().size() != 1 || g.IsGraphOutput(in)) return nullptr;
    lut = p;
    p = in->producer();
  }
  if (p == nullptr || !IsImageConv(*p)) return nullptr;
  if (table != nullptr) *table = lut;
  return p;
}

Node* TableAfter(const ir::Graph& g, const Node& conv, Tables tables) {
  const Tensor* y = conv.output(0);
  if (!IsImageConv(conv) || y->users().size() != 1 || g.IsGraphOutput(y)) return nullptr;
  Node* u = y->users()[0];
  return IsTable(*u, tables) ? u : nullptr;
}

Tensor* OutputLike(Node* node, const Tensor* model, ir::Shape shape) {
  Tensor* t = node->output(0);
  t->set_dtype(model->dtype());
  t->set_layout(model->layout());
  t->set_shape(std::move(shape));
  t->quant() = model->quant();
  return t;
}

void ReplaceByConcat(ir::Graph& g, Tensor* y, const std::vector<Tensor*>& parts, int64_t axis,
                     const Node& named_after, const std::string& tag,
                     const std::vector<Node*>& erased) {
  ir::Attributes concat;
  concat.Set("axis", axis);
  Node* joined = g.AddNode(OpKind::kConcat, g.UniqueName(named_after.name() + tag), parts,
                           {g.UniqueName(y->name() + tag)}, std::move(concat));
  ReplaceByOutputOf(g, y, joined, erased);
}

Tensor* ReplaceByOutputOf(ir::Graph& g, Tensor* y, Node* node, const std::vector<Node*>& erased) {
  Tensor* out = OutputLike(node, y, y->shape());
  const std::string name = y->name();
  g.ReplaceAllUsesWith(y, out);
  for (Node* n : erased) g.EraseNode(n);
  g.RemoveUnusedTensors();
  g.RenameTensor(out, name);
  return out;
}

}  // namespace npu::compiler
