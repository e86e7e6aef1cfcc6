// One quantised pooling layer, as the vector unit's POOL computes it: max pooling (output scale =
// input scale), average pooling and global average pooling (rescaled by multiplier * 2^-shift).
// NHWC int8, batch 1. The output size is given rather than derived, so ONNX ceil_mode shapes
// (windows running past the padding) are expressed as they are.
#pragma once

#include <cstdint>
#include <string>

#include "hw/spec/fp16.h"
#include "hw/spec/semantics.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// kSum and kMeanOfSums: a global average pool over row strips (POOL's sum and mean-of-sums
// modes, docs/isa.md): each strip's sum adds its pixels to the int32 sums of the strips before
// (`accumulate`, in place), and the mean of the sums, over the whole plane (the kernel), rounds
// once as the global pool would.
enum class PoolKind : uint8_t { kMax, kAverage, kGlobalAverage, kSum, kMeanOfSums };

struct PoolLayer {
  std::string name;
  PoolKind kind = PoolKind::kMax;
  uint32_t in_h = 1, in_w = 1, channels = 1;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t pad_top = 0, pad_left = 0, pad_bottom = 0, pad_right = 0;
  uint32_t out_h = 1, out_w = 1;
  bool count_include_pad = false;  // average: divide by the whole window, padding included
  bool accumulate = false;         // sum: add to the sums in the output (the operand's buffer)

  int32_t input_zero_point = 0;
  int32_t output_zero_point = 0;
  int32_t multiplier = 1 << 30;  // average: input_scale / output_scale = multiplier * 2^-shift
  int32_t shift = 30;
  int32_t clamp_min = -128;
  int32_t clamp_max = 127;
  // FP16 (docs/fp16-semantics.md): 2 bytes an element; the int8 fields above are unused.
  bool fp16 = false;

  // Rescaled to the output's scale (multiplier, shift): not max, not sum.
  bool average() const { return kind != PoolKind::kMax && kind != PoolKind::kSum; }
  // int8, FP16, or a sum's int32 sums (the mean of sums reads them).
  uint64_t InElementBytes() const {
    return kind == PoolKind::kMeanOfSums ? spec::kPoolSumBytes : spec::ElementBytes(fp16);
  }
  uint64_t OutElementBytes() const {
    return kind == PoolKind::kSum ? spec::kPoolSumBytes : spec::ElementBytes(fp16);
  }
  uint64_t InputBytes() const { return uint64_t{in_h} * in_w * channels * InElementBytes(); }
  uint64_t OutputValues() const { return uint64_t{out_h} * out_w * channels; }
  uint64_t OutputBytes() const { return OutputValues() * OutElementBytes(); }
  // Window taps read per output value, the vector unit's work measure (a mean of sums: one).
  uint64_t Taps() const {
    return OutputValues() * (kind == PoolKind::kMeanOfSums ? 1 : kernel_h * kernel_w);
  }
  const char* OpName() const;
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// The window of output `o` along one axis: [o*stride - pad, o*stride - pad + kernel).
// POOL skips taps outside the input, so a window needs only to touch the input.
Status CheckPoolLayer(const PoolLayer& layer);

// ISA limits of one POOL instruction (4-bit stride and padding, 8-bit kernel).
inline constexpr uint32_t kMaxPoolKernel = 255;
inline constexpr uint32_t kMaxPoolStride = 15;
inline constexpr uint32_t kMaxPoolPad = 15;

}  // namespace npu::compiler
