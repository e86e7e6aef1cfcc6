// RunBinary: one simulation from elaboration to the firmware's return.
#include "platform/run.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>

#include "platform/progress_monitor.h"
#include "platform/soc.h"

namespace npu::platform {
namespace {

// The firmware's main: everything a host program asks of the driver for one inference.
Status FirmwareMain(fw::Bus& bus, uint64_t dram_bytes, std::string_view binary,
                    const std::vector<std::vector<int8_t>>& inputs, RunResult& result) {
  fw::Driver driver(bus, dram_bytes);
  NPU_TRY(driver.Probe());
  NPU_TRY(driver.Load(binary));
  if (inputs.size() != static_cast<size_t>(driver.program().inputs_size())) {
    return InvalidArgument(fmt::format("the binary takes {} inputs, {} were given",
                                       driver.program().inputs_size(), inputs.size()));
  }
  for (size_t i = 0; i < inputs.size(); ++i) NPU_TRY(driver.WriteInput(i, inputs[i]));
  NPU_TRY(driver.Run(result.counters));
  for (int i = 0; i < driver.program().outputs_size(); ++i) {
    NPU_ASSIGN_OR_RETURN(std::vector<int8_t> output, driver.ReadOutput(i));
    result.outputs.push_back(std::move(output));
  }
  return Status::Ok();
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
  Status firmware_status = Internal("the firmware did not run");
  auto soc = std::make_unique<Soc>("soc", config, options.npu, [&](fw::Bus& bus) {
    firmware_status = FirmwareMain(bus, config.dram().size_bytes(), binary, inputs, result);
  });
  std::unique_ptr<ProgressMonitor> monitor;
  if (options.progress) {
    monitor = std::make_unique<ProgressMonitor>("progress", soc->npu,
                                                options.progress_interval_cycles, options.progress);
  }
  const auto start = std::chrono::steady_clock::now();
  sc_core::sc_start();
  result.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!soc->core.finished()) {
    return Internal("the NPU hung: nothing left to simulate and no completion interrupt; " +
                    soc->npu.DescribeHang());
  }
  if (!firmware_status.ok()) {
    const std::string& detail = soc->npu.run_state().error_detail;
    if (detail.empty()) return firmware_status;
    return Status(firmware_status.kind(),
                  fmt::format("{} ({})", firmware_status.message(), detail));
  }
  result.trace = soc->npu.trace();
  result.records = soc->npu.records();
  return result;
}

}  // namespace npu::platform
