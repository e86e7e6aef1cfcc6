// Where an emitter finds an activation tensor: in DRAM (an offset the program builder relocates)
// or kept in SRAM between layers. Either way the tensor is dense NHWC (batch 1) with `channels`
// per pixel, and a layer may use a slice of them (one group of a grouped convolution).
#pragma once

#include <cstdint>

namespace npu::compiler {

struct TensorPlace {
  bool in_sram = false;
  uint64_t addr = 0;            // DRAM offset (relative, relocated later) or SRAM byte address
  uint32_t channels = 0;        // channels per stored pixel: the pixel stride in bytes
  uint32_t channel_offset = 0;  // first channel the layer reads or writes

  // The byte of (row, col, channel) relative to the slice.
  uint64_t At(uint64_t row, uint64_t col, uint64_t channel, uint64_t width) const {
    return addr + (row * width + col) * channels + channel_offset + channel;
  }
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
