// Recognising the activations the quantised IR merges into clamps. Internal to compiler/quantize.
#pragma once

#include <string>

#include "compiler/ir/graph.h"

namespace npu::compiler::quantize {

// "relu" for Relu and Clip(0, inf), "relu6" for Clip(0, 6), "" for anything else.
std::string ActivationOf(const ir::Node& n);

// The activation of applying `a` then `b` (or `b` then `a`): relu6 if either is relu6, else
// relu if either is relu, else "none".
std::string CombineActivations(const std::string& a, const std::string& b);

}  // namespace npu::compiler::quantize
