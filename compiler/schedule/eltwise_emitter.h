// Emits the instruction streams of the elementwise vector layers, chunk by chunk
// (tiling/eltwise_tiling.h): LOADs of operands in DRAM into alternating slots, the instruction
// (its result overwriting the input's slot), and the STORE of the result unless the output is on
// chip (then written in place). A b loaded once (broadcast per channel or scalar) and a LUT's
// table (LNORM's records) are LOADed first. Token masks are left empty: dependencies.h derives them from the
// footprints.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/layer/copy_layer.h"
#include "compiler/layer/eltwise_layer.h"
#include "compiler/layer/gather_layer.h"
#include "compiler/layer/lut_layer.h"
#include "compiler/layer/norm_layer.h"
#include "compiler/schedule/tensor_place.h"
#include "compiler/tiling/eltwise_tiling.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

// Whole tensors; b has layer.BElements() bytes (an activation, or the constant in DRAM).
// `output` may be the same place as `a` (in place): every chunk is read before it is written.
struct EltwiseOperands {
  TensorPlace a, b, output;
};
std::vector<spec::Instruction> EmitEltwise(const EltwiseLayer& layer, const EltwiseTiling& tiling,
                                           const VectorPlan& plan, const EltwiseOperands& operands);

// `output` may be the same place as `input`.
struct LutOperands {
  TensorPlace input, output;
  uint64_t table = 0;  // DRAM offset of the layer's table
};
std::vector<spec::Instruction> EmitLut(const LutLayer& layer, const LutTiling& tiling,
                                       const VectorPlan& plan, const LutOperands& operands);

// `output` may be the same place as `input`.
struct NormOperands {
  TensorPlace input, output;
  uint64_t params = 0;  // DRAM offset of the layer's LNORM records
};
std::vector<spec::Instruction> EmitNorm(const NormLayer& layer, const NormTiling& tiling,
                                        const VectorPlan& plan, const NormOperands& operands);

// Either may be a channel slice of a wider tensor (TensorPlace::channels above layer.c), never
// overlapping the other, and either may be in SRAM (tiling's input_on_chip, output_on_chip). A
// shuffle (layer.group > 1), or a copy with an operand on chip, needs chunks of whole pixels.
struct CopyOperands {
  TensorPlace input, output;
};
std::vector<spec::Instruction> EmitCopy(const CopyLayer& layer, const CopyTiling& tiling,
                                        const VectorPlan& plan, const CopyOperands& operands);

// Both dense in DRAM.
struct GatherOperands {
  TensorPlace input, output;
};
std::vector<spec::Instruction> EmitGather(const GatherLayer& layer, const GatherTiling& tiling,
                                          const VectorPlan& plan, const GatherOperands& operands);

}  // namespace npu::compiler
