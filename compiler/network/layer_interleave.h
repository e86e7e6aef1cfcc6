// Step 5b of CompileModel: interleaving consecutive NPU layers (compiler/schedule/interleave.h).
// Layers run one after the other in the instruction stream, so a unit that has nothing to do in
// a layer waits for the next one: conv1's max pool on the vector unit waits for the array's last
// tile of conv1, a residual add for its convolution's last row. For each NPU layer after the
// first of a run, in order, its instructions are moved in among those of the layer before it
// (and whatever that layer took in), and the new order is kept if the cost model replays the
// pair, followed by the next layer as it stands, faster. Internal to compiler/network.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

// `layer_of[i]` is the layer of insns[i], non-decreasing on entry; `on_cpu[l]` says which layers
// run on the control core (they have no instructions and end a run). Reorders both together and
// returns how many layers were interleaved into the one before them.
int InterleaveLayers(const spec::NpuConfig& config, std::vector<spec::Instruction>& insns,
                     std::vector<uint32_t>& layer_of, const std::vector<bool>& on_cpu);

}  // namespace npu::compiler
