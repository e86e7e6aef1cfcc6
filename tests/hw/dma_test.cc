// DMA descriptors move exactly the bytes of their 3-D strided pattern, in both directions.
#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "platform/run.h"
#include "tests/common/program_builder.h"

namespace npu {
namespace {

TEST(Dma, StridedLoadThenStoreGathersAndScatters) {
  const spec::NpuConfig config = spec::DefaultConfig();
  constexpr uint32_t kIn = 1 << 20, kOut = 2 << 20;
  std::vector<int8_t> input(4096);
  for (size_t i = 0; i < input.size(); ++i) input[i] = int8_t(i * 7 + 3);
  // Gather: 3 planes x 5 rows x 6 bytes from a 4096-byte input (row stride 40, plane 1000).
  spec::DmaArgs load;
  load.dram_offset = kIn + 17;
  load.sram_addr = 1000;
  load.run_bytes = 6;
  load.n1 = 5;
  load.n2 = 3;
  load.dram_stride1 = 40;
  load.dram_stride2 = 1000;
  load.sram_stride1 = 6;
  load.sram_stride2 = 30;
  // Scatter the 90 packed bytes back out as 9 runs of 10, 16 bytes apart.
  spec::DmaArgs store;
  store.dram_offset = kOut;
  store.sram_addr = 1000;
  store.run_bytes = 10;
  store.n1 = 9;
  store.dram_stride1 = 16;
  store.sram_stride1 = 10;
  testing::ProgramBuilder program(config);
  program.Input(kIn, 4096).Output(kOut, 9 * 16);
  program.Add({spec::Opcode::kLoad, 0, testing::kS, load});
  program.Add({spec::Opcode::kStore, testing::kL, 0, store});
  StatusOr<platform::RunResult> r = platform::RunBinary(config, program.Sealed(), {input}, {});
  ASSERT_TRUE(r.ok()) << r.status().message();
  std::vector<int8_t> packed;
  for (int p = 0; p < 3; ++p) {
    for (int row = 0; row < 5; ++row) {
      for (int b = 0; b < 6; ++b) packed.push_back(input[17 + p * 1000 + row * 40 + b]);
    }
  }
  const std::vector<int8_t>& out = r->outputs[0];
  for (int run = 0; run < 9; ++run) {
    for (int b = 0; b < 16; ++b) {
      const int8_t expected = b < 10 ? packed[run * 10 + b] : 0;  // untouched bytes stay zero
      ASSERT_EQ(out[run * 16 + b], expected) << "run " << run << " byte " << b;
    }
  }
  EXPECT_EQ(r->counters[spec::regs::kDramWriteBytes], 90u);
}

}  // namespace
}  // namespace npu
