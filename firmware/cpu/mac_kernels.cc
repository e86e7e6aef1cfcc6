// Convolutions and fully connected layers on the control core, computed with the NPU's own
// CONV and ACT semantics (hw/spec/semantics.h) over whole tensors, one group at a time. The
// input zero point goes into the bias as the compiler does for the NPU: CONV pads with it, so
// every tap's (x - zero point) is x minus a constant the bias absorbs.
#include <fmt/format.h>

#include <numeric>

#include "firmware/cpu/kernels.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

struct ConvShape {
  Hwc in, out;
  uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pad_top = 0, pad_left = 0;
  uint32_t groups = 1;
};

// One group's dense input channels [first, first + count) of an HWC tensor.
std::vector<int8_t> ChannelSlice(std::span<const int8_t> x, const Hwc& g, uint64_t first,
                                 uint64_t count) {
  std::vector<int8_t> slice(g.h * g.w * count);
  for (uint64_t p = 0; p < g.h * g.w; ++p) {
    std::copy_n(x.data() + p * g.c + first, count, slice.data() + p * count);
  }
  return slice;
}

Status Convolve(Call& call, const ConvShape& s) {
  const Operand &x = call.inputs[0], &w = call.inputs[1], &b = call.inputs[2];
  const std::vector<int64_t> multiplier = call.Ints("multiplier"), shift = call.Ints("shift");
  const uint64_t in_g = s.in.c / s.groups, out_g = s.out.c / s.groups;
  const uint64_t per_out = uint64_t{s.kh} * s.kw * in_g;
  if (multiplier.size() != s.out.c || shift.size() != s.out.c || b.i32().size() != s.out.c ||
      w.i8().size() != s.out.c * per_out) {
    return InvalidArgument("weights, bias or requantisation do not fit the output channels");
  }
  std::vector<int8_t>& y = call.outputs[0];
  for (uint32_t g = 0; g < s.groups; ++g) {
    const std::vector<int8_t> in = ChannelSlice(x.i8(), s.in, g * in_g, in_g);
    const std::span<const int8_t> weights = w.i8().subspan(g * out_g * per_out, out_g * per_out);
    spec::ConvArgs conv{};
    conv.in_h = uint32_t(s.in.h), conv.in_w = uint32_t(s.in.w), conv.in_c = uint32_t(in_g);
    conv.pad_top = s.pad_top, conv.pad_left = s.pad_left, conv.pad_value = x.zero_point();
    conv.kernel_h = s.kh, conv.kernel_w = s.kw, conv.stride_h = s.sh, conv.stride_w = s.sw;
    conv.dilation_h = s.dh, conv.dilation_w = s.dw;
    conv.out_h = uint32_t(s.out.h), conv.out_w = uint32_t(s.out.w), conv.out_c = uint32_t(out_g);
    std::vector<int32_t> acc(spec::ConvAccEntries(conv));
    spec::ComputeConv(conv, in, weights, acc);
    std::vector<uint8_t> params(out_g * spec::kActParamBytes);
    for (uint64_t o = 0; o < out_g; ++o) {
      const uint64_t n = g * out_g + o;
      const auto wo = weights.subspan(o * per_out, per_out);
      const int64_t sum = std::accumulate(wo.begin(), wo.end(), int64_t{0});
      spec::WriteActParams(params, uint32_t(o),
                           {static_cast<int32_t>(b.i32()[n] - x.zero_point() * sum),
                            static_cast<int32_t>(multiplier[n]), static_cast<int32_t>(shift[n])});
    }
    spec::ActArgs act{};
    act.pixels = uint32_t(s.out.h * s.out.w), act.channels = uint32_t(out_g);
    act.out_pixel_stride = act.channels;
    act.out_zero_point = call.op.outputs(0).zero_point();
    act.clamp_min = int32_t(call.Int("clamp_min", -128));
    act.clamp_max = int32_t(call.Int("clamp_max", 127));
    std::vector<int8_t> out;
    if (spec::ComputeAct(act, acc, params, {}, out) != spec::regs::ErrorCode::kNone) {
      return InvalidArgument("a requantisation shift is outside 1..62");
    }
    for (uint64_t p = 0; p < s.out.h * s.out.w; ++p) {
      std::copy_n(out.data() + p * out_g, out_g, y.data() + p * s.out.c + g * out_g);
    }
  }
  return Status::Ok();
}

}  // namespace

Status FusedConv(Call& call) {
  ConvShape s;
  s.in = HwcOf(*call.inputs[0].desc);
  s.out = HwcOf(call.op.outputs(0));
  const std::vector<int64_t> k = call.Ints("kernel_shape"), st = call.Ints("strides");
  const std::vector<int64_t> p = call.Ints("pads"), d = call.Ints("dilations");
  if (k.size() != 2 || st.size() != 2 || p.size() != 4 || d.size() != 2) {
    return InvalidArgument("needs 2-D kernel_shape, strides, dilations and 4 pads");
  }
  s.kh = uint32_t(k[0]), s.kw = uint32_t(k[1]), s.sh = uint32_t(st[0]), s.sw = uint32_t(st[1]);
  s.dh = uint32_t(d[0]), s.dw = uint32_t(d[1]), s.pad_top = uint32_t(p[0]);
  s.pad_left = uint32_t(p[1]);
  s.groups = uint32_t(call.Int("group", 1));
  if (s.groups == 0 || s.in.c % s.groups != 0 || s.out.c % s.groups != 0) {
    return InvalidArgument(fmt::format("group {} does not divide the channels", s.groups));
  }
  return Convolve(call, s);
}

// [..., K] x [N, K]^T: a 1x1 convolution over every row.
Status Gemm(Call& call) {
  ConvShape s;
  s.in = HwcOf(*call.inputs[0].desc);
  s.out = HwcOf(call.op.outputs(0));
  return Convolve(call, s);
}

}  // namespace npu::fw::cpu
