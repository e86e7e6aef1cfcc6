// Row strips (row_strips.h).
#include "compiler/network/row_strips.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "compiler/network/fusion_nodes.h"

namespace npu::compiler {
namespace {

using ir::Node;
using ir::OpKind;
using ir::Tensor;

// A 1x1, stride-1, unpadded convolution: its output rows are its input rows one to one.
bool IsPointwise(const Node& n) {
  const ir::Attributes& a = n.attrs();
  const std::vector<int64_t> k = a.GetInts("kernel_shape", {}), s = a.GetInts("strides", {1, 1}),
                             p = a.GetInts("pads", {0, 0, 0, 0});
  return n.kind() == OpKind::kFusedConv && k == std::vector<int64_t>{1, 1} &&
         s == std::vector<int64_t>{1, 1} &&
         std::all_of(p.begin(), p.end(), [](int64_t v) { return v == 0; });
}

// A window over rows: a convolution's or a pool's (a join's is 1x1).
struct RowWindow {
  int64_t kernel, stride, dilation, pad_top;

  explicit RowWindow(const Node& n) {
    const ir::Attributes& a = n.attrs();
    kernel = a.GetInts("kernel_shape", {1, 1})[0];
    stride = a.GetInts("strides", {1, 1})[0];
    dilation = a.GetInts("dilations", {1, 1})[0];
    pad_top = a.GetInts("pads", {0, 0, 0, 0})[0];
  }
  // The input rows output rows [o0, o1) read, [first, end), padding rows outside [0, h).
  int64_t First(int64_t o0) const { return o0 * stride - pad_top; }
  int64_t End(int64_t o1) const {
    return (o1 - 1) * stride - pad_top + (kernel - 1) * dilation + 1;
  }
};

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

// A product of an image and a per-channel scale of shape [1, 1, 1, C] computed by the network (a
// squeeze-and-excitation's): each output row is its image's row scaled, so a strip slices the
// image's rows and reads the scale whole.
bool IsChannelScaling(const Node& n) {
  if (n.kind() != OpKind::kMul || n.num_inputs() != 2 || !IsImage(n.output(0))) return false;
  const ir::Shape& y = n.output(0)->shape();
  for (int i = 0; i < 2; ++i) {
    if (n.input(i)->shape() == y && n.input(1 - i)->shape() == ir::Shape{1, 1, 1, y[3]}) {
      return IsImage(n.input(i));
    }
  }
  return false;
}

// The attributes of a node like `n` computing its output rows [o0, o1) from the input rows
// RowWindow says, clipped to the input's `h` rows: the clipped part becomes padding.
ir::Attributes StripAttributes(const Node& n, int64_t o0, int64_t o1, int64_t h) {
  const RowWindow w(n);
  ir::Attributes attrs = n.attrs();
  if (IsJoin(n) || IsChannelScaling(n)) return attrs;  // no window
  std::vector<int64_t> p = attrs.GetInts("pads", {0, 0, 0, 0});
  p[0] = std::max<int64_t>(0, -w.First(o0));
  p[2] = std::max<int64_t>(0, w.End(o1) - h);
  attrs.Set("pads", p);
  return attrs;
}

// The consumers a strip ends in: a convolution, a max pool, or a residual join.
bool IsStripConsumer(const Node& n) {
  return IsImageConv(n) || (n.kind() == OpKind::kMaxPool && IsImage(n.input(0))) || IsJoin(n);
}

// The consumer's operand a strip's producer writes: a convolution's or pool's input; a join's
// first operand written by a convolution (the other is sliced to the strip's rows). -1 if none.
int StripOperand(const ir::Graph& g, const Node& consumer) {
  if (!IsJoin(consumer)) return 0;
  for (int i = 0; i < 2; ++i) {
    if (ConvWriting(g, consumer.input(i), nullptr, Tables::kPerPixel) != nullptr) return i;
  }
  return -1;
}

// The operand of a chain's first node whose rows a strip slices: a convolution's input, a
// scaling's image, a join's strip operand (its other operand is sliced, or computed: Split).
int RowOperand(const ir::Graph& g, const Node& first) {
  if (IsJoin(first)) return std::max(0, StripOperand(g, first));
  return IsChannelScaling(first) && first.input(0)->shape() != first.output(0)->shape();
}

// The node writing the consumer's operand a strip's producer writes: a convolution (or a table
// over one, `*table`); for a convolution consumer, a channel scaling (lraspp's
// squeeze-and-excitation products, 33x33x960, read by each block's projection) or a residual
// join (a bottleneck's sum, read by the next block's first convolution and its join). Null if
// none of these.
Node* StripProducer(const ir::Graph& g, const Node& consumer, Node** table = nullptr) {
  const Tensor* t = consumer.input(StripOperand(g, consumer));
  if (Node* conv = ConvWriting(g, t, table, Tables::kPerPixel)) return conv;
  Node* p = t->producer();
  if (!IsImageConv(consumer) || p == nullptr || !(IsChannelScaling(*p) || IsJoin(*p))) {
    return nullptr;
  }
  if (table != nullptr) *table = nullptr;
  return p;
}

// The residual join reading `t` besides `consumer`, if `t` has just these two readers and the
// join ends the run of single-reader layers from `consumer` (at most kMaxResidualPath of them,
// tables aside) as its strip operand, its other operand `t` itself: an inverted residual whose
// block input is the output of the layer before (lraspp's and mobilenet_v3's first block, after
// the 3x3 stride-2 stem). A chain through the run computes the join's rows of `t` anyway.
constexpr int kMaxResidualPath = 4;
const Node* ResidualJoin(const ir::Graph& g, const Tensor& t, const Node& consumer) {
  if (t.users().size() != 2) return nullptr;
  const Node* join = t.users()[0] == &consumer ? t.users()[1] : t.users()[0];
  if (join == &consumer || !IsJoin(*join)) return nullptr;
  const Node* n = &consumer;
  for (int step = 0; step < kMaxResidualPath;) {
    const Tensor* y = n->output(0);
    if (y->users().size() != 1 || g.IsGraphOutput(y)) return nullptr;
    n = y->users()[0];
    if (IsTable(*n, Tables::kPerPixel)) continue;
    if (n == join) return join->input(1 - StripOperand(g, *join)) == &t ? join : nullptr;
    ++step;
  }
  return nullptr;
}

// The global average pool reading `t` whole besides `consumer`, if `t` has just these two
// readers: a chain's strips each add their new rows of `t` to the pool's sums (a pool sum) and a
// pool mean of the sums replaces it (ir::OpKind::kPoolSum, kPoolMean; POOL's sum and
// mean-of-sums modes, docs/isa.md), so `t` need not be whole anywhere. lraspp's backbone output
// (33x33x960, 1.05 MB), which its classifier pools and reads with a 1x1, went to DRAM whole.
// Not if `consumer` or `later` (chain nodes after it) read what the pool computes: their strips
// would wait for the mean, which waits for every strip.
Node* PoolBeside(const ir::Graph& g, const Tensor& t, const Node& consumer,
                 std::span<Node* const> later = {}) {
  if (t.users().size() != 2 || g.IsGraphOutput(&t)) return nullptr;
  Node* pool = t.users()[0] == &consumer ? t.users()[1] : t.users()[0];
  if (pool == &consumer || pool->kind() != OpKind::kGlobalAveragePool) return nullptr;
  std::set<const Node*> fed;  // every node reading the pool's output, directly or not
  std::vector<const Node*> todo = {pool};
  while (!todo.empty()) {
    const Node* n = todo.back();
    todo.pop_back();
    for (const Node* u : n->output(0)->users()) {
      if (fed.insert(u).second) todo.push_back(u);
    }
  }
  const bool waits =
      fed.contains(&consumer) ||
      std::any_of(later.begin(), later.end(), [&](Node* n) { return fed.contains(n); });
  return waits ? nullptr : pool;
}

// The layers from each consumer whose strip operand a residual join reads too (ResidualJoin)
// to that join, tables aside: the pairs they end are split by default whatever their producer,
// since only a chain of them all keeps the residual off DRAM (lraspp's 260x260x16 stem output,
// its first block's depthwise output and the sum, and likewise its third block's input:
// 3,197,261 -> 3,033,073 cycles, DRAM 44.1 -> 35.5 MB; full-size export, default config,
// --timing-only --no-tuning).
std::set<const Node*> ResidualPaths(const ir::Graph& g, int64_t limit) {
  std::set<const Node*> path;
  for (const Node* consumer : g.nodes()) {
    if (!IsStripConsumer(*consumer) || StripOperand(g, *consumer) < 0) continue;
    const Tensor* t = consumer->input(StripOperand(g, *consumer));
    const Node* join = ResidualJoin(g, *t, *consumer);
    if (join == nullptr || ImageBytes(t) <= limit) continue;
    for (const Node* n = consumer; n != join; n = n->output(0)->users()[0]) path.insert(n);
    path.insert(join);
  }
  return path;
}

// Whether `n` concatenates images along their channels.
bool IsChannelConcat(const Node& n) {
  return n.kind() == OpKind::kConcat && IsImage(n.output(0)) && n.attrs().GetInt("axis", 0) == 3;
}

// The bytes of the largest concatenation of channels that `t` is, is read by, or shares its
// first input with: the buffer concat_placement.h lays `t` in (DenseNet's layers each read the
// concatenation of the block so far, a prefix of the block's last one, and write a slice of it).
int64_t ConcatBytesBeside(const Tensor& t) {
  const Node* p = t.producer();
  const bool concat = p != nullptr && IsChannelConcat(*p);
  int64_t bytes = concat ? ImageBytes(&t) : 0;
  for (const Tensor* part : {&t, concat ? p->input(0) : &t}) {
    for (const Node* user : part->users()) {
      if (IsChannelConcat(*user)) bytes = std::max(bytes, ImageBytes(user->output(0)));
    }
  }
  return bytes;
}

// The concatenation a pair's strips run beside (StripOptions::beside_concats): the largest its
// producer reads or its consumer writes a part of, if smaller than the SRAM; else 0.
int64_t ConcatBesidePair(const spec::NpuConfig& config, const Node& producer,
                         const Node& consumer) {
  const int64_t bytes =
      std::max(ConcatBytesBeside(*producer.input(0)), ConcatBytesBeside(*consumer.output(0)));
  return bytes < int64_t{config.sram().size_bytes()} ? bytes : 0;
}

// The bytes of a node's constants (a convolution's weights and biases).
int64_t ConstantBytes(const Node& n) {
  int64_t bytes = 0;
  for (const Tensor* t : n.inputs()) {
    if (t->is_constant()) bytes += int64_t(t->bytes().size());
  }
  return bytes;
}

// A chain goes on through a residual join into the next block only while its constants (which
// its strips hold on chip: held_constants.h) take at most this many times what an
// intermediate may: resnet50's layer1 chain holds 0.17 MB, where one through all of layer2 held
// 1.1 MB and reloaded them (+2.9 MB of DRAM traffic, +186,000 cycles; full-size export, default
// config, --timing-only --no-tuning).
constexpr int64_t kMaxChainConstants = 1;

// Whether a pair's constants are too many for its strips to hold (more than a chain may hold:
// kMaxChainConstants), so that every strip after the first LOADs them again. Such a pair is split
// only as a tuning says: convnext_tiny's stage-2 and stage-3 Linear pairs (0.3 and 1.2 MB of
// weights; 28x28x768 and 14x14x1536 intermediates, which stay on chip unsplit) took 4,820,588
// cycles and 32.0 MB of DRAM traffic split, 4,778,899 and 30.0 MB whole, with stage 1's blocks
// in strips either way; resnext50_32x4d 4,529,073 -> 4,522,744 cycles (full-size exports,
// default config, --timing-only --no-tuning).
// A pair whose intermediate a global pool reads too (PoolBeside) may hold up to twice that, half
// the SRAM: whole, its intermediate goes through DRAM for the pool (lraspp's classifier, whose
// 277 KB of weights stay on chip across its 7 strips in 1 MiB; on `edge`, 256 KiB, they would
// be LOADed by every strip: 12 % more DRAM traffic than its channel groups).
bool ConstantsReloadedByEveryStrip(const ir::Graph& g, const Node& producer,
                                   const Node& consumer, int64_t limit) {
  const int64_t pooled = PoolBeside(g, *consumer.input(StripOperand(g, consumer)), consumer)
                             ? 2
                             : 1;
  return ConstantBytes(producer) + ConstantBytes(consumer) > pooled * kMaxChainConstants * limit;
}

// The producer -> consumer pairs to split: the producer a StripProducer, its output read only
// by the consumer, or by it and a residual join (ResidualJoin) that a chain through the consumer
// must then end in; the output too large, or on a residual path (which only a chain of all its
// pairs keeps off DRAM: a bottleneck's 56x56x64 intermediates on the way from one block's sum
// to the next block's).
bool Eligible(const ir::Graph& g, const Node& consumer, int64_t limit,
              const std::set<const Node*>& residual_path) {
  if (!IsStripConsumer(consumer)) return false;
  const int operand = StripOperand(g, consumer);
  if (operand < 0) return false;
  const Tensor* t = consumer.input(operand);
  return StripProducer(g, consumer) != nullptr && IsImage(consumer.output(0)) && IsImage(t) &&
         (t->users().size() == 1 || ResidualJoin(g, *t, consumer) != nullptr ||
          PoolBeside(g, *t, consumer) != nullptr) &&
         !g.IsGraphOutput(t) && (ImageBytes(t) > limit || residual_path.contains(&consumer));
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
int64_t StripRows(const ir::Graph& g, const Node& consumer, int64_t limit) {
  const Tensor* t = consumer.input(StripOperand(g, consumer));
  const RowWindow w(consumer);
  const int64_t row_bytes = t->shape()[2] * t->shape()[3];
  const int64_t rows = limit / row_bytes;  // intermediate rows that fit
  return std::max<int64_t>(1, (rows - (w.kernel - 1) * w.dilation - 1) / w.stride + 1);
}

// The intermediate rows strips of `rows` of the consumer's output rows compute in all, over the
// intermediate's rows: 1 if the consumer's windows do not overlap, more as strips compute the
// rows their windows share (the halo) twice.
double RecomputeFactor(const ir::Graph& g, const Node& consumer, int64_t rows) {
  const Tensor* t = consumer.input(StripOperand(g, consumer));
  const RowWindow w(consumer);
  const int64_t t_h = t->shape()[1], out_h = consumer.output(0)->shape()[1];
  int64_t computed = 0;
  for (int64_t o0 = 0; o0 < out_h; o0 += rows) {
    const int64_t o1 = std::min(out_h, o0 + rows);
    computed += std::min(t_h, w.End(o1)) - std::max<int64_t>(0, w.First(o0));
  }
  return double(computed) / double(t_h);
}

// A pair whose strips would compute more than this many times the intermediate's rows is split
// only as a tuning says. lraspp's dilated 5x5 depthwise layers at 33x33 (windows of 9 rows; 1
// and 3 output rows a strip) computed 8.4x and 3.4x theirs, where mobilenet_v2's and
// efficientnet's pairs compute at most 1.05x and lraspp's others at most 1.18x; measured, with
// them split by default lraspp took 7,856,889 cycles, without 4,414,915 (full-size export,
// default config, --timing-only --no-tuning).
constexpr double kMaxDefaultRecompute = 1.5;

// A node like `model` reading `in`, named and shaped for a strip: `tag` added, `rows` rows.
Tensor* StripNode(ir::Graph& g, const Node& model, std::vector<Tensor*> in, const std::string& tag,
                  int64_t rows, ir::Attributes attrs) {
  const Tensor* out = model.output(0);
  Node* n = g.AddNode(model.kind(), g.UniqueName(model.name() + tag), std::move(in),
                      {g.UniqueName(out->name() + tag)}, std::move(attrs));
  return OutputLike(n, out, {1, rows, out->shape()[2], out->shape()[3]});
}

// Layers split together: nodes[0] a convolution (or a channel scaling), each next node the
// consumer of the one before's output (through tables[i] after nodes[i], or null), the last a
// strip consumer (tables.back() after it, or null).
struct Chain {
  std::vector<Node*> nodes, tables;
  // Strips keep the rows the next strip's windows read again (their halo) instead of it
  // computing them twice.
  bool keep_halo = false;
  // Per node, a join's other operand's convolution split with it (BranchOf), or null.
  std::vector<Node*> branches;
  // Node i's output after its table, if any.
  Tensor* Output(size_t i) const {
    return (tables[i] != nullptr ? tables[i] : nodes[i])->output(0);
  }
};

// The convolution writing a join's other operand, if it is one whose strips read no rows twice
// (one kernel row) and whose output, read by the join alone, is too large for a quarter of the
// SRAM: its strips compute the join's rows of it from row slices of its own input, so it never
// goes through DRAM either (a bottleneck's downsampling 1x1: resnet50's layer1.0 wrote and read
// back its 56x56x256 output, 1.6 MB of traffic).
Node* BranchOf(const ir::Graph& g, const Node& join, int operand, int64_t limit) {
  const Tensor* t = join.input(1 - operand);
  Node* p = t->producer();
  if (p == nullptr || !IsImageConv(*p) || t->users().size() != 1 || g.IsGraphOutput(t) ||
      ImageBytes(t) <= limit) {
    return nullptr;
  }
  const RowWindow w(*p);
  return w.kernel == 1 && w.stride == 1 ? p : nullptr;
}

// The input rows node `n` reads for its output rows [o0, o1), clipped to its `h` input rows.
std::pair<int64_t, int64_t> InputRows(const Node& n, int64_t o0, int64_t o1, int64_t h) {
  const RowWindow w(n);
  return {std::max<int64_t>(0, w.First(o0)), std::min(h, w.End(o1))};
}

// The operand of chain node i that the node before it writes (a join's other operand is sliced).
int ChainOperand(const ir::Graph& g, const Chain& c, size_t i) {
  return i == 0 ? RowOperand(g, *c.nodes[0]) : StripOperand(g, *c.nodes[i]);
}

// Per node of the chain, the output rows a strip of the last node's output rows [o0, o1)
// computes of it, clipped to its image (the clipped part is the strip's padding): all it needs,
// or with `kept` (per node, its rows [0, kept[i]) that strips before computed and keep) only
// those after: the strip reads the rest (its windows' halo) from the strips before.
using Rows = std::pair<int64_t, int64_t>;
std::vector<Rows> StripRowsOf(const ir::Graph& g, const Chain& c, int64_t o0, int64_t o1,
                              const std::vector<int64_t>* kept = nullptr) {
  std::vector<Rows> rows(c.nodes.size());
  rows.back() = {o0, o1};
  for (size_t i = c.nodes.size() - 1; i > 0; --i) {
    const Node& n = *c.nodes[i];
    rows[i - 1] =
        InputRows(n, rows[i].first, rows[i].second, n.input(ChainOperand(g, c, i))->shape()[1]);
    if (kept != nullptr) {
      rows[i - 1] = {(*kept)[i - 1], std::max((*kept)[i - 1], rows[i - 1].second)};
    }
  }
  return rows;
}

// The rows node i > 0 reads of the node before for its output rows `r`.
Rows ReadRows(const ir::Graph& g, const Chain& c, size_t i, Rows r) {
  const Node& n = *c.nodes[i];
  return InputRows(n, r.first, r.second, n.input(ChainOperand(g, c, i))->shape()[1]);
}

// Per strip of `rows` of the last node's output rows, in order, per node i > 0 of the chain
// (entry i - 1) the bytes of the rows it reads of the intermediate before it (with kept halos,
// the strips before keep theirs).
std::vector<std::vector<int64_t>> StripReadBytes(const ir::Graph& g, const Chain& c, int64_t rows) {
  const int64_t out_h = c.nodes.back()->output(0)->shape()[1];
  std::vector<std::vector<int64_t>> strips;
  std::vector<int64_t> kept(c.nodes.size(), 0);
  for (int64_t o0 = 0; o0 < out_h; o0 += rows) {
    const auto r = StripRowsOf(g, c, o0, std::min(out_h, o0 + rows), c.keep_halo ? &kept : nullptr);
    std::vector<int64_t>& bytes = strips.emplace_back();
    for (size_t i = 1; i < c.nodes.size(); ++i) {
      const ir::Shape& s = c.nodes[i - 1]->output(0)->shape();
      const Rows read = ReadRows(g, c, i, r[i]);
      bytes.push_back((read.second - read.first) * s[2] * s[3]);
    }
    for (size_t i = 0; i < c.nodes.size(); ++i) kept[i] = r[i].second;
  }
  return strips;
}

// Whether strips of `rows` of the last node's output rows keep every intermediate a strip reads
// within its consumer's strip limit (with kept halos, after the first strip, which computes the
// rows the next strips' windows look ahead to as well).
bool ChainFits(const ir::Graph& g, const Chain& c, int64_t rows, int64_t limit) {
  const std::vector<std::vector<int64_t>> strips = StripReadBytes(g, c, rows);
  for (size_t k = c.keep_halo ? 1 : 0; k < strips.size(); ++k) {
    for (size_t i = 1; i < c.nodes.size(); ++i) {
      if (strips[k][i - 1] > StripLimit(*c.nodes[i], limit)) return false;
    }
  }
  return true;
}

// The most output rows per strip of the chain's last node such that, in every strip, the rows
// of the intermediates the chain's nodes read, twice over (a strip's being read while the next
// strip's are written), take at most `budget` bytes; at least one.
int64_t RowsWithin(const ir::Graph& g, const Chain& c, int64_t budget) {
  const auto fits = [&](int64_t rows) {
    for (const std::vector<int64_t>& bytes : StripReadBytes(g, c, rows)) {
      if (2 * std::accumulate(bytes.begin(), bytes.end(), int64_t{0}) > budget) return false;
    }
    return true;
  };
  int64_t rows = c.nodes.back()->output(0)->shape()[1];
  while (rows > 1 && !fits(rows)) --rows;
  return rows;
}

// The most output rows per strip of the chain's last node such that, at each node of every
// strip, what is alive of the chain's intermediates, twice over (a strip's being read while the
// next strip's are written), takes at most `budget` bytes; at least one. Alive at node i: the rows
// it reads of the intermediate before it, those the node after it reads of its output, and the
// rows a later join reads of its other operand, an earlier node's output, waiting for the join
// (as many as it reads of its chain operand: a join's operands are shaped alike). Unlike
// RowsWithin's sum over all of them, a long chain's intermediates are not all alive at once:
// lraspp_mobilenet_v3_large's stem through block 3 (eleven nodes, three residual blocks).
int64_t PeakRowsWithin(const ir::Graph& g, const Chain& c, int64_t budget) {
  const size_t n = c.nodes.size();
  // Per join node j, the earlier node whose output is its other operand (or n: none in the chain).
  std::vector<size_t> skipped(n, n);
  for (size_t j = 1; j < n; ++j) {
    if (!IsJoin(*c.nodes[j])) continue;
    const Tensor* other = c.nodes[j]->input(1 - ChainOperand(g, c, j));
    for (size_t k = 0; k + 1 < j; ++k) {
      if (c.Output(k) == other) skipped[j] = k;
    }
  }
  const auto fits = [&](int64_t rows) {
    // Per strip, entry i - 1: the bytes node i reads of the intermediate before it.
    for (const std::vector<int64_t>& read : StripReadBytes(g, c, rows)) {
      for (size_t i = 1; i < n; ++i) {
        int64_t alive = read[i - 1] + (i + 1 < n ? read[i] : 0);
        for (size_t j = i + 1; j < n; ++j) {
          if (skipped[j] < i) alive += read[j - 1];
        }
        if (2 * alive > budget) return false;
      }
    }
    return true;
  };
  int64_t rows = c.nodes.back()->output(0)->shape()[1];
  while (rows > 1 && !fits(rows)) --rows;
  return rows;
}

// The strip of a join's branch convolution computing the join's rows [r0, r1) of its output.
Tensor* BranchStrip(ir::Graph& g, const Node& branch, int64_t r0, int64_t r1,
                    const std::string& tag) {
  std::vector<Tensor*> in = branch.inputs();
  const int64_t h = in[0]->shape()[1];
  const auto [b0, b1] = InputRows(branch, r0, r1, h);
  in[0] = RowSlice(g, in[0], b0, b1, tag);
  return StripNode(g, branch, in, tag, r1 - r0, StripAttributes(branch, r0, r1, h));
}

// The rows a chain node's strips computed so far, each strip's part with its first row.
using Parts = std::vector<std::pair<int64_t, Tensor*>>;

// Rows [r0, r1) of the parts: one part's, or a view of them, or the concatenation of the views
// of the parts they span (the rows a strip keeps from the strips before, and its own).
Tensor* RowsOf(ir::Graph& g, const Parts& parts, int64_t r0, int64_t r1, const std::string& tag) {
  std::vector<Tensor*> pieces;
  for (const auto& [first, part] : parts) {
    const int64_t end = first + part->shape()[1], a = std::max(r0, first), b = std::min(r1, end);
    if (a >= b) continue;
    pieces.push_back(a == first && b == end ? part : RowSlice(g, part, a - first, b - first, tag));
  }
  int64_t covered = 0;
  for (const Tensor* p : pieces) covered += p->shape()[1];
  NPU_CHECK(covered == r1 - r0);
  if (pieces.size() == 1) return pieces[0];
  const Tensor* model = pieces[0];
  ir::Attributes concat;
  concat.Set("axis", int64_t{1});
  Node* joined = g.AddNode(OpKind::kConcat, g.UniqueName(model->name() + tag + "#rows"), pieces,
                           {g.UniqueName(model->name() + tag + "#rows")}, std::move(concat));
  const ir::Shape& s = model->shape();
  return OutputLike(joined, model, {1, r1 - r0, s[2], s[3]});
}

// Per chain node, its block's lag in strips: with kept halos, the blocks a chain's joins end are
// skewed a strip apart (block b of strip k comes with block 0 of strip k + b), so a block's join
// (on the vector unit) is followed by the next strip's convolutions, which do not wait for it,
// rather than by its own next block's. Without kept halos, all 0.
std::vector<int64_t> Blocks(const Chain& c) {
  std::vector<int64_t> block(c.nodes.size(), 0);
  for (size_t i = 1; i < c.nodes.size(); ++i) {
    block[i] = block[i - 1] + (c.keep_halo && IsJoin(*c.nodes[i - 1]) ? 1 : 0);
  }
  return block;
}

// Strip `tag`'s pool sum of `fresh` (its rows of a node's output that no strip before pooled),
// adding to `sums` (the strips' before; null for the first).
Tensor* PoolSumNode(ir::Graph& g, const Node& pool, Tensor* fresh, Tensor* sums,
                    const std::string& tag) {
  std::vector<Tensor*> in = {fresh};
  if (sums != nullptr) in.push_back(sums);
  Node* n = g.AddNode(OpKind::kPoolSum, g.UniqueName(pool.name() + tag + "#sum"), in,
                      {g.UniqueName(pool.output(0)->name() + tag + "#sums")});
  Tensor* y = OutputLike(n, pool.output(0), pool.output(0)->shape());
  y->set_dtype(ir::DType::kInt32);  // at the input's scale, zero point 0
  y->quant() = fresh->quant();
  y->quant().zero_point = {0};
  return y;
}

// Replaces global pool `pool` of an image of `h` x `w` pixels by the mean of `sums`, all its
// pixels' sums.
void ReplaceByMean(ir::Graph& g, Node* pool, Tensor* sums, int64_t h, int64_t w) {
  ir::Attributes attrs = pool->attrs();
  attrs.Set("window", std::vector<int64_t>{h, w});
  Tensor* y = pool->output(0);
  Node* n = g.AddNode(OpKind::kPoolMean, g.UniqueName(pool->name() + "#mean"), {sums},
                      {g.UniqueName(y->name() + "#mean")}, std::move(attrs));
  ReplaceByOutputOf(g, y, n, {pool});
}

// Replaces the chain (with its tables) by strips of `rows` of its last node's output rows.
RowStripGroup Split(ir::Graph& g, const Chain& c, int64_t rows) {
  RowStripGroup group;
  group.rows = rows;
  for (const Node* n : c.nodes) group.nodes.push_back(n->name());
  for (const Node* b : c.branches) {
    if (b != nullptr) group.branches.push_back(b->name());
  }
  Tensor* x = c.nodes[0]->input(RowOperand(g, *c.nodes[0]));
  Tensor* y = c.Output(c.nodes.size() - 1);
  const int64_t out_h = y->shape()[1];
  std::map<const Tensor*, size_t> node_of;  // a node's output (after its table): the node
  for (size_t i = 0; i < c.nodes.size(); ++i) node_of[c.Output(i)] = i;
  // Per strip, the rows each node computes, and of them those the strip before computed too.
  std::vector<std::vector<Rows>> plan;
  std::vector<std::vector<int64_t>> recomputed;
  std::vector<int64_t> computed(c.nodes.size(), 0);  // per node, its output rows computed so far
  for (int64_t o0 = 0; o0 < out_h; o0 += rows) {
    plan.push_back(
        StripRowsOf(g, c, o0, std::min(out_h, o0 + rows), c.keep_halo ? &computed : nullptr));
    std::vector<int64_t>& again = recomputed.emplace_back();
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      again.push_back(std::max<int64_t>(0, computed[i] - plan.back()[i].first));
      computed[i] = plan.back()[i].second;
    }
  }
  const int64_t strips = int64_t(plan.size());
  group.strips.resize(strips);
  std::vector<std::vector<RowStripGroup::Layer>> branches(strips);  // after the chain's layers
  const std::vector<int64_t> block = Blocks(c);
  std::vector<Parts> parts(c.nodes.size());  // with kept halos, every strip's; else its own
  // Per node, the global pool its strips' sums replace (PoolBeside), and the sums so far.
  std::vector<Node*> pools(c.nodes.size(), nullptr);
  std::vector<Tensor*> sums(c.nodes.size(), nullptr);
  for (size_t i = 0; i + 1 < c.nodes.size(); ++i) {
    pools[i] = PoolBeside(g, *c.Output(i), *c.nodes[i + 1],
                          std::span(c.nodes.begin() + i + 2, c.nodes.end()));
  }
  for (int64_t step = 0; step < strips + block.back(); ++step) {
    for (size_t i = 0; i < c.nodes.size(); ++i) {
      const int64_t k = step - block[i];
      if (k < 0 || k >= strips) continue;
      const Node& n = *c.nodes[i];
      const auto [r0, r1] = plan[k][i];
      if (r0 == r1) continue;  // computed by the strips before (kept halos)
      const std::string tag = fmt::format("#strip{}", k);
      const int operand = ChainOperand(g, c, i);
      std::vector<Tensor*> in = n.inputs();
      const int64_t in_h = in[operand]->shape()[1];
      const auto [x0, x1] = InputRows(n, r0, r1, in_h);
      in[operand] = i == 0 ? RowSlice(g, x, x0, x1, tag) : RowsOf(g, parts[i - 1], x0, x1, tag);
      if (IsJoin(n) && c.branches[i] != nullptr) {
        in[1 - operand] = BranchStrip(g, *c.branches[i], r0, r1, tag);
        branches[k].push_back({in[1 - operand]->producer()->name(), r1 - r0, 0,
                               uint32_t(c.nodes.size() + branches[k].size())});
      } else if (IsJoin(n) && node_of.contains(in[1 - operand])) {
        // An earlier node's output (ReadInChain): its strips computed these rows too.
        in[1 - operand] = RowsOf(g, parts[node_of.at(in[1 - operand])], r0, r1, tag);
      } else if (IsJoin(n)) {
        in[1 - operand] = RowSlice(g, in[1 - operand], r0, r1, tag);
      }
      Tensor* part = StripNode(g, n, in, tag, r1 - r0, StripAttributes(n, r0, r1, in_h));
      group.strips[k].push_back({part->producer()->name(), r1 - r0, recomputed[k][i], uint32_t(i)});
      if (c.tables[i] != nullptr) {  // its other inputs (a normalisation's scale) whole
        std::vector<Tensor*> table_in = c.tables[i]->inputs();
        table_in[0] = part;
        part = StripNode(g, *c.tables[i], table_in, tag, r1 - r0, c.tables[i]->attrs());
        // A layer normalisation stays a layer of the strip (a lookup table is fused into the
        // convolution before it when lowered).
        if (c.tables[i]->kind() != OpKind::kLut) {
          group.strips[k].push_back(
              {part->producer()->name(), r1 - r0, recomputed[k][i], uint32_t(i)});
        }
      }
      if (pools[i] != nullptr) {  // its rows no strip before pooled
        const int64_t again = recomputed[k][i];
        Tensor* fresh = again > 0 ? RowSlice(g, part, again, r1 - r0, tag + "#new") : part;
        sums[i] = PoolSumNode(g, *pools[i], fresh, sums[i], tag);
        group.strips[k].push_back({sums[i]->producer()->name(), 1, 0, uint32_t(i)});
      }
      if (!c.keep_halo && i + 1 < c.nodes.size()) parts[i].clear();
      parts[i].emplace_back(r0, part);
    }
  }
  for (int64_t k = 0; k < strips; ++k) {
    group.strips[k].insert(group.strips[k].end(), branches[k].begin(), branches[k].end());
  }
  std::vector<Tensor*> last;
  for (const auto& [first, part] : parts.back()) last.push_back(part);
  std::vector<Node*> erased;  // from the last node back, each after its table, then its branch
  for (size_t i = c.nodes.size(); i-- > 0;) {
    if (c.tables[i] != nullptr) erased.push_back(c.tables[i]);
    erased.push_back(c.nodes[i]);
    if (c.branches[i] != nullptr) erased.push_back(c.branches[i]);
  }
  // Each pool's mean replaces it before the chain's nodes, one of whose outputs it reads, go.
  for (size_t i = 0; i < c.nodes.size(); ++i) {
    if (pools[i] == nullptr) continue;
    const ir::Shape& image = c.Output(i)->shape();
    ReplaceByMean(g, pools[i], sums[i], image[1], image[2]);
  }
  ReplaceByConcat(g, y, last, /*axis=*/1, *c.nodes.back(), "#strips", erased);
  return group;
}

// Whether chain node i's output (after its table) has only readers in the chain: the next node,
// and besides it a later join of the chain [i + 2, end) as its other operand (ResidualJoin) or a
// global pool that its strips' sums replace (PoolBeside).
bool ReadInChain(const ir::Graph& g, const Chain& c, size_t i, size_t end) {
  const std::vector<Node*>& users = c.Output(i)->users();
  if (users.size() == 1) return true;
  if (users.size() != 2) return false;
  if (i + 1 < end &&
      PoolBeside(g, *c.Output(i), *c.nodes[i + 1],
                 std::span(c.nodes.begin() + i + 2, c.nodes.begin() + end)) != nullptr) {
    return true;
  }
  const auto later = c.nodes.begin() + i + 2, last = c.nodes.begin() + end;
  return std::any_of(later, last, [&](const Node* n) {
    return IsJoin(*n) && std::count(users.begin(), users.end(), n) == 1;
  });
}

// Whether a chain's blocks run a strip apart (Blocks): it keeps its halos and runs through a
// join into the next block. Each block's strip outputs then stay in SRAM a strip longer, until
// the next block's strip reads them, so about twice as many strips' intermediates are alive as
// without; its strips take half the rows (StripOptions::skewed_rows) to keep them in the same
// SRAM. Measured (full-size exports, default config, --timing-only --no-tuning, the kept-halos
// variant): resnet50's layer1 chain in strips of 6 rows took 4,301,615 cycles and 31.5 MB of
// DRAM traffic, of 3 rows 4,293,394 and 29.6 MB (4 rows: 4,278,236 and 30.8 MB; 2: 4,310,852 and
// 29.7 MB); resnext50_32x4d 4,533,060 cycles and 38.8 MB (another variant) -> 4,529,073 and
// 34.1 MB.
bool Skewed(const Chain& c) { return Blocks(c).back() > 0; }

// The chains `c` makes when cut after each node whose output a node outside it reads too (its
// output is then whole, and the chain after it slices it): runs of at least two nodes.
std::vector<Chain> CutAtOutsideReaders(const ir::Graph& g, const Chain& c) {
  std::vector<size_t> ends = {c.nodes.size()};  // each run's end, back to front
  for (size_t i = c.nodes.size() - 1; i-- > 0;) {
    if (!ReadInChain(g, c, i, ends.back())) ends.push_back(i + 1);
  }
  std::vector<Chain> runs;
  for (size_t k = ends.size(), begin = 0; k-- > 0; begin = ends[k]) {
    if (ends[k] - begin < 2) continue;
    Chain& run = runs.emplace_back();
    run.nodes.assign(c.nodes.begin() + begin, c.nodes.begin() + ends[k]);
    run.tables.assign(c.tables.begin() + begin, c.tables.begin() + ends[k]);
  }
  return runs;
}

// The chains the chosen pairs make, in graph order: pairs sharing a node (one's consumer the
// other's producer) split as one, or with options.chains false each run's first, third, ... pair
// alone; cut where a node outside reads a node's output (CutAtOutsideReaders), and at a join
// whose next block would take the chain's constants over kMaxChainConstants.
// `pair_of`: per consumer, its pair.
std::vector<Chain> Chains(const ir::Graph& g, const std::vector<Node*>& consumers,
                          const StripOptions& options, int64_t limit,
                          const std::map<const Node*, const RowStripPair*>& pair_of) {
  // Each chosen pair by its producer: the table between them (or null) and its consumer.
  std::map<const Node*, std::pair<Node*, Node*>> pair_from;
  std::vector<Node*> producers;  // in the consumers' (graph) order
  for (Node* c : consumers) {
    Node* table = nullptr;
    Node* producer = StripProducer(g, *c, &table);
    pair_from[producer] = {table, c};
    producers.push_back(producer);
  }
  std::set<const Node*> done;  // producers whose pair a chain took, or left whole after one
  std::vector<Chain> chains;
  for (Node* p : producers) {
    if (done.contains(p) || (IsJoin(*p) && !options.keep_halos)) continue;
    Chain chain;
    chain.nodes = {p};
    // A node's constants, and its branch's if it is a join.
    const auto node_constants = [&](const Node& n) {
      const Node* b = IsJoin(n) ? BranchOf(g, n, StripOperand(g, n), limit) : nullptr;
      return ConstantBytes(n) + (b != nullptr ? ConstantBytes(*b) : 0);
    };
    int64_t constants = ConstantBytes(*p);
    for (Node* n = p; pair_from.contains(n); n = chain.nodes.back()) {
      done.insert(n);
      if (!options.chains && chain.nodes.size() == 2) break;  // this pair stays whole
      if (IsJoin(*n) && !options.keep_halos) break;           // its strips would recompute its halo
      if (chain.nodes.size() > 1 && IsJoin(*n)) {
        // The next block's constants: its chosen pairs' nodes to its join.
        int64_t block = 0;
        const Node* m = n;
        do {
          m = pair_from.at(m).second;
          block += node_constants(*m);
        } while (!IsJoin(*m) && pair_from.contains(m));
        if (constants + block > kMaxChainConstants * limit) break;  // it starts a chain
      }
      const auto [table, next] = pair_from.at(n);
      chain.tables.push_back(table);
      chain.nodes.push_back(next);
      constants += node_constants(*next);
    }
    chain.tables.push_back(TableAfter(g, *chain.nodes.back(), Tables::kPerPixel));
    for (Chain& run : CutAtOutsideReaders(g, chain)) {
      // Pairs on a residual path whose intermediate fits split only to keep the residual off
      // DRAM: at the front, where the residual is whole anyway, they stay whole.
      while (run.nodes.size() > 1 && ImageBytes(run.nodes[1]->input(StripOperand(
                                         g, *run.nodes[1]))) <= pair_of.at(run.nodes[1])->limit) {
        run.nodes.erase(run.nodes.begin());
        run.tables.erase(run.tables.begin());
      }
      if (run.nodes.size() < 2) continue;
      run.keep_halo = options.keep_halos;
      for (const Node* n : run.nodes) {
        run.branches.push_back(
            options.branches && IsJoin(*n) ? BranchOf(g, *n, StripOperand(g, *n), limit) : nullptr);
      }
      chains.push_back(std::move(run));
    }
  }
  // A join's branch that a chain splits as one of its nodes (regnet's block1-0: its squeeze-and-
  // excitation product and the 1x1 after it, whose output the join adds to the block's
  // projection) is that chain's, not the join's: each strip of the join slices its rows of the
  // output the other chain's strips write. Both took it, and the second Split read the node the
  // first had erased (regnet_y_400mf crashed at 512 KiB of SRAM).
  std::set<const Node*> split_nodes;
  for (const Chain& c : chains) split_nodes.insert(c.nodes.begin(), c.nodes.end());
  for (Chain& c : chains) {
    for (Node*& branch : c.branches) {
      if (branch != nullptr && split_nodes.contains(branch)) branch = nullptr;
    }
  }
  return chains;
}

// Whether a pair's intermediate and its consumer's output together exceed the SRAM, so that it
// cannot run whole with both on chip. Splitting only such pairs (StripOptions::overflowing_only)
// took densenet121 from 3,042,000 cycles and 16.4 MB of DRAM traffic (no pair split; all 13
// split: 3,146,914 and 21.5 MB) to 3,030,513 and 13.4 MB: denselayer6's norm1 -> conv1 (702 +
// 401 KB) and transition1's norm -> conv (803 + 401 KB), where splitting denselayer5's too (602
// + 401 KB) sent every conv1 output of block 1 to DRAM (3,054,731 cycles, 2.25x the least
// traffic). convnext_tiny 4,778,899 -> 4,701,977 cycles (stage 1's blocks in strips but not the
// stem's pair or the joins; 30.0 -> 31.2 MB). Full-size exports, default config, --timing-only
// --no-tuning.
bool Overflows(const ir::Graph& g, const Node& consumer, const spec::NpuConfig& config) {
  return ImageBytes(consumer.input(StripOperand(g, consumer))) + ImageBytes(consumer.output(0)) >
         int64_t{config.sram().size_bytes()};
}

}  // namespace

std::string RowStripGroup::name() const {
  std::vector<std::string> all = nodes;
  all.insert(all.end(), branches.begin(), branches.end());
  return fmt::format("{}", fmt::join(all, "+"));
}

// The image a channel scaling reads whole beside its strips, if it may stay on chip while they
// run (at most three quarters of the SRAM) but strips of a quarter of the SRAM, twice over, do
// not fit beside it and the consumer's output (lraspp's blocks 12 and 13: 33x33x672 depthwise
// outputs, 715 KB in 1 MiB, and 122 KB projections); else 0. Its pair's strips then take a
// quarter of what it leaves: at a quarter of the SRAM (7 rows, 155 KB) they went through DRAM
// beside it; at 3 rows (and blocks 5, 6 and 11 in smaller strips too) lraspp took 2,794,768 ->
// 2,761,054 cycles, DRAM 21.3 -> 18.5 MB (full-size export, default config, --no-tuning). Where
// the quarter's strips fit they keep it (a test's blocks at 2 MiB, split as for 1 MiB, lost
// their lead in smaller strips); a larger image goes through DRAM. Such a pair's chain takes
// these rows with StripOptions::alive_share too: within a third of what the image leaves (2
// rows) the strips' held constants crowded out 110 buffers (3,843,733 cycles, 67 MB).
constexpr double kScaledImageBeside = 0.75;
int64_t ScaledImageBeside(const spec::NpuConfig& config, const ir::Graph& g, const Node& producer,
                          const Node& consumer) {
  if (!IsChannelScaling(producer)) return 0;
  const int64_t bytes = ImageBytes(producer.input(RowOperand(g, producer)));
  const int64_t sram = int64_t{config.sram().size_bytes()};
  const bool strips_fit =
      bytes + 2 * QuarterOfSram(config) + ImageBytes(consumer.output(0)) <= sram;
  return !strips_fit && bytes <= int64_t(kScaledImageBeside * double(sram)) ? bytes : 0;
}

bool RowStripGroup::Splits(const std::string& consumer) const {
  return std::find(nodes.begin() + 1, nodes.end(), consumer) != nodes.end();
}

std::vector<RowStripPair> RowStripPairs(const spec::NpuConfig& config, const ir::Graph& g,
                                        const StripOptions& options) {
  const int64_t limit = QuarterOfSram(config), sram = int64_t{config.sram().size_bytes()};
  const std::set<const Node*> residual_path = ResidualPaths(g, limit);
  std::vector<RowStripPair> pairs;
  for (const Node* consumer : g.nodes()) {
    const Node* producer = IsStripConsumer(*consumer) && StripOperand(g, *consumer) >= 0
                               ? StripProducer(g, *consumer)
                               : nullptr;
    const int64_t concat = producer != nullptr && options.beside_concats
                               ? ConcatBesidePair(config, *producer, *consumer)
                               : 0;
    const int64_t image =
        producer != nullptr ? ScaledImageBeside(config, g, *producer, *consumer) : 0;
    const int64_t beside = std::max(concat, image);
    const int64_t pair_limit = beside > 0 ? std::min(limit, (sram - beside) / 4) : limit;
    if (!Eligible(g, *consumer, pair_limit, residual_path)) continue;
    // As many rows as fit (evening the strips out measured slower on mobilenet_v2: 555,638
    // against 553,796 cycles).
    const int64_t rows = StripRows(g, *consumer, StripLimit(*consumer, pair_limit));
    const bool on_path = residual_path.contains(consumer);
    pairs.push_back({consumer->name(), consumer->output(0)->shape()[1], rows,
                     (IsPointwise(*producer) || IsChannelScaling(*producer) || on_path) &&
                         RecomputeFactor(g, *consumer, rows) <= kMaxDefaultRecompute &&
                         !ConstantsReloadedByEveryStrip(g, *producer, *consumer, limit),
                     producer->name(), on_path, pair_limit, concat, image});
  }
  return pairs;
}

StatusOr<std::vector<RowStripGroup>> SplitRowStrips(
    const spec::NpuConfig& config, ir::Graph& g, const std::map<std::string, int64_t>& strip_rows,
    const StripOptions& options) {
  const int64_t limit = QuarterOfSram(config);
  std::map<std::string, Node*> by_name;
  for (Node* n : g.nodes()) by_name[n->name()] = n;
  // The pairs to split and their rows (in their consumers' output rows), in graph order.
  std::vector<Node*> consumers;
  std::map<const Node*, std::pair<int64_t, bool>> rows_of;  // rows, and whether told
  std::map<const Node*, const RowStripPair*> pair_of;
  const std::vector<RowStripPair> pairs = RowStripPairs(config, g, options);
  for (const RowStripPair& pair : pairs) {
    const auto told = strip_rows.find(pair.consumer);
    const int64_t rows = told != strip_rows.end()                ? told->second
                         : pair.by_default || options.every_pair ? pair.default_rows
                                                                 : 0;
    // One strip: nothing to split, unless its chain's strips (a residual path's) split it.
    const bool told_whole = told != strip_rows.end() && rows >= pair.out_rows;
    if (rows <= 0 || told_whole || (rows >= pair.out_rows && !pair.residual_path)) continue;
    Node* consumer = by_name.at(pair.consumer);
    if (options.overflowing_only && told == strip_rows.end() && !Overflows(g, *consumer, config)) {
      continue;
    }
    if (!pair.by_default && told == strip_rows.end() &&
        ImageBytes(consumer->input(StripOperand(g, *consumer))) <=
            int64_t(options.other_pairs_above * double(config.sram().size_bytes()))) {
      continue;
    }
    consumers.push_back(consumer);
    rows_of[consumer] = {rows, told != strip_rows.end()};
    pair_of[consumer] = &pair;
  }
  std::vector<RowStripGroup> split;
  for (const Chain& chain : Chains(g, consumers, options, limit, pair_of)) {
    // A chain's strips are its last pair's; as many fewer as keep every intermediate within its
    // limit unless a tuning told them. Beside a concatenation, as many as fit what it and the
    // chain's constants leave of the SRAM, if they leave any (else as if none were beside).
    // Beside a scaled image (RowStripPair::image), its pairs' own even with alive_share.
    auto [rows, told] = rows_of.at(chain.nodes.back());
    int64_t concat = 0, constants = 0, image = 0;
    for (size_t i = 0; i < chain.nodes.size(); ++i) {
      if (i > 0) {
        concat = std::max(concat, pair_of.at(chain.nodes[i])->concat);
        image = std::max(image, pair_of.at(chain.nodes[i])->image);
      }
      constants += ConstantBytes(*chain.nodes[i]);
    }
    const int64_t beside =
        concat > 0 ? int64_t{config.sram().size_bytes()} - concat - constants : 0;
    const bool by_alive = options.alive_share > 0 && image == 0;  // PeakRowsWithin
    if (!told && beside > 0) {
      rows = RowsWithin(g, chain, beside);
    } else if (!told && by_alive) {
      rows = PeakRowsWithin(g, chain,
                            int64_t(options.alive_share * double(config.sram().size_bytes())));
    } else if (!told && Skewed(chain)) {
      rows = std::max<int64_t>(1, int64_t(double(rows) * options.skewed_rows));
    }
    while (!told && beside <= 0 && !by_alive && rows > 1 && !ChainFits(g, chain, rows, limit)) {
      --rows;
    }
    if (rows >= chain.nodes.back()->output(0)->shape()[1]) continue;  // one strip
    split.push_back(Split(g, chain, rows));
  }
  if (!split.empty()) NPU_TRY(g.SortTopologically());
  return split;
}

}  // namespace npu::compiler
