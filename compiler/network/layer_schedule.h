// How one lowered layer runs, decided before anything is placed: its tiling and the SRAM its
// buffers need (its "scratch"), given which of its activations are kept on chip and the SRAM it
// may use. The tiling searches are the single-layer ones (tiling/), driven by the cost model.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "compiler/lower/network.h"
#include "compiler/tiling/eltwise_tiling.h"
#include "compiler/tiling/resize_tiling.h"
#include "compiler/tiling/survey_memo.h"
#include "compiler/tiling/tiling_search.h"
#include "compiler/tiling/vector_tiling.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Which of a layer's activations are on chip: its inputs (in NetLayer::inputs order) and output.
struct LayerResidency {
  bool input[2] = {false, false};
  bool output = false;
};

// A CPU layer: nothing to tile; the control core reads and writes its operands in DRAM.
struct CpuChoice {};

struct LayerSchedule {
  // Convolutions: one tiling for every part (the groups of a grouped convolution are alike);
  // matrix products: one for every batch index.
  std::variant<TilingChoice, VectorChoice<PoolTiling>, VectorChoice<EltwiseTiling>,
               VectorChoice<LutTiling>, VectorChoice<ResizeTiling>, VectorChoice<CopyTiling>,
               VectorChoice<GatherTiling>, VectorChoice<NormTiling>, CpuChoice>
      choice;
  uint64_t scratch_bytes = 0;
  std::string Describe() const;  // the tiling text for LayerInfo
};

// Whether operand `index` of `layer` (0, 1: inputs; -1: output) may be read or written in place
// in SRAM at all: a convolution reading a channel slice (one group) needs it in DRAM, so does a
// matrix product's b (its blocks are LOADed), and so does every operand of a CPU layer (the
// control core reaches DRAM only) and of a gather (DMA between DRAM places). An operand that is a
// channel slice of a wider buffer (a part of a concatenation by placement) is read in place only
// by a copy or a depthwise convolution, whose DWCONVs read it with their in_pixel_stride (CONV and
// POOL read dense pixels; the tiling search keeps such a convolution on the vector unit, or finds
// no tiling and the residency keeps the buffer in DRAM); it is written in place by a
// convolution's ACT, a POOL or a copy, which write with a pixel stride. A copy's int8 operands
// may be on chip whatever they are, if their pixel stride fits LUT's field (kMaxLutPixelStride):
// its LUTs move them.
bool CanBeOnChip(const Network& net, const NetLayer& layer, int index);

inline constexpr uint32_t kMaxLutPixelStride = 65535;  // LUT's 16-bit pixel strides

// A convolution's tiling context under `residency` within `budget` bytes: which operands are in
// place, and the pixel stride of an on-chip input that is a channel block of a wider tensor (a
// prefix of a concatenation kept on chip; TilingContext::input_pixel_stride).
TilingContext ConvLayerContext(const Network& net, const NetLayer& layer,
                               const LayerResidency& residency, uint64_t budget);

// `preferred`: a convolution's (or matrix product's) tiling to take instead of the search's if
// it fits the residency and the budget (a tuning's, tuning.h); otherwise the search decides.
StatusOr<LayerSchedule> ScheduleLayer(const spec::NpuConfig& config, const Network& net,
                                      const NetLayer& layer, const LayerResidency& residency,
                                      uint64_t sram_budget, const ConvTiling* preferred = nullptr);

// A quick look (estimates only) at a layer under `residency`: estimated cycles (0 for vector
// layers, whose in-place forms are never slower) and the least scratch of a near-best tiling.
// Convolutions are surveyed through `memo` (for `config`).
StatusOr<TilingOutlook> SurveyLayer(const spec::NpuConfig& config, const Network& net,
                                    const NetLayer& layer, const LayerResidency& residency,
                                    uint64_t sram_budget, TilingSurveyMemo& memo);

}  // namespace npu::compiler
