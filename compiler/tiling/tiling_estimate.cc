// The analytic tiling estimate.
#include "compiler/tiling/tiling_estimate.h"

#include <algorithm>
#include <initializer_list>

#include "compiler/tiling/sram_plan.h"
#include "hw/spec/isa.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

// Tiles of an axis grouped by size: at most a full size and an edge size.
struct SizeClass {
  uint32_t size;
  uint32_t count;
};
std::vector<SizeClass> Classes(const Axis& axis) {
  const uint32_t full = axis.extent / axis.tile, edge = axis.extent % axis.tile;
  std::vector<SizeClass> classes;
  if (full > 0) classes.push_back({axis.tile, full});
  if (edge > 0) classes.push_back({edge, 1});
  return classes;
}

// Sum of CONV durations over every (spatial, oc, ic, kernel block) step.
uint64_t ComputeCycles(const spec::NpuConfig& c, const ConvLayer& l, const TileGrid& g) {
  const uint32_t blocks = g.blocks();
  uint64_t total = 0;
  for (SizeClass h : Classes(g.oh())) {
    for (SizeClass w : Classes(g.ow())) {
      for (SizeClass n : Classes(g.oc())) {
        for (SizeClass k : Classes(g.ic())) {
          for (uint32_t b = 0; b < blocks; ++b) {
            spec::ConvArgs conv;
            conv.out_h = h.size, conv.out_w = w.size, conv.out_c = n.size;
            // A grouped layer's CONV: the oc tile's groups.
            const uint32_t groups = l.groups > 1 ? n.size / l.GroupOutputs() : 1;
            conv.in_c = l.depthwise ? n.size : l.groups > 1 ? groups * l.WeightChannels() : k.size;
            conv.kernel_h = g.Block(b).h, conv.kernel_w = g.Block(b).w;
            conv.depthwise = l.depthwise;
            conv.groups = groups;
            conv.dilation_w = l.dilation_w;  // where the operand stream's segments break
            conv.weights_kn = l.activation_weights && !l.weights_nk;
            total +=
                uint64_t{h.count} * w.count * n.count * k.count * spec::ConvComputeCycles(c, conv);
          }
        }
      }
    }
  }
  return total;
}

// Bytes one pass over all input tiles reads: per kernel block, the row windows times the column
// windows.
uint64_t InputPassBytes(const ConvLayer& l, const TileGrid& g) {
  uint64_t bytes = 0;
  const uint32_t blocks = g.blocks();
  for (uint32_t b = 0; b < blocks; ++b) {
    uint64_t rows = 0, cols = 0;
    for (uint32_t i = 0; i < g.oh().count(); ++i)
      rows += g.Input(i * g.ow().count(), 0, b).rows.size;
    for (uint32_t i = 0; i < g.ow().count(); ++i) cols += g.Input(i, 0, b).cols.size;
    bytes += rows * cols * l.in_c;
  }
  return bytes;
}

// Bytes per cycle one channel sustains moving runs of `run_bytes`: a burst carries at most
// burst_bytes of one run, and the outstanding window must cover each burst's latency.
double ChannelBytesPerCycle(const spec::NpuConfig& c, uint64_t run_bytes) {
  const double bw = c.dram().bytes_per_cycle();
  const double bursts = static_cast<double>(spec::CeilDiv(run_bytes, c.dma().burst_bytes()));
  const double burst = static_cast<double>(run_bytes) / bursts;
  const double window_bw =
      c.dma().outstanding_bursts() * burst / (c.dram().latency_cycles() + burst / bw);
  return std::min(bw, window_bw);
}

// One kind of transfer: how many descriptors, their bytes in total and their contiguous run.
struct Traffic {
  uint64_t descriptors;
  uint64_t bytes;
  uint64_t run_bytes;
};

// A DMA queue's time: per descriptor latency plus its bytes at one channel's throughput for its
// run length, spread over the queue's channels.
uint64_t DmaQueueCycles(const spec::NpuConfig& c, std::initializer_list<Traffic> traffic,
                        uint32_t channels) {
  double cycles = 0;
  for (const Traffic& t : traffic) {
    if (t.bytes == 0) continue;
    cycles += t.descriptors * double(c.dram().latency_cycles()) +
              t.bytes / ChannelBytesPerCycle(c, std::max<uint64_t>(1, t.run_bytes));
  }
  return static_cast<uint64_t>(cycles / channels);
}

// The contiguous run of an HWC block copy: channels (or a subsampled input's pixels), else whole
// pixels of a row, else rows.
uint64_t BlockRunBytes(uint64_t rows, uint64_t cols, uint64_t channels, uint64_t tensor_w,
                       uint64_t tensor_c, bool subsampled = false) {
  if (channels < tensor_c || subsampled) return channels;
  if (cols < tensor_w) return cols * tensor_c;
  return rows * tensor_w * tensor_c;
}

// The contiguous run of a weight tile's LOAD: the whole packed tile, or for activation weights
// one row of the tile (of its output channels, or input channels if b is transposed), the whole
// tile if the rows span b's.
uint64_t WeightRunBytes(const ConvLayer& l, const TileGrid& g, const ConvTiling& t) {
  if (!l.activation_weights) return g.MaxWeightTileBytes();
  if (l.weights_nk) return t.tile_ic == l.in_c ? g.MaxWeightTileBytes() : t.tile_ic;
  return t.tile_oc == l.out_c ? g.MaxWeightTileBytes() : t.tile_oc;
}

}  // namespace

