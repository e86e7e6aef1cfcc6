// The FP16 forms (ConvertToFp16): the float graph's MAC ops, pools, adds and views with f16
// activations and weights, each rounded once to FP16 (round to nearest even, hw/spec/fp16.h), and
// f32 biases. A ReLU or ReLU6 after a convolution or Gemm becomes its FP16 clamp bounds
// (fp16_clamp_min, fp16_clamp_max: FP16 bit patterns); after an Add, fp16_relu; pools take none.
// Everything else has no FP16 form yet and is refused naming the node. The pools' FP16 form is in
// emit_vector.cc, beside the window rules it shares with the int8 one.
#include <fmt/format.h>

#include <cmath>

#include "compiler/quantize/graph_quantizer.h"
#include "hw/spec/fp16.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

bool IsFloatConstant(const ir::Tensor* t) {
  return t != nullptr && t->is_constant() && t->dtype() == ir::DType::kFloat32;
}

std::vector<uint16_t> ToFp16(std::span<const float> values) {
  std::vector<uint16_t> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = spec::FloatToFp16(values[i]);
  return out;
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

// The FP16 bounds of an activation: none (-inf, +inf), relu [0, +inf), relu6 [0, 6].
void SetFp16Clamp(ir::Attributes& attrs, const std::string& activation) {
  const bool relu = activation == "relu" || activation == "relu6";
  attrs.Set("fp16_clamp_min", int64_t{relu ? spec::FloatToFp16(0.0f) : spec::kFp16NegInf});
  attrs.Set("fp16_clamp_max",
            int64_t{activation == "relu6" ? spec::FloatToFp16(6.0f) : spec::kFp16Inf});
}

}  // namespace

Status GraphQuantizer::EmitFp16Node(const ir::Node& n) {
  switch (n.kind()) {
    case OpKind::kFusedConv:
      return EmitConvFp16(n);
    case OpKind::kGemm:
      return EmitGemmFp16(n);
    case OpKind::kMatMul:
      if (n.input(1) != nullptr && n.input(1)->is_constant()) return EmitGemmFp16(n);
      return Unsupported(n, "FP16 has no matrix product of two activations yet");
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return EmitPoolFp16(n);
    case OpKind::kAdd:
    case OpKind::kFusedAdd:
      return EmitAddFp16(n);
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kSqueeze:
    case OpKind::kUnsqueeze:
    case OpKind::kIdentity:
      return EmitView(n);
    default:
      return Unsupported(n, "FP16 has no form for this op yet (docs/quantized-ir.md, \"FP16 "
                            "graphs\"); use --precision int8");
  }
}

Status GraphQuantizer::EmitConvFp16(const ir::Node& n) {
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
  const Tail tail = FollowActivations(n.output(0), a.GetString("activation", "none"));
  ir::Attributes attrs;
  attrs.Set("kernel_shape", std::vector<int64_t>{ws[2], ws[3]});
  attrs.Set("strides", a.GetInts("strides", {1, 1}));
  attrs.Set("pads", a.GetInts("pads", {0, 0, 0, 0}));
  attrs.Set("dilations", a.GetInts("dilations", {1, 1}));
  attrs.Set("group", group);
  attrs.Set("activation", tail.activation);
  SetFp16Clamp(attrs, tail.activation);
  ir::Tensor* wt = q_.AddConstant(q_.UniqueName(w->name()), {out_c, ws[2], ws[3], ws[1]},
                                  ToFp16(ToOhwi(w->data<float>(), ws)));
  std::vector<float> bias(out_c, 0.0f);
  if (b != nullptr) bias.assign(b->data<float>().begin(), b->data<float>().end());
  ir::Tensor* bt =
      q_.AddConstant(q_.UniqueName(b != nullptr ? b->name() : n.name() + ".bias"), {out_c}, bias);
  AddNode(n, OpKind::kFusedConv, {x, wt, bt}, *tail.out, {}, std::move(attrs));
  ctx_.Count("fp16.fused_conv");
  return Status::Ok();
}

