// Small graph-rewriting helpers the passes share. Internal to compiler/passes.
#pragma once

#include <optional>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::passes {

// The single node reading `t`, if `t` has exactly one use and is not a graph output.
ir::Node* SoleUser(const ir::Graph& g, const ir::Tensor* t);

// Whether `node`'s only output can be replaced by `replacement`: always, unless the output is a
// graph output and `replacement` already is a graph input, output or constant (both names would
// have to survive).
bool CanReplace(const ir::Graph& g, const ir::Node& node, const ir::Tensor* replacement);

// Makes all readers of `node`'s only output (graph outputs included) read `replacement`, erases
// `node`, and, if the output was a graph output, gives `replacement` its name so the graph's
// interface is unchanged. Requires CanReplace. Leaves dead tensors for RemoveUnusedTensors().
void ReplaceNode(ir::Graph& g, ir::Node* node, ir::Tensor* replacement);

// Erases each of `nodes`, in order, whose outputs nobody reads any more (and are not graph
// outputs): what a pattern rewrite leaves behind.
void EraseIfDead(ir::Graph& g, const std::vector<ir::Node*>& nodes);

// The producer of `t` if it is a `kind` node and `t` has no other reader; else nullptr.
ir::Node* SoleProducer(const ir::Graph& g, const ir::Tensor* t, ir::OpKind kind);

// The single constant operand of a two-input node and the other one, or {nullptr, nullptr}.
std::pair<ir::Tensor*, ir::Tensor*> ConstantAndOther(const ir::Node& n);

// After a rewrite that added nodes (typed by nobody, appended at the end): drops dead tensors,
// restores topological order and re-infers every type.
Status Retype(ir::Graph& g);

// A new constant named after `base` holding `value`.
ir::Tensor* AddConstant(ir::Graph& g, const std::string& base, const interp::HostTensor& value);

// The f32 values of a constant, or nullopt if `t` is absent, not constant or not f32.
std::optional<std::vector<float>> FloatConstant(const ir::Tensor* t);

// Clip's bounds from its attributes or constant inputs 1 and 2; nullopt if not constant.
std::optional<std::pair<float, float>> ClipBounds(const ir::Node& clip);

// "relu" / "relu6" if `node` is Relu, Clip(0, inf) or Clip(0, 6); else nullopt.
std::optional<std::string> ActivationName(const ir::Node& node);

}  // namespace npu::compiler::passes
