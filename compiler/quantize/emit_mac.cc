// Quantised forms of the MAC ops: FusedConv (group 1 and depthwise), Gemm / MatMul by a constant
// (as Gemm with weights [N, K], over every row of an input [..., K]; a constant Add after it is
// its bias), and MatMul of two activations. For each of the first two:
//   1. int8 weights per output channel in the NPU's layout (OHWI; [N, K]), scales from the model
//      (QDQ) or max|w| / 127;
//   2. the ReLUs after the op merge into its clamp; the output's parameters are those of the last
//      merged tensor;
//   3. int32 bias in accumulator scale s_x * s_w[o];
//   4. per-channel multiplier/shift for s_x * s_w[o] / s_y, and the clamp.
#include <fmt/format.h>

#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

std::vector<float> FloatValues(const ir::Tensor* t) {
  if (t == nullptr) return {};
  const auto v = t->data<float>();
  return {v.begin(), v.end()};
}

// Per-output-channel scales a QDQ model gave `w` (axis `axis` has `rows` entries, or one scale
// for the whole tensor), if any and usable: symmetric and along that axis.
std::optional<std::vector<float>> GivenScales(const ir::Tensor& w, int64_t axis, int64_t rows) {
  const ir::QuantParams& q = w.quant();
  if (q.empty()) return std::nullopt;
  for (int32_t zp : q.zero_point) {
    if (zp != 0) return std::nullopt;
  }
  if (q.scale.size() == 1) return std::vector<float>(rows, q.scale[0]);
  if (q.axis != axis || static_cast<int64_t>(q.scale.size()) != rows) return std::nullopt;
  return q.scale;
}

// OIHW [o][i][h][w] -> OHWI [o][h][w][i].
std::vector<float> ToOhwi(std::span<const float> w, const ir::Shape& oihw) {
  const int64_t o_n = oihw[0], i_n = oihw[1], h_n = oihw[2], w_n = oihw[3];
  std::vector<float> out(w.size());
  for (int64_t o = 0; o < o_n; ++o)
    for (int64_t i = 0; i < i_n; ++i)
      for (int64_t h = 0; h < h_n; ++h)
        for (int64_t x = 0; x < w_n; ++x)
          out[((o * h_n + h) * w_n + x) * i_n + i] = w[((o * i_n + i) * h_n + h) * w_n + x];
  return out;
}

bool IsFloatConstant(const ir::Tensor* t) {
  return t != nullptr && t->is_constant() && t->dtype() == ir::DType::kFloat32;
}

}  // namespace

ir::Tensor* GraphQuantizer::AddWeights(const std::string& base, ir::Shape shape,
                                       const QuantizedWeights& w) {
  ir::Tensor* t = q_.AddConstant(q_.UniqueName(base), std::move(shape), w.values);
  t->quant().scale = w.scales;
  t->quant().zero_point.assign(w.scales.size(), 0);
  t->quant().axis = 0;
  return t;
}

ir::Tensor* GraphQuantizer::AddBias(const std::string& base, std::vector<int32_t> values,
                                    float input_scale, const std::vector<float>& weight_scales) {
  const int64_t n = static_cast<int64_t>(values.size());
  ir::Tensor* t = q_.AddConstant(q_.UniqueName(base), {n}, values);
  for (float s : weight_scales) t->quant().scale.push_back(input_scale * s);
  t->quant().zero_point.assign(weight_scales.size(), 0);
  t->quant().axis = 0;
  return t;
}

StatusOr<GraphQuantizer::FloatConv> GraphQuantizer::ReadConv(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  const ir::Tensor *w = n.input(1), *b = n.num_inputs() > 2 ? n.input(2) : nullptr;
  if (!IsFloatConstant(w) || w->shape().size() != 4) {
    return Unsupported(n, "the weights are not a 4-D float constant");
  }
  if (b != nullptr && (!IsFloatConstant(b) || ir::NumElements(b->shape()) != w->shape()[0])) {
    return Unsupported(n, "the bias is not a float constant with one value per output channel");
  }
  const ir::Attributes& a = n.attrs();
  if (a.GetString("auto_pad", "NOTSET") != "NOTSET") return Unsupported(n, "auto_pad is set");
  const ir::Shape& ws = w->shape();
  const int64_t out_c = ws[0], in_c = x->shape()[3], group = a.GetInt("group", 1);
  if (group < 1 || in_c % group != 0 || out_c % group != 0 || ws[1] != in_c / group) {
    return Unsupported(n, fmt::format("group {} does not fit {} input channels and weights {}",
                                      group, in_c, ir::ShapeText(ws)));
  }
  return FloatConv{x, w, b, ToOhwi(w->data<float>(), ws), out_c, group};
}

