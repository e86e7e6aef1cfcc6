// Fuzz target: a mutated program, re-sealed for the board (SealForBoard), run on the platform:
// the firmware on the control core loads and runs it on the NPU model, under a cycle budget.
// SystemC elaborates once per process, so each input runs in a forked child (forked_run.h),
// through sc_elab_and_sim like any SystemC program. Any Status is an answer (a refused binary, a
// fault the NPU reported, a hung queue, the budget spent); a crash, a sanitizer report, a SystemC
// error or a child still running after kWallSeconds is a finding. Its libFuzzer build mutates
// parsed Programs (program_custom_mutator.cc).
#include <cstdio>
#include <systemc>
#include <vector>

#include "platform/run.h"
#include "tests/fuzz/forked_run.h"
#include "tests/fuzz/fuzz_board.h"
#include "tests/fuzz/fuzz_target.h"

namespace {

namespace spec = npu::spec;

// The seed programs finish in well under a million cycles; mutations that make a run longer
// (bigger transfers, more repeats) are cut here rather than simulated for minutes.
constexpr uint64_t kCycleBudget = 2'000'000;
constexpr unsigned kWallSeconds = 60;

// What sc_main runs: the current input, set before the fork.
struct PlatformInput {
  std::string binary;
  std::vector<std::vector<int8_t>> inputs;
  size_t outputs = 0;  // the program's output count
};
PlatformInput current;

// Zeros for every input of the program; a size beyond the board's DRAM cannot load anyway.
std::vector<std::vector<int8_t>> ZeroInputs(const spec::Program& program, uint64_t dram_bytes) {
  std::vector<std::vector<int8_t>> inputs;
  for (const spec::TensorDesc& t : program.inputs()) {
    inputs.emplace_back(std::min<uint64_t>(t.size_bytes(), dram_bytes));
  }
  return inputs;
}

int RunOnPlatform() {
  char name[] = "fuzz_platform";
  char* argv[] = {name, nullptr};
  return sc_core::sc_elab_and_sim(1, argv);
}

}  // namespace

int sc_main(int, char**) {
  npu::platform::RunOptions options;
  options.max_cycles = kCycleBudget;
  npu::StatusOr<npu::platform::RunResult> run = npu::platform::RunBinary(
      npu::fuzz::FuzzBoardConfig(), current.binary, current.inputs, options);
  if (run.ok() && run->outputs.size() != current.outputs) {
    std::fprintf(stderr, "fuzz finding: a finished run read %zu outputs of %zu\n",
                 run->outputs.size(), current.outputs);
    return 1;
  }
  return 0;  // an error Status is an answer too
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const spec::NpuConfig config = npu::fuzz::FuzzBoardConfig();
  spec::Program program;
  if (!program.ParseFromArray(data, static_cast<int>(size))) return 0;
  current.inputs = ZeroInputs(program, config.dram().size_bytes());
  current.outputs = static_cast<size_t>(program.outputs_size());
  current.binary = npu::fuzz::SealForBoard(std::move(program));
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  npu::fuzz::RunForked(RunOnPlatform, kWallSeconds);
  return 0;
}
