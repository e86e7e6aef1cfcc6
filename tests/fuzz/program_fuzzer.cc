// Fuzz target: a serialised Program, re-sealed for the board with a valid checksum and
// fingerprint (SealForBoard), so that every mutation reaches the firmware's layout and step
// checks and its CPU kernels. Its libFuzzer build mutates parsed Programs
// (program_custom_mutator.cc); bytes that do not parse as a Program are skipped, as no sealed
// binary could hold them.
#include "hw/spec/binary.pb.h"
#include "tests/fuzz/fuzz_board.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/load_on_board.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const npu::spec::NpuConfig config = npu::fuzz::FuzzBoardConfig();
  npu::spec::Program program;
  if (!program.ParseFromArray(data, static_cast<int>(size))) return 0;
  npu::fuzz::FuzzBoard board(config);
  npu::fuzz::RequireNotInternal(
      npu::fuzz::LoadAndRunCpuSteps(board, npu::fuzz::SealForBoard(std::move(program))),
      "the firmware");
  return 0;
}
