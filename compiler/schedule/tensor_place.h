// Where an emitter finds an activation tensor: in DRAM (an offset the program builder relocates)
// or kept in SRAM between layers. Either way the tensor is dense NHWC (batch 1) with `channels`
// per pixel, and a layer may use a slice of them (one group of a grouped convolution).
#pragma once

#include <cstdint>

namespace npu::compiler {

struct TensorPlace {
  bool in_sram = false;
  uint64_t addr = 0;            // DRAM offset (relative, relocated later) or SRAM byte address
  uint32_t channels = 0;        // channels per stored pixel: the pixel stride in elements
  uint32_t channel_offset = 0;  // first channel the layer reads or writes
  uint32_t element_bytes = 1;   // 2 for FP16

  // The first byte of (row, col, channel) relative to the slice.
  uint64_t At(uint64_t row, uint64_t col, uint64_t channel, uint64_t width) const {
    return addr + ((row * width + col) * channels + channel_offset + channel) * element_bytes;
  }
  uint64_t PixelBytes() const { return uint64_t{channels} * element_bytes; }
};

// The tensor `bytes` further on: another matrix of a batched value (ConvBatch).
inline TensorPlace Offset(TensorPlace t, uint64_t bytes) {
  t.addr += bytes;
  return t;
}

// A whole tensor of `channels` channels in DRAM at `addr`.
inline TensorPlace DramTensor(uint64_t addr, uint32_t channels) {
  return {false, addr, channels, 0};
}

}  // namespace npu::compiler
