// Graph building with deterministic weights.
#include "workloads/models/model_builder.h"

#include <cmath>

namespace npu::workloads {

namespace ir = compiler::ir;

ir::Tensor* ModelBuilder::Input(const std::string& name, ir::Shape shape) {
  const ir::Layout layout = shape.size() == 4 ? ir::Layout::kNCHW : ir::Layout::kNone;
  return g_.AddInput(name, ir::DType::kFloat32, std::move(shape), layout);
}

std::vector<float> ModelBuilder::Uniform(int64_t count, float lo, float hi) {
  std::vector<float> v(static_cast<size_t>(count));
  for (float& x : v) x = lo + (hi - lo) * static_cast<float>(rng_() / 4294967296.0);
  return v;
}

ir::Tensor* ModelBuilder::Constant(const std::string& name, ir::Shape shape,
                                   std::vector<float> values) {
  return g_.AddConstant(g_.UniqueName(name), std::move(shape), values);
}

ir::Tensor* ModelBuilder::Node(ir::OpKind kind, const std::string& name,
                               std::vector<ir::Tensor*> in, ir::Attributes attrs) {
  const std::string unique = g_.UniqueName(name);
  return g_.AddNode(kind, unique, std::move(in), {unique}, std::move(attrs))->output(0);
}

ir::Tensor* ModelBuilder::Conv(ir::Tensor* x, const std::string& name, int64_t in_c, int64_t out_c,
                               int64_t k, int64_t stride, int64_t pad, int64_t groups, bool bias) {
  return ConvNode(x, name, in_c, out_c, {k, k, stride, stride}, pad, groups, bias);
}

ir::Tensor* ModelBuilder::Conv(ir::Tensor* x, const std::string& name, int64_t in_c, int64_t out_c,
                               const ConvWindow& window, bool bias) {
  return ConvNode(x, name, in_c, out_c, window, 0, 1, bias);
}

ir::Tensor* ModelBuilder::ConvNode(ir::Tensor* x, const std::string& name, int64_t in_c,
                                   int64_t out_c, const ConvWindow& window, int64_t pad,
                                   int64_t groups, bool bias) {
  const int64_t kh = window.kernel_h, kw = window.kernel_w;
  const int64_t fan_in = in_c / groups * kh * kw;
  const float bound = std::sqrt(6.0f / static_cast<float>(fan_in));
  std::vector<ir::Tensor*> in = {x, Constant(name + ".weight", {out_c, in_c / groups, kh, kw},
                                             Uniform(out_c * fan_in, -bound, bound))};
  if (bias) {
    const float b = 1.0f / std::sqrt(static_cast<float>(fan_in));
    in.push_back(Constant(name + ".bias", {out_c}, Uniform(out_c, -b, b)));
  }
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{kh, kw});
  a.Set("strides", std::vector<int64_t>{window.stride_h, window.stride_w});
  a.Set("pads", std::vector<int64_t>{pad, pad, pad, pad});
  a.Set("dilations", std::vector<int64_t>{1, 1});
  a.Set("group", groups);
  return Node(ir::OpKind::kConv, name, std::move(in), std::move(a));
}

ir::Tensor* ModelBuilder::BatchNorm(ir::Tensor* x, const std::string& name, int64_t channels) {
  ir::Tensor* gamma = Constant(name + ".weight", {channels}, Uniform(channels, 0.6f, 1.2f));
  ir::Tensor* beta = Constant(name + ".bias", {channels}, Uniform(channels, -0.2f, 0.2f));
  ir::Tensor* mean = Constant(name + ".running_mean", {channels}, Uniform(channels, -0.2f, 0.2f));
  ir::Tensor* var = Constant(name + ".running_var", {channels}, Uniform(channels, 0.5f, 2.0f));
  ir::Attributes a;
  a.Set("epsilon", 1e-5f);
  return Node(ir::OpKind::kBatchNormalization, name, {x, gamma, beta, mean, var}, std::move(a));
}

