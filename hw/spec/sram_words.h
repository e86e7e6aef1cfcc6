// Where the bytes of an SRAM access (unit_accesses.h's SramAccess) lie, and which bank words they
// occupy: the one definition the SRAM model moves data by (hw/sram), the banks' timer books by
// (sram_bank_timer.h, for hw/sram and the compiler's replay), the functional executor copies by
// (compiler/sim) and SramIdealCycles counts (timing_model.h).
//
// Byte k of run i is at addr + i*stride + k*elem_stride (elem_stride 0 or 1: the run is
// contiguous). A run with a larger element stride is scattered: a scattered LOAD's bursts
// (docs/isa.md "load / store"). A run occupies every bank word holding one of its bytes, one bank
// cycle each: the bank writes a word under a byte mask, so a word the run only partly fills costs
// as much as a full one, and the words its stride skips cost nothing.
#pragma once

#include <cstdint>
#include <span>

#include "hw/spec/unit_accesses.h"

namespace npu::spec {

// The distance between consecutive bytes of a run: elem_stride, 1 if it is 0.
inline uint64_t ElementStep(uint64_t elem_stride) { return elem_stride > 1 ? elem_stride : 1; }

// Bytes from a run's first byte to one past its last: (run - 1) * step + 1 (0 for no bytes).
uint64_t RunSpan(uint64_t run_bytes, uint64_t elem_stride);

// Bytes from a.addr to one past the access's last byte.
uint64_t SramAccessSpan(const SramAccess& a);

// Adds to words[b] the bank words the access occupies on bank b (words.size() banks of
// bank_width bytes, interleaved round-robin).
void AddBankWords(const SramAccess& a, uint64_t bank_width, std::span<uint64_t> words);

// The bank words the access occupies on all banks together.
uint64_t SramWords(const SramAccess& a, uint64_t bank_width);

// Moves the access's bytes between `sram` (the whole SRAM; the span must lie inside) and `data`
// (a.bytes() bytes, the runs back to back): into the SRAM if a.write, else out of it.
void MoveSramBytes(const SramAccess& a, uint8_t* sram, uint8_t* data);

}  // namespace npu::spec
