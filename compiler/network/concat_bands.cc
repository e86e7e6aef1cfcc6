// Row bands of a concatenation of channels (concat_bands.h).
#include "compiler/network/concat_bands.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "compiler/lower/lower_graph.h"
#include "compiler/network/fusion_nodes.h"

namespace npu::compiler {
namespace {

using ir::Node;
using ir::OpKind;
using ir::Tensor;

// Whether `n` concatenates views of parts along the channels, each read by it alone
// (channel_groups.cc's pooled groups, each copied into its slice after its group).
bool IsConcatOfViews(const Node& n) {
  if (n.kind() != OpKind::kConcat || n.attrs().GetInt("axis", 0) != 3 || !IsImage(n.output(0))) {
    return false;
  }
  return std::all_of(n.inputs().begin(), n.inputs().end(), [](const Tensor* in) {
    return IsImage(in) && in->producer() != nullptr &&
           in->producer()->kind() == OpKind::kIdentity && in->users().size() == 1;
  });
}

// The readers of `t` in order of their rows, if all are row slices of consecutive rows (each
// starting where the one before ends, the first at row 0) and there are two or more; else empty.
std::vector<std::pair<Node*, std::pair<int64_t, int64_t>>> ConsecutiveRowReaders(const ir::Graph& g,
                                                                                 const Tensor* t) {
  std::vector<std::pair<Node*, std::pair<int64_t, int64_t>>> readers;
  if (g.IsGraphOutput(t)) return {};
  for (Node* u : t->users()) {
    const std::optional<std::pair<int64_t, int64_t>> rows = RowsSliced(*u);
    if (!rows || g.IsGraphOutput(u->output(0))) return {};
    readers.emplace_back(u, *rows);
  }
  std::sort(readers.begin(), readers.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  int64_t next = 0;
  for (const auto& [reader, rows] : readers) {
    if (rows.first != next) return {};
    next = rows.second;
  }
  return readers.size() >= 2 ? readers : decltype(readers){};
}

// Rows [r0, r1) of every input of `concat`, concatenated like it (in DRAM if `in_dram`).
Tensor* Band(ir::Graph& g, const Node& concat, int64_t r0, int64_t r1, bool in_dram) {
  const std::string tag = "#band" + std::to_string(r0);
  std::vector<Tensor*> parts;
  for (Tensor* part : concat.inputs()) parts.push_back(RowSlice(g, part, r0, r1, tag));
  ir::Attributes attrs = concat.attrs();
  if (in_dram) attrs.Set(kInDram, int64_t{1});
  Node* joined = g.AddNode(OpKind::kConcat, g.UniqueName(concat.name() + tag), parts,
                           {g.UniqueName(concat.output(0)->name() + tag)}, std::move(attrs));
  const ir::Shape& s = concat.output(0)->shape();
  return OutputLike(joined, concat.output(0), {1, r1 - r0, s[2], s[3]});
}

}  // namespace

StatusOr<std::vector<std::string>> BandConcatsByRowReaders(ir::Graph& g) {
  std::vector<std::string> banded;
  for (Node* concat : g.NodesOfKind(OpKind::kConcat)) {
    if (!IsConcatOfViews(*concat)) continue;
    const auto readers = ConsecutiveRowReaders(g, concat->output(0));
    if (readers.empty()) continue;
    const int64_t cut = readers.front().second.second, end = readers.back().second.second;
    Tensor* first = Band(g, *concat, 0, cut, false);
    Tensor* rest = Band(g, *concat, cut, end, true);
    g.ReplaceAllUsesWith(readers.front().first->output(0), first);
    for (size_t k = 1; k < readers.size(); ++k) {
      const auto [r0, r1] = readers[k].second;
      Tensor* y = readers[k].first->output(0);
      g.ReplaceAllUsesWith(
          y, r1 - r0 == end - cut ? rest : RowSlice(g, rest, r0 - cut, r1 - cut, "#rows"));
    }
    for (const auto& [reader, rows] : readers) g.EraseNode(reader);  // their outputs unused
    banded.push_back(concat->name());
    g.EraseNode(concat);
    g.RemoveUnusedTensors();
  }
  if (!banded.empty()) NPU_TRY(g.SortTopologically());
  return banded;
}

}  // namespace npu::compiler
