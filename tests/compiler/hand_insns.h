// Hand-built instructions for the scheduling passes' tests (dependencies, interleaving): tiny
// loads, stores, 1x1 CONVs and ACTs whose footprints are easy to read off.
#pragma once

#include <cstdint>

#include "hw/spec/isa.h"

namespace npu::compiler::testing {

inline spec::Instruction Load(uint32_t sram, uint32_t bytes, uint32_t dram = 0) {
  return {spec::Opcode::kLoad, 0, 0, spec::DmaArgs{dram, sram, bytes}};
}
inline spec::Instruction Store(uint32_t sram, uint32_t bytes, uint32_t dram = 1 << 20) {
  return {spec::Opcode::kStore, 0, 0, spec::DmaArgs{dram, sram, bytes}};
}
// A 1x1 CONV reading `in_bytes` input channels at `in` and weights at `wt`, writing acc at `acc`.
inline spec::Instruction Conv(uint32_t in, uint32_t in_bytes, uint32_t wt, uint32_t acc,
                              bool accumulate = false) {
  spec::ConvArgs c;
  c.in_addr = in, c.in_h = 1, c.in_w = 1, c.in_c = in_bytes;
  c.out_h = 1, c.out_w = 1, c.out_c = 1, c.wt_addr = wt, c.acc_addr = acc;
  c.accumulate = accumulate;
  return {spec::Opcode::kConv, 0, 0, c};
}
// One pixel of one channel: acc entry `acc` with the record at `params` to the byte at `out`.
inline spec::Instruction Act(uint32_t acc, uint32_t params, uint32_t out) {
  spec::ActArgs a;
  a.acc_addr = acc, a.pixels = 1, a.channels = 1, a.param_addr = params, a.out_addr = out;
  a.out_pixel_stride = 1;
  return {spec::Opcode::kAct, 0, 0, a};
}

}  // namespace npu::compiler::testing
