// A CONV of a square kernel over a square output, unpadded, stride 1, the input just large
// enough: the shape the spec tests count words and folds on by hand.
#pragma once

#include <cstdint>

#include "hw/spec/isa.h"

namespace npu::spec::testing {

inline ConvArgs SquareConv(uint32_t kernel, uint32_t in_c, uint32_t out_c, uint32_t out_hw) {
  ConvArgs conv;
  conv.kernel_h = conv.kernel_w = kernel;
  conv.in_c = in_c;
  conv.out_c = out_c;
  conv.out_h = conv.out_w = out_hw;
  conv.in_h = conv.in_w = out_hw + kernel - 1;
  return conv;
}

}  // namespace npu::spec::testing