LoadCounts CountLoads(const TileGrid& g, const ConvTiling& t) {
  const uint64_t s = g.spatial_count(), o = g.oc().count(), i = g.reductions();
  LoadCounts n;
  if (t.order == LoopOrder::kSpatialOuter) {
    n.input_passes = (i <= 2 || t.inputs_resident) ? 1 : o;
    n.weight_passes = (o * i <= 2 || t.weights_resident) ? 1 : s;
    n.param_passes = (o <= 2 || t.params_resident) ? 1 : s;
  } else {
    n.input_passes = (s * i <= 2 || t.inputs_resident) ? 1 : o;
    n.weight_passes = (i <= 2 || t.weights_resident) ? 1 : s;
  }
  if (g.InputPerOcTile()) {  // every (spatial, oc) input tile is distinct: each loaded once
    n.input_passes = 1;
    n.inputs = s * o * i;  // i: kernel blocks (one ic tile)
  } else {
    n.inputs = s * i * n.input_passes;
  }
  if (t.input_on_chip) n.inputs = 0, n.input_passes = 1;
  n.weights = o * i * n.weight_passes;
  // Batches: each loads its own inputs and weights; the parameters stay in their slots from one
  // batch to the next unless they cycle through a double buffer.
  const uint64_t batches = g.layer().batches;
  if (o > 2 && !t.params_resident) n.param_passes *= batches;
  n.params = o * n.param_passes;
  n.inputs *= batches;
  n.weights *= batches;
  return n;
}

TilingEstimate EstimateTiling(const spec::NpuConfig& c, const ConvLayer& l, const ConvTiling& t) {
  const TileGrid g(l, t);
  const LoadCounts loads = CountLoads(g, t);
  const uint64_t batches = l.batches, output_bytes = batches * l.OutputBytes();
  const uint64_t groups = OutputGroups(g);
  const uint64_t steps = groups * g.reductions();
  const uint64_t input_bytes =
      t.input_on_chip ? 0 : batches * InputPassBytes(l, g) * loads.input_passes;
  const uint64_t param_bytes = ParamSlotBytes(l, t, l.out_c) * loads.param_passes;
  const uint64_t weight_bytes =
      batches * (l.activation_weights ? l.WeightBytes() : g.WeightBytes()) * loads.weight_passes;
  const uint64_t load_bytes = input_bytes + weight_bytes + param_bytes;
  const uint64_t stores = t.output_on_chip ? 0 : groups;
  const uint64_t store_bytes = t.output_on_chip ? 0 : output_bytes;
  TilingEstimate e;
  // On the depthwise datapath a tile is one DWCONV (no CONV): the vector unit's passes, its
  // table applied in the same pass.
  e.instructions = loads.inputs + loads.weights + loads.params + (t.on_vector ? 0 : steps) +
                   groups + stores;
  e.dram_bytes = load_bytes + store_bytes + e.instructions * spec::kInsnBytes;
  const uint64_t fetch =
      spec::CeilDiv(e.instructions, c.cmd().fetch_batch()) *
      spec::DramTransferCycles(c, uint64_t{c.cmd().fetch_batch()} * spec::kInsnBytes);
  spec::DwConvArgs window;
  window.kernel_h = l.kernel_h, window.kernel_w = l.kernel_w;
  const uint64_t passes = t.on_vector ? spec::DwConvPasses(c, window) : 1;
  const uint64_t act = groups * c.act().pipeline_cycles() +
                       spec::CeilDiv(output_bytes * passes, c.act().lanes());
  const uint64_t load_queue =
      DmaQueueCycles(c,
                     {{loads.inputs, input_bytes,
                       BlockRunBytes(g.MaxInputRows(), g.MaxInputCols(),
                                     g.TileInputChannels(0, 0).size, l.in_w, l.in_c,
                                     t.subsampled_input)},
                      {loads.weights, weight_bytes, WeightRunBytes(l, g, t)},
                      {loads.params, param_bytes, ParamSlotBytes(l, t, t.tile_oc)}},
                     c.dma().load_channels());
  const uint64_t store_queue = DmaQueueCycles(
      c, {{stores, store_bytes, BlockRunBytes(t.tile_oh, t.tile_ow, t.tile_oc, l.OutW(), l.out_c)}},
      c.dma().store_channels());
  const uint64_t bottleneck =
      std::max({t.on_vector ? 0 : batches * ComputeCycles(c, l, g), act, fetch,
                spec::DramDataCycles(c, load_bytes + store_bytes), load_queue, store_queue});
  const uint64_t fill = spec::DramTransferCycles(
      c, (t.input_on_chip ? 0 : g.MaxInputTileBytes()) + g.MaxWeightTileBytes());
  const uint64_t drain =
      spec::ActComputeCycles(c, g.MaxOutputTileEntries()) +
      (t.output_on_chip ? 0 : spec::DramTransferCycles(c, g.MaxOutputTileBytes()));
  e.cycles = bottleneck + fill + drain;
  return e;
}

}  // namespace npu::compiler
