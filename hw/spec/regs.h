// The NPU's memory-mapped registers: the only way firmware controls the NPU. docs/registers.md
// explains each; offsets are from the register block's base (memory_map.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "hw/spec/isa.h"

namespace npu::spec::regs {

inline constexpr uint32_t kIdValue = 0x4E505531;  // "NPU1"
inline constexpr uint32_t kVersionValue = 3;      // 2: TIMER and RUN_START; 3: SRAM/ACC sizes

inline constexpr uint32_t kId = 0x000;            // RO: kIdValue
inline constexpr uint32_t kVersion = 0x004;       // RO: kVersionValue
inline constexpr uint32_t kConfigFpLo = 0x008;    // RO: Fingerprint(config) bits 0..31
inline constexpr uint32_t kConfigFpHi = 0x00C;    // RO: bits 32..63
inline constexpr uint32_t kDoorbell = 0x010;      // WO: write 1 to start (ignored while busy)
inline constexpr uint32_t kStatus = 0x014;        // RO: kStatus* bits
inline constexpr uint32_t kIrqStatus = 0x018;     // RW1C: kIrq* bits
inline constexpr uint32_t kIrqEnable = 0x01C;     // RW: kIrq* bits
inline constexpr uint32_t kDramBaseLo = 0x020;    // RW: bus address DMA offsets are relative to
inline constexpr uint32_t kDramBaseHi = 0x024;    // RW
inline constexpr uint32_t kInsnOffset = 0x028;    // RW: instruction stream, offset from DRAM_BASE
inline constexpr uint32_t kInsnCount = 0x02C;     // RW: instructions in the stream
inline constexpr uint32_t kErrorCode = 0x030;     // RO: ErrorCode of the last failed run
inline constexpr uint32_t kErrorInsn = 0x034;     // RO: index of the failing instruction
inline constexpr uint32_t kTimerLo = 0x038;       // RO: NPU cycles since reset; reading it latches
inline constexpr uint32_t kTimerHi = 0x03C;       //     the high word into TIMER_HI
inline constexpr uint32_t kRunStartLo = 0x040;    // RO: TIMER at the last doorbell
inline constexpr uint32_t kRunStartHi = 0x044;    // RO
inline constexpr uint32_t kSramBytes = 0x048;     // RO: SRAM size in bytes
inline constexpr uint32_t kAccEntries = 0x04C;    // RO: accumulator buffer size in int32 entries
inline constexpr uint32_t kCountersBase = 0x100;  // RO: 64-bit counters, lo then hi word

inline constexpr uint32_t kStatusBusy = 1u << 0;
inline constexpr uint32_t kStatusDone = 1u << 1;
inline constexpr uint32_t kStatusError = 1u << 2;
inline constexpr uint32_t kIrqDone = 1u << 0;
inline constexpr uint32_t kIrqError = 1u << 1;

enum class ErrorCode : uint32_t {
  kNone = 0,
  kBadInstruction = 1,  // unknown opcode, reserved bits set, or a field out of range
  kBusError = 2,        // a DMA or fetch access outside DRAM
  kSramRange = 3,       // an SRAM access outside the SRAM
  kAccRange = 4,        // an accumulator access outside the accumulator buffer
  kBadParameter = 5,    // a requantisation shift outside 1..62
  kBadResizeTap = 6,    // a RESIZE tap outside its input region or weighing over 1024
};
inline std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kNone:
      return "none";
    case ErrorCode::kBadInstruction:
      return "bad instruction";
    case ErrorCode::kBusError:
      return "bus error";
    case ErrorCode::kSramRange:
      return "SRAM access out of range";
    case ErrorCode::kAccRange:
      return "accumulator access out of range";
    case ErrorCode::kBadParameter:
      return "bad requantisation parameter";
    case ErrorCode::kBadResizeTap:
      return "bad resize tap";
  }
  return "unknown error";
}

// Performance counters. Per-queue counters: kQueueBase + 8 * queue + QueueCounter.
enum Counter : uint32_t {
  kCycles = 0,        // doorbell to completion
  kInstructions = 1,  // instructions retired
  kMacs = 2,          // useful multiply-accumulates
  kDramReadBytes = 3,
  kDramWriteBytes = 4,
  kFetchCycles = 5,          // command processor reading instruction words
  kDispatchStallCycles = 6,  // command processor waiting for room in a full queue
  kQueueBase = 8,
};
enum QueueCounter : uint32_t {
  kBusyCycles = 0,          // at least one instruction of the queue executing
  kWaitInputCycles = 1,     // waiting for a token from an upstream queue (data not yet there)
  kWaitBufferCycles = 2,    // waiting for a token from a downstream queue (buffer not yet free)
  kBankConflictCycles = 3,  // lost to SRAM banks busy with other accesses
  kDramStallCycles = 4,     // lost to DRAM bandwidth taken by other transfers
  kQueueInstructions = 5,
  kSramBoundCycles = 6,  // CONV folds outlasting the array for their operand reads (compute queue)
};
inline constexpr uint32_t kNumCounters = kQueueBase + 8 * kNumQueues;

constexpr uint32_t QueueCounterId(Queue q, QueueCounter c) {
  return kQueueBase + 8 * static_cast<uint32_t>(q) + c;
}
constexpr uint32_t CounterOffset(uint32_t id) { return kCountersBase + 8 * id; }
inline constexpr uint32_t kRegisterBlockBytes = 0x1000;

}  // namespace npu::spec::regs
