// The systolic int8 MAC array (mac.rows x mac.cols, weight- or output-stationary). Executes CONV:
// takes the weight block and the input region from SRAM, computes int32 partial sums of 9-bit
// operands (each int8 minus its zero point; weights [out_c][kh][kw][in_c], or [in_c][out_c] with
// weights_kn: spec::ComputeConv) and writes them to the accumulator buffer. Its operands stream
// from SRAM fold by fold (spec/operand_stream.h): a CONV takes spec::IdealCycles (its folds, none
// shorter than its reads need of the banks; no fill and drain if it continues the previous CONV's
// fold chain, spec::FoldChain) plus the cycles its stream waited for banks busy with other units.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <systemc>
#include <tlm>
#include <vector>

#include "hw/common/unit_context.h"
#include "hw/spec/timing_model.h"

namespace npu::hw {

class MacArray : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<MacArray> sram{"sram"};
  tlm_utils::simple_initiator_socket<MacArray> acc{"acc"};
  sc_core::sc_fifo<QueuedInsn> queue;

  SC_HAS_PROCESS(MacArray);
  MacArray(sc_core::sc_module_name name, UnitContext& ctx);

 private:
  void Run();
  UnitResult Execute(const spec::Instruction& insn);  // a CONV
  bool AccessAcc(tlm::tlm_command cmd, uint32_t entry, std::vector<int32_t>& data);
  bool ReadOperands(const spec::SramAccess& region, std::vector<int8_t>& data);
  uint64_t StreamOperands(const spec::ConvArgs& conv, uint64_t words, uint64_t cycles);

  UnitContext& ctx_;
  std::vector<int8_t> input_, weights_;
  std::vector<int32_t> partial_sums_;
  spec::FoldChain chain_;
};

}  // namespace npu::hw
