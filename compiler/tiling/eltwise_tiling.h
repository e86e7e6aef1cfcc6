// Tilings of the elementwise vector layers, ELTWISE and LUT (and LNORM, whose chunks are whole
// pixels, and copies and gathers): one instruction per chunk of the
// flattened NHWC tensors (any chunk of the dense bytes is elementwise-valid, except that an
// ELTWISE broadcasting b per channel or per pixel covers whole pixels or part of one). Whole rows
// first, so the next layer can start on the first ones; parts of a row only when no number of
// rows fits. Operands in DRAM go through double-buffered slots (the result overwrites the input's
// slot); on-chip operands are read and written in place. A b broadcast per channel or as a scalar
// (small), and a LUT's table, are loaded once per layer into a slot of their own.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/layer/copy_layer.h"
#include "compiler/layer/eltwise_layer.h"
#include "compiler/layer/gather_layer.h"
#include "compiler/layer/lut_layer.h"
#include "compiler/layer/norm_layer.h"
#include "compiler/tiling/vector_tiling.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct EltwiseTiling {
  uint64_t chunk = 1;  // elements per ELTWISE (Chunks)
  bool a_on_chip = false, b_on_chip = false, output_on_chip = false;
};

struct LutTiling {
  uint64_t chunk = 1;  // elements per LUT
  bool input_on_chip = false, output_on_chip = false;
};

// A layer normalisation's: chunks of whole pixels, LNORM normalising a pixel at a time.
struct NormTiling {
  uint64_t chunk = 1;  // elements per LNORM: a multiple of the layer's channels
  bool input_on_chip = false, output_on_chip = false;
};

// A copy's operands (either may be a channel slice of a wider tensor) in DRAM: chunks of whole
// pixels, or parts of one, go through double-buffered slots; a shuffle's chunks are whole pixels.
// An operand on chip is read or written in place by strided LUTs with bypass (a shuffle's: one a
// group), the other side's chunks going through the slots; chunks of whole pixels then too.
struct CopyTiling {
  uint64_t chunk = 1;  // elements per chunk
  bool input_on_chip = false, output_on_chip = false;
  bool AnyOnChip() const { return input_on_chip || output_on_chip; }
};

// A gather's operands are dense in DRAM: chunks of output rows (each the innermost dim's
// bytes), whole lines (GatherLayer) first, gathered into double-buffered slots.
struct GatherTiling {
  uint64_t chunk = 1;  // output rows per chunk
};

std::string ToString(const EltwiseTiling& tiling);
std::string ToString(const LutTiling& tiling);
std::string ToString(const NormTiling& tiling);
std::string ToString(const CopyTiling& tiling);
std::string ToString(const GatherTiling& tiling);

// One instruction's elements: [offset, offset + count) of the flattened tensor.
struct ElementChunk {
  uint64_t offset = 0, count = 0;
};
// The chunks of `elements`, in order: consecutive runs of `chunk`; but with `pixel` > 0 and
// chunk < pixel, each pixel is cut on its own (a chunk never straddles two pixels). With
// `pixel` > 0, `chunk` is a multiple of `pixel` or smaller than it.
std::vector<ElementChunk> Chunks(uint64_t elements, uint64_t chunk, uint64_t pixel = 0);

// The pixel ELTWISE chunks respect: the layer's c when b is broadcast per channel or per pixel,
// else 0 (any chunk).
uint64_t ChunkPixel(const EltwiseLayer& layer);
// b broadcast per channel or as a scalar: loaded once per layer (unless on chip); otherwise a
// chunk of b per chunk of a.
bool BLoadedOnce(const EltwiseLayer& layer);

VectorPlan PlanEltwiseSram(const EltwiseLayer& layer, const EltwiseTiling& tiling,
                           uint32_t align_bytes);
VectorPlan PlanLutSram(const LutLayer& layer, const LutTiling& tiling, uint32_t align_bytes);
VectorPlan PlanNormSram(const NormLayer& layer, const NormTiling& tiling, uint32_t align_bytes);
VectorPlan PlanCopySram(const CopyLayer& layer, const CopyTiling& tiling, uint32_t align_bytes);
VectorPlan PlanGatherSram(const GatherLayer& layer, const GatherTiling& tiling,
                          uint32_t align_bytes);

// The chunk chosen by replaying candidates with the cost model (vector_search.h), under
// `sram_budget` (0: the whole SRAM) with the on-chip operands of `on_chip`. ResourceExhausted
// naming the layer and the bytes of the smallest chunk if none fits.
StatusOr<VectorChoice<EltwiseTiling>> ChooseEltwiseTiling(const spec::NpuConfig& config,
                                                          const EltwiseLayer& layer,
                                                          EltwiseTiling on_chip,
                                                          uint64_t sram_budget);
StatusOr<VectorChoice<LutTiling>> ChooseLutTiling(const spec::NpuConfig& config,
                                                  const LutLayer& layer, LutTiling on_chip,
                                                  uint64_t sram_budget);
StatusOr<VectorChoice<NormTiling>> ChooseNormTiling(const spec::NpuConfig& config,
                                                    const NormLayer& layer, NormTiling on_chip,
                                                    uint64_t sram_budget);
StatusOr<VectorChoice<CopyTiling>> ChooseCopyTiling(const spec::NpuConfig& config,
                                                    const CopyLayer& layer, CopyTiling on_chip,
                                                    uint64_t sram_budget);
StatusOr<VectorChoice<GatherTiling>> ChooseGatherTiling(const spec::NpuConfig& config,
                                                        const GatherLayer& layer,
                                                        uint64_t sram_budget);

}  // namespace npu::compiler