Status GraphQuantizer::EmitConv(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(const FloatConv f, ReadConv(n));
  ir::Tensor* x = f.x;
  const ir::Tensor *w = f.w, *b = f.b;
  const ir::Attributes& a = n.attrs();
  // 1. Weights, re-laid out to OHWI [O][kh][kw][I/group].
  const ir::Shape& ws = w->shape();
  const int64_t out_c = f.out_c, group = f.group;
  const std::optional<std::vector<float>> given = GivenScales(*w, 0, out_c);
  const int bits = given ? 8 : WeightBits(n);
  const QuantizedWeights qw =
      QuantizeWeightRows(f.ohwi, ws[1] * ws[2] * ws[3], given ? &*given : nullptr, bits);
  // 2. Output parameters, after the merged activations.
  const Tail tail = FollowActivations(n.output(0), a.GetString("activation", "none"));
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  // 3. Bias and 4. requantisation.
  const float s_x = x->quant().scale[0];
  int64_t saturated = 0;
  std::vector<int32_t> bias = QuantizeBias(FloatValues(b), s_x, qw.scales, saturated);
  FitFoldedBias(bias, x->quant().zero_point[0], qw.values, ws[1] * ws[2] * ws[3], saturated);
  ctx_.Count("quantize.bias-saturated", saturated);
  StatusOr<ChannelMultipliers> m = RequantMultipliers(s_x, qw.scales, out.scale[0]);
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  ir::Attributes attrs;
  attrs.Set("kernel_shape", std::vector<int64_t>{ws[2], ws[3]});
  attrs.Set("strides", a.GetInts("strides", {1, 1}));
  attrs.Set("pads", a.GetInts("pads", {0, 0, 0, 0}));
  attrs.Set("dilations", a.GetInts("dilations", {1, 1}));
  attrs.Set("group", group);
  if (bits != 8) attrs.Set("weight_bits", int64_t{bits});
  attrs.Set("activation", tail.activation);
  attrs.Set("multiplier", m->multiplier);
  attrs.Set("shift", m->shift);
  SetClamp(attrs, ActivationClamp(tail.activation, out));
  ir::Tensor* wq = AddWeights(w->name(), {out_c, ws[2], ws[3], ws[1]}, qw);
  ir::Tensor* bq =
      AddBias(b != nullptr ? b->name() : n.name() + ".bias", std::move(bias), s_x, qw.scales);
  AddNode(n, ir::OpKind::kFusedConv, {x, wq, bq}, *tail.out, out, std::move(attrs));
  ctx_.Count("quantize.fused_conv");
  return Status::Ok();
}

StatusOr<GraphQuantizer::FloatGemm> GraphQuantizer::ReadGemm(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const bool gemm = n.kind() == ir::OpKind::kGemm;
  const ir::Attributes& a = n.attrs();
  const ir::Tensor *bw = n.input(1), *c = gemm && n.num_inputs() > 2 ? n.input(2) : nullptr;
  if (!IsFloatConstant(bw) || bw->shape().size() != 2) {
    return Unsupported(n, "the weights (input B) are not a 2-D float constant");
  }
  if (gemm && a.GetInt("transA", 0) != 0) return Unsupported(n, "transA is set");
  FloatGemm f{x, bw, c, 0, 0, gemm && a.GetInt("transB", 0) != 0, 1.0f, {}, {}, nullptr, "none"};
  f.k = bw->shape()[f.trans_b ? 1 : 0], f.out_n = bw->shape()[f.trans_b ? 0 : 1];
  if (x->shape().size() < 2 || x->shape().back() != f.k) {
    return Unsupported(n, fmt::format("input {} is not [..., {}]", ir::ShapeText(x->shape()), f.k));
  }
  f.alpha = gemm ? a.GetFloat("alpha", 1.0f) : 1.0f;
  const float beta = gemm ? a.GetFloat("beta", 1.0f) : 1.0f;
  const auto bv = bw->data<float>();
  f.rows.resize(bv.size());
  for (int64_t j = 0; j < f.out_n; ++j) {
    for (int64_t i = 0; i < f.k; ++i) {
      f.rows[j * f.k + i] = f.alpha * bv[f.trans_b ? j * f.k + i : i * f.out_n + j];
    }
  }
  if (c != nullptr) {
    const int64_t count = ir::NumElements(c->shape());
    if (!IsFloatConstant(c) || (count != 1 && count != f.out_n)) {
      return Unsupported(n, "input C is not a float constant of 1 or N values");
    }
    for (int64_t j = 0; j < f.out_n; ++j) {
      f.bias.push_back(beta * c->data<float>()[count == 1 ? 0 : j]);
    }
  }
  f.result = n.output(0);
  if (const ir::Node* add = BiasAdd(f.result, f.out_n)) {
    const ir::Tensor* cb = add->input(add->input(0) == f.result ? 1 : 0);
    const auto cv = cb->data<float>();
    f.bias.resize(f.out_n, 0.0f);
    for (int64_t j = 0; j < f.out_n; ++j) f.bias[j] += cv[cv.size() == 1 ? 0 : j];
    merged_.insert(add);
    f.result = add->output(0);
    if (add->kind() == ir::OpKind::kFusedAdd) {
      f.activation = add->attrs().GetString("activation", "none");
    }
  }
  return f;
}

