// Row strips (row_strips.h).
#include "compiler/network/row_strips.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace npu::compiler {
namespace {

using ir::Node;
using ir::OpKind;
using ir::Tensor;

// An int8 NHWC [1, H, W, C] activation.
bool IsImage(const Tensor* t) {
  return t != nullptr && t->dtype() == ir::DType::kInt8 && t->layout() == ir::Layout::kNHWC &&
         t->shape().size() == 4 && t->shape()[0] == 1;
}

// What a strip's intermediate may take: the rest is for the layers' other operands.
int64_t QuarterOfSram(const spec::NpuConfig& config) {
  return int64_t{config.sram().size_bytes()} / 4;
}

int64_t Bytes(const Tensor* t) { return ir::NumElements(t->shape()); }

// A 1x1, stride-1, unpadded convolution: its output rows are its input rows one to one.
bool IsPointwise(const Node& n) {
  const ir::Attributes& a = n.attrs();
  const std::vector<int64_t> k = a.GetInts("kernel_shape", {}), s = a.GetInts("strides", {1, 1}),
                             p = a.GetInts("pads", {0, 0, 0, 0});
  return n.kind() == OpKind::kFusedConv && k == std::vector<int64_t>{1, 1} &&
         s == std::vector<int64_t>{1, 1} &&
         std::all_of(p.begin(), p.end(), [](int64_t v) { return v == 0; });
}

// A residual join: the sum of two images of the output's shape.
bool IsJoin(const Node& n) {
  if ((n.kind() != OpKind::kFusedAdd && n.kind() != OpKind::kAdd) || n.num_inputs() != 2) {
    return false;
  }
  const Tensor* y = n.output(0);
  return IsImage(y) && n.input(0) != n.input(1) &&
         std::all_of(n.inputs().begin(), n.inputs().end(),
                     [&](const Tensor* t) { return IsImage(t) && t->shape() == y->shape(); });
}

// The consumers a strip ends in: a convolution, or a residual join.
bool IsStripConsumer(const Node& n) {
  return (n.kind() == OpKind::kFusedConv && n.num_inputs() >= 2) || IsJoin(n);
}

// The consumer's operand a strip's producer writes: a convolution's input; a join's first
// operand written by a pointwise convolution (the other is sliced to the strip's rows). -1 if
// none.
int StripOperand(const Node& consumer) {
  if (consumer.kind() == OpKind::kFusedConv) return 0;
  for (int i = 0; i < 2; ++i) {
    const Node* p = consumer.input(i)->producer();
    if (p != nullptr && IsPointwise(*p)) return i;
  }
  return -1;
}

// The producer -> consumer pairs to split: the producer pointwise, its output (too large)
// read only by the consumer.
bool Eligible(const ir::Graph& g, const Node& consumer, int64_t limit) {
  if (!IsStripConsumer(consumer)) return false;
  const int operand = StripOperand(consumer);
  if (operand < 0) return false;
  const Tensor* t = consumer.input(operand);
  const Node* producer = t->producer();
  return producer != nullptr && IsPointwise(*producer) && IsImage(t) &&
         IsImage(producer->input(0)) && IsImage(consumer.output(0)) && t->users().size() == 1 &&
         !g.IsGraphOutput(t) && Bytes(t) > limit;
}

Tensor* Like(Node* node, const Tensor* model, ir::Shape shape) {
  Tensor* t = node->output(0);
  t->set_dtype(model->dtype());
  t->set_layout(model->layout());
  t->set_shape(std::move(shape));
  t->quant() = model->quant();
  return t;
}

// What a strip's intermediate may take: a join's strip holds two more tensors of its size (the
// residual's rows and the sum) where a convolution's output is mostly smaller, so a third of
// a convolution's. Measured (full-size exports, default config, --timing-only): resnet50
// 4,561,766 cycles with a join's strips as large as a convolution's, 4,520,247 at half,
// 4,477,101 at a third, 4,489,463 at a quarter; resnext50_32x4d 5,599,569, 5,515,385,
// 5,491,102, 5,508,010; wide_resnet50_2 11,992,648, 11,956,369, 11,949,394, 12,005,941.
int64_t StripLimit(const Node& consumer, int64_t limit) {
  return IsJoin(consumer) ? limit / 3 : limit;
}

// The consumer's output rows per strip such that a strip's intermediate rows, its windows' halo
// included, take at most `limit` bytes (at least one row).
int64_t StripRows(const Node& consumer, int64_t limit) {
  const Tensor* t = consumer.input(StripOperand(consumer));
  const ir::Attributes& a = consumer.attrs();
  const int64_t k = a.GetInts("kernel_shape", {1, 1})[0], s = a.GetInts("strides", {1, 1})[0],
                d = a.GetInts("dilations", {1, 1})[0];
  const int64_t row_bytes = t->shape()[2] * t->shape()[3];
  const int64_t rows = limit / row_bytes;  // intermediate rows that fit
  return std::max<int64_t>(1, (rows - (k - 1) * d - 1) / s + 1);
}

// Rows [r0, r1) of the image `x`: a view.
Tensor* RowSlice(ir::Graph& g, Tensor* x, int64_t r0, int64_t r1, const std::string& tag) {
  ir::Attributes slice;
  slice.Set("starts", std::vector<int64_t>{0, r0, 0, 0});
  slice.Set("steps", std::vector<int64_t>{1, 1, 1, 1});
  Node* cut = g.AddNode(OpKind::kSlice, g.UniqueName(x->name() + tag), {x},
                        {g.UniqueName(x->name() + tag)}, std::move(slice));
  return Like(cut, x, {1, r1 - r0, x->shape()[2], x->shape()[3]});
}

// Replaces producer -> consumer by strips of `rows` of the consumer's output rows.
RowStripGroup Split(ir::Graph& g, Node* producer, Node* consumer, int64_t rows) {
  RowStripGroup group{producer->name(), consumer->name(), rows, {}};
  const int operand = StripOperand(*consumer);
  const bool join = IsJoin(*consumer);
  Tensor* x = producer->input(0);
  Tensor* t = consumer->input(operand);
  Tensor* y = consumer->output(0);
  const ir::Attributes& ca = consumer->attrs();  // a join has none: a 1x1 window
  const std::vector<int64_t> k = ca.GetInts("kernel_shape", {1, 1}),
                             s = ca.GetInts("strides", {1, 1}), d = ca.GetInts("dilations", {1, 1}),
                             p = ca.GetInts("pads", {0, 0, 0, 0});
  const int64_t h = t->shape()[1], out_h = y->shape()[1];
  std::vector<Tensor*> parts;
  for (int64_t o0 = 0, i = 0; o0 < out_h; o0 += rows, ++i) {
    const int64_t o1 = std::min(out_h, o0 + rows);
    // The intermediate rows the strip's windows cover, clipped to the image: the clipped part
    // is the strip's padding.
    const int64_t r0 = o0 * s[0] - p[0], r1 = (o1 - 1) * s[0] - p[0] + (k[0] - 1) * d[0] + 1;
    const int64_t a0 = std::max<int64_t>(0, r0), a1 = std::min(h, r1);
    const std::string tag = fmt::format("#strip{}", i);
    std::vector<Tensor*> in = producer->inputs();
    in[0] = RowSlice(g, x, a0, a1, tag);
    Node* expand = g.AddNode(OpKind::kFusedConv, g.UniqueName(producer->name() + tag), in,
                             {g.UniqueName(t->name() + tag)}, producer->attrs());
    Tensor* ts = Like(expand, t, {1, a1 - a0, t->shape()[2], t->shape()[3]});
    ir::Attributes attrs = consumer->attrs();
    in = consumer->inputs();
    in[operand] = ts;
    if (join) {
      in[1 - operand] = RowSlice(g, in[1 - operand], o0, o1, tag);
    } else {
      attrs.Set("pads", std::vector<int64_t>{a0 - r0, p[1], r1 - a1, p[3]});
    }
    Node* part = g.AddNode(consumer->kind(), g.UniqueName(consumer->name() + tag), in,
                           {g.UniqueName(y->name() + tag)}, std::move(attrs));
    parts.push_back(Like(part, y, {1, o1 - o0, y->shape()[2], y->shape()[3]}));
    group.strips.emplace_back(expand->name(), part->name());
  }
  ir::Attributes concat;
  concat.Set("axis", int64_t{1});
  Node* joined = g.AddNode(OpKind::kConcat, g.UniqueName(consumer->name() + "#strips"), parts,
                           {g.UniqueName(y->name() + "#strips")}, std::move(concat));
  Tensor* whole = Like(joined, y, y->shape());
  const std::string name = y->name();
  g.ReplaceAllUsesWith(y, whole);
  g.EraseNode(consumer);
  g.EraseNode(producer);
  g.RemoveUnusedTensors();
  g.RenameTensor(whole, name);
  return group;
}

}  // namespace

