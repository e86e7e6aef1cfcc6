// Whole networks on the NPU: the quantised graph IR (docs/quantized-ir.md) -> one spec::Program.
//
//   StatusOr<CompiledModel> m = CompileModel(config, quantized_graph, {});
//   platform::RunBinary(config, spec::SealProgram(m->program), {input_i8}, {});
//
//   1. Validate the config; split expansions too large for SRAM into row strips (row_strips.h:
//      by default the network is compiled with and without them and the faster kept), then the
//      pairs strips leave whole into channel groups (channel_groups.h); lower the
//      graph to NPU and CPU layers (compiler/lower): what neither runs is one error listing it;
//      decompositions and CPU placements are noted per layer.
//   1c. Pack a grouped convolution's groups side by side on the array's columns (group_packing.h).
//   2. Memory: buffers and lifetimes (views share, elementwise layers run in place where an
//      input dies).
//   3. On chip (on_chip_plan.h): which activations stay in SRAM, each layer's tiling under the
//      SRAM left to it (one cost model, the hardware's timing formulas), SRAM placement with
//      stripe alignment and cross-layer prefetch. 3b. Product strips written over their rows
//      of the images they scale where those stay on chip, then planned again.
//   4. DRAM (dram_plan.h): instructions | per-layer constants | activation arena, the arena
//      placed greedy-by-size over the off-chip buffers' lifetimes.
//   5. Emit every layer with its final addresses; interleave consecutive NPU layers where the
//      cost model says the units overlap better (layer_interleave.h); cut the stream into NPU
//      runs at the CPU layers
//      (docs/cpu-fallback.md); derive each run's tokens from the instruction footprints; check
//      the token protocol; relocate; encode.
//   6. Predict: replay each run with the cost model, each CPU op with the control core's cost
//      model; each layer's cycles are the same completion partition the platform's report uses
//      (docs/report.md).
//   7. Describe: LayerInfo per layer, input/output TensorDescs, the DRAM regions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/compile.h"
#include "compiler/cost/cost_model.h"
#include "compiler/ir/graph.h"
#include "compiler/lower/network.h"
#include "compiler/network/channel_groups.h"
#include "compiler/network/layer_schedule.h"
#include "compiler/network/row_strips.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// What the compiler decided and predicted for one layer (LayerInfo carries the same, and more
// detail is here for reports and tests).
struct ModelLayer {
  std::string name, op, shape, tiling, note;
  bool on_cpu = false;  // run by the firmware on the control core (the note says why)
  uint32_t step = 0;    // the index of the program step that runs it
  uint32_t inputs = 1;  // activation inputs (two for an elementwise layer with an activation b)
  // Its instructions (indices into CompiledModel::instructions, ascending): a contiguous range
  // unless step 5b interleaved it with the layer before or after it. first_instruction is the
  // first of them (where it would start if it has none).
  std::vector<uint32_t> instructions;
  uint32_t first_instruction = 0, instruction_count = 0;
  LayerResidency on_chip;                 // which operands are read/written in place in SRAM
  std::optional<ConvTiling> conv_tiling;  // a convolution's or matrix product's
  uint64_t macs = 0, constant_bytes = 0;
  // Of a row strip's MACs, those of the rows the strip before computes too: the roofline counts
  // the network's work once.
  uint64_t recomputed_macs = 0;
  uint64_t int4_macs = 0;  // of macs, with int4 weights
  uint64_t fp16_macs = 0;  // of macs, in FP16
  uint64_t scratch_bytes = 0, scratch_base = 0;
  uint32_t scratch_from = 0;      // the layer its scratch is allocated from (prefetch: before it)
  uint64_t sram_in_use = 0;       // SRAM allocated while the layer runs (on-chip tensors, scratch)
  uint64_t predicted_cycles = 0;  // completion partition of the whole-stream replay
  uint64_t predicted_dram_read_bytes = 0, predicted_dram_write_bytes = 0;  // its LOADs/STOREs
  uint64_t roofline_cycles = 0;  // max(MACs / array, minimum DRAM bytes / bandwidth)
  std::string fused_group;       // NetLayer::fused_group and strip
  uint32_t strip = 0;
  std::string channel_group;  // NetLayer::channel_group and channel_part
  uint32_t channel_part = 0;
};

// One buffer of the memory plan.
struct BufferPlacement {
  std::string name;  // the first value stored in it
  uint64_t bytes = 0;
  Lifetime lifetime;  // in layers; -1 / layers.size() for host-written / host-read
  bool on_chip = false;
  uint64_t address = 0;  // SRAM address, or DRAM offset from DRAM_BASE
};