Status GraphQuantizer::EmitGemm(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(FloatGemm f, ReadGemm(n));
  ir::Tensor* x = f.x;
  const ir::Tensor *bw = f.bw, *c = f.c;
  const int64_t k = f.k, out_n = f.out_n;
  // 1. Weights as rows W[n][k] = alpha * op(B)[k][n].
  std::optional<std::vector<float>> given;
  if (f.alpha == 1.0f) given = GivenScales(*bw, f.trans_b ? 0 : 1, out_n);
  const int bits = given ? 8 : WeightBits(n);
  const QuantizedWeights qw = QuantizeWeightRows(f.rows, k, given ? &*given : nullptr, bits);
  // 2. Bias beta * C (and a merged constant Add), broadcast to [N].
  std::vector<float> bias = std::move(f.bias);
  // 3. Output parameters, bias, requantisation.
  const Tail tail = FollowActivations(f.result, f.activation);
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  const float s_x = x->quant().scale[0];
  int64_t saturated = 0;
  std::vector<int32_t> bias_q = QuantizeBias(bias, s_x, qw.scales, saturated);
  FitFoldedBias(bias_q, x->quant().zero_point[0], qw.values, k, saturated);
  ctx_.Count("quantize.bias-saturated", saturated);
  StatusOr<ChannelMultipliers> m = RequantMultipliers(s_x, qw.scales, out.scale[0]);
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  ir::Attributes attrs;
  attrs.Set("transB", int64_t{1});
  if (bits != 8) attrs.Set("weight_bits", int64_t{bits});
  attrs.Set("activation", tail.activation);
  attrs.Set("multiplier", m->multiplier);
  attrs.Set("shift", m->shift);
  SetClamp(attrs, ActivationClamp(tail.activation, out));
  ir::Tensor* wq = AddWeights(bw->name(), {out_n, k}, qw);
  ir::Tensor* bq =
      AddBias(c != nullptr ? c->name() : n.name() + ".bias", std::move(bias_q), s_x, qw.scales);
  AddNode(n, ir::OpKind::kGemm, {x, wq, bq}, *tail.out, out, std::move(attrs));
  ctx_.Count("quantize.gemm");
  return Status::Ok();
}

const ir::Node* GraphQuantizer::BiasAdd(const ir::Tensor* out, int64_t n) const {
  if (out->users().size() != 1 || f_.IsGraphOutput(out)) return nullptr;
  const ir::Node* add = out->users()[0];
  if ((add->kind() != ir::OpKind::kAdd && add->kind() != ir::OpKind::kFusedAdd) ||
      add->num_inputs() != 2 || add->input(0) == add->input(1)) {
    return nullptr;
  }
  const ir::Tensor* c = add->input(add->input(0) == out ? 1 : 0);
  if (!IsFloatConstant(c) || add->output(0)->shape() != out->shape()) return nullptr;
  const int64_t count = ir::NumElements(c->shape());
  if (count != n && count != 1) return nullptr;
  for (size_t d = 0; d + 1 < c->shape().size(); ++d) {
    if (c->shape()[d] != 1) return nullptr;
  }
  return add;
}

// Two activations: acc = sum over k of (a - z_a)(b - z_b), requantised by s_a * s_b / s_y.
Status GraphQuantizer::EmitMatMul(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * a, Operand(n, 0, /*need_nhwc=*/false));
  NPU_ASSIGN_OR_RETURN(ir::Tensor * b, Operand(n, 1, /*need_nhwc=*/false));
  if (a->shape().size() < 2 || b->shape().size() < 2) {
    return Unsupported(n, "both operands need two dims or more");
  }
  const Tail tail = FollowActivations(n.output(0), "none");
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  StatusOr<QuantizedMultiplier> m = QuantizeMultiplier(
      double(a->quant().scale[0]) * double(b->quant().scale[0]) / double(out.scale[0]));
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  ir::Attributes attrs;
  attrs.Set("multiplier", int64_t{m->multiplier});
  attrs.Set("shift", int64_t{m->shift});
  SetClamp(attrs, ActivationClamp(tail.activation, out));
  AddNode(n, ir::OpKind::kMatMul, {a, b}, *tail.out, out, std::move(attrs));
  ctx_.Count("quantize.matmul");
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
