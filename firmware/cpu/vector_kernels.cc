// Pools on the control core, with the NPU's POOL semantics over whole tensors
// (hw/spec/semantics.h).
#include <fmt/format.h>

#include "firmware/cpu/kernels.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

spec::PoolArgs PoolOf(const Call& call, spec::PoolMode mode) {
  const Hwc in = HwcOf(*call.inputs[0].desc), out = HwcOf(call.op.outputs(0));
  spec::PoolArgs p{};
  p.in_h = uint32_t(in.h), p.in_w = uint32_t(in.w), p.channels = uint32_t(in.c);
  p.out_h = uint32_t(out.h), p.out_w = uint32_t(out.w);
  p.out_pixel_stride = p.channels;
  p.mode = static_cast<uint32_t>(mode);
  p.in_zero_point = call.inputs[0].zero_point();
  p.out_zero_point = call.op.outputs(0).zero_point();
  p.multiplier = int32_t(call.Int("multiplier", 1 << 30));
  p.shift = uint32_t(call.Int("shift", 30));
  p.clamp_min = int32_t(call.Int("clamp_min", -128));
  p.clamp_max = int32_t(call.Int("clamp_max", 127));
  return p;
}

Status Windowed(Call& call, spec::PoolMode mode) {
  spec::PoolArgs p = PoolOf(call, mode);
  const std::vector<int64_t> k = call.Ints("kernel_shape"), s = call.Ints("strides");
  const std::vector<int64_t> pads = call.Ints("pads");
  if (k.size() != 2 || s.size() != 2 || pads.size() != 4) {
    return InvalidArgument("needs 2-D kernel_shape, strides and 4 pads");
  }
  p.kernel_h = uint32_t(k[0]), p.kernel_w = uint32_t(k[1]);
  p.stride_h = uint32_t(s[0]), p.stride_w = uint32_t(s[1]);
  p.pad_top = uint32_t(pads[0]), p.pad_left = uint32_t(pads[1]);
  p.count_include_pad = call.Int("count_include_pad", 0) != 0;
  if (const std::string problem = spec::CheckPool(p); !problem.empty()) {
    return InvalidArgument(problem);
  }
  spec::ComputePool(p, call.inputs[0].i8(), call.outputs[0]);
  return Status::Ok();
}

}  // namespace

Status MaxPool(Call& call) { return Windowed(call, spec::PoolMode::kMax); }
Status AveragePool(Call& call) { return Windowed(call, spec::PoolMode::kAverage); }

Status GlobalAveragePool(Call& call) {
  spec::PoolArgs p = PoolOf(call, spec::PoolMode::kAverage);
  p.kernel_h = p.in_h, p.kernel_w = p.in_w;
  p.out_h = p.out_w = 1;
  if (const std::string problem = spec::CheckPool(p); !problem.empty()) {
    return InvalidArgument(problem);
  }
  spec::ComputePool(p, call.inputs[0].i8(), call.outputs[0]);
  return Status::Ok();
}

}  // namespace npu::fw::cpu
