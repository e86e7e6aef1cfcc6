// Activation recognition.
#include "compiler/quantize/activations.h"

namespace npu::compiler::quantize {

std::string ActivationOf(const ir::Node& n) {
  if (n.kind() == ir::OpKind::kRelu) return "relu";
  if (n.kind() != ir::OpKind::kClip || n.num_inputs() != 1) return "";
  const ir::Attributes& a = n.attrs();
  if (!a.Has("min") || a.GetFloat("min", -1.0f) != 0.0f) return "";
  if (!a.Has("max")) return "relu";
  return a.GetFloat("max", 0.0f) == 6.0f ? "relu6" : "";
}

std::string CombineActivations(const std::string& a, const std::string& b) {
  if (a == "relu6" || b == "relu6") return "relu6";
  return (a == "relu" || b == "relu") ? "relu" : "none";
}

}  // namespace npu::compiler::quantize
