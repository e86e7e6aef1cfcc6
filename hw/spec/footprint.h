// The memory an instruction reads and writes: byte ranges in DRAM (offsets from DRAM_BASE) and
// SRAM, entry ranges in the accumulator buffer. The compiler derives dependency tokens from these;
// the DMA engines use them to hold back a descriptor that overlaps one still in flight.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "hw/spec/isa.h"

namespace npu::spec {

enum class Space : uint8_t { kDram, kSram, kAcc };

struct Footprint {
  Space space;
  uint64_t begin;  // first byte (entry for kAcc)
  uint64_t end;    // one past the last
  bool write;
  std::string_view field = {};  // the instruction field holding `begin`, for messages
};

// The ranges are conservative hulls: a strided DMA side covers [addr, addr + extent).
std::vector<Footprint> Footprints(const Instruction& insn);

// (n2 - 1) * stride2 + (n1 - 1) * stride1 + run_bytes: the hull of one side of a DMA.
uint64_t DmaExtent(uint32_t run_bytes, uint32_t n1, uint32_t stride1, uint32_t n2,
                   uint32_t stride2);
// The hull of a DMA's SRAM side: DmaExtent with each run spanning (run_bytes - 1) *
// sram_elem_stride + 1 bytes when scattered (sram_words.h, RunSpan).
uint64_t DmaSramExtent(const DmaArgs& dma);

inline bool Overlaps(const Footprint& a, const Footprint& b) {
  return a.space == b.space && a.begin < b.end && b.begin < a.end;
}

// True if running `a` and `b` in either order could give different results (some overlapping
// pair of ranges where at least one side writes).
bool Conflicts(const std::vector<Footprint>& a, const std::vector<Footprint>& b);

}  // namespace npu::spec
