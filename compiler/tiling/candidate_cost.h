// What the tiling searches replay each candidate with: the fast cost (cost_model.h,
// CostOptions::exact = false) of a candidate's instruction stream alone, its tokens assigned
// (dependencies.h); and the interleaving pass (layer_interleave.h) each candidate order of a
// layer pair with the exact one. Remembered for the process: a compile replays the same streams
// many times (each residency survey of every repeated layer, each row strip of a layer, and
// every kAuto variant all over again: resnet50 on `edge` replayed 22,017 vector streams, 20.9
// million instructions, for one variant; the variants interleave the same layers at the same
// addresses before their first fused group).
#pragma once

#include <vector>

#include "compiler/cost/cost_model.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// A pure function of `config` and `insns`; the first call with them replays, later ones remember
// (keyed by the config's and the stream's bytes, never by a hash of them: a collision would be a
// silent wrong schedule; remembered.h bounds the memory).
CostEstimate CandidateCost(const spec::NpuConfig& config,
                           const std::vector<spec::Instruction>& insns, bool exact = false);

}  // namespace npu::compiler
