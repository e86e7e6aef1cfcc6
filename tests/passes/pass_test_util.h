// Helpers for pass tests: small hand-built graphs with seeded constants, and the soundness check
// every rewrite must pass (interpreter outputs before == after within 1e-5 of the output scale).
#pragma once

#include <gtest/gtest.h>

#include <random>

#include "compiler/interp/interpreter.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/passes.h"
#include "compiler/passes/pipeline.h"
#include "tests/common/ir_test_graphs.h"

namespace npu::compiler::passes::testing {

using interp::HostTensor;
using Ints = std::vector<int64_t>;

// Seeded values in [lo, hi).
inline std::vector<float> Values(int64_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = lo + (hi - lo) * float(rng() / 4294967296.0);
  return v;
}

inline ir::Tensor* RandomConst(ir::Graph& g, const std::string& name, ir::Shape shape,
                               uint32_t seed, float lo = -1, float hi = 1) {
  const int64_t n = ir::NumElements(shape);
  return g.AddConstant(name, std::move(shape), Values(n, seed, lo, hi));
}

inline ir::Attributes A(std::initializer_list<std::pair<std::string, ir::AttrValue>> kv) {
  ir::Attributes a;
  for (const auto& [k, v] : kv) a.Set(k, v);
  return a;
}

using npu::testing::AddShapeChainReshape;

// conv 3x3 pad 1 from `in_c` to `out_c` channels, weights seeded.
inline ir::Node* AddConv(ir::Graph& g, const std::string& name, ir::Tensor* x, int64_t in_c,
                         int64_t out_c, uint32_t seed, bool bias = false) {
  std::vector<ir::Tensor*> in = {x, RandomConst(g, name + ".w", {out_c, in_c, 3, 3}, seed)};
  if (bias) in.push_back(RandomConst(g, name + ".b", {out_c}, seed + 1));
  return g.AddNode(ir::OpKind::kConv, name, in, {name}, A({{"pads", Ints{1, 1, 1, 1}}}));
}

inline ir::Node* AddBatchNorm(ir::Graph& g, const std::string& name, ir::Tensor* x, int64_t c,
                              uint32_t seed) {
  return g.AddNode(
      ir::OpKind::kBatchNormalization, name,
      {x, RandomConst(g, name + ".gamma", {c}, seed, 0.5f, 1.5f),
       RandomConst(g, name + ".beta", {c}, seed + 1), RandomConst(g, name + ".mean", {c}, seed + 2),
       RandomConst(g, name + ".var", {c}, seed + 3, 0.5f, 2.0f)},
      {name});
}

inline void Infer(ir::Graph& g) {
  PassContext ctx;
  const Status s = InferShapes(g, ctx);
  ASSERT_TRUE(s.ok()) << s.message();
}

inline std::vector<HostTensor> RandomInputs(const ir::Graph& g, uint32_t seed = 5) {
  std::vector<HostTensor> in;
  for (const ir::Tensor* t : g.inputs()) {
    in.push_back(HostTensor::FromValues(t->shape(), Values(ir::NumElements(t->shape()), seed++),
                                        t->layout()));
  }
  return in;
}

inline std::vector<HostTensor> Interpreted(const ir::Graph& g, const std::vector<HostTensor>& in) {
  auto r = interp::Interpret(g, in);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : std::vector<HostTensor>{};
}

// Runs `pass` through the pipeline's RunPass (so the verifier runs after it) and checks the
// interpreter gives the same outputs before and after. Returns the pass's statistics.
inline PassContext ExpectSoundPass(std::string_view pass, ir::Graph& g) {
  const std::vector<HostTensor> in = RandomInputs(g);
  const std::vector<HostTensor> before = Interpreted(g, in);
  PassContext ctx;
  const StatusOr<PassInfo> info = FindPass(pass);
  EXPECT_TRUE(info.ok());
  const Status s = RunPass(*info, g, ctx);
  EXPECT_TRUE(s.ok()) << s.message() << "\n" << ir::PrintGraph(g);
  const std::vector<HostTensor> after = Interpreted(g, in);
  EXPECT_EQ(before.size(), after.size());
  for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
    EXPECT_LE(interp::MaxRelativeError(after[i], before[i]), 1e-5) << "output " << i;
  }
  return ctx;
}

inline size_t CountKind(const ir::Graph& g, ir::OpKind kind) { return g.NodesOfKind(kind).size(); }

}  // namespace npu::compiler::passes::testing
