// Float graphs for the end-to-end tests of the quantised IR's ops (tensor_ops_test.cc,
// attention_test.cc): a builder with seeded constants, and the check that runs a graph through
// the front-end pipeline and the quantiser, compiles it and executes it functionally on every
// sweep config, every output byte against the integer reference, the int8 result close to the
// float one.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/network/compile_model.h"

namespace npu::compiler::testing {

// A float graph under construction, with seeded constants.
class FloatBuilder {
 public:
  explicit FloatBuilder(const std::string& name) : g_(name), rng_(7) {}
  ir::Graph& graph() { return g_; }

  ir::Tensor* Input(ir::Shape shape);  // 4-D inputs are NCHW
  ir::Tensor* Const(ir::Shape shape, float scale = 0.5f);
  ir::Tensor* Scalar(float v);
  ir::Tensor* Floats(std::vector<float> v);
  ir::Tensor* Ints(std::vector<int64_t> v);
  ir::Tensor* Op(ir::OpKind k, std::vector<ir::Tensor*> in, ir::Attributes a = {});
  ir::Tensor* Conv(ir::Tensor* x, int64_t in_c, int64_t out_c, int64_t k);  // same padding
  ir::Graph Finish(ir::Tensor* y);

 private:
  ir::Graph g_;
  std::mt19937 rng_;
};

ir::Attributes Attr(const std::string& name, ir::AttrValue v);

// Seeded N(0, 1) inputs, one per graph input.
std::vector<interp::HostTensor> Sample(const ir::Graph& g, uint32_t seed);

// The front-end pipeline (on `f`, in place) and quantisation on seeded samples.
StatusOr<ir::Graph> PipelineAndQuantize(ir::Graph& f);

// Pipeline, quantisation on seeded samples, bit-exact on every sweep config, and close to float.
// Returns the model compiled for the default config.
CompiledModel Check(ir::Graph f, double min_cosine);

// Layers of `op` the NPU (the control core) runs.
int NpuLayers(const CompiledModel& m, const std::string& op);
int CpuLayers(const CompiledModel& m, const std::string& op);

}  // namespace npu::compiler::testing
