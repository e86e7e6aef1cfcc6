// Convolutions and fully connected layers on the control core, computed with the NPU's own
// CONV and ACT semantics (hw/spec/semantics.h) over whole tensors, one group at a time. The
// input zero point goes into the bias as the compiler does for the NPU: CONV pads with it, so
// every tap's (x - zero point) is x minus a constant the bias absorbs.
#include <fmt/format.h>

#include <numeric>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

constexpr int64_t kMaxWindow = 65535;  // kernel sizes, strides, dilations and pads

struct ConvShape {
  Hwc in, out;
  uint32_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pad_top = 0, pad_left = 0;
  uint32_t groups = 1;
};

// The convolution `op` describes, its window attributes bounded (gemm: 1x1 over every row).
StatusOr<ConvShape> ConvShapeOf(const spec::CpuOp& op) {
  ConvShape s;
  s.in = HwcOf(op.inputs(0));
  s.out = HwcOf(op.outputs(0));
  if (op.kernel() == "gemm") return s;
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k,
                       IntsAttr(op, "kernel_shape", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> st, IntsAttr(op, "strides", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> p, IntsAttr(op, "pads", 4, 0, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> d, IntsAttr(op, "dilations", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const int64_t groups, IntAttr(op, "group", 1, 1, kMaxWindow));
  s.kh = uint32_t(k[0]), s.kw = uint32_t(k[1]), s.sh = uint32_t(st[0]), s.sw = uint32_t(st[1]);
  s.dh = uint32_t(d[0]), s.dw = uint32_t(d[1]), s.pad_top = uint32_t(p[0]);
  s.pad_left = uint32_t(p[1]);
  s.groups = uint32_t(groups);
  return s;
}

// One group's CONV, as the NPU would run it.
spec::ConvArgs GroupConv(const ConvShape& s, int32_t pad_value) {
  spec::ConvArgs conv{};
  conv.in_h = uint32_t(s.in.h), conv.in_w = uint32_t(s.in.w),
  conv.in_c = uint32_t(s.in.c / s.groups);
  conv.pad_top = s.pad_top, conv.pad_left = s.pad_left, conv.pad_value = pad_value;
  conv.kernel_h = s.kh, conv.kernel_w = s.kw, conv.stride_h = s.sh, conv.stride_w = s.sw;
  conv.dilation_h = s.dh, conv.dilation_w = s.dw;
  conv.out_h = uint32_t(s.out.h), conv.out_w = uint32_t(s.out.w);
  conv.out_c = uint32_t(s.out.c / s.groups);
  return conv;
}

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
  const uint64_t out_g = s.out.c / s.groups, in_g = s.in.c / s.groups;
  const uint64_t per_out = uint64_t{s.kh} * s.kw * in_g;
  std::vector<int8_t>& y = call.outputs[0];
  for (uint32_t g = 0; g < s.groups; ++g) {
    const std::vector<int8_t> in = ChannelSlice(x.i8(), s.in, g * in_g, in_g);
    const std::span<const int8_t> weights = w.i8().subspan(g * out_g * per_out, out_g * per_out);
    const spec::ConvArgs conv = GroupConv(s, x.zero_point());
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

// Gemm keeps every dim of its input but the last, which becomes the weights' row count.
Status ExpectGemmOutput(const spec::CpuOp& op) {
  if (op.inputs(0).shape_size() < 1 || op.inputs(1).shape_size() != 2) {
    return DataLoss("gemm needs an input [..., K] and weights [N, K]");
  }
  Dims want = DimsOf(op.inputs(0));
  want.back() = DimsOf(op.inputs(1)).front();
  return ExpectDims("output", DimsOf(op.outputs(0)), want);
}

}  // namespace

// Both kernels: x int8, weights int8 [O][kh][kw][I/group] (gemm [O][K]), bias int32 [O],
// per-channel requantisation; the window passes the NPU's CheckConv and reduces at most
// kMaxReduction terms.
Status CheckConvolution(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 3));
  NPU_TRY(ExpectInputType(op, 0, spec::INT8));
  NPU_TRY(ExpectInputType(op, 1, spec::INT8));
  NPU_TRY(ExpectInputType(op, 2, spec::INT32));
  NPU_ASSIGN_OR_RETURN(const ConvShape s, ConvShapeOf(op));
  if (s.in.c % s.groups != 0 || s.out.c % s.groups != 0) {
    return DataLoss(fmt::format("group {} does not divide {} input and {} output channels",
                                s.groups, s.in.c, s.out.c));
  }
  const uint64_t per_out = uint64_t{s.kh} * s.kw * (s.in.c / s.groups);
  if (per_out > kMaxReduction) {
    return DataLoss(fmt::format("each output sums {} terms, more than {}", per_out, kMaxReduction));
  }
  if (spec::Elements(op.inputs(1)) != s.out.c * per_out ||
      spec::Elements(op.inputs(2)) != s.out.c) {
    return DataLoss(
        fmt::format("weights [{}] or bias [{}] do not fit {} output channels of {} terms",
                    fmt::join(op.inputs(1).shape(), ","), fmt::join(op.inputs(2).shape(), ","),
                    s.out.c, per_out));
  }
  if (op.kernel() == "gemm") NPU_TRY(ExpectGemmOutput(op));
  if (const std::string problem = spec::CheckConv(GroupConv(s, 0)); !problem.empty()) {
    return DataLoss(problem);
  }
  NPU_TRY(IntAttr(op, "clamp_min", -128, -128, 127).status());
  NPU_TRY(IntAttr(op, "clamp_max", 127, -128, 127).status());
  return ExpectRequantisation(op, int64_t(s.out.c));
}

Status FusedConv(Call& call) {
  NPU_ASSIGN_OR_RETURN(const ConvShape s, ConvShapeOf(call.op));
  return Convolve(call, s);
}

// [..., K] x [N, K]^T: a 1x1 convolution over every row.
Status Gemm(Call& call) {
  NPU_ASSIGN_OR_RETURN(const ConvShape s, ConvShapeOf(call.op));
  return Convolve(call, s);
}

}  // namespace npu::fw::cpu
