// RunBinary: one simulation from elaboration to the firmware's return, then the runs' records
// put on the inference's timeline.
#include "platform/run.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "platform/progress_monitor.h"
#include "platform/run_recorder.h"
#include "platform/soc.h"

namespace npu::platform {
namespace {

// What the firmware is doing, for a watchdog report.
struct FirmwarePhase {
  const char* what = "starting";
  int steps = 0;  // the program's, once loaded
};

// The firmware's main: everything a host program asks of the driver for one inference.
Status FirmwareMain(fw::Bus& bus, uint64_t dram_bytes, fw::LoadChecks checks,
                    std::string_view binary, const std::vector<std::vector<int8_t>>& inputs,
                    fw::RunLog& log, FirmwarePhase& phase, uint32_t& instruction_offset,
                    RunResult& result) {
  fw::Driver driver(bus, dram_bytes, checks);
  phase.what = "probing the NPU";
  NPU_TRY(driver.Probe());
  phase.what = "loading the binary";
  NPU_TRY(driver.Load(binary));
  instruction_offset = driver.program().instruction_offset();
  phase.steps = driver.program().steps_size();
  if (inputs.size() != static_cast<size_t>(driver.program().inputs_size())) {
    return InvalidArgument(fmt::format("the binary takes {} inputs, {} were given",
                                       driver.program().inputs_size(), inputs.size()));
  }
  phase.what = "writing the inputs";
  for (size_t i = 0; i < inputs.size(); ++i) NPU_TRY(driver.WriteInput(i, inputs[i]));
  phase.what = "running";
  NPU_TRY(driver.Run(log));
  phase.what = "reading the outputs";
  for (int i = 0; i < driver.program().outputs_size(); ++i) {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> output, driver.ReadOutput(i));
    result.outputs.push_back(std::move(output));
  }
  return Status::Ok();
}

// Why the watchdog stopped the run, where the firmware was and where every queue stands.
Status WatchdogReport(SimulationEnd end, const RunOptions& options, const FirmwarePhase& phase,
                      const fw::RunLog& log, const Soc& soc) {
  const std::string limit =
      end == SimulationEnd::kCycleBudget
          ? fmt::format("the run did not finish within its budget of {} cycles", options.max_cycles)
          : fmt::format("the run did not finish within its time limit of {} s (at cycle {})",
                        options.timeout_seconds, soc.clock.Now());
  std::string where = phase.what;
  if (std::string_view(phase.what) == "running") {
    where = fmt::format("running step {} of {}", log.steps.size(), phase.steps);
  }
  return ResourceExhausted(fmt::format("{} while the firmware was {}; the NPU's last run: {}",
                                       limit, where, soc.npu.DescribeHang()));
}

// Step times and the NPU runs' records and trace, from t0 on.
void Timeline(const fw::RunLog& log, const std::vector<NpuRunRecord>& runs,
              uint32_t instruction_offset, RunResult& r) {
  const uint64_t t0 = log.steps.empty() ? 0 : log.steps.front().begin_cycle;
  for (const fw::StepTiming& s : log.steps) {
    r.steps.push_back({s.begin_cycle - t0, s.end_cycle - t0});
    r.cycles = std::max(r.cycles, s.end_cycle - t0);
  }
  for (const NpuRunRecord& run : runs) {
    const uint64_t first = (run.insn_offset - instruction_offset) / spec::kInsnBytes;
    const uint64_t shift = run.begin_cycle - t0;
    if (r.records.size() < first + run.records.size()) r.records.resize(first + run.records.size());
    for (size_t i = 0; i < run.records.size(); ++i) {
      hw::InsnRecord rec = run.records[i];
      rec.start += shift;
      rec.end += shift;
      r.records[first + i] = rec;
    }
    for (hw::TraceEvent e : run.trace) {
      e.begin_cycle += shift;
      e.end_cycle += shift;
      if (e.insn >= 0) e.insn += static_cast<int64_t>(first);
      r.trace.push_back(std::move(e));
    }
  }
}

}  // namespace

StatusOr<RunResult> RunBinary(const spec::NpuConfig& config, std::string_view binary,
                              const std::vector<std::vector<int8_t>>& inputs,
                              const RunOptions& options) {
  static bool elaborated = false;
  if (elaborated) {
    return FailedPrecondition("the platform runs one binary per process (SystemC elaborates once)");
  }
  elaborated = true;
  // sc_stop() at the firmware's end is the normal way out, not news.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  RunResult result;
  fw::RunLog log;
  FirmwarePhase phase;
  uint32_t instruction_offset = 0;
  Status firmware_status = Internal("the firmware did not run");
  auto soc = std::make_unique<Soc>("soc", config, options.npu, [&](fw::Bus& bus) {
    firmware_status = FirmwareMain(bus, config.dram().size_bytes(), options.load_checks, binary,
                                   inputs, log, phase, instruction_offset, result);
  });
  RunRecorder recorder("recorder", soc->npu);
  std::unique_ptr<ProgressMonitor> monitor;
  if (options.progress) {
    monitor = std::make_unique<ProgressMonitor>("progress", soc->npu,
                                                options.progress_interval_cycles, options.progress);
  }
  const auto start = std::chrono::steady_clock::now();
  const SimulationEnd end =
      Simulate(soc->core, soc->clock, options.max_cycles, options.timeout_seconds);
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (end == SimulationEnd::kCycleBudget || end == SimulationEnd::kTimeout) {
    return WatchdogReport(end, options, phase, log, *soc);
  }
  if (end == SimulationEnd::kNothingLeft) {
    return Internal("the NPU hung: nothing left to simulate and no completion interrupt; " +
                    soc->npu.DescribeHang());
  }
  if (!firmware_status.ok()) {
    const std::string& detail = soc->npu.run_state().error_detail;
    if (detail.empty()) return firmware_status;
    return Status(firmware_status.kind(),
                  fmt::format("{} ({})", firmware_status.message(), detail));
  }
  result.counters = log.counters;
  result.dram = soc->dram.stats();
  Timeline(log, recorder.runs(), instruction_offset, result);
  return result;
}

}  // namespace npu::platform
