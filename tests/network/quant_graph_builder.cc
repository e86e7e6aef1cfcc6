// The quantised-graph builder for tests.
#include "tests/network/quant_graph_builder.h"

#include <algorithm>
#include <cmath>

#include "compiler/interp/resize_taps.h"
#include "compiler/quant/quant_math.h"

namespace npu::compiler::testing {
namespace {

int32_t Zp(const ir::Tensor* t) { return t->quant().zero_point[0]; }
float Scale(const ir::Tensor* t) { return t->quant().scale[0]; }

// multiplier/shift of a real factor (valid for the factors tests use).
QuantizedMultiplier Mult(double real) { return *QuantizeMultiplier(real); }

}  // namespace

int32_t QuantGraphBuilder::Int(int32_t lo, int32_t hi) {
  return lo + static_cast<int32_t>(rng_() % static_cast<uint32_t>(hi - lo + 1));
}
double QuantGraphBuilder::Unit() { return rng_() / 4294967296.0; }

ir::Tensor* QuantGraphBuilder::Out(ir::Node* n, ir::Shape shape, float scale, int32_t zp) {
  ir::Tensor* t = n->output(0);
  t->set_dtype(ir::DType::kInt8);
  t->set_layout(shape.size() == 4 ? ir::Layout::kNHWC : ir::Layout::kNone);
  t->set_shape(std::move(shape));
  t->quant() = {{scale}, {zp}, -1};
  return t;
}

void QuantGraphBuilder::SetClamp(ir::Attributes& a, const std::string& activation, float scale,
                                 int32_t zp) {
  a.Set("activation", activation);
  const ClampRange c = activation == "relu"    ? ReluClamp(zp)
                       : activation == "relu6" ? Relu6Clamp(scale, zp)
                                               : NoActivationClamp();
  a.Set("clamp_min", int64_t{c.min});
  a.Set("clamp_max", int64_t{c.max});
}

ir::Tensor* QuantGraphBuilder::Input(const std::string& name, int64_t h, int64_t w, int64_t c) {
  ir::Tensor* t = g_.AddInput(name, ir::DType::kInt8, {1, h, w, c}, ir::Layout::kNHWC);
  t->quant() = {{0.05f}, {Int(-20, 20)}, -1};
  return t;
}

ir::Tensor* QuantGraphBuilder::VectorInput(const std::string& name, int64_t k) {
  ir::Tensor* t = g_.AddInput(name, ir::DType::kInt8, {1, k}, ir::Layout::kNone);
  t->quant() = {{0.05f}, {Int(-20, 20)}, -1};
  return t;
}

ir::Tensor* QuantGraphBuilder::Conv(ir::Tensor* x, const std::string& name, const ConvSpec& s) {
  const ir::Shape& xs = x->shape();
  const int64_t in_c = xs[3], ic = in_c / s.group, k = s.kh * s.kw * ic;
  // 1. Weights OHWI with a per-channel amplitude, their scales, a bias in accumulator scale.
  std::vector<int8_t> w(s.out_c * k);
  std::vector<float> w_scale(s.out_c);
  std::vector<int32_t> bias(s.out_c);
  for (int64_t o = 0; o < s.out_c; ++o) {
    const int32_t amplitude = Int(30, 127);
    for (int64_t i = 0; i < k; ++i) w[o * k + i] = static_cast<int8_t>(Int(-amplitude, amplitude));
    w_scale[o] = static_cast<float>((0.5 + Unit()) * 0.004);
    bias[o] = Int(-2000, 2000);
  }
  // 2. Output scale: the accumulator's spread (about sqrt(k) * 70 * 40 levels) over 60 levels.
  const float s_x = Scale(x);
  const float s_y = static_cast<float>(s_x * 0.004 * std::sqrt(double(k)) * 70 * 40 / 60);
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{s.kh, s.kw});
  a.Set("strides", std::vector<int64_t>{s.stride_h, s.stride_w});
  a.Set("pads", std::vector<int64_t>(s.pads.begin(), s.pads.end()));
  a.Set("dilations", std::vector<int64_t>{s.dilation_h, s.dilation_w});
  a.Set("group", s.group);
  std::vector<int64_t> mult, shift;
  for (float ws : w_scale) {
    const QuantizedMultiplier m = Mult(double(s_x) * ws / s_y);
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }
  a.Set("multiplier", mult);
  a.Set("shift", shift);
  const int32_t zp = Int(-30, 30);
  SetClamp(a, s.activation, s_y, zp);
  ir::Tensor* wt = g_.AddConstant(name + ".w", {s.out_c, s.kh, s.kw, ic}, w);
  wt->quant() = {w_scale, std::vector<int32_t>(s.out_c, 0), 0};
  ir::Tensor* bt = g_.AddConstant(name + ".b", {s.out_c}, bias);
  ir::Node* n = g_.AddNode(ir::OpKind::kFusedConv, name, {x, wt, bt}, {name}, std::move(a));
  const int64_t eh = (s.kh - 1) * s.dilation_h + 1, ew = (s.kw - 1) * s.dilation_w + 1;
  const int64_t oh = (xs[1] + s.pads[0] + s.pads[2] - eh) / s.stride_h + 1;
  const int64_t ow = (xs[2] + s.pads[1] + s.pads[3] - ew) / s.stride_w + 1;
  return Out(n, {1, oh, ow, s.out_c}, s_y, zp);
}

