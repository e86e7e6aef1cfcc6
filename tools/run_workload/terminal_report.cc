// Formatting the terminal report.
#include "tools/run_workload/terminal_report.h"

#include <fmt/format.h>

namespace npu::tools {

std::string Grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

std::string Bytes(uint64_t b) {
  if (b >= 10 * 1024 * 1024) return fmt::format("{:.1f} MiB", b / 1048576.0);
  if (b >= 10 * 1024) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{} B", b);
}

std::string QueueTable(const Measurement& m) {
  std::string t =
      fmt::format("  {:<8}{:>10}{:>12}{:>13}{:>15}{:>15}{:>8}\n", "queue", "busy", "wait input",
                  "wait buffer", "bank conflict", "DRAM bandwidth", "insns");
  for (const QueueFigures& q : m.queues) {
    t += fmt::format("  {:<8}{:>10}{:>12}{:>13}{:>15}{:>15}{:>8}\n", q.name, Grouped(q.busy),
                     Grouped(q.wait_input), Grouped(q.wait_buffer), Grouped(q.bank_conflict),
                     Grouped(q.dram_stall), Grouped(q.instructions));
  }
  t += fmt::format(
      "  {:<8}{:>10}  fetching instructions; {} cycles dispatch stalled on a full "
      "queue\n",
      "fetch", Grouped(m.fetch_cycles), Grouped(m.dispatch_stall));
  return t;
}

}  // namespace

std::string FormatReport(const Measurement& m, const CheckResult& check) {
  std::string r;
  const double error =
      m.cycles ? 100.0 * (double(m.predicted_cycles) - double(m.cycles)) / double(m.cycles) : 0;
  r += fmt::format(
      "cycles           {:>14}  ({:.1f} us at the configured clock; compiler "
      "predicted {}, {:+.1f} %)\n",
      Grouped(m.cycles), m.latency_us, Grouped(m.predicted_cycles), error);
  r += fmt::format("MAC utilisation  {:>13.1f}%  ({} MACs in {} cycles)\n", 100 * m.mac_utilisation,
                   Grouped(m.macs), Grouped(m.cycles));
  r += fmt::format(
      "DRAM             read {}, written {}; {:.2f} GB/s achieved of {:.1f} GB/s "
      "peak\n",
      Bytes(m.dram_read), Bytes(m.dram_written), m.achieved_gbps, m.peak_gbps);
  r += "cycles by queue (busy includes bank-conflict and DRAM-bandwidth stalls; waits are for "
       "tokens)\n";
  r += QueueTable(m);
  if (check.pass()) {
    r += fmt::format("check            PASS: all {} output bytes equal the integer reference\n",
                     Grouped(check.bytes));
  } else {
    r += fmt::format(
        "check            FAIL: {} of {} output bytes differ from the integer "
        "reference; first: {}\n",
        Grouped(check.mismatches), Grouped(check.bytes), check.first_mismatch);
  }
  return r;
}

}  // namespace npu::tools
