// What one instruction of a run did and when: the record both the platform (hw: the units fill
// it as they run) and the compiler's exact replay (compiler/cost/event_replay.h: its
// prediction) give per instruction, so a prediction and a measurement compare field by field
// (tests/network/replay_agreement_test.cc). Cycles count from the run's doorbell.
#pragma once

#include <cstdint>

#include "hw/spec/unit_events.h"

namespace npu::spec {

struct InsnRecord {
  uint64_t dispatch = 0;  // entered its queue
  uint64_t start = 0;     // held all its tokens and a free unit or channel: began executing
  uint64_t end = 0;       // finished executing
  uint64_t retire = 0;    // gave its tokens (a DMA queue retires in order)
  // The platform's breakdown (the replay leaves these 0): token waits before start, and parts of
  // [start, end) lost to banks busy elsewhere, to other DRAM traffic, and to operand reads.
  uint64_t wait_input = 0, wait_buffer = 0;
  uint64_t bank_conflict = 0, dram_stall = 0, sram_bound = 0;
  int8_t queue = -1;    // -1: not executed
  UnitEvents events{};  // the executing unit's, plus the command processor's fetch
};

}  // namespace npu::spec