ir::Tensor* QuantGraphBuilder::Gemm(ir::Tensor* x, const std::string& name, int64_t n_out,
                                    bool relu) {
  const int64_t k = x->shape().back();
  std::vector<int8_t> w(n_out * k);
  std::vector<float> w_scale(n_out);
  std::vector<int32_t> bias(n_out);
  std::vector<int64_t> mult, shift;
  const float s_x = Scale(x);
  const float s_y = static_cast<float>(s_x * 0.004 * std::sqrt(double(k)) * 70 * 40 / 60);
  for (int64_t o = 0; o < n_out; ++o) {
    for (int64_t i = 0; i < k; ++i) w[o * k + i] = static_cast<int8_t>(Int(-127, 127));
    w_scale[o] = static_cast<float>((0.5 + Unit()) * 0.004);
    bias[o] = Int(-2000, 2000);
    const QuantizedMultiplier m = Mult(double(s_x) * w_scale[o] / s_y);
    mult.push_back(m.multiplier);
    shift.push_back(m.shift);
  }
  ir::Attributes a;
  a.Set("transB", int64_t{1});
  a.Set("multiplier", mult);
  a.Set("shift", shift);
  const int32_t zp = Int(-30, 30);
  SetClamp(a, relu ? "relu" : "none", s_y, zp);
  ir::Tensor* wt = g_.AddConstant(name + ".w", {n_out, k}, w);
  wt->quant() = {w_scale, std::vector<int32_t>(n_out, 0), 0};
  ir::Tensor* bt = g_.AddConstant(name + ".b", {n_out}, bias);
  ir::Node* n = g_.AddNode(ir::OpKind::kGemm, name, {x, wt, bt}, {name}, std::move(a));
  ir::Shape y = x->shape();
  y.back() = n_out;
  return Out(n, std::move(y), s_y, zp);
}

ir::Tensor* QuantGraphBuilder::LayerNorm(ir::Tensor* x, const std::string& name) {
  const int64_t c = x->shape().back();
  std::vector<int8_t> w(c);
  std::vector<float> w_scale(c);
  std::vector<int32_t> bias(c);
  std::vector<int64_t> mult, shift;
  for (int64_t k = 0; k < c; ++k) {
    w[k] = static_cast<int8_t>(Int(20, 127));
    w_scale[k] = static_cast<float>((0.5 + Unit()) * 0.01);
    bias[k] = Int(-20000, 20000);
    mult.push_back(Int(1 << 30, (1 << 30) + (1 << 29)));
    shift.push_back(Int(42, 44));  // a normalised value (x4096) times the weight to int8
  }
  ir::Attributes a;
  a.Set("axis", int64_t(x->shape().size()) - 1);
  a.Set("eps_term", int64_t{3});
  a.Set("multiplier", mult);
  a.Set("shift", shift);
  const int32_t zp = Int(-10, 10);
  SetClamp(a, "none", 0.04f, zp);
  ir::Tensor* wt = g_.AddConstant(name + ".w", {c}, w);
  wt->quant() = {w_scale, std::vector<int32_t>(c, 0), 0};
  ir::Tensor* bt = g_.AddConstant(name + ".b", {c}, bias);
  ir::Node* n =
      g_.AddNode(ir::OpKind::kLayerNormalization, name, {x, wt, bt}, {name}, std::move(a));
  return Out(n, x->shape(), 0.04f, zp);
}

