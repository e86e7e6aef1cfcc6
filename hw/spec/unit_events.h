// What one instruction made the hardware do, as the SystemC units count it while they do it: the
// per-instruction activity the energy model (energy_model.h) prices. The units fill it into
// their InsnRecord; the report sums it per layer and per unit. No SystemC: the report and the
// energy model read it without the simulator.
#pragma once

#include <cstdint>

namespace npu::spec {

struct UnitEvents {
  uint64_t macs = 0;  // multiply-accumulates the MAC array performed (padding positions too)
  uint64_t fp16_macs = 0;  // of which FP16 (CONV's fp16 flag)
  // SRAM traffic of the unit executing the instruction (compute, vector or a DMA channel), in
  // bytes and in bank words of bank_width_bytes (a word is one bank access).
  uint64_t sram_read_bytes = 0, sram_write_bytes = 0;
  uint64_t sram_read_words = 0, sram_write_words = 0;
  uint64_t acc_read_bytes = 0, acc_write_bytes = 0;  // accumulator buffer, int32 entries x 4
  uint64_t vector_ops = 0;  // lane operations of the vector unit (timing_model.h *LaneOps)
  uint64_t vector_macs = 0;  // multiply-accumulates of its depthwise datapath (DWCONV)
  uint64_t vector_divides = 0;  // its normaliser's divisions and square roots (LNORM)
  uint64_t dma_bytes = 0;   // bytes a DMA channel moved between DRAM and SRAM
  // DRAM data bytes: a descriptor's transfers, and the instruction's share of its fetch.
  uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  uint64_t fetched_instructions = 0;  // 1 once the command processor fetched and decoded it

  UnitEvents& operator+=(const UnitEvents& o) {
    macs += o.macs;
    fp16_macs += o.fp16_macs;
    sram_read_bytes += o.sram_read_bytes;
    sram_write_bytes += o.sram_write_bytes;
    sram_read_words += o.sram_read_words;
    sram_write_words += o.sram_write_words;
    acc_read_bytes += o.acc_read_bytes;
    acc_write_bytes += o.acc_write_bytes;
    vector_ops += o.vector_ops;
    vector_macs += o.vector_macs;
    vector_divides += o.vector_divides;
    dma_bytes += o.dma_bytes;
    dram_read_bytes += o.dram_read_bytes;
    dram_write_bytes += o.dram_write_bytes;
    fetched_instructions += o.fetched_instructions;
    return *this;
  }
  bool operator==(const UnitEvents&) const = default;
};

}  // namespace npu::spec
