// RunReport -> CSV.
#include "platform/report/csv_report.h"

#include <fmt/format.h>

namespace npu::report {
namespace {

// RFC 4180: quote a field that holds a comma, quote or newline; double the quotes.
std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char ch : s) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

}  // namespace

std::string ToCsv(const RunReport& r) {
  std::string csv =
      "layer,op,engine,shape,macs,cycles,predicted_cycles,mac_utilisation,wait_input_cycles,"
      "wait_buffer_cycles,bank_conflict_cycles,dram_stall_cycles,sram_bound_cycles,"
      "dram_read_bytes,dram_write_bytes,achieved_gbps,peak_sram_bytes,roofline_cycles,energy_pj,"
      "tiling\n";
  for (const LayerReport& l : r.layers) {
    csv += fmt::format("{},{},{},{},{},{},{},{:.4f},{},{},{},{},{},{},{},{:.3f},{},{},{:.1f},{}\n",
                       Field(l.name), Field(l.op), l.engine, Field(l.shape), l.macs, l.cycles,
                       l.predicted_cycles, l.mac_utilisation, l.stalls.wait_input,
                       l.stalls.wait_buffer, l.stalls.bank_conflict, l.stalls.dram_stall,
                       l.stalls.sram_bound, l.dram_read_bytes, l.dram_write_bytes, l.achieved_gbps,
                       l.peak_sram_bytes, l.roofline_cycles, l.energy.total_pj, Field(l.tiling));
  }
  return csv;
}

}  // namespace npu::report
