// Structural verification of a graph.
#include "compiler/ir/verifier.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

namespace npu::compiler::ir {
namespace {

Status Fail(const Graph& g, const std::string& what) {
  return InvalidArgument(fmt::format("graph '{}' is malformed: {}", g.name(), what));
}

Status CheckLinks(const Graph& g, const std::unordered_set<const Tensor*>& own) {
  for (const Node* n : g.nodes()) {
    for (const Tensor* in : n->inputs()) {
      if (in == nullptr) continue;
      if (!own.count(in))
        return Fail(g, fmt::format("node '{}' reads a foreign tensor", n->name()));
      if (std::find(in->users().begin(), in->users().end(), n) == in->users().end()) {
        return Fail(g, fmt::format("%{} does not list node '{}' as a user", in->name(), n->name()));
      }
    }
    for (size_t i = 0; i < n->num_outputs(); ++i) {
      const Tensor* out = n->output(i);
      if (out->producer() != n || out->producer_index() != static_cast<int>(i)) {
        return Fail(
            g, fmt::format("%{} does not name node '{}' as its producer", out->name(), n->name()));
      }
    }
  }
  return Status::Ok();
}

Status CheckOrder(const Graph& g) {
  std::unordered_set<const Tensor*> available(g.inputs().begin(), g.inputs().end());
  for (const Tensor* t : g.tensors()) {
    if (t->is_constant()) available.insert(t);
  }
  for (const Node* n : g.nodes()) {
    for (const Tensor* in : n->inputs()) {
      if (in != nullptr && !available.count(in)) {
        return Fail(g, fmt::format("node '{}' reads %{} before it is produced (a cycle, or a "
                                   "missing producer)",
                                   n->name(), in->name()));
      }
    }
    for (const Tensor* out : n->outputs()) available.insert(out);
  }
  for (const Tensor* out : g.outputs()) {
    if (!available.count(out)) {
      return Fail(g, fmt::format("graph output %{} is never produced", out->name()));
    }
  }
  return Status::Ok();
}

Status CheckTensors(const Graph& g, const VerifyOptions& options) {
  for (const Tensor* t : g.tensors()) {
    if (t->is_constant()) {
      if (t->producer() != nullptr) {
        return Fail(g, fmt::format("constant %{} also has a producer", t->name()));
      }
      const uint64_t expected = uint64_t(NumElements(t->shape())) * DTypeBytes(t->dtype());
      if (t->bytes().size() != expected) {
        return Fail(g, fmt::format("constant %{} {}{} holds {} bytes, not {}", t->name(),
                                   DTypeName(t->dtype()), ShapeText(t->shape()), t->bytes().size(),
                                   expected));
      }
    }
    const bool in_use = t->producer() != nullptr || !t->users().empty();
    if (options.require_types && in_use && t->dtype() == DType::kUnknown) {
      return Fail(g, fmt::format("%{} has no element type (shape inference not run?)", t->name()));
    }
    if (t->quant().scale.size() != t->quant().zero_point.size() && !t->quant().zero_point.empty()) {
      return Fail(g, fmt::format("%{} has {} scales but {} zero points", t->name(),
                                 t->quant().scale.size(), t->quant().zero_point.size()));
    }
  }
  return Status::Ok();
}

}  // namespace

Status Verify(const Graph& graph, const VerifyOptions& options) {
  const std::vector<Tensor*> tensors = graph.tensors();
  const std::unordered_set<const Tensor*> own(tensors.begin(), tensors.end());
  NPU_TRY(CheckLinks(graph, own));
  NPU_TRY(CheckOrder(graph));
  return CheckTensors(graph, options);
}

}  // namespace npu::compiler::ir