namespace {

ir::Attributes Window(const PoolSpec& s) {
  ir::Attributes a;
  a.Set("kernel_shape", std::vector<int64_t>{s.kh, s.kw});
  a.Set("strides", std::vector<int64_t>{s.stride_h, s.stride_w});
  a.Set("pads", std::vector<int64_t>(s.pads.begin(), s.pads.end()));
  return a;
}

ir::Shape PoolShape(const ir::Tensor* x, const PoolSpec& s) {
  const ir::Shape& xs = x->shape();
  return {1, (xs[1] + s.pads[0] + s.pads[2] - s.kh) / s.stride_h + 1,
          (xs[2] + s.pads[1] + s.pads[3] - s.kw) / s.stride_w + 1, xs[3]};
}

}  // namespace

ir::Tensor* QuantGraphBuilder::MaxPool(ir::Tensor* x, const std::string& name, const PoolSpec& s) {
  ir::Attributes a = Window(s);
  SetClamp(a, "none", Scale(x), Zp(x));
  a.Erase("activation");
  ir::Node* n = g_.AddNode(ir::OpKind::kMaxPool, name, {x}, {name}, std::move(a));
  return Out(n, PoolShape(x, s), Scale(x), Zp(x));
}

int32_t QuantGraphBuilder::SetAverageRequant(ir::Attributes& a, float s_x, float s_y) {
  const QuantizedMultiplier m = Mult(double(s_x) / s_y);
  a.Set("multiplier", int64_t{m.multiplier});
  a.Set("shift", int64_t{m.shift});
  const int32_t zp = Int(-30, 30);
  SetClamp(a, "none", s_y, zp);
  a.Erase("activation");
  return zp;
}

ir::Tensor* QuantGraphBuilder::AvgPool(ir::Tensor* x, const std::string& name, const PoolSpec& s) {
  ir::Attributes a = Window(s);
  a.Set("count_include_pad", int64_t{s.count_include_pad});
  const float s_y = Scale(x) * static_cast<float>(0.6 + 0.3 * Unit());
  const int32_t zp = SetAverageRequant(a, Scale(x), s_y);
  ir::Node* n = g_.AddNode(ir::OpKind::kAveragePool, name, {x}, {name}, std::move(a));
  return Out(n, PoolShape(x, s), s_y, zp);
}

ir::Tensor* QuantGraphBuilder::GlobalAvgPool(ir::Tensor* x, const std::string& name) {
  ir::Attributes a;
  const float s_y = Scale(x) * 0.4f;  // averages spread less than their inputs
  const int32_t zp = SetAverageRequant(a, Scale(x), s_y);
  ir::Node* n = g_.AddNode(ir::OpKind::kGlobalAveragePool, name, {x}, {name}, std::move(a));
  return Out(n, {1, 1, 1, x->shape()[3]}, s_y, zp);
}

ir::Tensor* QuantGraphBuilder::Add(ir::Tensor* a, ir::Tensor* b, const std::string& name,
                                   bool relu) {
  // Ma = round(s_a / s_y * 2^shift), Mb likewise, with the largest shift keeping both in int16.
  const float s_y = std::max(Scale(a), Scale(b)) * 1.3f;
  const double ra = double(Scale(a)) / s_y, rb = double(Scale(b)) / s_y;
  int64_t shift = 1;
  while (shift < 30 && std::round(std::max(ra, rb) * std::ldexp(1.0, int(shift + 1))) <= 32767) {
    ++shift;
  }
  ir::Attributes attrs;
  attrs.Set("a_multiplier", int64_t(std::round(ra * std::ldexp(1.0, int(shift)))));
  attrs.Set("b_multiplier", int64_t(std::round(rb * std::ldexp(1.0, int(shift)))));
  attrs.Set("shift", shift);
  const int32_t zp = Int(-30, 30);
  SetClamp(attrs, relu ? "relu" : "none", s_y, zp);
  ir::Node* n = g_.AddNode(relu ? ir::OpKind::kFusedAdd : ir::OpKind::kAdd, name, {a, b}, {name},
                           std::move(attrs));
  return Out(n, a->shape(), s_y, zp);
}