Status GraphQuantizer::EmitGemmFp16(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const bool gemm = n.kind() == OpKind::kGemm;
  const ir::Attributes& a = n.attrs();
  const ir::Tensor *bw = n.input(1), *c = gemm && n.num_inputs() > 2 ? n.input(2) : nullptr;
  if (!IsFloatConstant(bw) || bw->shape().size() != 2) {
    return Unsupported(n, "the weights (input B) are not a 2-D float constant");
  }
  if (gemm && a.GetInt("transA", 0) != 0) return Unsupported(n, "transA is set");
  const bool trans_b = gemm && a.GetInt("transB", 0) != 0;
  const int64_t k = bw->shape()[trans_b ? 1 : 0], out_n = bw->shape()[trans_b ? 0 : 1];
  if (x->shape().size() < 2 || x->shape().back() != k) {
    return Unsupported(n, fmt::format("input {} is not [..., {}]", ir::ShapeText(x->shape()), k));
  }
  // Weights as rows W[n][k] = alpha * op(B)[k][n], rounded to FP16 once (alpha applied in float).
  const float alpha = gemm ? a.GetFloat("alpha", 1.0f) : 1.0f;
  const float beta = gemm ? a.GetFloat("beta", 1.0f) : 1.0f;
  const auto bv = bw->data<float>();
  std::vector<float> rows(bv.size());
  for (int64_t j = 0; j < out_n; ++j) {
    for (int64_t i = 0; i < k; ++i) rows[j * k + i] = alpha * bv[trans_b ? j * k + i : i * out_n + j];
  }
  std::vector<float> bias(out_n, 0.0f);
  if (c != nullptr) {
    const int64_t count = ir::NumElements(c->shape());
    if (!IsFloatConstant(c) || (count != 1 && count != out_n)) {
      return Unsupported(n, "input C is not a float constant of 1 or N values");
    }
    for (int64_t j = 0; j < out_n; ++j) bias[j] = beta * c->data<float>()[count == 1 ? 0 : j];
  }
  const ir::Tensor* result = n.output(0);
  std::string activation = "none";
  if (const ir::Node* add = BiasAdd(result, out_n)) {  // a constant Add after it: its bias too
    const ir::Tensor* cb = add->input(add->input(0) == result ? 1 : 0);
    const auto cv = cb->data<float>();
    for (int64_t j = 0; j < out_n; ++j) bias[j] += cv[cv.size() == 1 ? 0 : j];
    merged_.insert(add);
    result = add->output(0);
    if (add->kind() == OpKind::kFusedAdd) activation = add->attrs().GetString("activation", "none");
  }
  const Tail tail = FollowActivations(result, activation);
  ir::Attributes attrs;
  attrs.Set("transB", int64_t{1});
  attrs.Set("activation", tail.activation);
  SetFp16Clamp(attrs, tail.activation);
  ir::Tensor* wt = q_.AddConstant(q_.UniqueName(bw->name()), {out_n, k}, ToFp16(rows));
  ir::Tensor* bt =
      q_.AddConstant(q_.UniqueName(c != nullptr ? c->name() : n.name() + ".bias"), {out_n}, bias);
  AddNode(n, OpKind::kGemm, {x, wt, bt}, *tail.out, {}, std::move(attrs));
  ctx_.Count("fp16.gemm");
  return Status::Ok();
}

Status GraphQuantizer::EmitAddFp16(const ir::Node& n) {
  if (n.num_inputs() != 2) return Unsupported(n, "only two operands are supported");
  NPU_ASSIGN_OR_RETURN(ir::Tensor * a, Operand(n, 0, /*need_nhwc=*/false));
  NPU_ASSIGN_OR_RETURN(ir::Tensor * b, Operand(n, 1, /*need_nhwc=*/false));
  if (a->shape() != b->shape()) {
    return Unsupported(n, fmt::format("FP16 adds two activations of one shape ({} and {})",
                                      ir::ShapeText(a->shape()), ir::ShapeText(b->shape())));
  }
  const std::string fused = n.kind() == OpKind::kFusedAdd
                                ? n.attrs().GetString("activation", "none")
                                : std::string("none");
  const Tail tail = FollowActivations(n.output(0), fused);
  if (tail.activation == "relu6") return Unsupported(n, "ReLU6 after an FP16 add");
  ir::Attributes attrs;
  attrs.Set("fp16_relu", int64_t{tail.activation == "relu" ? 1 : 0});
  AddNode(n, OpKind::kAdd, {a, b}, *tail.out, {}, std::move(attrs));
  ctx_.Count("fp16.add");
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
