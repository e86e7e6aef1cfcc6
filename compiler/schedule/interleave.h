// Cross-layer interleaving: the instructions of a layer moved in among those of the layers
// before it, each no earlier than what it depends on, so that a unit idle during one layer takes
// up the next one's work (conv1's max pool on the vector unit while the array still convolves;
// a residual add under the next convolution's rows). Moving an instruction never changes what
// the stream computes: an instruction only moves past earlier instructions whose footprints
// (spec::Footprints) it does not conflict with, and the dependency pass then derives the tokens
// of the new order.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"

namespace npu::compiler {

// The merged order of `earlier` (kept in order) and `later` (kept in order): each instruction
// of `later` goes right after the last instruction of `earlier` it conflicts with, and never
// before the instruction of `later` before it; the leading ones that conflict with nothing (a
// layer's first loads) go with the first one that does, so they do not queue ahead of work they
// are not needed for. If nothing conflicts, `later` goes first. Returns, per position of the
// merged stream, the index of the instruction: i < earlier.size() for earlier[i], earlier.size() +
// k for later[k].
//
// With `spread`, each instruction of `later` also goes no earlier than its share of `earlier`
// (the k-th of n after the first k x earlier.size() / n of them), so that a layer independent
// of the one before it (a pool beside a convolution: pool_placement.h) does not fill its unit's
// queue at once and hold up the dispatch of the other's instructions.
std::vector<uint32_t> InterleaveOrder(const std::vector<spec::Instruction>& earlier,
                                      const std::vector<spec::Instruction>& later,
                                      bool spread = false);

}  // namespace npu::compiler
