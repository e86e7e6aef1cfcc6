// What the vector layers' tiling searches share (vector_tiling.cc: POOL; eltwise_tiling.cc:
// ELTWISE and LUT): SRAM slot layout, candidate sizes, replaying a candidate's instructions with
// the cost model, and picking among the replayed ones.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "compiler/schedule/tensor_place.h"
#include "compiler/tiling/vector_tiling.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler::vector_search {

inline constexpr double kNearBest = 1.02;
// The pipeline fills Pick forgives a candidate: those of its first 8 vector instructions, which
// the next layer's start on their results hides. More, shorter instructions cost fetch and issue
// too (cnn1d's max pools one pixel an instruction: +10 % cycles, forgiven without a bound).
inline constexpr uint64_t kForgivenFills = 8;
inline constexpr uint64_t kMaxCount = (1u << 24) - 1;  // ELTWISE and LUT count: 24 bits

uint64_t AlignUp(uint64_t v, uint64_t a);

// `slots` slots of `slot_bytes` at the next `align`-aligned address after *cursor.
SlotBuffer Place(uint64_t* cursor, uint64_t slot_bytes, uint32_t slots, uint64_t align);

// ceil(extent / k) for k = 1, 2, 3, 4, 6, 9, ... and 1: a geometric spread of tile sizes.
std::vector<uint64_t> Splits(uint64_t extent);

// The plan with the largest alignment (stripe, bank word, byte) that fits `budget`, if any.
std::optional<VectorPlan> FitPlan(const spec::NpuConfig& config, uint64_t budget,
                                  const std::function<VectorPlan(uint32_t align)>& plan);

struct Replayed {
  uint64_t cycles = 0;
  uint64_t longest = 0;  // the longest single vector instruction, alone
  // Its first kForgivenFills vector instructions' pipeline fills (act.pipeline_cycles each): what
  // a stream of shorter instructions pays alone, and hides once the next layer starts on their
  // first results.
  uint64_t pipeline_fills = 0;
};
// The stream's CandidateCost (candidate_cost.h), its longest vector instruction and fills.
Replayed Replay(const spec::NpuConfig& config, const std::vector<spec::Instruction>& insns);

// Among the replayed candidates within kNearBest of the fastest (their pipeline fills not
// counted: the whole tensor in one instruction must not win by a few fills), the one with the
// shortest
// longest instruction (then the fastest), so the next layer can start on the first ones.
size_t Pick(const std::vector<Replayed>& costs);

// For replaying a candidate: an operand of `bytes` in DRAM at *dram, or on chip at *sram (after
// the plan); the cursor moves on.
TensorPlace ReplayPlace(bool on_chip, uint64_t* dram, uint64_t* sram, uint64_t bytes,
                        uint32_t channels, uint32_t element_bytes = 1);

}  // namespace npu::compiler::vector_search
