// network_bench: the measurements behind docs/network-performance.md (not a test).
//
//   network_bench MODEL [IMAGE_SIZE] [key=value ...]        compile, run on the platform, and
//       print per-layer measured vs predicted cycles, roofline, DRAM and SRAM as Markdown;
//   network_bench --sweep MODEL [IMAGE_SIZE]                 compile only, over a grid of array
//       sizes, SRAM sizes and dataflows: predicted cycles against the roofline, DRAM traffic,
//       arena against its bound, compile time.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "compiler/network/model_pipeline.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/report/run_report.h"
#include "platform/run.h"

namespace npu {
namespace {

using compiler::ModelPipelineOptions;
using compiler::PreparedModel;

double Ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0.0; }
// predicted / measured - 1; 0 when they agree (a layer hidden entirely under the one before it
// measures and predicts 0 cycles), 100 % for a prediction of a layer that measured none.
double PredictionError(uint64_t predicted, uint64_t measured) {
  if (predicted == measured) return 0.0;
  return measured ? Ratio(predicted, measured) - 1 : 1.0;
}

std::string Io(const compiler::ModelLayer& l) {
  std::string s = l.on_chip.input[0] ? "S" : "D";
  if (l.inputs > 1) s += l.on_chip.input[1] ? "S" : "D";
  return s + (l.on_chip.output ? ">S" : ">D");
}

void PrintLayers(const PreparedModel& p, const report::RunReport& r) {
  std::printf(
      "| layer | op | shape | io | measured | predicted | error | roofline | DRAM KiB | "
      "SRAM KiB | tiling |\n|---|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const report::LayerReport& l = r.layers[i];
    const compiler::ModelLayer& m = p.compiled.layers[i];
    std::printf("| %s | %s | %s | %s | %lu | %lu | %+.2f%% | %lu | %.1f | %.1f | %s |\n",
                l.name.c_str(), l.op.c_str(), l.shape.c_str(), Io(m).c_str(), l.cycles,
                l.predicted_cycles, 100.0 * PredictionError(l.predicted_cycles, l.cycles),
                l.roofline_cycles, (l.dram_read_bytes + l.dram_write_bytes) / 1024.0,
                m.sram_in_use / 1024.0, l.tiling.c_str());
  }
}

void PrintTotals(const PreparedModel& p, const report::RunReport& r, double sim_seconds) {
  const compiler::MemoryPlan& mem = p.compiled.memory;
  double worst = 0;
  for (const report::LayerReport& l : r.layers) {
    worst = std::max(worst, std::abs(PredictionError(l.predicted_cycles, l.cycles)));
  }
  const uint64_t dram = r.dram_read_bytes + r.dram_write_bytes;
  std::printf("\n| total | value |\n|---|---:|\n");
  std::printf("| cycles (measured) | %lu |\n| cycles (predicted) | %lu (%+.2f%%) |\n", r.cycles,
              r.predicted_cycles, 100.0 * (Ratio(r.predicted_cycles, r.cycles) - 1));
  std::printf("| worst layer prediction error | %.2f%% |\n", 100 * worst);
  std::printf("| roofline | %lu (measured / roofline = %.3f) |\n", r.roofline_cycles,
              Ratio(r.cycles, r.roofline_cycles));
  std::printf("| MAC utilisation | %.1f%% |\n", 100 * r.mac_utilisation);
  std::printf("| DRAM traffic (incl. fetch) | %lu B (minimum %lu B, %.3fx) |\n", dram,
              p.compiled.min_dram_bytes, Ratio(dram, p.compiled.min_dram_bytes));
  std::printf("| activation arena | %lu B (liveness bound %lu B, %.3fx) |\n", mem.arena_bytes,
              mem.arena_lower_bound, Ratio(mem.arena_bytes, mem.arena_lower_bound));
  std::printf("| SRAM peak | %lu B |\n| instructions | %zu |\n", mem.sram_peak,
              p.compiled.instructions.size());
  std::printf("| compile / simulate (s) | %.2f / %.2f |\n", p.compile_seconds, sim_seconds);
}

int Run(const std::string& model, ModelPipelineOptions o, const std::vector<std::string>& sets) {
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig("", sets);
  if (!config.ok()) return std::cerr << config.status().message() << "\n", 2;
  StatusOr<PreparedModel> p = compiler::PrepareModel(model, *config, o);
  if (!p.ok()) return std::cerr << p.status().message() << "\n", 2;
  const spec::Program& program = p->compiled.program;
  StatusOr<platform::RunResult> run =
      platform::RunBinary(*config, spec::SealProgram(program), p->inputs, {});
  if (!run.ok()) return std::cerr << run.status().message() << "\n", 2;
  const bool exact = run->outputs == p->expected;
  const report::RunReport r = report::BuildRunReport(
      {model, &*config, &program, &run->counters, &run->records, &run->steps, run->cycles});
  std::printf("## %s (%s), %s\n\n", model.c_str(),
              o.image_size ? std::to_string(o.image_size).c_str() : "default size",
              exact ? "bit-exact" : "OUTPUTS DIFFER");
  PrintLayers(*p, r);
  PrintTotals(*p, r, run->wall_seconds);
  return exact ? 0 : 1;
}

int Sweep(const std::string& model, ModelPipelineOptions o) {
  std::printf(
      "| array | dataflow | SRAM KiB | predicted cycles | / roofline | DRAM / min | "
      "arena / bound | on-chip buffers | compile s |\n"
      "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  o.compute_reference = false;
  for (const char* array : {"8", "16", "32", "64", "128"}) {
    for (const char* df : {"WEIGHT_STATIONARY", "OUTPUT_STATIONARY"}) {
      for (uint64_t kib : {64, 256, 1024, 4096, 16384}) {
        StatusOr<spec::NpuConfig> c = spec::ResolveConfig(
            "",
            {std::string("mac.rows=") + array, std::string("mac.cols=") + array,
             std::string("mac.dataflow=") + df, "sram.size_bytes=" + std::to_string(kib << 10)});
        if (!c.ok()) continue;
        StatusOr<PreparedModel> p = compiler::PrepareModel(model, *c, o);
        if (!p.ok()) {
          std::printf("| %s | %s | %lu | error: %s |\n", array, df, kib,
                      p.status().message().c_str());
          continue;
        }
        const compiler::CompiledModel& m = p->compiled;
        int on_chip = 0;
        for (const compiler::BufferPlacement& b : m.memory.buffers) on_chip += b.on_chip;
        std::printf("| %sx%s | %s | %lu | %lu | %.3f | %.3f | %.3f | %d | %.2f |\n", array, array,
                    df, kib, m.cost.cycles, Ratio(m.cost.cycles, m.roofline_cycles),
                    Ratio(m.cost.dram_bytes(), m.min_dram_bytes),
                    Ratio(m.memory.arena_bytes, m.memory.arena_lower_bound), on_chip,
                    p->compile_seconds);
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace npu

int sc_main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool sweep = !args.empty() && args[0] == "--sweep";
  if (sweep) args.erase(args.begin());
  if (args.empty()) {
    std::cerr << "usage: network_bench [--sweep] MODEL [IMAGE_SIZE] [key=value ...]\n";
    return 2;
  }
  npu::compiler::ModelPipelineOptions o;
  std::vector<std::string> sets;
  for (size_t i = 1; i < args.size(); ++i) {
    if (args[i].find('=') != std::string::npos) {
      sets.push_back(args[i]);
    } else {
      o.image_size = std::stoll(args[i]);
    }
  }
  return sweep ? npu::Sweep(args[0], o) : npu::Run(args[0], o, sets);
}
