// The spec::Program of a compiled network and its per-layer records: predicted cycles as the
// completion partition of the whole-stream replay (docs/report.md: a layer's cycles run from the
// completion of the previous layer's last instruction to the completion of its own), DRAM bytes
// per layer, rooflines, LayerInfo, TensorDescs and DRAM regions. Internal to compiler/network.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/cost/cost_model.h"
#include "compiler/network/compile_model.h"
#include "compiler/network/dram_plan.h"
#include "compiler/network/layer_emission.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Fills each ModelLayer's predicted cycles and DRAM bytes from the replay's timeline (the
// instruction ranges must be set), and the model's roofline.
void PredictLayers(const spec::NpuConfig& config, const std::vector<InstructionTiming>& timeline,
                   CompiledModel& model);

// Encodes the (relocated) instructions and describes everything; the constants and the arena are
// at `data_base` + their plan offsets.
StatusOr<spec::Program> BuildModelProgram(const spec::NpuConfig& config, const CompiledModel& model,
                                          const std::vector<LayerConstants>& constants,
                                          const ModelDramPlan& dram, uint64_t data_base);

}  // namespace npu::compiler
