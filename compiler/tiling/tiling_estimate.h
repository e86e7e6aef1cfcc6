// A quick analytic estimate of a tiling's cycles and DRAM traffic, O(1) in the number of tiles,
// so the tiler can rank thousands of candidates before replaying the few best exactly.
#pragma once

#include <cstdint>

#include "compiler/layer/conv_layer.h"
#include "compiler/tiling/conv_tiling.h"
#include "compiler/tiling/tile_grid.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::compiler {

struct TilingEstimate {
  uint64_t cycles = 0;
  uint64_t dram_bytes = 0;
  uint64_t instructions = 0;  // approximate
};

// How often each operand tile is loaded, following the slot rules of step_plan.h: a double
// buffer cycling through more than two distinct tiles reloads on every use. Loads count every
// batch (ConvLayer::batches); passes are per batch, but for parameters, which batches share.
struct LoadCounts {
  uint64_t inputs = 0;         // input tile loads
  uint64_t weights = 0;        // weight tile loads
  uint64_t params = 0;         // parameter tile loads
  uint64_t input_passes = 1;   // times the whole input is read
  uint64_t weight_passes = 1;  // times the whole weight tensor is read
  uint64_t param_passes = 1;
};
LoadCounts CountLoads(const TileGrid& grid, const ConvTiling& tiling);

// The roofline of the four queues, the shared DRAM bus and instruction fetch, plus the
// pipeline fill (first tile's loads) and drain (last tile's ACT and STORE).
TilingEstimate EstimateTiling(const spec::NpuConfig& config, const ConvLayer& layer,
                              const ConvTiling& tiling);

}  // namespace npu::compiler
