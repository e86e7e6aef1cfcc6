// A transposed convolution (ConvTranspose, stride s, no dilation) as a convolution and a
// depth-to-space shuffle (sub-pixel convolution), so its multiply-accumulates run where
// convolutions run:
//   1. Every output row y = a*s + r sums X[a - t] * W[t*s + r] over t < T = ceil(k / s): for each
//      phase r a T-tap correlation of X with the flipped sub-kernel. One FusedConv computes all
//      s*s phases as its output channels (group, phase row, phase column, channel), with T-1
//      padding on every side, giving (H + T - 1) x (W + T - 1) pixels of s*s*C_out channels.
//   2. Reshape to [1, H', W', G, s, s, C/G], Transpose to [1, H', s, W', s, G, C/G], reshape to
//      [1, H' s, W' s, C]: the full transposed convolution.
//   3. Slice away the pads (and keep output_padding) to the op's output.
// The conv's output parameters are the op's output's (the same values, before the shuffle); ReLUs
// after it merge into the conv's clamp.
#include <fmt/format.h>

#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

struct Deconv {
  int64_t cin = 0, cout = 0, groups = 1, kh = 0, kw = 0, sh = 1, sw = 1, th = 0, tw = 0;
  std::vector<int64_t> pads;
};

// OHWI weights of the phase convolution: channel ((g*sh + rh)*sw + rw)*cog + o, tap (u, v), input
// channel c of the group.
std::vector<float> PhaseWeights(const Deconv& d, std::span<const float> w) {
  const int64_t cig = d.cin / d.groups, cog = d.cout / d.groups;
  std::vector<float> out(d.groups * d.sh * d.sw * cog * d.th * d.tw * cig, 0.0f);
  size_t i = 0;
  for (int64_t g = 0; g < d.groups; ++g)
    for (int64_t rh = 0; rh < d.sh; ++rh)
      for (int64_t rw = 0; rw < d.sw; ++rw)
        for (int64_t o = 0; o < cog; ++o)
          for (int64_t u = 0; u < d.th; ++u)
            for (int64_t v = 0; v < d.tw; ++v)
              for (int64_t c = 0; c < cig; ++c, ++i) {
                const int64_t ky = (d.th - 1 - u) * d.sh + rh, kx = (d.tw - 1 - v) * d.sw + rw;
                if (ky < d.kh && kx < d.kw) {
                  out[i] = w[(((g * cig + c) * cog + o) * d.kh + ky) * d.kw + kx];
                }
              }
  return out;
}

}  // namespace

ir::Tensor* GraphQuantizer::AddInternal(ir::OpKind kind, const std::string& name,
                                        std::vector<ir::Tensor*> inputs, ir::Shape shape,
                                        ir::Layout layout, const ir::QuantParams& params,
                                        ir::Attributes attrs) {
  const std::string unique = q_.UniqueName(name);
  ir::Tensor* out =
      q_.AddNode(kind, unique, std::move(inputs), {unique}, std::move(attrs))->output(0);
  out->set_dtype(ir::DType::kInt8);
  out->set_shape(std::move(shape));
  out->set_layout(layout);
  out->quant() = params;
  return out;
}

