// Union-find over tensor names, joined along concat and value-moving edges.
#include "compiler/quantize/unify_ranges.h"

#include <algorithm>
#include <map>
#include <string>

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

class Sets {
 public:
  std::string Find(const std::string& a) {
    auto it = parent_.find(a);
    if (it == parent_.end()) return a;
    if (it->second == a) return a;
    std::string root = Find(it->second);
    parent_[a] = root;
    return root;
  }
  void Join(const std::string& a, const std::string& b) {
    const std::string ra = Find(a), rb = Find(b);
    parent_.emplace(ra, ra);
    if (ra != rb) parent_[rb] = ra;
  }

 private:
  std::map<std::string, std::string> parent_;
};

bool Joinable(const ir::Tensor* t, const TensorRanges& ranges) {
  return t != nullptr && !t->is_constant() && t->quant().empty() && ranges.count(t->name());
}

}  // namespace

bool KeepsQuantisation(OpKind k) {
  switch (k) {
    case OpKind::kMaxPool:
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kSqueeze:
    case OpKind::kUnsqueeze:
    case OpKind::kIdentity:
    case OpKind::kSlice:
    case OpKind::kSplit:
    case OpKind::kTranspose:
    case OpKind::kChannelShuffle:
    case OpKind::kPad:
    case OpKind::kResize:
    case OpKind::kGather:
    case OpKind::kExpand:
    case OpKind::kReduceMax:
      return true;
    default:
      return false;
  }
}

void UnifyRanges(const ir::Graph& g, TensorRanges& ranges) {
  Sets sets;
  for (const ir::Node* n : g.nodes()) {
    const bool concat = n->kind() == OpKind::kConcat;
    if (!concat && !KeepsQuantisation(n->kind())) continue;
    const ir::Tensor* in = n->input(0);
    const size_t inputs = concat ? n->num_inputs() : 1;
    for (const ir::Tensor* out : n->outputs()) {
      if (!Joinable(out, ranges)) continue;
      for (size_t i = 0; i < inputs; ++i) {
        in = n->input(i);
        if (Joinable(in, ranges)) sets.Join(out->name(), in->name());
      }
    }
  }
  std::map<std::string, ValueRange> united;
  for (const auto& [name, range] : ranges) {
    auto [it, fresh] = united.emplace(sets.Find(name), range);
    if (!fresh) it->second = {std::min(it->second.lo, range.lo), std::max(it->second.hi, range.hi)};
  }
  for (auto& [name, range] : ranges) range = united.at(sets.Find(name));
}

}  // namespace npu::compiler::quantize
