// Probe, load, then each CPU step in program order, as Driver::Run would run them.
#include "tests/fuzz/load_on_board.h"

#include <string>

#include "firmware/cpu/cpu_op.h"
#include "firmware/driver.h"
#include "tests/fuzz/fuzz_target.h"

namespace npu::fuzz {

Status LoadAndRunCpuSteps(FuzzBoard& board, std::string_view binary) {
  fw::Driver driver(board, board.dram_bytes());
  if (Status probe = driver.Probe(); !probe.ok())
    Finding("the board does not probe: " + probe.message());
  NPU_TRY(driver.Load(binary));
  for (const spec::Step& step : driver.program().steps()) {
    if (step.has_cpu()) NPU_TRY(fw::RunCpuOp(board, step.cpu()));
  }
  return Status::Ok();
}

}  // namespace npu::fuzz
