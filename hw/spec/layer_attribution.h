// How a run is attributed to the model's layers: one set of rules for the compiler's prediction
// (compiler/network/model_program.cc, from the replay's timeline) and the run report's
// measurement (platform/report/run_report.cc, from the platform's records), so the two compare
// like with like (docs/report.md "Layer cycles").
//
// - Cycles: the completion partition. A layer completes when the last of its instructions ends
//   (a CPU layer: its step), never before the layer before it; its cycles run from that layer's
//   completion to its own, and the last layer also takes the run's tail, so the layers' cycles
//   add up to the run's.
// - DRAM traffic: an NPU layer reads the instruction words the command processor fetches for it
//   (kInsnBytes each) and what its LOADs read, and writes what its STOREs write; a CPU layer
//   reads its op's inputs and writes its outputs. The NPU layers' bytes add up to the DRAM
//   counters'.
// - Roofline: max(MACs / (rows x cols), the least DRAM bytes at the DRAM's peak rate).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "hw/spec/binary.pb.h"
#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

// The indices of a layer's instructions: LayerInfo.instructions if the compiler interleaved it,
// else its range.
std::vector<uint32_t> LayerInstructions(const LayerInfo& layer);

// Each layer's cycles from each layer's own latest end (0 if it has none), in layer order, and
// the run's cycles.
std::vector<uint64_t> PartitionCycles(std::span<const uint64_t> latest_ends, uint64_t run_cycles);

struct DramTraffic {
  uint64_t read_bytes = 0, write_bytes = 0;
};
// Adds one NPU instruction's fetch and, for LOAD and STORE, its data.
void AddInstructionTraffic(const Instruction& insn, DramTraffic& traffic);
// An instruction whose words could not be decoded still was fetched.
void AddFetchTraffic(DramTraffic& traffic);
// A CPU op's operands.
DramTraffic CpuOpTraffic(const CpuOp& op);

// The array's MAC slots `macs` take, `int4_macs` of them with int4 weights and `fp16_macs` in
// FP16: a PE does mac.int4_weight_rate int4 MACs per cycle (timing_model.h, ReductionRate) and
// takes mac.fp16_mac_cycles per FP16 MAC (ConvStepCycles). Utilisation and the roofline count
// slots, so a W4A8 layer's peak is the int4 rate's and an FP16 layer's the FP16 rate's.
uint64_t MacSlots(const NpuConfig& config, uint64_t macs, uint64_t int4_macs,
                  uint64_t fp16_macs = 0);

// The MAC slots of the network's own work in a layer of `macs` of which `recomputed_macs` are a
// row strip's halo rows another strip computes too: MacSlots less their share.
uint64_t NetworkMacSlots(const NpuConfig& config, uint64_t macs, uint64_t int4_macs,
                         uint64_t fp16_macs, uint64_t recomputed_macs);

// The constants a layer adds to the network's least DRAM traffic: its own, unless it is a later
// strip of a fused group (`strip` > 0), whose node's constants its first strip counted.
uint64_t LeastConstantBytes(uint64_t constant_bytes, std::string_view fused_group, uint32_t strip);

// A layer's roofline: its MAC slots on the whole array or its least DRAM bytes at peak,
// whichever takes longer.
uint64_t LayerRooflineCycles(const NpuConfig& config, uint64_t mac_slots, uint64_t min_dram_bytes);

}  // namespace npu::spec
