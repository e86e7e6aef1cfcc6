// Chooses the tiling of a ConvLayer: enumerate candidate tile sizes, loop orders and residency
// options, keep those that fit the ISA fields, the SRAM budget and the accumulator buffer, rank
// them with the analytic estimate, then emit and replay the best few with the cost model and
// keep the fastest (among those within kNearBestReplay of it, the one using the least SRAM, which
// leaves room for tensors kept on chip and for the next layer's prefetch).
#pragma once

#include <vector>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/sram_plan.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// What the caller fixes before the search: the SRAM the layer's buffers may use and whether its
// input/output tensors stay in SRAM (read/written in place, which constrains the tiles).
struct TilingContext {
  uint64_t sram_budget = 0;  // bytes; 0: the whole SRAM
  bool input_on_chip = false;
  bool output_on_chip = false;
  uint32_t input_pixel_stride = 0;  // ConvTiling::input_pixel_stride
  // The output stays on chip and a depthwise convolution (which may run as DWCONVs on the
  // vector unit) reads it: row bands are preferred (ChooseTiling).
  bool output_read_by_depthwise = false;
  // Held constants (ConvTiling::held, network/held_constants.h): every candidate has this
  // tiling's output- and input-channel tiles and unit, so its weights and records lie in SRAM as
  // the first strip's do, keeps them resident, and holds them as it says.
  const ConvTiling* held = nullptr;
};

struct TilingChoice {
  ConvTiling tiling;
  SramPlan plan;
};

// Ok if the tiling's tiles fit the ISA's field widths (12-bit CONV extents, 16-bit channel
// counts, 20-bit ACT pixel count), are within the layer and respect what on-chip operands need;
// the error names the field.
Status CheckTilingFields(const ConvLayer& layer, const ConvTiling& tiling);

// Ok if an on_vector tiling can run as DWCONVs on this config: a depthwise int8 layer without a
// weight zero point (a table follows the records in each parameter slot), act.depthwise_taps > 0,
// and tiles within DWCONV's fields (4-bit kernel and padding, 3-bit stride and dilation, 12-bit
// channels, output pixel stride and extents, 11-bit input pixel stride); the error says which.
// Ok for any tiling that is not on_vector.
Status CheckVectorDepthwise(const spec::NpuConfig& config, const ConvLayer& layer,
                            const ConvTiling& tiling);

// A tiling that passes CheckTilingFields and CheckVectorDepthwise and fits `budget_bytes` of
// SRAM (0: all of it) and the accumulator, with its buffer plan. The error for a tiling that does not fit names the bytes.
StatusOr<TilingChoice> FitTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                 const ConvTiling& tiling, uint64_t budget_bytes = 0);

// Every tiling the search considers, fitting or not (for tests). `exhaustive` also tries every
// column split when whole-width row bands would do.
std::vector<ConvTiling> CandidateTilings(const spec::NpuConfig& config, const ConvLayer& layer,
                                         const TilingContext& context = {},
                                         bool exhaustive = false);

// The search by the analytic estimate alone (fast): the best estimated cycles, and the least
// SRAM among the candidates within kNearBestEstimate of them. The network compiler sizes what it
// keeps on chip with it.
struct TilingOutlook {
  uint64_t cycles = 0;
  uint64_t sram_bytes = 0;
};
inline constexpr double kNearBestEstimate = 1.03;
inline constexpr double kNearBestReplay = 1.005;
// Bands may be slower alone by more: the reader starting on the first bands makes up for it.
// shufflenet_v2_x1_0's 1x1 convolutions (row bands of every channel, read by its depthwise layers
// and shuffle windows) replayed 3-6 % slower alone than their fastest: at 1.03 the network took
// 229,787 cycles, at 1.10 224,144; mobilenet_v3_large 414,578 -> 413,894, the other corpus CNNs
// within 0.01 % (full-size exports, default config, --timing-only --no-tuning).
inline constexpr double kNearBestBanded = 1.10;
StatusOr<TilingOutlook> SurveyTilings(const spec::NpuConfig& config, const ConvLayer& layer,
                                      const TilingContext& context = {});

// The chosen tiling: among the best few replayed with the cost model, those within
// kNearBestReplay of the fastest, the one on the vector unit's depthwise datapath if any, then
// those reading DRAM within 10 % of the least of them, then the one using the least SRAM; if
// TilingContext::output_read_by_depthwise and that one is not in row bands (spatial-outer, fewer
// rows a tile than the output has), the banded one within kNearBestBanded reading no more DRAM,
// if any. ResourceExhausted, naming the layer, the bytes
// one minimal double-buffered tile needs and the SRAM available, if none fits. `layer` must have
// passed CheckLayer.
StatusOr<TilingChoice> ChooseTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                                    const TilingContext& context = {});

}  // namespace npu::compiler
