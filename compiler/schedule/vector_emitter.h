// Emits the instruction streams of the vector unit's layers (POOL and ADD), tile by tile:
// LOADs of operands in DRAM into alternating slots, the vector instruction, and the STORE of its
// result unless the output is on chip (then written in place). Token masks are left empty:
// dependencies.h derives them from the footprints.
#pragma once

#include <vector>

#include "compiler/layer/add_layer.h"
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

// `output` may be the same place as `a` (in place): every chunk is read before it is written.
struct AddOperands {
  TensorPlace a, b, output;
};
std::vector<spec::Instruction> EmitAdd(const AddLayer& layer, const AddTiling& tiling,
                                       const VectorPlan& plan, const AddOperands& operands);

}  // namespace npu::compiler
