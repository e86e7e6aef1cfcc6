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

std::vector<uint16_t> ToFp16(std::span<const float> values) {
  std::vector<uint16_t> out(values.size());
  for (size_t i = 0; i < values.size(); ++i) out[i] = spec::FloatToFp16(values[i]);
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
  NPU_ASSIGN_OR_RETURN(const FloatConv f, ReadConv(n));
  const ir::Attributes& a = n.attrs();
  const ir::Shape& ws = f.w->shape();
  const Tail tail = FollowActivations(n.output(0), a.GetString("activation", "none"));
  ir::Attributes attrs;
  attrs.Set("kernel_shape", std::vector<int64_t>{ws[2], ws[3]});
  attrs.Set("strides", a.GetInts("strides", {1, 1}));
  attrs.Set("pads", a.GetInts("pads", {0, 0, 0, 0}));
  attrs.Set("dilations", a.GetInts("dilations", {1, 1}));
  attrs.Set("group", f.group);
  attrs.Set("activation", tail.activation);
  SetFp16Clamp(attrs, tail.activation);
  ir::Tensor* wt = q_.AddConstant(q_.UniqueName(f.w->name()), {f.out_c, ws[2], ws[3], ws[1]},
                                  ToFp16(f.ohwi));
  std::vector<float> bias(f.out_c, 0.0f);
  if (f.b != nullptr) bias.assign(f.b->data<float>().begin(), f.b->data<float>().end());
  ir::Tensor* bt = q_.AddConstant(
      q_.UniqueName(f.b != nullptr ? f.b->name() : n.name() + ".bias"), {f.out_c}, bias);
  AddNode(n, OpKind::kFusedConv, {f.x, wt, bt}, *tail.out, {}, std::move(attrs));
  ctx_.Count("fp16.fused_conv");
  return Status::Ok();
}

Status GraphQuantizer::EmitGemmFp16(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(FloatGemm f, ReadGemm(n));
  const Tail tail = FollowActivations(f.result, f.activation);
  ir::Attributes attrs;
  attrs.Set("transB", int64_t{1});
  attrs.Set("activation", tail.activation);
  SetFp16Clamp(attrs, tail.activation);
  ir::Tensor* wt = q_.AddConstant(q_.UniqueName(f.bw->name()), {f.out_n, f.k}, ToFp16(f.rows));
  f.bias.resize(f.out_n, 0.0f);  // none given: zeros
  ir::Tensor* bt = q_.AddConstant(
      q_.UniqueName(f.c != nullptr ? f.c->name() : n.name() + ".bias"), {f.out_n}, f.bias);
  AddNode(n, OpKind::kGemm, {f.x, wt, bt}, *tail.out, {}, std::move(attrs));
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