ir::Tensor* ModelBuilder::Relu(ir::Tensor* x, const std::string& name) {
  return Node(ir::OpKind::kRelu, name, {x});
}

ir::Tensor* ModelBuilder::Relu6(ir::Tensor* x, const std::string& name) {
  ir::Attributes a;
  a.Set("min", 0.0f);
  a.Set("max", 6.0f);
  return Node(ir::OpKind::kClip, name, {x}, std::move(a));
}

ir::Tensor* ModelBuilder::Add(ir::Tensor* a, ir::Tensor* b, const std::string& name) {
  return Node(ir::OpKind::kAdd, name, {a, b});
}

ir::Tensor* ModelBuilder::MaxPool(ir::Tensor* x, const std::string& name, int64_t k, int64_t stride,
                                  int64_t pad) {
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{k, k});
  a.Set("strides", std::vector<int64_t>{stride, stride});
  a.Set("pads", std::vector<int64_t>{pad, pad, pad, pad});
  a.Set("ceil_mode", int64_t{0});
  return Node(ir::OpKind::kMaxPool, name, {x}, std::move(a));
}

ir::Tensor* ModelBuilder::GlobalAveragePool(ir::Tensor* x, const std::string& name) {
  return Node(ir::OpKind::kGlobalAveragePool, name, {x});
}

ir::Tensor* ModelBuilder::Flatten(ir::Tensor* x, const std::string& name) {
  ir::Attributes a;
  a.Set("axis", int64_t{1});
  return Node(ir::OpKind::kFlatten, name, {x}, std::move(a));
}

ir::Tensor* ModelBuilder::FlattenByShapeChain(ir::Tensor* x, const std::string& name) {
  ir::Tensor* shape = Node(ir::OpKind::kShape, name + ".shape", {x});
  ir::Attributes gather;
  gather.Set("axis", int64_t{0});
  ir::Tensor* zero = g_.AddConstant<int64_t>(g_.UniqueName(name + ".zero"), {}, {0});
  ir::Tensor* batch = Node(ir::OpKind::kGather, name + ".gather", {shape, zero}, gather);
  ir::Attributes unsqueeze;
  unsqueeze.Set("axes", std::vector<int64_t>{0});
  ir::Tensor* batch1 = Node(ir::OpKind::kUnsqueeze, name + ".unsqueeze", {batch}, unsqueeze);
  ir::Tensor* rest = g_.AddConstant<int64_t>(g_.UniqueName(name + ".minus_one"), {1}, {-1});
  ir::Attributes concat;
  concat.Set("axis", int64_t{0});
  ir::Tensor* target = Node(ir::OpKind::kConcat, name + ".concat", {batch1, rest}, concat);
  return Node(ir::OpKind::kReshape, name, {x, target});
}

ir::Tensor* ModelBuilder::Linear(ir::Tensor* x, const std::string& name, int64_t in_f,
                                 int64_t out_f) {
  const float bound = std::sqrt(6.0f / static_cast<float>(in_f));
  const float b = 1.0f / std::sqrt(static_cast<float>(in_f));
  ir::Tensor* w = Constant(name + ".weight", {out_f, in_f}, Uniform(out_f * in_f, -bound, bound));
  ir::Tensor* bias = Constant(name + ".bias", {out_f}, Uniform(out_f, -b, b));
  ir::Attributes a;
  a.Set("transB", int64_t{1});
  return Node(ir::OpKind::kGemm, name, {x, w, bias}, std::move(a));
}

ir::Tensor* ModelBuilder::MatMul(ir::Tensor* x, const std::string& name, int64_t k, int64_t n) {
  const float bound = std::sqrt(6.0f / static_cast<float>(k));
  ir::Tensor* b = Constant(name + ".weight", {k, n}, Uniform(k * n, -bound, bound));
  return Node(ir::OpKind::kMatMul, name, {x, b});
}

ir::Graph ModelBuilder::Finish(const std::vector<ir::Tensor*>& outputs) {
  for (ir::Tensor* t : outputs) g_.AddOutput(t);
  return std::move(g_);
}

}  // namespace npu::workloads
