// Runs one op through the interpreter: each operand becomes a graph input (or a constant, for
// operands whose value a shape rule needs), the node's outputs the graph's outputs.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "compiler/interp/interpreter.h"

namespace npu::compiler::interp::testing {

struct Operand {
  HostTensor value;
  bool constant = false;
};

inline Operand In(HostTensor t) { return {std::move(t), false}; }
inline Operand Const(HostTensor t) { return {std::move(t), true}; }
inline HostTensor F32(ir::Shape shape, std::vector<float> v, ir::Layout l = ir::Layout::kNone) {
  return HostTensor::FromValues(std::move(shape), v, l);
}
inline HostTensor I64(ir::Shape shape, std::vector<int64_t> v) {
  return HostTensor::FromValues(std::move(shape), v);
}

inline StatusOr<std::vector<HostTensor>> RunOp(ir::OpKind kind, const ir::Attributes& attrs,
                                               const std::vector<Operand>& operands,
                                               int outputs = 1) {
  ir::Graph g("op");
  std::vector<ir::Tensor*> in;
  std::vector<HostTensor> values;
  for (size_t i = 0; i < operands.size(); ++i) {
    const HostTensor& v = operands[i].value;
    const std::string name = "in" + std::to_string(i);
    if (operands[i].constant) {
      ir::Tensor* t = g.AddConstant<uint8_t>(name, v.shape, {});
      t->set_bytes(v.dtype, v.data);
      in.push_back(t);
    } else {
      in.push_back(g.AddInput(name, v.dtype, v.shape, v.layout));
      values.push_back(v);
    }
  }
  std::vector<std::string> names;
  for (int i = 0; i < outputs; ++i) names.push_back("out" + std::to_string(i));
  ir::Node* n = g.AddNode(kind, "node", in, names, attrs);
  for (ir::Tensor* t : n->outputs()) g.AddOutput(t);
  return Interpret(g, values);
}

// Values of a single-output op, or empty with a test failure.
inline std::vector<float> Floats(const StatusOr<std::vector<HostTensor>>& r) {
  if (!r.ok() || r->empty()) {
    ADD_FAILURE() << (r.ok() ? "no outputs" : r.status().message());
    return {};
  }
  const auto v = (*r)[0].values<float>();
  return {v.begin(), v.end()};
}

// NCHW <-> NHWC of host data, for checking one layout against the other.
inline HostTensor ToNHWC(const HostTensor& t) {
  const int64_t n = t.shape[0], c = t.shape[1], h = t.shape[2], w = t.shape[3];
  HostTensor out = HostTensor::Zeros({t.dtype, {n, h, w, c}, ir::Layout::kNHWC});
  const auto x = t.values<float>();
  auto y = out.values<float>();
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = 0; b < c; ++b)
      for (int64_t i = 0; i < h * w; ++i) y[(a * h * w + i) * c + b] = x[(a * c + b) * h * w + i];
  return out;
}

inline Operand In(ir::Shape shape, std::vector<float> v, ir::Layout l = ir::Layout::kNone) {
  return In(F32(std::move(shape), std::move(v), l));
}

using Ints = std::vector<int64_t>;
inline ir::Attributes A(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::Attributes a;
  for (const auto& [k, v] : kv) a.Set(k, v);
  return a;
}

}  // namespace npu::compiler::interp::testing