Status GraphQuantizer::EmitConvTranspose(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  const ir::Tensor *w = n.input(1), *b = n.num_inputs() > 2 ? n.input(2) : nullptr;
  const ir::Attributes& a = n.attrs();
  if (w == nullptr || !w->is_constant() || w->shape().size() != 4 ||
      (b != nullptr && !b->is_constant())) {
    return Unsupported(n, "weights and bias must be constants");
  }
  if (a.GetInts("dilations", {1, 1}) != std::vector<int64_t>{1, 1}) {
    return Unsupported(n, "dilated transposed convolutions have no quantised form");
  }
  Deconv d;
  d.cin = w->shape()[0], d.groups = a.GetInt("group", 1);
  d.cout = w->shape()[1] * d.groups, d.kh = w->shape()[2], d.kw = w->shape()[3];
  const std::vector<int64_t> s = a.GetInts("strides", {1, 1});
  d.sh = s[0], d.sw = s[1], d.th = (d.kh + d.sh - 1) / d.sh, d.tw = (d.kw + d.sw - 1) / d.sw;
  d.pads = a.GetInts("pads", {0, 0, 0, 0});
  const ir::Shape& y = n.output(0)->shape();  // [1, Ho, Wo, Cout]
  const int64_t hp = x->shape()[1] + d.th - 1, wp = x->shape()[2] + d.tw - 1;
  if (d.pads[0] + y[1] > hp * d.sh || d.pads[1] + y[2] > wp * d.sw) {
    return Unsupported(n, "output_padding reaches past the sub-pixel convolution's output");
  }
  // 1. The phase convolution.
  const int64_t phases = d.sh * d.sw * d.cout;
  const auto wv = w->data<float>();
  const QuantizedWeights qw =
      QuantizeWeightRows(PhaseWeights(d, wv), d.th * d.tw * (d.cin / d.groups));
  const Tail tail = FollowActivations(n.output(0), "none");
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  std::vector<float> bias;
  if (b != nullptr) {
    const auto bv = b->data<float>();
    for (int64_t c = 0; c < phases; ++c) {
      const int64_t cog = d.cout / d.groups, per_group = d.sh * d.sw * cog;
      bias.push_back(bv[(c / per_group) * cog + c % cog]);
    }
  }
  const float s_x = x->quant().scale[0];
  int64_t saturated = 0;
  std::vector<int32_t> bias_q = QuantizeBias(bias, s_x, qw.scales, saturated);
  FitFoldedBias(bias_q, x->quant().zero_point[0], qw.values, d.th * d.tw * (d.cin / d.groups),
                saturated);
  StatusOr<ChannelMultipliers> m = RequantMultipliers(s_x, qw.scales, out.scale[0]);
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  ir::Attributes conv;
  conv.Set("kernel_shape", std::vector<int64_t>{d.th, d.tw});
  conv.Set("strides", std::vector<int64_t>{1, 1});
  conv.Set("pads", std::vector<int64_t>{d.th - 1, d.tw - 1, d.th - 1, d.tw - 1});
  conv.Set("dilations", std::vector<int64_t>{1, 1});
  conv.Set("group", d.groups);
  conv.Set("activation", tail.activation);
  conv.Set("multiplier", m->multiplier);
  conv.Set("shift", m->shift);
  SetClamp(conv, ActivationClamp(tail.activation, out));
  ir::Tensor* wq = AddWeights(w->name() + ".phases", {phases, d.th, d.tw, d.cin / d.groups}, qw);
  ir::Tensor* bq = AddBias(n.name() + ".phase_bias", std::move(bias_q), s_x, qw.scales);
  ir::Tensor* t = AddInternal(ir::OpKind::kFusedConv, n.name() + ".phases", {x, wq, bq},
                              {1, hp, wp, phases}, ir::Layout::kNHWC, out, std::move(conv));
  // 2. Depth to space.
  const int64_t cog = d.cout / d.groups;
  const ir::Shape split = {1, hp, wp, d.groups, d.sh, d.sw, cog};
  t = AddInternal(ir::OpKind::kReshape, n.name() + ".split",
                  {t, q_.AddConstant(q_.UniqueName(n.name() + ".split_shape"), {7}, split)}, split,
                  ir::Layout::kNone, out, {});
  ir::Attributes perm;
  perm.Set("perm", std::vector<int64_t>{0, 1, 4, 2, 5, 3, 6});
  t = AddInternal(ir::OpKind::kTranspose, n.name() + ".interleave", {t},
                  {1, hp, d.sh, wp, d.sw, d.groups, cog}, ir::Layout::kNone, out, std::move(perm));
  const ir::Shape full = {1, hp * d.sh, wp * d.sw, d.cout};
  t = AddInternal(ir::OpKind::kReshape, n.name() + ".full",
                  {t, q_.AddConstant(q_.UniqueName(n.name() + ".full_shape"), {4}, full)}, full,
                  ir::Layout::kNHWC, out, {});
  // 3. The op's output window.
  ir::Attributes crop;
  crop.Set("starts", std::vector<int64_t>{0, d.pads[0], d.pads[1], 0});
  crop.Set("steps", std::vector<int64_t>{1, 1, 1, 1});
  AddNode(n, ir::OpKind::kSlice, {t}, *tail.out, out, std::move(crop));
  ctx_.Count("quantize.conv_transpose");
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
