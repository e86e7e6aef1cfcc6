// Pools on the control core, with the NPU's POOL semantics over whole tensors
// (hw/spec/semantics.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "hw/spec/arith.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

spec::PoolMode ModeOf(const spec::CpuOp& op) {
  return op.kernel() == "max_pool" ? spec::PoolMode::kMax : spec::PoolMode::kAverage;
}

// The POOL the NPU would run for `op` (global average pool: one window over the whole input),
// its attributes bounded.
StatusOr<spec::PoolArgs> PoolArgsOf(const spec::CpuOp& op) {
  const Hwc in = HwcOf(op.inputs(0)), out = HwcOf(op.outputs(0));
  spec::PoolArgs p{};
  p.in_h = uint32_t(in.h), p.in_w = uint32_t(in.w), p.channels = uint32_t(in.c);
  p.out_h = uint32_t(out.h), p.out_w = uint32_t(out.w);
  p.out_pixel_stride = p.channels;
  p.mode = static_cast<uint32_t>(ModeOf(op));
  p.in_zero_point = op.inputs(0).zero_point();
  p.out_zero_point = op.outputs(0).zero_point();
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(op, "clamp_min", -128, -128, 127));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(op, "clamp_max", 127, -128, 127));
  p.clamp_min = int32_t(lo), p.clamp_max = int32_t(hi);
  if (p.mode == uint32_t(spec::PoolMode::kAverage)) {  // max pools do not rescale
    NPU_ASSIGN_OR_RETURN(const int64_t multiplier,
                         IntAttr(op, "multiplier", 1 << 30, 1, INT32_MAX));
    NPU_ASSIGN_OR_RETURN(const int64_t shift,
                         IntAttr(op, "shift", 30, spec::kMinShift, spec::kMaxShift));
    p.multiplier = int32_t(multiplier), p.shift = uint32_t(shift);
  }
  if (op.kernel() == "global_average_pool") {
    p.kernel_h = p.in_h, p.kernel_w = p.in_w;
    p.out_h = p.out_w = 1;
    return p;
  }
  NPU_ASSIGN_OR_RETURN(const Window w, ReadWindow(op, /*dilations=*/false));
  p.kernel_h = uint32_t(w.kh), p.kernel_w = uint32_t(w.kw);
  p.stride_h = uint32_t(w.sh), p.stride_w = uint32_t(w.sw);
  p.pad_top = uint32_t(w.top), p.pad_left = uint32_t(w.left);
  NPU_ASSIGN_OR_RETURN(const int64_t include_pad, IntAttr(op, "count_include_pad", 0, 0, 1));
  p.count_include_pad = include_pad != 0;
  return p;
}

// The output the pool gives: [1, oh, ow, C] of its window, [1, 1, 1, C] for a global pool. Every
// window holds a tap of the input (pads smaller than the kernel): no empty max, no mean of none.
StatusOr<Dims> PoolOutput(const spec::CpuOp& op) {
  const Dims x = DimsOf(op.inputs(0));
  if (op.kernel() == "global_average_pool") return Dims{1, 1, 1, x[3]};
  NPU_ASSIGN_OR_RETURN(const Window w, ReadWindow(op, /*dilations=*/false));
  if (w.top >= w.kh || w.bottom >= w.kh || w.left >= w.kw || w.right >= w.kw) {
    return DataLoss(fmt::format("pads [{},{},{},{}] must be smaller than the kernel [{},{}]", w.top,
                                w.left, w.bottom, w.right, w.kh, w.kw));
  }
  return WindowOutput(w, x, x[3]);
}

}  // namespace

// One int8 input [1, H, W, C] and the output its window gives; the clamp, and for average pools
// the rescale, in range; the POOL passes the NPU's CheckPool, which spec::ComputePool requires.
// The window sums in int64 (spec::ComputePool), so its size needs no bound beyond kMaxWindow.
Status CheckPool(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  NPU_TRY(Expect4D(op.inputs(0)));
  NPU_ASSIGN_OR_RETURN(const Dims y, PoolOutput(op));
  NPU_TRY(ExpectShape(op.outputs(0), y));
  NPU_TRY(ExpectClamp(op));
  NPU_ASSIGN_OR_RETURN(const spec::PoolArgs p, PoolArgsOf(op));
  if (const std::string problem = spec::CheckPool(p); !problem.empty()) return DataLoss(problem);
  return Status::Ok();
}

Status Pool(Call& call) {
  NPU_ASSIGN_OR_RETURN(const spec::PoolArgs p, PoolArgsOf(call.op));
  spec::ComputePool(p, call.inputs[0].i8(), call.outputs[0]);
  return Status::Ok();
}

}  // namespace npu::fw::cpu
