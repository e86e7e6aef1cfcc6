// Quantised forms of the pools and views (adds and other binary ops: emit_elementwise.cc):
//   max pool     keeps its input's parameters (max commutes with a monotonic requantisation);
//   average pool multiplier/shift for s_x / s_y, applied to the rounded mean;
//   views        Flatten / Reshape / Identity (Squeeze and Unsqueeze become Reshape): the same
//                bytes with the same parameters.
// Pools have no ceil_mode in the quantised IR: it becomes the bottom/right padding that gives the
// same output size (the extra taps lie outside the input, where pools skip them).
#include <fmt/format.h>

#include "compiler/quantize/activations.h"
#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

struct PoolWindow {
  std::vector<int64_t> kernel, strides, pads;
  bool extended = false;  // ceil_mode needed more padding than the model gave
};

// The window of pool `n` reading NHWC `in` and giving NHWC `out`, with ceil_mode resolved.
StatusOr<PoolWindow> ResolvePool(const ir::Node& n, const ir::Shape& in, const ir::Shape& out) {
  const ir::Attributes& a = n.attrs();
  PoolWindow w{a.GetInts("kernel_shape"), a.GetInts("strides", {1, 1}),
               a.GetInts("pads", {0, 0, 0, 0})};
  if (w.kernel.size() != 2 || w.strides.size() != 2 || w.pads.size() != 4) {
    return InvalidArgument(
        fmt::format("node '{}': needs a 2-D kernel_shape, strides, pads", n.name()));
  }
  if (a.GetInts("dilations", {1, 1}) != std::vector<int64_t>{1, 1} ||
      a.GetString("auto_pad", "NOTSET") != "NOTSET") {
    return Unimplemented(
        fmt::format("node '{}': pools with dilations or auto_pad are not "
                    "supported",
                    n.name()));
  }
  // 1. Bottom/right padding for the output size the float op gives (ceil_mode included).
  for (int d = 0; d < 2; ++d) {
    const int64_t need = (out[1 + d] - 1) * w.strides[d] + w.kernel[d] - in[1 + d] - w.pads[d];
    if (need > w.pads[2 + d]) w.pads[2 + d] = need, w.extended = true;
  }
  // 2. Every window must hold an input tap (the quantised IR's rule; also PyTorch's).
  for (int d = 0; d < 4; ++d) {
    if (w.pads[d] >= w.kernel[d % 2]) {
      return Unimplemented(fmt::format("node '{}': padding {} reaches past the kernel {}", n.name(),
                                       fmt::join(w.pads, ","), fmt::join(w.kernel, ",")));
    }
  }
  return w;
}

// The window attributes of pool `n` (none for a global pool): kernel_shape, strides, pads, and
// an average pool's count_include_pad, which ceil_mode's extra windows cannot honour.
StatusOr<ir::Attributes> WindowAttrs(const ir::Node& n, const ir::Shape& in, const ir::Shape& out) {
  ir::Attributes attrs;
  if (n.kind() == ir::OpKind::kGlobalAveragePool) return attrs;
  NPU_ASSIGN_OR_RETURN(const PoolWindow w, ResolvePool(n, in, out));
  attrs.Set("kernel_shape", w.kernel);
  attrs.Set("strides", w.strides);
  attrs.Set("pads", w.pads);
  if (n.kind() != ir::OpKind::kAveragePool) return attrs;
  const int64_t count_include_pad = n.attrs().GetInt("count_include_pad", 0);
  if (w.extended && count_include_pad != 0) {
    return Unimplemented(fmt::format(
        "node '{}' ({}) cannot be quantised: ceil_mode with count_include_pad: the divisor of the "
        "windows ceil mode adds cannot be expressed",
        n.name(), ir::OpName(n.kind())));
  }
  attrs.Set("count_include_pad", count_include_pad);
  return attrs;
}

bool SameParams(const ir::QuantParams& a, const ir::QuantParams& b) {
  return a.scale == b.scale && a.zero_point == b.zero_point;
}

}  // namespace

Status GraphQuantizer::EmitMaxPool(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  NPU_ASSIGN_OR_RETURN(ir::Attributes attrs, WindowAttrs(n, x->shape(), n.output(0)->shape()));
  const Tail tail = FollowActivations(n.output(0), "none");
  const ir::QuantParams& params = x->quant();
  if (!tail.out->quant().empty() && !SameParams(tail.out->quant(), params)) {
    ctx_.Count("quantize.params-overridden");  // a QDQ model gave the output other parameters
  }
  SetClamp(attrs, ActivationClamp(tail.activation, params));
  AddNode(n, ir::OpKind::kMaxPool, {x}, *tail.out, params, std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitAveragePool(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  NPU_ASSIGN_OR_RETURN(ir::Attributes attrs, WindowAttrs(n, x->shape(), n.output(0)->shape()));
  const Tail tail = FollowActivations(n.output(0), "none");
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams out, ParamsFor(*tail.out));
  StatusOr<QuantizedMultiplier> m =
      QuantizeMultiplier(double{x->quant().scale[0]} / double{out.scale[0]});
  if (!m.ok()) return m.status().WithContext(fmt::format("node '{}'", n.name()));
  attrs.Set("multiplier", int64_t{m->multiplier});
  attrs.Set("shift", int64_t{m->shift});
  SetClamp(attrs, ActivationClamp(tail.activation, out));
  AddNode(n, n.kind(), {x}, *tail.out, out, std::move(attrs));
  return Status::Ok();
}

// FP16: the same windows, without parameters; no activation may follow (POOL has no FP16 clamp).
Status GraphQuantizer::EmitPoolFp16(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  const ir::Tensor* out = n.output(0);
  if (out->users().size() == 1 && !f_.IsGraphOutput(out) && !ActivationOf(*out->users()[0]).empty()) {
    return Unsupported(n, "an activation after a pool has no FP16 form yet");
  }
  NPU_ASSIGN_OR_RETURN(ir::Attributes attrs, WindowAttrs(n, x->shape(), out->shape()));
  AddNode(n, n.kind(), {x}, *out, {}, std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitView(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const ir::Tensor& out = *n.output(0);
  if (!out.quant().empty() && !SameParams(out.quant(), x->quant())) {
    ctx_.Count("quantize.params-overridden");
  }
  std::vector<ir::Tensor*> inputs = {x};
  ir::Attributes attrs;
  ir::OpKind kind = n.kind();
  if (kind == ir::OpKind::kFlatten) {
    attrs.Set("axis", n.attrs().GetInt("axis", 1));
  } else if (kind != ir::OpKind::kIdentity) {
    kind = ir::OpKind::kReshape;  // Reshape, Squeeze, Unsqueeze: to the output's static shape
    const int64_t rank = static_cast<int64_t>(out.shape().size());
    inputs.push_back(q_.AddConstant(q_.UniqueName(out.name() + ".shape"), {rank}, out.shape()));
  }
  AddNode(n, kind, std::move(inputs), out, x->quant(), std::move(attrs));
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
