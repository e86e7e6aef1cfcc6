// Fuzz target: a binary file as the firmware receives it (hw/spec/binary.cc opens the envelope,
// firmware/driver.cc checks the architecture, firmware/program_check.cc the layout, steps and
// every instruction, firmware/cpu runs CPU steps). Byte
// mutations mostly stop at the checksum; program_fuzzer.cc re-seals mutated programs to go
// deeper. An internal error (a bus error after the checks passed) is a finding.
#include "tests/fuzz/fuzz_board.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/load_on_board.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const npu::spec::NpuConfig config = npu::fuzz::FuzzBoardConfig();
  npu::fuzz::FuzzBoard board(config);
  npu::fuzz::RequireNotInternal(npu::fuzz::LoadAndRunCpuSteps(board, npu::fuzz::AsText(data, size)),
                                "the firmware");
  return 0;
}
