// Constant packing.
#include "compiler/codegen/constants.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "hw/spec/fp16.h"
#include "hw/spec/int4.h"
#include "hw/spec/isa.h"
#include "hw/spec/semantics.h"

namespace npu::compiler {

namespace {

// FP16 weights: the same tiles, 2 bytes (little-endian) a weight.
std::vector<uint8_t> PackFp16Weights(const ConvLayer& l, const TileGrid& g) {
  std::vector<uint8_t> packed(g.WeightBytes());
  const std::vector<uint64_t> offsets = g.WeightTileOffsets();
  const uint64_t channels = l.WeightChannels();
  for (uint32_t o = 0; o < g.oc().count(); ++o) {
    for (uint32_t r = 0; r < g.reductions(); ++r) {
      const Span1D oc = g.oc().At(o), ic = g.InputChannels(r);
      const KernelBlock b = g.Block(r);
      auto* dst = reinterpret_cast<int8_t*>(packed.data() + offsets[uint64_t{o} * g.reductions() + r]);
      uint64_t i = 0;
      for (uint32_t n = oc.begin; n < oc.begin + oc.size; ++n) {
        for (uint32_t kh = b.h0; kh < b.h0 + b.h; ++kh) {
          for (uint32_t kw = b.w0; kw < b.w0 + b.w; ++kw) {
            const uint64_t tap = (uint64_t{n} * l.kernel_h + kh) * l.kernel_w + kw;
            for (uint32_t c = 0; c < ic.size; ++c) {
              spec::StoreFp16(dst, i++, l.weights_fp16[tap * channels + ic.begin + c]);
            }
          }
        }
      }
    }
  }
  return packed;
}

}  // namespace

std::vector<uint8_t> PackWeights(const ConvLayer& l, const TileGrid& g) {
  if (l.activation_weights) return {};  // LOADed from the activation
  if (l.fp16) return PackFp16Weights(l, g);
  std::vector<uint8_t> packed(g.WeightBytes());
  const std::vector<uint64_t> offsets = g.WeightTileOffsets();
  const uint64_t channels = l.WeightChannels();
  std::vector<int8_t> tile;  // one tile's rows, a weight per byte
  for (uint32_t o = 0; o < g.oc().count(); ++o) {
    for (uint32_t r = 0; r < g.reductions(); ++r) {
      const Span1D oc = g.oc().At(o), ic = g.InputChannels(r);
      const KernelBlock b = g.Block(r);
      tile.clear();
      for (uint32_t n = oc.begin; n < oc.begin + oc.size; ++n) {
        for (uint32_t kh = b.h0; kh < b.h0 + b.h; ++kh) {
          for (uint32_t kw = b.w0; kw < b.w0 + b.w; ++kw) {
            const uint64_t tap = (uint64_t{n} * l.kernel_h + kh) * l.kernel_w + kw;
            const int8_t* src = l.weights.data() + tap * channels + ic.begin;
            tile.insert(tile.end(), src, src + ic.size);
          }
        }
      }
      uint8_t* dst = packed.data() + offsets[uint64_t{o} * g.reductions() + r];
      if (l.weights_int4) {
        const std::vector<uint8_t> rows = spec::PackInt4Rows(tile, g.WeightTileRowValues(r));
        std::copy(rows.begin(), rows.end(), dst);
      } else {
        std::copy(tile.begin(), tile.end(), reinterpret_cast<int8_t*>(dst));
      }
    }
  }
  return packed;
}

StatusOr<int32_t> FoldedBias(const ConvLayer& l, uint32_t n) {
  if (l.activation_weights) return l.bias[n];  // CONV subtracts the zero points itself
  int64_t weight_sum = 0;
  const uint64_t k = l.ReductionSize();
  for (uint64_t i = 0; i < k; ++i) weight_sum += l.weights[n * k + i];
  const int64_t folded = int64_t{l.bias[n]} - int64_t{l.input_zero_point} * weight_sum;
  if (folded < INT32_MIN || folded > INT32_MAX) {
    return InvalidArgument(fmt::format(
        "layer '{}': channel {}: bias {} minus input zero point {} x weight sum {} = {} does not "
        "fit int32",
        l.DisplayName(), n, l.bias[n], l.input_zero_point, weight_sum, folded));
  }
  return static_cast<int32_t>(folded);
}

StatusOr<std::vector<uint8_t>> PackActParams(const ConvLayer& l) {
  std::vector<uint8_t> block(uint64_t{l.out_c} * spec::kActParamBytes);
  if (l.fp16) {  // the FP32 bias's bits; ACT reads nothing else of the record
    for (uint32_t n = 0; n < l.out_c; ++n) {
      spec::WriteActParams(block, n, {std::bit_cast<int32_t>(l.bias_fp32[n]), 0, 0});
    }
    return block;
  }
  for (uint32_t n = 0; n < l.out_c; ++n) {
    NPU_ASSIGN_OR_RETURN(const int32_t bias, FoldedBias(l, n));
    spec::WriteActParams(block, n, {bias, l.multiplier[n], l.shift[n]});
  }
  return block;
}

}  // namespace npu::compiler
