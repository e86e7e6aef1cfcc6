// Emits the instruction stream of a POOL layer (ELTWISE and LUT: eltwise_emitter.h), tile by
// tile: LOADs of the input in DRAM into alternating slots, POOL, and the STORE of its result
// unless the output is on chip (then written in place). Token masks are left empty:
// dependencies.h derives them from the footprints.
#pragma once

#include <vector>

#include "compiler/layer/pool_layer.h"
#include "compiler/schedule/tensor_place.h"
#include "compiler/tiling/vector_tiling.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

struct PoolOperands {
  TensorPlace input, output;  // whole tensors (channel_offset 0, channels == layer.channels)
};
std::vector<spec::Instruction> EmitPool(const PoolLayer& layer, const PoolTiling& tiling,
                                        const VectorPlan& plan, const PoolOperands& operands);

}  // namespace npu::compiler
