// Quantised forms of elementwise ops:
//   lookup tables  a region's exported tensor (lut_regions.h) as table[x + 128], the float
//                  function evaluated on the 256 values of the root's int8 code and quantised
//                  to the output's parameters (round half away from zero; NaN gives 0);
//   add, sub       a_multiplier/b_multiplier/shift for s_a / s_y and s_b / s_y (int16); a
//                  subtraction is an add whose b multiplier is negated;
//   mul            multiplier/shift for s_a * s_b / s_y; a division by a constant is a
//                  multiplication by its reciprocal;
//   max, min       as add, the larger (smaller) of the two rescaled terms;
// with numpy broadcasting of either operand, which may be a constant (quantised per tensor over
// its own range).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

// The 256-entry table of y = f(x): entry k for the code k - 128.
std::vector<int64_t> Table(const std::vector<float>& y, const ir::QuantParams& out) {
  std::vector<int64_t> table;
  for (float v : y) {
    table.push_back(std::isnan(v) ? out.zero_point[0]
                                  : QuantizeToInt8(double(v), out.scale[0], out.zero_point[0]));
  }
  return table;
}

std::vector<float> Codes(const ir::QuantParams& in) {
  std::vector<float> x;
  for (int k = 0; k < 256; ++k) x.push_back(in.scale[0] * float(k - 128 - in.zero_point[0]));
  return x;
}

bool SameParams(const ir::QuantParams& a, const ir::QuantParams& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

}  // namespace

Status GraphQuantizer::EmitLut(const ir::Node& n) {
  const ir::Tensor* out = n.output(0);
  ir::Tensor* x = value_.at(regions_.root.at(out));
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams params, ParamsFor(*out));
  StatusOr<std::vector<float>> y = EvaluateRegion(f_, regions_, *out, Codes(x->quant()));
  if (!y.ok()) return y.status().WithContext(fmt::format("table of node '{}'", n.name()));
  ir::Attributes attrs;
  attrs.Set("table", Table(*y, params));
  AddNode(n, OpKind::kLut, {x}, *out, params, std::move(attrs));
  ctx_.Count("quantize.lut");
  return Status::Ok();
}

ir::Tensor* GraphQuantizer::Requantized(ir::Tensor* x, const ir::QuantParams& params,
                                        const std::string& name) {
  if (SameParams(x->quant(), params)) return x;
  std::vector<float> y = Codes(x->quant());
  ir::Attributes attrs;
  attrs.Set("table", Table(y, params));
  ir::Node* node =
      q_.AddNode(OpKind::kLut, q_.UniqueName(name), {x}, {q_.UniqueName(name)}, std::move(attrs));
  ir::Tensor* out = node->output(0);
  out->set_dtype(ir::DType::kInt8);
  out->set_shape(x->shape());
  out->set_layout(x->layout());
  out->quant() = params;
  ctx_.Count("quantize.requantized");
  return out;
}

StatusOr<ir::Tensor*> GraphQuantizer::ValueOrConstant(const ir::Node& n, size_t i) {
  const ir::Tensor* t = n.input(i);
  if (t == nullptr || !t->is_constant()) return Operand(n, i, /*need_nhwc=*/false);
  if (t->dtype() != ir::DType::kFloat32) {
    return Unsupported(
        n, fmt::format("constant %{} is {}, not f32", t->name(), ir::DTypeName(t->dtype())));
  }
  const auto v = t->data<float>();
  return QuantizedConstant(t->name(), t->shape(), {v.begin(), v.end()});
}

ir::Tensor* GraphQuantizer::QuantizedConstant(const std::string& name, const ir::Shape& shape,
                                              const std::vector<float>& values) {
  float lo = 0, hi = 0;
  for (float x : values) lo = std::min(lo, x), hi = std::max(hi, x);
  const ir::QuantParams params = ActivationParams({lo, hi});
  std::vector<int8_t> q;
  for (float x : values) {
    q.push_back(static_cast<int8_t>(QuantizeToInt8(x, params.scale[0], params.zero_point[0])));
  }
  ir::Tensor* c = q_.AddConstant(q_.UniqueName(name), shape, q);
  c->quant() = params;
  return c;
}

Status GraphQuantizer::EmitBinary(const ir::Node& n) {
  if (n.num_inputs() != 2) return Unsupported(n, "only two operands are supported");
  const OpKind k = n.kind();
  const ir::Tensor* fb = n.input(1);
  if (k == OpKind::kDiv && (fb == nullptr || !fb->is_constant())) {
    return Unsupported(n, "a division by a computed tensor has no quantised form");
  }
  NPU_ASSIGN_OR_RETURN(ir::Tensor * a, ValueOrConstant(n, 0));
  ir::Tensor* b = nullptr;
  if (k == OpKind::kDiv) {  // x / c = x * (1 / c)
    if (fb->dtype() != ir::DType::kFloat32) return Unsupported(n, "the divisor is not f32");
    std::vector<float> inverse;
    for (float v : fb->data<float>()) inverse.push_back(1.0f / v);
    b = QuantizedConstant(fb->name() + ".reciprocal", fb->shape(), inverse);
  } else {
    NPU_ASSIGN_OR_RETURN(b, ValueOrConstant(n, 1));
  }
  if (a->is_constant() && b->is_constant()) return Unsupported(n, "both operands are constants");
  const bool mul = k == OpKind::kMul || k == OpKind::kDiv;
  const std::string fused =
      k == OpKind::kFusedAdd ? n.attrs().GetString("activation", "none") : std::string("none");
  const bool clamps = k != OpKind::kMax && k != OpKind::kMin;
  const Tail tail = clamps ? FollowActivations(n.output(0), fused) : Tail{n.output(0), "none"};
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  const float sa = a->quant().scale[0], sb = b->quant().scale[0], sy = out.scale[0];
  ir::Attributes attrs;
  OpKind kind = k == OpKind::kMax || k == OpKind::kMin ? k : mul ? OpKind::kMul : OpKind::kAdd;
  if (mul) {
    StatusOr<QuantizedMultiplier> m = QuantizeMultiplier(double(sa) * double(sb) / double(sy));
    if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
    attrs.Set("multiplier", int64_t{m->multiplier});
    attrs.Set("shift", int64_t{m->shift});
  } else {
    StatusOr<AddMultipliers> m = ComputeAddMultipliers(sa, sb, sy);
    if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
    attrs.Set("a_multiplier", m->a);
    attrs.Set("b_multiplier", k == OpKind::kSub ? -m->b : m->b);
    attrs.Set("shift", m->shift);
  }
  SetClamp(attrs, ActivationClamp(tail.activation, out));
  if (kind == OpKind::kAdd && tail.activation != "none") {
    kind = OpKind::kFusedAdd;
    attrs.Set("activation", tail.activation);
  }
  AddNode(n, kind, {a, b}, *tail.out, out, std::move(attrs));
  ctx_.Count(fmt::format("quantize.{}", ir::OpName(kind)));
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
