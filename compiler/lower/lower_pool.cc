// Pool lowering: MaxPool, AveragePool, GlobalAveragePool, and a global pool's strip sums and
// their mean (PoolSum, PoolMean) -> one POOL layer.
//
// A global average pool is a window over the whole plane. POOL's kernel field has 8 bits, so a
// plane taller or wider than 255 is re-viewed as another H' x W' plane of the same area (the
// pixels are the same bytes in the same order, and an average does not care where a pixel sits);
// a plane whose pixel count has no such factorisation cannot be averaged exactly by the hardware
// and is refused with the reason.
#include <fmt/format.h>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {
namespace {

// The window attributes of MaxPool/AveragePool.
Status ReadWindow(const ir::Node& n, PoolLayer& p) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k, IntsAttr(n, "kernel_shape", 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(n, "strides", 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, IntsAttr(n, "pads", 4));
  const std::vector<int64_t> d = n.attrs().GetInts("dilations", {1, 1});
  if (d.size() != 2 || d[0] != 1 || d[1] != 1) {
    return Unimplemented(fmt::format("node '{}': dilated pooling is not supported", n.name()));
  }
  for (int64_t v : {k[0], k[1], s[0], s[1], pads[0], pads[1], pads[2], pads[3]}) {
    if (v < 0 || v > 65535) return BadNode(n, "window attributes out of range");
  }
  p.kernel_h = uint32_t(k[0]), p.kernel_w = uint32_t(k[1]);
  p.stride_h = uint32_t(s[0]), p.stride_w = uint32_t(s[1]);
  p.pad_top = uint32_t(pads[0]), p.pad_left = uint32_t(pads[1]);
  p.pad_bottom = uint32_t(pads[2]), p.pad_right = uint32_t(pads[3]);
  return Status::Ok();
}

// Step for a global pool: the whole plane, re-viewed if a side exceeds the kernel field.
Status GlobalWindow(const ir::Node& n, PoolLayer& p, std::string& note) {
  const uint64_t pixels = uint64_t{p.in_h} * p.in_w;
  if (p.in_h > kMaxPoolKernel || p.in_w > kMaxPoolKernel) {
    uint32_t rows = 0;
    for (uint64_t h = kMaxPoolKernel; h >= 1 && rows == 0; --h) {
      if (pixels % h == 0 && pixels / h <= kMaxPoolKernel) rows = uint32_t(h);
    }
    if (rows == 0) {
      return Unimplemented(fmt::format(
          "node '{}': global average pool over {}x{} = {} pixels: POOL's window is at most "
          "{}x{}, and no plane of that area fits it; splitting the mean would round twice and "
          "differ from the integer reference",
          n.name(), p.in_h, p.in_w, pixels, kMaxPoolKernel, kMaxPoolKernel));
    }
    note = fmt::format(
        "global average pool over {}x{} viewed as a {}x{} plane (POOL's window is "
        "at most {}x{})",
        p.in_h, p.in_w, rows, pixels / rows, kMaxPoolKernel, kMaxPoolKernel);
    p.in_h = rows;
    p.in_w = uint32_t(pixels / rows);
  }
  p.kernel_h = p.in_h, p.kernel_w = p.in_w;
  return Status::Ok();
}

PoolKind KindOf(ir::OpKind kind) {
  switch (kind) {
    case ir::OpKind::kMaxPool:
      return PoolKind::kMax;
    case ir::OpKind::kAveragePool:
      return PoolKind::kAverage;
    case ir::OpKind::kPoolSum:
      return PoolKind::kSum;
    case ir::OpKind::kPoolMean:
      return PoolKind::kMeanOfSums;
    default:
      return PoolKind::kGlobalAverage;
  }
}

// A pool mean's window: the plane its sums are of, which the mean divides by (as the kernel,
// re-viewed as GlobalWindow does if a side exceeds the kernel field).
Status MeanWindow(const ir::Node& n, PoolLayer& p, std::string& note) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> w, IntsAttr(n, "window", 2));
  if (w[0] < 1 || w[1] < 1 || w[0] > 65535 || w[1] > 65535) {
    return BadNode(n, "window out of range");
  }
  PoolLayer plane = p;
  plane.in_h = uint32_t(w[0]), plane.in_w = uint32_t(w[1]);
  NPU_TRY(GlobalWindow(n, plane, note));
  p.kernel_h = plane.kernel_h, p.kernel_w = plane.kernel_w;
  return Status::Ok();
}

}  // namespace

Status LowerPool(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  PoolLayer p;
  p.name = n.name();
  p.kind = KindOf(n.kind());
  p.in_h = x.h, p.in_w = x.w, p.channels = x.c;
  p.out_h = y.h, p.out_w = y.w;
  if (y.c != x.c) return BadNode(n, "pooling keeps the channel count");
  if (p.kind == PoolKind::kGlobalAverage || p.kind == PoolKind::kSum) {
    if (y.h != 1 || y.w != 1) return BadNode(n, "a global pool gives one pixel");
    NPU_TRY(GlobalWindow(n, p, layer.note));
    p.accumulate = layer.inputs.size() == 2;
  } else if (p.kind == PoolKind::kMeanOfSums) {
    NPU_TRY(MeanWindow(n, p, layer.note));
  } else {
    NPU_TRY(ReadWindow(n, p));
  }
  if (x.fp16) {  // no parameters, no clamp (docs/quantized-ir.md, "FP16 graphs")
    p.fp16 = true;
    NPU_ASSIGN_OR_RETURN(const int64_t cip, IntAttr(n, "count_include_pad", 0));
    p.count_include_pad = cip != 0;
    layer.op = p.OpName();
    NPU_TRY(CheckPoolLayer(p));
    layer.work = p;
    return Status::Ok();
  }
  p.input_zero_point = x.zero_point, p.output_zero_point = y.zero_point;
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(n, "clamp_min", -128));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(n, "clamp_max", 127));
  p.clamp_min = int32_t(lo), p.clamp_max = int32_t(hi);
  if (p.average()) {
    NPU_ASSIGN_OR_RETURN(const int64_t m, IntAttr(n, "multiplier"));
    NPU_ASSIGN_OR_RETURN(const int64_t s, IntAttr(n, "shift"));
    NPU_ASSIGN_OR_RETURN(const int64_t cip, IntAttr(n, "count_include_pad", 0));
    p.multiplier = int32_t(m), p.shift = int32_t(s), p.count_include_pad = cip != 0;
  } else if (p.kind == PoolKind::kMax && (x.scale != y.scale || x.zero_point != y.zero_point)) {
    return BadNode(n, "max pooling keeps the input's quantisation (scale and zero point)");
  }
  layer.op = p.OpName();
  NPU_TRY(CheckPoolLayer(p));
  layer.work = p;
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
