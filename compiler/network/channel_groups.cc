// Channel groups (channel_groups.h).
#include "compiler/network/channel_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "compiler/network/fusion_nodes.h"

namespace npu::compiler {
namespace {

using ir::Node;
using ir::OpKind;
using ir::Tensor;

// A convolution, the table after it (or null), its depthwise convolution and the table after
// that (or null); or a convolution alone (with its table), whose output a global pool reads
// (PooledConvolution).
struct Pair {
  Node *conv, *table, *depthwise, *table_after;
  // The pair's last node: the depthwise's table, else the depthwise (alone: the convolution's
  // table, else the convolution).
  Node* last() const {
    if (depthwise == nullptr) return table != nullptr ? table : conv;
    return table_after != nullptr ? table_after : depthwise;
  }
  // What a group's part of must fit the limit: the intermediate, or alone the output.
  const Tensor* grouped() const {
    return depthwise != nullptr ? depthwise->input(0) : last()->output(0);
  }
};

bool ConstantOperands(const Node& n) {
  return n.num_inputs() == 3 && n.input(1)->is_constant() && n.input(2)->is_constant();
}

std::optional<Pair> PairEndingAt(const ir::Graph& g, Node& depthwise, int64_t limit) {
  if (!IsDepthwiseConv(depthwise) || !ConstantOperands(depthwise)) return std::nullopt;
  const Tensor* t = depthwise.input(0);
  Node* table = nullptr;
  Node* conv = ConvWriting(g, t, &table);
  if (conv == nullptr || conv->attrs().GetInt("group", 1) != 1 || !ConstantOperands(*conv) ||
      t->users().size() != 1 || g.IsGraphOutput(t) || ImageBytes(t) <= limit ||
      ImageBytes(conv->input(0)) > limit) {
    return std::nullopt;
  }
  return Pair{conv, table, &depthwise, TableAfter(g, depthwise)};
}

// The global pools reading the pair's output (a squeeze-and-excitation's): it must be whole
// before the pool ends, so row strips gain nothing over groups there.
std::vector<Node*> GlobalPools(const Pair& p) {
  std::vector<Node*> pools;
  for (Node* u : p.last()->output(0)->users()) {
    if (u->kind() == OpKind::kGlobalAveragePool) pools.push_back(u);
  }
  return pools;
}

// A pair whose output takes more than this share of the SRAM, which it then cannot stay in
// beside the block's input and weights, pools each group's channels (Split): lraspp's 33x33x960
// squeeze-and-excitation blocks (1.05 MB each), whose pool read the whole output back from
// DRAM and whose 1 MB of pool scratch sent the block's input to DRAM too: 2,890,045 -> 2,866,438
// cycles, DRAM 34.2 -> 30.9 MB (3.45x -> 3.11x its least). At half the SRAM its 33x33x672
// blocks (0.73 MB) pooled by groups too and lost: 3,001,307 cycles, 36.7 MB, their copies
// competing with the concatenation for SRAM (full-size export, default config, --timing-only
// --no-tuning).
constexpr double kPoolGroupsShare = 0.75;

// A pooled pair whose output takes more than this share of the SRAM groups its channels within
// an eighth of the SRAM, not a quarter (if one group of the array's columns fits that), so that
// its output, the block's input and a group's intermediate fit side by side: lraspp's 33x33x672
// blocks (0.73 MB) then keep their outputs on chip (with residency counting their pools'
// one-pixel outputs as on chip, residency.h): 2,872,165 -> 2,794,768 cycles, DRAM 23.7 -> 21.3
// MB (2.39x -> 2.14x its least); the smaller groups alone -0.9 %, the same traffic (full-size
// export, default config, --timing-only --no-tuning).
constexpr double kLargePooledShare = 0.5;

// A convolution alone (one group, not depthwise; its table too) whose output a global pool reads
// and takes more than kPoolGroupsShare of the SRAM (`sram` bytes), its input at most `limit`:
// lraspp's backbone output (33x33x960, 1.05 MB), which its classifier pools and reads with a 1x1.
// In channel groups, each pooled while on chip, the pool no longer reads it back from DRAM nor
// takes SRAM for it: 2,866,438 -> 2,859,849 cycles, DRAM 30.9 -> 28.1 MB (3.11x -> 2.84x its
// least; full-size export, default config, --timing-only --no-tuning).
std::optional<Pair> PooledConvolution(const ir::Graph& g, Node& conv, int64_t limit,
                                      double sram) {
  if (IsDepthwiseConv(conv) || conv.attrs().GetInt("group", 1) != 1 || !ConstantOperands(conv) ||
      ImageBytes(conv.input(0)) > limit) {
    return std::nullopt;
  }
  const Pair alone{&conv, TableAfter(g, conv), nullptr, nullptr};
  const Tensor* y = alone.last()->output(0);
  if (g.IsGraphOutput(y) || double(ImageBytes(y)) <= kPoolGroupsShare * sram ||
      GlobalPools(alone).empty()) {
    return std::nullopt;
  }
  return alone;
}

// Per group, its channels: as few groups as keep a group's intermediate within `limit`, each of
// a multiple of `unit` channels (the last the rest). Empty if one group of `unit` exceeds it.
std::vector<int64_t> GroupChannels(const Tensor* intermediate, int64_t unit, int64_t limit) {
  const ir::Shape& s = intermediate->shape();
  const int64_t plane = s[1] * s[2], channels = s[3];
  for (int64_t groups = 2; groups <= channels; ++groups) {
    const int64_t per = (channels + groups - 1) / groups;
    const int64_t group = (per + unit - 1) / unit * unit;
    if (group * plane > limit) continue;
    if (group >= channels) return {};
    std::vector<int64_t> sizes;
    for (int64_t c = 0; c < channels; c += group) sizes.push_back(std::min(group, channels - c));
    return sizes;
  }
  return {};
}

// A constant holding outer rows [o0, o1) of constant `c` (a weight's output channels, a bias's
// values), with its per-channel quantisation along them.
Tensor* OuterRows(ir::Graph& g, const Tensor* c, int64_t o0, int64_t o1, const std::string& tag) {
  const size_t per = c->bytes().size() / size_t(c->shape()[0]);
  ir::Shape shape = c->shape();
  shape[0] = o1 - o0;
  Tensor* t = g.AddConstant<int8_t>(g.UniqueName(c->name() + tag), shape, {});
  t->set_bytes(c->dtype(), std::vector<uint8_t>(c->bytes().begin() + o0 * per,
                                                c->bytes().begin() + o1 * per));
  t->set_layout(c->layout());
  t->quant() = c->quant();
  ir::QuantParams& q = t->quant();
  if (q.axis == 0 && int64_t(q.scale.size()) == c->shape()[0]) {
    q.scale.assign(c->quant().scale.begin() + o0, c->quant().scale.begin() + o1);
    if (int64_t(q.zero_point.size()) == c->shape()[0]) {
      q.zero_point.assign(c->quant().zero_point.begin() + o0, c->quant().zero_point.begin() + o1);
    }
  }
  return t;
}

// A node's output like `model`'s, with `channels` channels.
Tensor* LikeWithChannels(Node* node, const Tensor* model, int64_t channels) {
  ir::Shape shape = model->shape();
  shape[3] = channels;
  return OutputLike(node, model, std::move(shape));
}

// Convolution `conv`'s output channels [c0, c1) from `x`: its weights, bias and per-channel
// requantisation cut to them (a depthwise convolution's groups too).
Tensor* ConvChannels(ir::Graph& g, const Node& conv, Tensor* x, int64_t c0, int64_t c1,
                     const std::string& tag) {
  ir::Attributes attrs = conv.attrs();
  for (const char* name : {"multiplier", "shift"}) {
    const std::vector<int64_t> v = attrs.GetInts(name, {});
    if (!v.empty()) attrs.Set(name, std::vector<int64_t>(v.begin() + c0, v.begin() + c1));
  }
  if (IsDepthwiseConv(conv)) attrs.Set("group", c1 - c0);
  Node* n = g.AddNode(conv.kind(), g.UniqueName(conv.name() + tag),
                      {x, OuterRows(g, conv.input(1), c0, c1, tag),
                       OuterRows(g, conv.input(2), c0, c1, tag)},
                      {g.UniqueName(conv.output(0)->name() + tag)}, std::move(attrs));
  return LikeWithChannels(n, conv.output(0), c1 - c0);
}

// Table `table` (or none) applied to `x`.
Tensor* Tabled(ir::Graph& g, const Node* table, Tensor* x, const std::string& tag) {
  if (table == nullptr) return x;
  Node* n = g.AddNode(table->kind(), g.UniqueName(table->name() + tag), {x},
                      {g.UniqueName(table->output(0)->name() + tag)}, table->attrs());
  return LikeWithChannels(n, table->output(0), x->shape()[3]);
}

// Replaces the pair by its groups, their outputs concatenated along the channels; with
// `pool_groups`, a global pool reading its output by one per group, each pooling its group's
// channels (a channel's mean is its own), their outputs concatenated likewise, and each group's
// output concatenated through a view, so that placement copies it into its slice
// (concat_placement.h) and the group's pool reads it on chip. Returns each group's nodes' names.
std::vector<std::vector<std::string>> Split(ir::Graph& g, const Pair& p,
                                            const std::vector<int64_t>& channels,
                                            bool pool_groups) {
  const std::vector<Node*> pools = pool_groups ? GlobalPools(p) : std::vector<Node*>{};
  std::vector<Tensor*> parts;
  std::vector<std::vector<Tensor*>> pooled(pools.size());  // per pool, per group
  std::vector<std::vector<std::string>> names;
  int64_t c0 = 0;
  for (size_t k = 0; k < channels.size(); ++k) {
    const std::string tag = fmt::format("#ch{}", k);
    const int64_t c1 = c0 + channels[k];
    const size_t first = g.nodes().size();
    Tensor* t = Tabled(g, p.table, ConvChannels(g, *p.conv, p.conv->input(0), c0, c1, tag), tag);
    Tensor* part =
        p.depthwise == nullptr
            ? t
            : Tabled(g, p.table_after, ConvChannels(g, *p.depthwise, t, c0, c1, tag), tag);
    for (size_t i = 0; i < pools.size(); ++i) {
      Node* n = g.AddNode(OpKind::kGlobalAveragePool, g.UniqueName(pools[i]->name() + tag),
                          {part}, {g.UniqueName(pools[i]->output(0)->name() + tag)},
                          pools[i]->attrs());
      pooled[i].push_back(LikeWithChannels(n, pools[i]->output(0), c1 - c0));
    }
    if (!pools.empty()) {
      Node* view = g.AddNode(OpKind::kIdentity, g.UniqueName(part->name() + "#copy"), {part},
                             {g.UniqueName(part->name() + "#copy")});
      part = LikeWithChannels(view, part, c1 - c0);
    }
    parts.push_back(part);
    names.emplace_back();
    for (size_t i = first; i < g.nodes().size(); ++i) names.back().push_back(g.nodes()[i]->name());
    c0 = c1;
  }
  std::vector<Node*> erased;
  for (Node* n : {p.table_after, p.depthwise, p.table, p.conv}) {
    if (n != nullptr) erased.push_back(n);
  }
  ReplaceByConcat(g, p.last()->output(0), parts, /*axis=*/3,
                  p.depthwise != nullptr ? *p.depthwise : *p.conv, "#channels", erased);
  for (size_t i = 0; i < pools.size(); ++i) {
    ReplaceByConcat(g, pools[i]->output(0), pooled[i], /*axis=*/3, *pools[i], "#channels",
                    {pools[i]});
  }
  return names;
}

}  // namespace

StatusOr<std::vector<ChannelGroupSplit>> SplitChannelGroups(const spec::NpuConfig& config,
                                                            ir::Graph& g, GroupedPairs which,
                                                            uint64_t sram_bytes) {
  const bool pooled_only = which != GroupedPairs::kAll;
  const int64_t limit = QuarterOfSram(config), unit = int64_t{config.mac().cols()};
  const double sram = double(sram_bytes > 0 ? sram_bytes : config.sram().size_bytes());
  std::vector<ChannelGroupSplit> split;
  for (Node* n : g.NodesOfKind(OpKind::kFusedConv)) {
    std::optional<Pair> pair = PairEndingAt(g, *n, limit);
    if (!pair && which != GroupedPairs::kPooledPairs) {
      pair = PooledConvolution(g, *n, limit, sram);
    }
    if (!pair || (pooled_only && GlobalPools(*pair).empty())) continue;
    const double output = double(ImageBytes(pair->last()->output(0)));
    const bool large_pooled = !GlobalPools(*pair).empty() && output > kLargePooledShare * sram;
    std::vector<int64_t> channels;
    if (large_pooled) channels = GroupChannels(pair->grouped(), unit, limit / 2);
    if (channels.empty()) channels = GroupChannels(pair->grouped(), unit, limit);
    if (channels.empty()) continue;
    const std::string conv = pair->conv->name();
    const std::string depthwise = pair->depthwise != nullptr ? pair->depthwise->name() : "";
    const bool pool_groups = ImageBytes(pair->last()->output(0)) > kPoolGroupsShare * sram;
    split.push_back({conv, depthwise, channels, Split(g, *pair, channels, pool_groups)});
  }
  if (!split.empty()) NPU_TRY(g.SortTopologically());
  return split;
}

}  // namespace npu::compiler
