// Layer attribution (layer_attribution.h).
#include "hw/spec/layer_attribution.h"

#include <algorithm>
#include <cmath>

#include "hw/spec/dram_device.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {

std::vector<uint32_t> LayerInstructions(const LayerInfo& layer) {
  if (layer.instructions_size() > 0)
    return {layer.instructions().begin(), layer.instructions().end()};
  std::vector<uint32_t> range(layer.instruction_count());
  for (uint32_t k = 0; k < range.size(); ++k) range[k] = layer.first_instruction() + k;
  return range;
}

std::vector<uint64_t> PartitionCycles(std::span<const uint64_t> latest_ends, uint64_t run_cycles) {
  std::vector<uint64_t> cycles;
  uint64_t previous = 0;
  for (const uint64_t end : latest_ends) {
    const uint64_t completion = std::max(previous, end);
    cycles.push_back(completion - previous);
    previous = completion;
  }
  if (!cycles.empty()) cycles.back() += run_cycles - std::min(run_cycles, previous);
  return cycles;
}

void AddFetchTraffic(DramTraffic& traffic) { traffic.read_bytes += kInsnBytes; }

void AddInstructionTraffic(const Instruction& insn, DramTraffic& traffic) {
  AddFetchTraffic(traffic);
  if (const auto* dma = std::get_if<DmaArgs>(&insn.args)) {
    (insn.opcode == Opcode::kLoad ? traffic.read_bytes : traffic.write_bytes) += DmaBytes(*dma);
  }
}

DramTraffic CpuOpTraffic(const CpuOp& op) {
  DramTraffic traffic;
  for (const TensorDesc& t : op.inputs()) traffic.read_bytes += t.size_bytes();
  for (const TensorDesc& t : op.outputs()) traffic.write_bytes += t.size_bytes();
  return traffic;
}

uint64_t MacSlots(const NpuConfig& c, uint64_t macs, uint64_t int4_macs, uint64_t fp16_macs) {
  const uint64_t int4 = std::min(macs, int4_macs), fp16 = std::min(macs - int4, fp16_macs);
  return macs - int4 - fp16 + CeilDiv(int4, std::max<uint64_t>(1, c.mac().int4_weight_rate())) +
         fp16 * std::max<uint64_t>(1, c.mac().fp16_mac_cycles());
}

uint64_t NetworkMacSlots(const NpuConfig& c, uint64_t macs, uint64_t int4_macs, uint64_t fp16_macs,
                         uint64_t recomputed_macs) {
  const uint64_t slots = MacSlots(c, macs, int4_macs, fp16_macs);
  if (macs == 0) return slots;
  const double share = double(macs - std::min(macs, recomputed_macs)) / double(macs);
  return static_cast<uint64_t>(std::llround(double(slots) * share));
}

uint64_t LeastConstantBytes(uint64_t constant_bytes, std::string_view fused_group, uint32_t strip) {
  return !fused_group.empty() && strip > 0 ? 0 : constant_bytes;
}

uint64_t LayerRooflineCycles(const NpuConfig& c, uint64_t mac_slots, uint64_t min_dram_bytes) {
  return std::max(CeilDiv(mac_slots, uint64_t{c.mac().rows()} * c.mac().cols()),
                  DramPeakCycles(c, min_dram_bytes));
}

}  // namespace npu::spec
