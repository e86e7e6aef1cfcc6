// Banked SRAM: contiguous accesses spread over the banks; accesses to busy banks wait (bank
// conflicts); strided runs that land in one bank serialise.
#include "hw/sram/sram.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "tests/hw/bench.h"

namespace npu::hw {
namespace {

using testing::BenchInitiator;

uint64_t Cycles(sc_core::sc_time t) { return t / sc_core::sc_time(1, sc_core::SC_NS); }

// Two initiators on the SRAM's multi-port socket; both bodies start at time zero.
struct SramBench {
  SramBench(std::function<void(BenchInitiator&)> a, std::function<void(BenchInitiator&)> b)
      : config(spec::DefaultConfig()),  // 16 banks x 16 bytes, 1 MiB
        clock(config.clock_mhz()),
        sram("sram", config, clock),
        first("first", std::move(a)),
        second("second", std::move(b)) {
    first.socket.bind(sram.socket);
    second.socket.bind(sram.socket);
  }
  spec::NpuConfig config;
  Clock clock;
  Sram sram;
  BenchInitiator first, second;
};

TEST(Sram, ContiguousAccessUsesAllBanks) {
  uint64_t cycles = 0, ideal = 0;
  SramBench bench(
      [&](BenchInitiator& b) {
        std::vector<uint8_t> data(4096);
        SramAccess shape;
        cycles = Cycles(b.Access(tlm::TLM_READ_COMMAND, 0, data, sc_core::SC_ZERO_TIME, &shape));
        ideal = shape.ideal_cycles;
      },
      [](BenchInitiator&) {});
  sc_core::sc_start();
  EXPECT_EQ(cycles, 16u);  // 256 words over 16 banks
  EXPECT_EQ(ideal, 16u);
}

TEST(Sram, SameBanksAtTheSameTimeConflict) {
  uint64_t a = 0, b = 0;
  SramBench bench(
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(4096);
        a = Cycles(i.Access(tlm::TLM_WRITE_COMMAND, 0, data));
      },
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(256);  // one word in every bank
        b = Cycles(i.Access(tlm::TLM_READ_COMMAND, 8192, data));
      });
  sc_core::sc_start();
  EXPECT_EQ(a, 16u);
  EXPECT_EQ(b, 17u);  // waits 16 cycles for the banks, then 1 cycle: 16 conflict cycles
}

TEST(Sram, DisjointBanksDoNotConflict) {
  uint64_t a = 0, b = 0;
  SramBench bench(
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(128);  // banks 0..7
        a = Cycles(i.Access(tlm::TLM_WRITE_COMMAND, 0, data));
      },
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(128);  // banks 8..15
        b = Cycles(i.Access(tlm::TLM_READ_COMMAND, 128, data));
      });
  sc_core::sc_start();
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(b, 1u);
}

TEST(Sram, StrideOfOneStripeSerialisesInOneBank) {
  uint64_t cycles = 0, ideal = 0;
  std::vector<uint8_t> back(16 * 16);
  SramBench bench(
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(16 * 16);
        for (size_t k = 0; k < data.size(); ++k) data[k] = uint8_t(k);
        SramAccess shape;
        shape.count = 16;
        shape.stride = 256;  // banks x width: every run in bank 0
        cycles = Cycles(i.Access(tlm::TLM_WRITE_COMMAND, 0, data, sc_core::SC_ZERO_TIME, &shape));
        ideal = shape.ideal_cycles;
        SramAccess again = shape;
        sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
        i.Access(tlm::TLM_READ_COMMAND, 0, back, sc_core::SC_ZERO_TIME, &again);
      },
      [](BenchInitiator&) {});
  sc_core::sc_start();
  EXPECT_EQ(cycles, 16u);
  EXPECT_EQ(ideal, 1u);  // 16 words would take one cycle spread over 16 banks
  for (size_t k = 0; k < back.size(); ++k) ASSERT_EQ(back[k], uint8_t(k));
}

TEST(Sram, OutOfRangeIsAnAddressError) {
  bool ok = true;
  SramBench bench(
      [&](BenchInitiator& i) {
        std::vector<uint8_t> data(32);
        i.Access(tlm::TLM_READ_COMMAND, (1 << 20) - 16, data, sc_core::SC_ZERO_TIME, nullptr, &ok);
      },
      [](BenchInitiator&) {});
  sc_core::sc_start();
  EXPECT_FALSE(ok);
}

}  // namespace
}  // namespace npu::hw
