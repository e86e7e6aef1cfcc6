// The integer kernels of the quantised IR, one per op family, over dense NHWC int8 buffers of
// batch 1. They trust their arguments: the interpreter calls them only on graphs that passed
// CheckQuantizedGraph. Internal to compiler/qinterp.
//
// Written from docs/quantized-ir.md alone: the only code shared with the hardware model is the
// rounding in hw/spec/arith.h (Requantize, ApplyScale) and spec::RoundDiv.
#pragma once

#include <cstdint>
#include <span>

#include "compiler/qinterp/qop_attrs.h"

namespace npu::compiler::qinterp {

// An int8 input: values in [h][w][c] order (a 2-D [1, K] tensor is h = w = 1, c = K).
struct QIn {
  std::span<const int8_t> v;
  int64_t h = 1, w = 1, c = 1;
  int32_t zp = 0;
};

// An int8 output buffer of out.h * out.w * out.c values.
struct QOut {
  std::span<int8_t> v;
  int64_t h = 1, w = 1, c = 1;
  int32_t zp = 0;
};

// kFusedConv, any group: weights [out.c][kh][kw][x.c / group]; output channel o reads the input
// channels of its group, [o / (out.c / group) * (x.c / group), ...).
void ConvKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                const QConvAttrs& a, QOut out);
// kFusedConv depthwise (group == x.c == out.c): weights [out.c][kh][kw][1]; the same result as
// ConvKernel, faster.
void DepthwiseConvKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                         const QConvAttrs& a, QOut out);
// kGemm: weights [N][K], every row of K values of x (x is [..., K]).
void GemmKernel(const QIn& x, std::span<const int8_t> w, std::span<const int32_t> bias,
                const QRequant& r, QOut out);
void MaxPoolKernel(const QIn& x, const QPoolAttrs& a, QOut out);
// kAveragePool, and kGlobalAveragePool with a.window covering the plane.
void AveragePoolKernel(const QIn& x, const QPoolAttrs& a, QOut out);

}  // namespace npu::compiler::qinterp
