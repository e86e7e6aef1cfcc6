// The text dump.
#include "compiler/ir/printer.h"

#include <fmt/format.h>

namespace npu::compiler::ir {
namespace {

std::string TypeText(const Tensor& t) {
  std::string text = fmt::format("{}{}", DTypeName(t.dtype()), ShapeText(t.shape()));
  if (t.layout() != Layout::kNone) text += fmt::format(" {}", LayoutName(t.layout()));
  const QuantParams& q = t.quant();
  if (!q.empty()) {
    text += q.per_channel() ? fmt::format(" q(axis={}, {} scales)", q.axis, q.scale.size())
                            : fmt::format(" q(scale={}, zp={})", q.scale[0],
                                          q.zero_point.empty() ? 0 : q.zero_point[0]);
  }
  return text;
}

std::string NodeLine(const Node& n) {
  std::vector<std::string> outs, ins, attrs;
  for (const Tensor* t : n.outputs())
    outs.push_back(fmt::format("%{}: {}", t->name(), TypeText(*t)));
  for (const Tensor* t : n.inputs()) ins.push_back(t ? "%" + t->name() : "_");
  for (const auto& [name, value] : n.attrs().values()) {
    attrs.push_back(fmt::format("{}={}", name, AttrText(value)));
  }
  std::string line =
      fmt::format("  {} = {}({})", fmt::join(outs, ", "), OpName(n.kind()), fmt::join(ins, ", "));
  if (!attrs.empty()) line += fmt::format(" {{{}}}", fmt::join(attrs, ", "));
  if (!n.name().empty()) line += "  # " + n.name();
  return line + "\n";
}

}  // namespace

std::string PrintGraph(const Graph& graph) {
  std::string text = fmt::format("graph {}\n", graph.name());
  for (const Tensor* t : graph.inputs()) {
    text += fmt::format("  input  %{}: {}\n", t->name(), TypeText(*t));
  }
  for (const Tensor* t : graph.tensors()) {
    if (t->is_constant()) text += fmt::format("  const  %{}: {}\n", t->name(), TypeText(*t));
  }
  for (const Node* n : graph.nodes()) text += NodeLine(*n);
  for (const Tensor* t : graph.outputs()) text += fmt::format("  output %{}\n", t->name());
  return text;
}

}  // namespace npu::compiler::ir
