// Layer DRAM traffic (layer_traffic.h).
#include "hw/spec/layer_traffic.h"

#include "hw/spec/timing_model.h"

namespace npu::spec {

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

}  // namespace npu::spec
