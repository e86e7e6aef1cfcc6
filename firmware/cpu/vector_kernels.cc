// Pools on the control core, with the NPU's POOL semantics over whole tensors
// (hw/spec/semantics.h).
#include <fmt/format.h>

#include <limits>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "hw/spec/arith.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

constexpr int64_t kMaxWindow = 65535;  // kernel sizes, strides and pads

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
    constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
    constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
    NPU_ASSIGN_OR_RETURN(const int64_t multiplier,
                         IntAttr(op, "multiplier", 1 << 30, kMin32, kMax32));
    NPU_ASSIGN_OR_RETURN(const int64_t shift,
                         IntAttr(op, "shift", 30, spec::kMinShift, spec::kMaxShift));
    p.multiplier = int32_t(multiplier), p.shift = uint32_t(shift);
  }
  if (op.kernel() == "global_average_pool") {
    p.kernel_h = p.in_h, p.kernel_w = p.in_w;
    p.out_h = p.out_w = 1;
    return p;
  }
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k,
                       IntsAttr(op, "kernel_shape", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(op, "strides", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, IntsAttr(op, "pads", 4, 0, kMaxWindow));
  p.kernel_h = uint32_t(k[0]), p.kernel_w = uint32_t(k[1]);
  p.stride_h = uint32_t(s[0]), p.stride_w = uint32_t(s[1]);
  p.pad_top = uint32_t(pads[0]), p.pad_left = uint32_t(pads[1]);
  NPU_ASSIGN_OR_RETURN(const int64_t include_pad, IntAttr(op, "count_include_pad", 0, 0, 1));
  p.count_include_pad = include_pad != 0;
  return p;
}

}  // namespace

// One int8 input; the output keeps its channels and has one pixel per window; the window passes
// the NPU's CheckPool and (but a global pool's) holds at most kMaxReduction taps.
Status CheckPool(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  NPU_TRY(ExpectInputType(op, 0, spec::INT8));
  NPU_ASSIGN_OR_RETURN(const spec::PoolArgs p, PoolArgsOf(op));
  const uint64_t pixels = uint64_t{p.out_h} * p.out_w;
  if (pixels * p.channels != spec::Elements(op.outputs(0))) {
    return DataLoss(fmt::format("output [{}] is not {} pixels of the input's {} channels",
                                fmt::join(op.outputs(0).shape(), ","), pixels, p.channels));
  }
  if (op.kernel() != "global_average_pool" && uint64_t{p.kernel_h} * p.kernel_w > kMaxReduction) {
    return DataLoss(fmt::format("a {}x{} window sums more than {} taps", p.kernel_h, p.kernel_w,
                                kMaxReduction));
  }
  if (const std::string problem = spec::CheckPool(p); !problem.empty()) return DataLoss(problem);
  return Status::Ok();
}

Status Pool(Call& call) {
  NPU_ASSIGN_OR_RETURN(const spec::PoolArgs p, PoolArgsOf(call.op));
  spec::ComputePool(p, call.inputs[0].i8(), call.outputs[0]);
  return Status::Ok();
}

}  // namespace npu::fw::cpu