ir::Tensor* QuantGraphBuilder::Lut(ir::Tensor* x, const std::string& name) {
  std::vector<int64_t> table(256);
  int64_t v = -128;
  for (int64_t& t : table) {
    t = v;
    v = std::min<int64_t>(127, v + Int(0, 2));
  }
  ir::Attributes attrs;
  attrs.Set("table", std::move(table));
  ir::Node* n = g_.AddNode(ir::OpKind::kLut, name, {x}, {name}, std::move(attrs));
  return Out(n, x->shape(), Scale(x), Zp(x));
}

ir::Tensor* QuantGraphBuilder::Product(ir::OpKind kind, ir::Tensor* a, ir::Tensor* b,
                                       const std::string& name, double real, ir::Shape y) {
  const QuantizedMultiplier m = Mult(real);
  ir::Attributes attrs;
  attrs.Set("multiplier", int64_t{m.multiplier});
  attrs.Set("shift", int64_t{m.shift});
  const int32_t zp = Int(-30, 30);
  const float s_y = float(double(Scale(a)) * Scale(b) / real);
  SetClamp(attrs, "none", s_y, zp);
  ir::Node* n = g_.AddNode(kind, name, {a, b}, {name}, std::move(attrs));
  return Out(n, std::move(y), s_y, zp);
}

ir::Tensor* QuantGraphBuilder::MatMul(ir::Tensor* a, ir::Tensor* b, const std::string& name) {
  const ir::Shape &sa = a->shape(), &sb = b->shape();
  ir::Shape y(sa.begin(), sa.end() - 1);  // a's batch dims and M (b's broadcast to them)
  y.push_back(sb.back());
  // Products of operands about 74 from their zero points: a sum near 5500 sqrt(K), scaled to 40.
  return Product(ir::OpKind::kMatMul, a, b, name, 40.0 / (5500.0 * std::sqrt(double(sa.back()))),
                 std::move(y));
}

ir::Tensor* QuantGraphBuilder::Mul(ir::Tensor* a, ir::Tensor* b, const std::string& name) {
  // Products of operands about 74 from their zero points (5,500), scaled to 40.
  return Product(ir::OpKind::kMul, a, b, name, 40.0 / 5500.0, a->shape());
}

ir::Tensor* QuantGraphBuilder::Concat(const std::vector<ir::Tensor*>& parts,
                                      const std::string& name) {
  NPU_CHECK(!parts.empty());
  ir::Shape shape = parts[0]->shape();
  shape[3] = 0;
  for (ir::Tensor* p : parts) {
    NPU_CHECK(Scale(p) == Scale(parts[0]));
    p->quant() = parts[0]->quant();
    shape[3] += p->shape()[3];
  }
  ir::Attributes a;
  a.Set("axis", int64_t{3});
  ir::Node* n = g_.AddNode(ir::OpKind::kConcat, name, parts, {name}, std::move(a));
  return Out(n, std::move(shape), Scale(parts[0]), Zp(parts[0]));
}

ir::Tensor* QuantGraphBuilder::Flatten(ir::Tensor* x, const std::string& name) {
  ir::Attributes a;
  a.Set("axis", int64_t{1});
  ir::Node* n = g_.AddNode(ir::OpKind::kFlatten, name, {x}, {name}, std::move(a));
  return Out(n, {1, ir::NumElements(x->shape())}, Scale(x), Zp(x));
}

ir::Tensor* QuantGraphBuilder::Reshape(ir::Tensor* x, const std::string& name, ir::Shape shape) {
  ir::Tensor* s = g_.AddConstant(name + ".shape", {int64_t(shape.size())}, shape);
  ir::Node* n = g_.AddNode(ir::OpKind::kReshape, name, {x, s}, {name});
  return Out(n, std::move(shape), Scale(x), Zp(x));
}

