// Convolutions and fully connected layers on the control core, computed with the NPU's own
// CONV and ACT semantics (hw/spec/semantics.h) over whole tensors, one group at a time. The
// input zero point goes into the bias as the compiler does for the NPU: CONV pads with it, so
// every tap's (x - zero point) is x minus a constant the bias absorbs.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <numeric>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

struct ConvShape {
  Hwc in, out;
  Window window;  // gemm: 1x1
  int64_t groups = 1;
};

// The convolution `op` describes, its window attributes bounded (gemm: 1x1 over every row).
StatusOr<ConvShape> ConvShapeOf(const spec::CpuOp& op) {
  ConvShape s;
  s.in = HwcOf(op.inputs(0));
  s.out = HwcOf(op.outputs(0));
  if (op.kernel() == "gemm") return s;
  NPU_ASSIGN_OR_RETURN(s.window, ReadWindow(op, /*dilations=*/true));
  NPU_ASSIGN_OR_RETURN(s.groups, IntAttr(op, "group", 1, 1, kMaxWindow));
  return s;
}

// One group's CONV, as the NPU would run it.
spec::ConvArgs GroupConv(const ConvShape& s, int32_t pad_value) {
  const Window& w = s.window;
  spec::ConvArgs conv{};
  conv.in_h = uint32_t(s.in.h), conv.in_w = uint32_t(s.in.w),
  conv.in_c = uint32_t(s.in.c / s.groups);
  conv.pad_top = uint32_t(w.top), conv.pad_left = uint32_t(w.left), conv.pad_value = pad_value;
  conv.kernel_h = uint32_t(w.kh), conv.kernel_w = uint32_t(w.kw);
  conv.stride_h = uint32_t(w.sh), conv.stride_w = uint32_t(w.sw);
  conv.dilation_h = uint32_t(w.dh), conv.dilation_w = uint32_t(w.dw);
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
  const uint64_t per_out = uint64_t(s.window.kh * s.window.kw) * in_g;
  std::vector<int8_t>& y = call.outputs[0];
  for (uint64_t g = 0; g < uint64_t(s.groups); ++g) {
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

// fused_conv: x [1, H, W, C], weights [O, kh, kw, C/group] as kernel_shape says, bias [O], the
// output the window's [1, oh, ow, O]; each output sums at most kMaxReduction terms.
Status ExpectConvOperands(const spec::CpuOp& op, const ConvShape& s) {
  const spec::TensorDesc &x = op.inputs(0), &w = op.inputs(1);
  NPU_TRY(Expect4D(x));
  if (w.shape_size() != 4) {
    return DataLoss(fmt::format("weights '{}' [{}] are not 4-D [O][kh][kw][I/group]", w.name(),
                                fmt::join(w.shape(), ",")));
  }
  const int64_t c = x.shape(3), o = w.shape(0), g = s.groups;
  if (c % g != 0 || o % g != 0) {
    return DataLoss(
        fmt::format("group {} does not divide {} input and {} output channels", g, c, o));
  }
  NPU_TRY(ExpectShape(w, {o, s.window.kh, s.window.kw, c / g}));  // bounds the product below
  NPU_TRY(ExpectShape(op.inputs(2), {o}));
  if (const int64_t terms = s.window.kh * s.window.kw * (c / g); terms > kMaxReduction) {
    return DataLoss(fmt::format("each output sums {} terms, more than {}", terms, kMaxReduction));
  }
  NPU_ASSIGN_OR_RETURN(const Dims y, WindowOutput(s.window, DimsOf(x), o));
  return ExpectShape(op.outputs(0), y);
}

// gemm: x [..., K], weights [N, K], bias [N], K at most kMaxReduction; the output keeps every dim
// of x but the last, which becomes N.
Status ExpectGemmOperands(const spec::CpuOp& op) {
  const spec::TensorDesc &x = op.inputs(0), &w = op.inputs(1);
  if (x.shape_size() < 2 || w.shape_size() != 2) {
    return DataLoss(fmt::format("input '{}' [{}] and weights '{}' [{}] are not [..., K] and [N, K]",
                                x.name(), fmt::join(x.shape(), ","), w.name(),
                                fmt::join(w.shape(), ",")));
  }
  const int64_t k = x.shape(x.shape_size() - 1), n = w.shape(0);
  NPU_TRY(ExpectShape(w, {n, k}));
  NPU_TRY(ExpectShape(op.inputs(2), {n}));
  if (k > kMaxReduction) return DataLoss(fmt::format("K = {} is more than {}", k, kMaxReduction));
  Dims y = DimsOf(x);
  y.back() = n;
  return ExpectShape(op.outputs(0), y);
}

}  // namespace

// Both kernels: x int8, weights int8, bias int32, per-channel requantisation of every output
// channel; the group's CONV passes the NPU's CheckConv, which spec::ComputeConv requires.
Status CheckConvolution(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 3, {spec::INT8, spec::INT8, spec::INT32}));
  NPU_ASSIGN_OR_RETURN(const ConvShape s, ConvShapeOf(op));
  NPU_TRY(op.kernel() == "gemm" ? ExpectGemmOperands(op) : ExpectConvOperands(op, s));
  if (const std::string problem = spec::CheckConv(GroupConv(s, 0)); !problem.empty()) {
    return DataLoss(problem);
  }
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
