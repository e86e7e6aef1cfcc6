// Formatting the terminal report.
#include "platform/report/terminal_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/tech_model.h"

namespace npu::report {

std::string Grouped(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

std::string Short(const std::string& s, size_t n) {
  return s.size() <= n ? s : s.substr(0, n - 1) + "~";
}

std::string Percent(double part, double whole) {
  return whole > 0 ? fmt::format("{:+.1f}%", 100.0 * (part - whole) / whole) : "-";
}

std::string KiB(uint64_t b) { return fmt::format("{:.1f}", b / 1024.0); }

// The queue whose unit the layer kept busiest, and for how many cycles ("-" for a CPU layer).
std::string BusiestUnit(const LayerReport& l) {
  const auto most = std::max_element(l.busy_cycles.begin(), l.busy_cycles.end());
  if (*most == 0) return "-";
  const auto q = spec::Queue(most - l.busy_cycles.begin());
  return fmt::format("{} {}", spec::QueueName(q), Grouped(*most));
}

// Whether channel-group split `g` is of a pair (its intermediate on chip), not of a convolution
// alone whose groups' outputs a global pool reads (compiler/network/channel_groups.h).
bool HasDepthwise(const RunReport& r, const GroupReport& g) {
  return std::any_of(r.layers.begin(), r.layers.end(), [&](const LayerReport& l) {
    return l.channel_group == g.name && l.op == "depthwise_conv2d";
  });
}

std::string ComputeTable(const RunReport& r) {
  std::string t = fmt::format("{:<18} {:<15} {:<27} {:>7} {:>11} {:>7} {:>5} {:>17}\n", "layer",
                              "op", "shape", "MMACs", "cycles", "pred", "util", "busiest unit");
  std::vector<std::string> interleaved;
  for (const LayerReport& l : r.layers) {
    t += fmt::format("{:<18} {:<15} {:<27} {:>7.1f} {:>11} {:>7} {:>4.0f}% {:>17}\n",
                     Short(l.name, 18), Short(l.engine == "cpu" ? "cpu:" + l.op : l.op, 15),
                     Short(l.shape, 27), l.macs / 1e6, Grouped(l.cycles),
                     Percent(double(l.predicted_cycles), double(l.cycles)),
                     100 * l.mac_utilisation, BusiestUnit(l));
    if (l.interleaved) interleaved.push_back(l.name);
  }
  if (!interleaved.empty()) {
    t += fmt::format(
        "interleaved with the layer before (their cycles are those after it; the rest ran under "
        "it): {}\n",
        fmt::join(interleaved, ", "));
  }
  for (const GroupReport& g : r.groups) {
    const bool strips = g.kind == "row_strips";
    t += fmt::format(
        "fused in {} ({} on chip): {}: {} {}, {} layers, {} cycles (roofline {}), DRAM {} KiB\n",
        strips ? "row strips" : "channel groups",
        strips || HasDepthwise(r, g) ? "intermediate" : "output pooled", g.name,
        strips ? g.strips : g.channel_groups, strips ? "strips" : "groups", g.layers,
        Grouped(g.cycles), Grouped(g.roofline_cycles), KiB(g.dram_read_bytes + g.dram_write_bytes));
  }
  return t;
}

std::string MemoryTable(const RunReport& r) {
  std::string t = fmt::format("{:<18} {:>10} {:>10} {:>9} {:>9} {:>9} {:>10} {:>10} {:>6} {:>9}\n",
                              "layer", "wait in", "wait buf", "bank", "SRAM bw", "DRAM bw",
                              "read KiB", "write KiB", "GB/s", "SRAM KiB");
  for (const LayerReport& l : r.layers) {
    t += fmt::format("{:<18} {:>10} {:>10} {:>9} {:>9} {:>9} {:>10} {:>10} {:>6.1f} {:>9}\n",
                     Short(l.name, 18), Grouped(l.stalls.wait_input), Grouped(l.stalls.wait_buffer),
                     Grouped(l.stalls.bank_conflict), Grouped(l.stalls.sram_bound),
                     Grouped(l.stalls.dram_stall), KiB(l.dram_read_bytes), KiB(l.dram_write_bytes),
                     l.achieved_gbps, KiB(l.peak_sram_bytes));
  }
  return t;
}

std::string QueueTable(const RunReport& r) {
  std::string t =
      fmt::format("{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}\n", "queue", "busy",
                  "wait input", "wait buffer", "bank confl.", "SRAM bw", "DRAM bw", "insns");
  for (const QueueReport& q : r.queues) {
    t += fmt::format("{:<10} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>8}\n", q.name,
                     Grouped(q.busy_cycles), Grouped(q.stalls.wait_input),
                     Grouped(q.stalls.wait_buffer), Grouped(q.stalls.bank_conflict),
                     Grouped(q.stalls.sram_bound), Grouped(q.stalls.dram_stall),
                     Grouped(q.instructions));
  }
  t += fmt::format(
      "{:<10} {:>12}  fetching instructions; {} cycles dispatch-stalled on a full "
      "queue\n",
      "fetch", Grouped(r.fetch_cycles), Grouped(r.dispatch_stall_cycles));
  return t;
}

// How the time and the MACs divide between the NPU and the control core.
std::string EngineShares(const RunReport& r) {
  auto share = [](uint64_t part, uint64_t whole) { return whole ? 100.0 * part / whole : 0.0; };
  std::string t =
      fmt::format("engines         NPU {:.1f}% of cycles ({} run{})", share(r.npu_cycles, r.cycles),
                  r.npu_steps, r.npu_steps == 1 ? "" : "s");
  if (r.cpu_steps > 0) {
    t += fmt::format(", CPU {:.1f}% ({} op{}), firmware {:.1f}%", share(r.cpu_cycles, r.cycles),
                     r.cpu_steps, r.cpu_steps == 1 ? "" : "s", share(r.other_cycles, r.cycles));
  }
  return t + fmt::format("; MACs {:.2f}% on NPU\n", share(r.npu_macs, r.npu_macs + r.cpu_macs));
}

// Energy per inference and per MAC, its largest shares, and the area.
std::string Energy(const RunReport& r) {
  const double per_inference_uj = r.energy.total_pj / 1e6 / double(std::max<int64_t>(r.batch, 1));
  std::string t =
      fmt::format("energy          {:.2f} uJ per inference ({:.3f} pJ/MAC, {:.0f} inferences/J):",
                  per_inference_uj, r.pj_per_mac, r.inferences_per_joule);
  for (int u = 0; u < spec::kNumEnergyUnits; ++u) {
    const double share = r.energy.total_pj > 0 ? 100 * r.energy.pj[u] / r.energy.total_pj : 0;
    if (share >= 1) {
      t += fmt::format(" {} {:.0f}%", spec::EnergyUnitName(spec::EnergyUnit(u)), share);
    }
  }
  return t + fmt::format("\narea            {:.2f} mm^2 at {} ({:.2f} V)\n", r.area_mm2,
                         spec::TechNode_Name(spec::ResolveTech(r.config).node),
                         spec::ResolveTech(r.config).voltage_v);
}

std::string Totals(const RunReport& r) {
  const double ratio = r.roofline_cycles ? double(r.cycles) / r.roofline_cycles : 0;
  std::string t;
  t += fmt::format(
      "cycles          {} ({:.1f} us at {} MHz, {:.0f} inferences/s); predicted {} "
      "({})\n",
      Grouped(r.cycles), r.latency_us, r.config.clock_mhz(), r.inferences_per_second,
      Grouped(r.predicted_cycles), Percent(double(r.predicted_cycles), double(r.cycles)));
  if (r.batch > 1) {
    t += fmt::format("batch           {} inferences per run: {} cycles per inference\n", r.batch,
                     Grouped(r.cycles / uint64_t(r.batch)));
  }
  t += fmt::format("roofline        {} cycles; measured is {:.2f}x\n", Grouped(r.roofline_cycles),
                   ratio);
  if (const auto& p = r.precision) {
    t += fmt::format(
        "precision       auto with {} int4 and {} FP16 layer{}; against all int8 (predicted): {} -> "
        "{} cycles ({}), {} -> {} KiB DRAM ({})\n",
        p->int4_layers, p->fp16_layers, p->int4_layers + p->fp16_layers == 1 ? "" : "s",
        Grouped(p->int8_cycles), Grouped(p->cycles),
        Percent(double(p->cycles), double(p->int8_cycles)), Grouped(p->int8_dram_bytes / 1024),
        Grouped(p->dram_bytes / 1024), Percent(double(p->dram_bytes), double(p->int8_dram_bytes)));
  }
  t += fmt::format("MAC utilisation {:.1f}% ({} MACs on {}x{})\n", 100 * r.mac_utilisation,
                   Grouped(r.macs), r.config.mac().rows(), r.config.mac().cols());
  t += EngineShares(r);
  t += fmt::format(
      "DRAM            read {} KiB, written {} KiB ({:.2f}x the least: {} KiB); {:.2f} GB/s of "
      "{:.1f} GB/s peak\n",
      KiB(r.dram_read_bytes), KiB(r.dram_write_bytes), DramRatio(r), KiB(r.min_dram_bytes),
      r.achieved_gbps, r.peak_gbps);
  if (r.dram) {
    t += fmt::format(
        "DRAM device     {}: row-buffer hits {:.1f}% ({} bursts: {} misses, {} conflicts), "
        "efficiency {:.1f}% (data / busy cycles), {} refreshes\n",
        r.dram->standard, 100 * r.dram->row_hit_rate, Grouped(r.dram->bursts),
        Grouped(r.dram->row_misses), Grouped(r.dram->row_conflicts), 100 * r.dram->efficiency,
        Grouped(r.dram->refreshes));
  }
  t += fmt::format("SRAM            peak {} KiB of {} KiB\n", KiB(r.peak_sram_bytes),
                   KiB(r.config.sram().size_bytes()));
  return t + Energy(r);
}

std::string Check(const RunReport& r) {
  if (r.check.status == "pass") {
    return fmt::format("check           PASS: all {} output bytes equal the reference\n",
                       Grouped(r.check.bytes));
  }
  if (r.check.status == "fail") {
    return fmt::format(
        "check           FAIL: {} of {} output bytes differ from the integer "
        "reference; first: {}\n",
        Grouped(r.check.mismatches), Grouped(r.check.bytes), r.check.reason);
  }
  if (r.check.status == "not-checked") {
    return fmt::format("check           not checked: {}\n", r.check.reason);
  }
  return fmt::format("check           skipped: {}\n", r.check.reason);
}

}  // namespace

std::string FormatTerminalReport(const RunReport& r) {
  std::string out = fmt::format(
      "\n{} on '{}': {}x{} {}, {} KiB SRAM, {} MHz; {} instructions\n\n", r.model, r.config.name(),
      r.config.mac().rows(), r.config.mac().cols(), spec::Dataflow_Name(r.config.mac().dataflow()),
      r.config.sram().size_bytes() / 1024, r.config.clock_mhz(), Grouped(r.instructions));
  out += ComputeTable(r) + "\n" + MemoryTable(r) + "\n" + Totals(r) + "\n" + QueueTable(r) + "\n";
  out += Check(r);
  out += fmt::format(
      "simulated in {:.2f} s ({:.1f} M cycles/s); compiled in {:.2f} s\n", r.simulate_seconds,
      r.simulate_seconds > 0 ? r.cycles / r.simulate_seconds / 1e6 : 0, r.compile_seconds);
  if (!r.accuracy_text.empty()) out += "\n" + r.accuracy_text;
  return out;
}

}  // namespace npu::report
