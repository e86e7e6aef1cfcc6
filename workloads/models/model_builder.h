// Builds float NCHW graphs the way an ONNX import of a PyTorch model looks (Conv without bias
// before BatchNormalization, Relu, Clip for ReLU6, Add, MaxPool, GlobalAveragePool, Flatten,
// Gemm with transB=1), with deterministic weights. Internal to workloads/models.
//
// Weights: Kaiming-uniform, bound sqrt(6 / fan_in) (PyTorch's init for ReLU nets); biases
// uniform +-1/sqrt(fan_in). BatchNorm statistics are deliberately not the identity (gamma in
// [0.6, 1.2], beta and mean in [-0.2, 0.2], var in [0.5, 2]) so that folding them is really
// exercised. Values come from std::mt19937's raw output mapped by hand: std distributions differ
// between standard libraries.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace npu::workloads {

class ModelBuilder {
 public:
  ModelBuilder(std::string graph_name, uint32_t seed) : g_(std::move(graph_name)), rng_(seed) {}

  compiler::ir::Tensor* Input(const std::string& name, compiler::ir::Shape shape);

  // PyTorch nn.Conv2d(in_c, out_c, k, stride, pad, groups, bias) as ONNX Conv.
  compiler::ir::Tensor* Conv(compiler::ir::Tensor* x, const std::string& name, int64_t in_c,
                             int64_t out_c, int64_t k, int64_t stride, int64_t pad,
                             int64_t groups = 1, bool bias = false);
  // The same with a kernel and strides that need not be square (no padding, one group).
  struct ConvWindow {
    int64_t kernel_h, kernel_w, stride_h, stride_w;
  };
  compiler::ir::Tensor* Conv(compiler::ir::Tensor* x, const std::string& name, int64_t in_c,
                             int64_t out_c, const ConvWindow& window, bool bias);
  compiler::ir::Tensor* BatchNorm(compiler::ir::Tensor* x, const std::string& name,
                                  int64_t channels);
  compiler::ir::Tensor* Relu(compiler::ir::Tensor* x, const std::string& name);
  compiler::ir::Tensor* Relu6(compiler::ir::Tensor* x,
                              const std::string& name);  // Clip {min=0, max=6}
  compiler::ir::Tensor* Add(compiler::ir::Tensor* a, compiler::ir::Tensor* b,
                            const std::string& name);
  compiler::ir::Tensor* MaxPool(compiler::ir::Tensor* x, const std::string& name, int64_t k,
                                int64_t stride, int64_t pad);
  compiler::ir::Tensor* GlobalAveragePool(compiler::ir::Tensor* x, const std::string& name);
  compiler::ir::Tensor* Flatten(compiler::ir::Tensor* x, const std::string& name);
  // x.view(x.size(0), -1) as older PyTorch exporters wrote it:
  // Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])).
  compiler::ir::Tensor* FlattenByShapeChain(compiler::ir::Tensor* x, const std::string& name);
  // nn.Linear(in_f, out_f) as Gemm(x, W[out_f, in_f], b) {transB=1}.
  compiler::ir::Tensor* Linear(compiler::ir::Tensor* x, const std::string& name, int64_t in_f,
                               int64_t out_f);

  // x [..., K] times a weight matrix B [K, n] (Kaiming, fan_in K) as ONNX MatMul: nn.Linear
  // without bias, applied to every row of x.
  compiler::ir::Tensor* MatMul(compiler::ir::Tensor* x, const std::string& name, int64_t k,
                               int64_t n);

  // Marks `outputs` as the graph's outputs and returns the graph (types not inferred).
  compiler::ir::Graph Finish(const std::vector<compiler::ir::Tensor*>& outputs);

 private:
  compiler::ir::Tensor* Node(compiler::ir::OpKind kind, const std::string& name,
                             std::vector<compiler::ir::Tensor*> in,
                             compiler::ir::Attributes attrs = {});
  compiler::ir::Tensor* Constant(const std::string& name, compiler::ir::Shape shape,
                                 std::vector<float> values);
  // Both Convs: weights [out_c, in_c / groups, kernel_h, kernel_w], then the bias if any.
  compiler::ir::Tensor* ConvNode(compiler::ir::Tensor* x, const std::string& name, int64_t in_c,
                                 int64_t out_c, const ConvWindow& window, int64_t pad,
                                 int64_t groups, bool bias);
  std::vector<float> Uniform(int64_t count, float lo, float hi);

  compiler::ir::Graph g_;
  std::mt19937 rng_;
};

}  // namespace npu::workloads
