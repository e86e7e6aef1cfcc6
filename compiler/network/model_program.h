// The spec::Program of a compiled network and its per-layer records: predicted cycles as the
// completion partition of the predicted timeline (docs/report.md: a layer's cycles run from the
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

// Predicts the inference step by step (each NPU run replayed with the cost model, each CPU op
// with the control core's, the driver's register accesses between them: hw/spec/driver_steps.h)
// into model.cost, and fills each ModelLayer's predicted cycles and DRAM bytes and the model's
// roofline. The steps and instruction ranges must be set.
Status PredictModel(const spec::NpuConfig& config, CompiledModel& model);

// A CPU op as the firmware times it (docs/cpu-fallback.md): from the moment TIMER_LO is
// sampled, that read and the TIMER_HI read (a cycle each), each present input read from DRAM as one
// block, the kernel's work on the control core, each output written as one block; on an otherwise
// idle DRAM.
uint64_t PredictCpuStep(const spec::NpuConfig& config, const spec::CpuOp& op);

// Encodes the (relocated) instructions and describes everything; the constants and the arena are
// at `data_base` + their plan offsets.
StatusOr<spec::Program> BuildModelProgram(const spec::NpuConfig& config, const CompiledModel& model,
                                          const std::vector<LayerConstants>& constants,
                                          const ModelDramPlan& dram, uint64_t data_base);

}  // namespace npu::compiler
