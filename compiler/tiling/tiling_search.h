// Chooses the tiling of a ConvLayer: enumerate candidate tile sizes, loop orders and residency
// options, keep those that fit the ISA fields, SRAM and the accumulator buffer, rank them with
// the analytic estimate, then emit and replay the best few with the cost model and keep the
// fastest.
#pragma once

#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct TilingChoice {
  ConvTiling tiling;
  SramPlan plan;
};

// Ok if the tiling's tiles fit the ISA's field widths (12-bit CONV extents, 16-bit channel
// counts, 20-bit ACT pixel count) and are within the layer; the error names the field.
Status CheckTilingFields(const ConvLayer& layer, const ConvTiling& tiling);

// A tiling that passes CheckTilingFields and fits this config's SRAM and accumulator, with its
// buffer plan. The error for a forced tiling that does not fit names the bytes it needs.
StatusOr<TilingChoice> FitTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                 const ConvTiling& tiling);

// Every tiling the search considers, fitting or not (for tests).
std::vector<ConvTiling> CandidateTilings(const spec::NpuConfig& config, const ConvLayer& layer);

// The fastest fitting candidate by the cost model. ResourceExhausted, naming the layer, the bytes
// one minimal double-buffered tile needs and the SRAM size, if none fits. `layer` must have
// passed CheckLayer.
StatusOr<TilingChoice> ChooseTiling(const spec::NpuConfig& config, const ConvLayer& layer);

}  // namespace npu::compiler
