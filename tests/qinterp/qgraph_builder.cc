// Hand-built quantised graphs.
#include "tests/qinterp/qgraph_builder.h"

namespace npu::compiler::qinterp_test {
namespace {

void SetParams(ir::Tensor* t, float scale, int32_t zero_point) {
  t->quant().scale = {scale};
  t->quant().zero_point = {zero_point};
}

}  // namespace

void SetClamp(ir::Attributes& a, int64_t lo, int64_t hi) {
  a.Set("clamp_min", lo);
  a.Set("clamp_max", hi);
}

ir::Tensor* QGraphBuilder::Input(const std::string& name, ir::Shape shape, float scale,
                                 int32_t zero_point) {
  const ir::Layout layout = shape.size() == 4 ? ir::Layout::kNHWC : ir::Layout::kNone;
  ir::Tensor* t = g_.AddInput(name, ir::DType::kInt8, std::move(shape), layout);
  SetParams(t, scale, zero_point);
  return t;
}

ir::Tensor* QGraphBuilder::Weights(const std::string& name, ir::Shape shape,
                                   std::vector<int8_t> values) {
  const int64_t rows = shape[0];
  ir::Tensor* t = g_.AddConstant(name, std::move(shape), values);
  t->quant().scale.assign(rows, 0.01f);
  t->quant().zero_point.assign(rows, 0);
  t->quant().axis = 0;
  return t;
}

ir::Tensor* QGraphBuilder::Bias(const std::string& name, std::vector<int32_t> values) {
  return g_.AddConstant(name, {static_cast<int64_t>(values.size())}, values);
}

ir::Tensor* QGraphBuilder::Conv(const std::string& name, ir::Tensor* x, ir::Tensor* w,
                                ir::Tensor* b, ir::Shape out_shape, float scale, int32_t zero_point,
                                int64_t group, std::vector<int64_t> pads, int32_t multiplier,
                                int32_t shift) {
  const int64_t out_c = w->shape()[0];
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{w->shape()[1], w->shape()[2]});
  a.Set("strides", std::vector<int64_t>{1, 1});
  a.Set("pads", std::move(pads));
  a.Set("dilations", std::vector<int64_t>{1, 1});
  a.Set("group", group);
  a.Set("activation", std::string("none"));
  a.Set("multiplier", std::vector<int64_t>(out_c, multiplier));
  a.Set("shift", std::vector<int64_t>(out_c, shift));
  SetClamp(a);
  return Node(ir::OpKind::kFusedConv, name, {x, w, b}, std::move(out_shape), scale, zero_point,
              std::move(a));
}

ir::Tensor* QGraphBuilder::Node(ir::OpKind kind, const std::string& name,
                                std::vector<ir::Tensor*> inputs, ir::Shape out_shape, float scale,
                                int32_t zero_point, ir::Attributes attrs) {
  ir::Node* n = g_.AddNode(kind, name, std::move(inputs), {name}, std::move(attrs));
  ir::Tensor* y = n->output(0);
  y->set_dtype(ir::DType::kInt8);
  y->set_layout(out_shape.size() == 4 ? ir::Layout::kNHWC : ir::Layout::kNone);
  y->set_shape(std::move(out_shape));
  SetParams(y, scale, zero_point);
  return y;
}

ir::Graph QGraphBuilder::Finish(const std::vector<ir::Tensor*>& outputs) {
  for (ir::Tensor* t : outputs) g_.AddOutput(t);
  return std::move(g_);
}

}  // namespace npu::compiler::qinterp_test
