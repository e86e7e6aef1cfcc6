// Quantised forms of softmax, layer normalisation and reductions (docs/quantized-ir.md):
//   softmax          over one axis; output parameters fixed at scale 1/256, zero point -128 (a
//                    probability in [0, 1)); exp_table[k] = round(2^16 * exp(s_x * (k - 255))),
//                    the exponential of every difference from the row's maximum code;
//   layer_norm       over the last axis; gamma as int8 weights per channel (symmetric), beta as
//                    int32 bias in the scale s_gamma[c] / 4096 of the Q12 normalised value;
//                    eps_term = round(N^2 * epsilon / s_x^2); per-channel multiplier/shift for
//                    s_gamma[c] / 4096 / s_y;
//   reduce_mean/sum  axes, keepdims, multiplier/shift for s_x / s_y;
//   reduce_max       axes, keepdims; keeps the input's parameters.
#include <fmt/format.h>

#include <cmath>

#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

constexpr double kNormalisedScale = 1.0 / 4096;  // the Q12 of a layer norm's normalised value

int64_t Axis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

}  // namespace

Status GraphQuantizer::EmitSoftmax(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const int64_t rank = int64_t(x->shape().size());
  const int64_t axis = Axis(n.attrs().GetInt("axis", -1), rank);
  if (axis < 0 || axis >= rank) return Unsupported(n, "axis out of range");
  std::vector<int64_t> table;
  const double s = x->quant().scale[0];
  for (int k = 0; k < 256; ++k) table.push_back(std::llround(65536.0 * std::exp(s * (k - 255))));
  ir::QuantParams out;
  out.scale = {1.0f / 256};
  out.zero_point = {-128};
  ir::Attributes attrs;
  attrs.Set("axis", axis);
  attrs.Set("exp_table", table);
  AddNode(n, OpKind::kSoftmax, {x}, *n.output(0), out, std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitLayerNorm(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const int64_t rank = int64_t(x->shape().size()), c = x->shape().back();
  if (Axis(n.attrs().GetInt("axis", -1), rank) != rank - 1) {
    return Unsupported(n, "only a normalisation over the last axis has a quantised form");
  }
  const ir::Tensor *g = n.input(1), *b = n.num_inputs() > 2 ? n.input(2) : nullptr;
  auto floats = [&](const ir::Tensor* t) -> std::vector<float> {
    if (t == nullptr) return {};
    const auto v = t->data<float>();
    return {v.begin(), v.end()};
  };
  if (g == nullptr || !g->is_constant() || ir::NumElements(g->shape()) != c ||
      (b != nullptr && (!b->is_constant() || ir::NumElements(b->shape()) != c))) {
    return Unsupported(n, "scale and bias must be constants with one value per channel");
  }
  const QuantizedWeights qg = QuantizeWeightRows(floats(g), 1);
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*n.output(0)));
  int64_t saturated = 0;
  std::vector<int32_t> bias =
      QuantizeBias(floats(b), float(kNormalisedScale), qg.scales, saturated);
  ctx_.Count("quantize.bias-saturated", saturated);
  StatusOr<ChannelMultipliers> m =
      RequantMultipliers(float(kNormalisedScale), qg.scales, out.scale[0]);
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  const double sx = x->quant().scale[0], eps = n.attrs().GetFloat("epsilon", 1e-5f);
  const double eps_term = double(c) * double(c) * eps / (sx * sx);
  ir::Attributes attrs;
  attrs.Set("axis", rank - 1);
  attrs.Set("eps_term",
            std::min<int64_t>(std::llround(std::min(eps_term, 4e18)), int64_t{1} << 62));
  attrs.Set("multiplier", m->multiplier);
  attrs.Set("shift", m->shift);
  SetClamp(attrs, NoActivationClamp());
  ir::Tensor* gq = AddWeights(g->name(), {c}, qg);
  ir::Tensor* bq = AddBias(b != nullptr ? b->name() : n.name() + ".bias", std::move(bias),
                           float(kNormalisedScale), qg.scales);
  AddNode(n, OpKind::kLayerNormalization, {x, gq, bq}, *n.output(0), out, std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitReduce(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const int64_t rank = int64_t(x->shape().size());
  std::vector<int64_t> axes = n.attrs().GetInts("axes");
  if (axes.empty()) {
    for (int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  for (int64_t& a : axes) a = Axis(a, rank);
  ir::Attributes attrs;
  attrs.Set("axes", axes);
  attrs.Set("keepdims", n.attrs().GetInt("keepdims", 1));
  if (n.kind() == OpKind::kReduceMax) {
    AddNode(n, n.kind(), {x}, *n.output(0), x->quant(), std::move(attrs));
    return Status::Ok();
  }
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*n.output(0)));
  StatusOr<QuantizedMultiplier> m =
      QuantizeMultiplier(double(x->quant().scale[0]) / double(out.scale[0]));
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  attrs.Set("multiplier", int64_t{m->multiplier});
  attrs.Set("shift", int64_t{m->shift});
  SetClamp(attrs, NoActivationClamp());
  AddNode(n, n.kind(), {x}, *n.output(0), out, std::move(attrs));
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
