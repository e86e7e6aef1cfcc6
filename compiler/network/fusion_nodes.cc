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

Tensor* RowSlice(ir::Graph& g, Tensor* x, int64_t r0, int64_t r1, const std::string& tag) {
  ir::Attributes slice;
  slice.Set("starts", std::vector<int64_t>{0, r0, 0, 0});
  slice.Set("steps", std::vector<int64_t>{1, 1, 1, 1});
  Node* cut = g.AddNode(OpKind::kSlice, g.UniqueName(x->name() + tag), {x},
                        {g.UniqueName(x->name() + tag)}, std::move(slice));
  return OutputLike(cut, x, {1, r1 - r0, x->shape()[2], x->shape()[3]});
}

std::optional<std::pair<int64_t, int64_t>> RowsSliced(const Node& n) {
  if (n.kind() != OpKind::kSlice || !IsImage(n.input(0))) return std::nullopt;
  const ir::Shape &in = n.input(0)->shape(), &out = n.output(0)->shape();
  const std::vector<int64_t> starts = n.attrs().GetInts("starts", {});
  const std::vector<int64_t> steps = n.attrs().GetInts("steps", {});
  if (starts.size() != 4 || steps != std::vector<int64_t>{1, 1, 1, 1} || starts[0] != 0 ||
      starts[2] != 0 || starts[3] != 0 || out.size() != 4 || out[0] != 1 || out[2] != in[2] ||
      out[3] != in[3]) {
    return std::nullopt;
  }
  return std::pair{starts[1], starts[1] + out[1]};
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
