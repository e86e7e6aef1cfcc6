// The integer reference: the plain, obviously-correct evaluation of a ConvLayer that the compiled
// program (on the functional executor and on the virtual platform) must match bit for bit.
// Written independently of hw/spec/semantics.cc: it works on real (zero-point-corrected) input
// values, never looks at tiles, padding values or folded biases. Only the rounding rule,
// spec::Requantize, is shared, because it is the contract itself.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "compiler/layer/conv_layer.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// out[oh][ow][n] = Requantize(sum over kh, kw, c of (in[y][x][c] - input_zero_point) *
//                  w[n][kh][kw][c], bias[n], multiplier[n], shift[n], output_zero_point, clamp),
// with y = oh*stride_h + kh*dilation_h - pad_top (likewise x), and out-of-bounds taps adding 0.
// then through layer.table if it has one (out = table[out + 128]).
// Input and output are NHWC int8 (batch 1). Fails if the layer is malformed or the input has the
// wrong size.
StatusOr<std::vector<int8_t>> ReferenceConv(const ConvLayer& layer, std::span<const int8_t> input);

}  // namespace npu::compiler