struct MemoryPlan {
  std::vector<BufferPlacement> buffers;
  uint64_t instruction_bytes = 0;
  uint64_t constants_offset = 0, constants_bytes = 0;
  uint64_t arena_offset = 0;
  uint64_t arena_bytes = 0;        // peak of the activation arena
  uint64_t arena_lower_bound = 0;  // most bytes of off-chip buffers alive at once
  uint64_t sram_peak = 0;          // highest SRAM byte used + 1
  int prefetched = 0;  // layers whose scratch is allocated from the layer before on
  int elementwise_in_place = 0, evicted = 0;
  // Per node of a fused layer group whose strips hold its weights and records in SRAM
  // (held_constants.h), their region: its bytes, SRAM address and lifetime in layers.
  std::vector<BufferPlacement> held_constants;
};

struct CompiledModel {
  spec::Program program;
  std::vector<spec::Instruction> instructions;  // what program.instructions encodes
  std::vector<spec::Step> steps;                // NPU runs and CPU ops, in order
  Network network;
  std::vector<ModelLayer> layers;
  MemoryPlan memory;
  CostEstimate cost;                  // the whole inference: NPU runs, CPU ops (cycles, DRAM bytes)
  uint64_t predicted_cpu_cycles = 0;  // the CPU ops' share of cost.cycles
  uint64_t min_dram_bytes = 0;        // constants once, the inputs once, the outputs once
  uint64_t roofline_cycles = 0;       // sum of the layers'
  std::vector<RowStripGroup> row_strip_groups;  // pairs and chains compiled as row strips
  bool kept_halos = false;  // the strips keep their halo rows (CompileOptions::keep_halos)
  // The strips run beside the concatenations (CompileOptions::strips_beside_concats).
  bool strips_beside_concats = false;
  std::vector<ChannelGroupSplit> channel_groups;  // pairs compiled as channel groups
};

// Of two compiles of a network (row-strip variants), whether `a` is preferred to `b`: the faster,
// unless the slower moves less DRAM traffic and is slower by at most kDramTradeRate times the
// share of the traffic it saves, and by at most kMaxDramTradeCycles (0.5 % for 5 % less DRAM,
// 2 % for 20 %). DRAM is most of the energy (60-75 %), so that is at most about a seventh of the
// energy saved: inception_v3's stem as chains of strips took 0.73 % more cycles and 18 % less
// DRAM, squeezenet1_1's strips 0.06 % and 20 %, resnet18's 0.09 % and 5.4 %, densenet121's
// dense block 1 beside its concatenation 1.7 % and 25 % (energy 3.21 -> 2.66 mJ; full-size
// exports and built-in model, default config). Until stop 43 the rate was 0.05 and the cap 1 %,
// which kept densenet121 at 1.55x its least DRAM traffic; at the default config no other model
// of the corpus changes its choice. Until stop 50 the cap was 2 %: with residency's second order
// (residency.h) densenet121's kept-halo variant became 2.4 % faster than the one kept, with 34 %
// more DRAM traffic (1.16x -> 1.55x its least); at 3 % only mobilenet_v2 on `edge` changes its
// choice, +2.3 % cycles for 33 % less DRAM traffic.
inline constexpr double kDramTradeRate = 0.1, kMaxDramTradeCycles = 1.03;

// The SRAM the row-strip limits (a quarter of it: row_strips.h) were measured on, the default
// config's. With more, fewer intermediates exceed the limit and the pairs left whole crowd the
// SRAM, so kAuto also tries the splits each smaller SRAM would make, halving down to this: at
// 4 MiB, lraspp_mobilenet_v3_large took 2,991,837 cycles (DRAM 2.44x its least) against
// 2,744,247 (1.88x) at 2 MiB; with the variants 2,667,623 (1.27x) at 4 MiB and 2,695,856
// (1.81x) at 2 MiB; resnet50 4,304,256 -> 4,248,969 at 4 MiB, 4,283,184 -> 4,248,969 at 2 MiB;
// resnext50_32x4d 4,507,898 -> 4,472,659 at 4 MiB (full-size exports, --timing-only
// --no-tuning). At 1 MiB and below none of them won (the corpus CNNs), so none is tried there.
inline constexpr uint64_t kStripLimitsSramBytes = uint64_t{1} << 20;
// Those smaller SRAM sizes, largest first (none at kStripLimitsSramBytes or less).
std::vector<uint64_t> SmallerSplitSrams(const spec::NpuConfig& config);
bool Preferred(const CostEstimate& a, const CostEstimate& b);

StatusOr<CompiledModel> CompileModel(const spec::NpuConfig& config, const ir::Graph& quantized,
                                     const CompileOptions& options = {});

// Steps 1 (the config) and 2-7 for a network already lowered, or built by hand (every layer
// kind: ConvLayer with or without a table, PoolLayer, EltwiseLayer, LutLayer, ResizeLayer).
StatusOr<CompiledModel> CompileNetwork(const spec::NpuConfig& config, Network network,
                                       const CompileOptions& options = {});

// A plain-text compile report: per layer its op, shape, tiling, decompositions, operands kept on
// chip, SRAM and predictions; the memory plan; totals against the roofline; the activations
// left in DRAM whose traffic goes beyond the least, the most first (the first ten).
std::string CompileReport(const CompiledModel& model);

}  // namespace npu::compiler