std::vector<RowStripPair> RowStripPairs(const spec::NpuConfig& config, const ir::Graph& g) {
  const int64_t limit = QuarterOfSram(config);
  std::vector<RowStripPair> pairs;
  for (const Node* consumer : g.nodes()) {
    if (!Eligible(g, *consumer, limit)) continue;
    // As many rows as fit (evening the strips out measured slower on mobilenet_v2: 555,638
    // against 553,796 cycles).
    pairs.push_back({consumer->name(), consumer->output(0)->shape()[1],
                     StripRows(*consumer, StripLimit(*consumer, limit))});
  }
  return pairs;
}

StatusOr<std::vector<RowStripGroup>> SplitRowStrips(
    const spec::NpuConfig& config, ir::Graph& g, const std::map<std::string, int64_t>& strip_rows) {
  const int64_t limit = QuarterOfSram(config);
  std::map<std::string, Node*> consumers;
  for (Node* n : g.nodes()) {
    if (IsStripConsumer(*n)) consumers[n->name()] = n;
  }
  std::set<std::string> erased;  // a split pair's two nodes
  std::vector<RowStripGroup> split;
  for (const RowStripPair& pair : RowStripPairs(config, g)) {
    const auto chosen = strip_rows.find(pair.consumer);
    const int64_t rows = chosen != strip_rows.end() ? chosen->second : pair.default_rows;
    if (rows <= 0 || rows >= pair.out_rows) continue;  // one strip: nothing to split
    // A pointwise consumer split as an earlier pair's is gone; its consumer, if it was a pair
    // too, now reads the strips' concatenation.
    if (erased.contains(pair.consumer)) continue;
    Node* consumer = consumers.at(pair.consumer);
    if (!Eligible(g, *consumer, limit)) continue;
    Node* producer = consumer->input(StripOperand(*consumer))->producer();
    erased.insert({producer->name(), consumer->name()});
    split.push_back(Split(g, producer, consumer, rows));
  }
  if (!split.empty()) NPU_TRY(g.SortTopologically());
  return split;
}

}  // namespace npu::compiler