std::vector<int64_t> ResizeTapsOf(const std::string& mode, const std::string& transform, int64_t in,
                                  int64_t out) {
  ir::Attributes a;
  a.Set("mode", mode);
  a.Set("coordinate_transformation_mode", transform);
  StatusOr<std::vector<interp::ResizeTap>> taps =
      interp::ResizeAxisTaps(a, in, out, float(out) / float(in));
  NPU_CHECK(taps.ok());  // the tests pass modes and sizes ResizeAxisTaps takes
  std::vector<int64_t> flat;
  for (const interp::ResizeTap& t : *taps) {
    flat.insert(flat.end(), {t.i0, t.i1, std::clamp<int64_t>(std::lround(t.w1 * 1024), 0, 1024)});
  }
  return flat;
}

ir::Tensor* QuantGraphBuilder::Resize(ir::Tensor* x, const std::string& name, int64_t out_h,
                                      int64_t out_w, std::vector<int64_t> h_taps,
                                      std::vector<int64_t> w_taps) {
  ir::Attributes a;
  a.Set("h_taps", std::move(h_taps));
  a.Set("w_taps", std::move(w_taps));
  ir::Node* n = g_.AddNode(ir::OpKind::kResize, name, {x}, {name}, std::move(a));
  const ir::Shape& s = x->shape();
  return Out(n, {s[0], out_h, out_w, s[3]}, Scale(x), Zp(x));
}

ir::Tensor* QuantGraphBuilder::Other(ir::OpKind kind, ir::Tensor* x, const std::string& name) {
  ir::Node* n = g_.AddNode(kind, name, {x}, {name});
  return Out(n, x->shape(), Scale(x), Zp(x));
}

ir::Graph QuantGraphBuilder::Finish(const std::vector<ir::Tensor*>& outputs) {
  for (ir::Tensor* t : outputs) g_.AddOutput(t);
  return std::move(g_);
}

ir::Graph ResidualOfTwoConvolutions() {
  QuantGraphBuilder g("residual", 3);
  ir::Tensor* x = g.Input("x", 6, 5, 8);
  ir::Tensor* a = g.Conv(x, "a", {.out_c = 16});
  ir::Tensor* b = g.Conv(a, "b", {.out_c = 16});
  return g.Finish({g.Add(a, b, "sum")});
}

ir::Graph TwoConvolutionsAndAPool(const std::string& name, uint32_t seed, int64_t in_c,
                                  int64_t out_c) {
  QuantGraphBuilder b(name, seed);
  ir::Tensor* x = b.Input("x", 24, 16, in_c);
  const ConvSpec conv3x3 = {
      .out_c = out_c, .kh = 3, .kw = 3, .pads = {1, 1, 1, 1}, .activation = "relu"};
  ir::Tensor* t = b.Conv(b.Conv(x, "conv_a", conv3x3), "conv_b", conv3x3);
  return b.Finish({b.MaxPool(t, "pool", {.kh = 3, .kw = 3, .pads = {1, 1, 1, 1}})});
}

ConvSpec DepthwiseSpec(int64_t channels, int64_t k, int64_t dilation) {
  const int64_t pad = k / 2 * dilation;
  return {.out_c = channels,
          .kh = k,
          .kw = k,
          .pads = {pad, pad, pad, pad},
          .dilation_h = dilation,
          .dilation_w = dilation,
          .group = channels};
}

ir::Graph SqueezeExcitationBlock(const std::string& name, uint32_t seed, int64_t dilation) {
  QuantGraphBuilder b(name, seed);
  ir::Tensor* x = b.Input("x", 20, 14, 8);
  ir::Tensor* t = b.Lut(b.Conv(x, "expand", {.out_c = 48}), "table1");
  ir::Tensor* d = b.Lut(b.Conv(t, "depthwise", DepthwiseSpec(48, 3, dilation)), "table2");
  ir::Tensor* e = b.Conv(b.GlobalAvgPool(d, "pool"), "fc1", {.out_c = 12, .activation = "relu"});
  ir::Tensor* s = b.Lut(b.Conv(e, "fc2", {.out_c = 48}), "gate");
  return b.Finish({b.Conv(b.Mul(d, s, "scale"), "project", {.out_c = 8})});
}

}  // namespace npu::compiler::testing
