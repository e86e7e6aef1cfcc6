// DRAM: a transfer of N bytes takes latency + ceil(N / bandwidth); requests queue on the bus.
#include "hw/dram/dram.h"

#include <gtest/gtest.h>

#include "hw/spec/config.h"
#include "tests/hw/bench.h"

namespace npu::hw {
namespace {

using testing::BenchInitiator;

struct DramBench {
  explicit DramBench(std::function<void(BenchInitiator&)> body)
      : config(spec::DefaultConfig()),  // 32 bytes/cycle, latency 100
        clock(config.clock_mhz()),
        dram("dram", config, clock),
        initiator("initiator", std::move(body)) {
    initiator.socket.bind(dram.socket);
  }
  spec::NpuConfig config;
  Clock clock;
  Dram dram;
  BenchInitiator initiator;
};

TEST(Dram, TransferTakesLatencyPlusBandwidthTime) {
  std::vector<uint64_t> cycles;
  DramBench bench([&](BenchInitiator& b) {
    for (uint32_t n : {1u, 32u, 33u, 1000u, 4096u}) {
      std::vector<uint8_t> data(n);
      sc_core::wait(sc_core::sc_time(10, sc_core::SC_US));  // let the bus go idle
      cycles.push_back(b.Access(tlm::TLM_READ_COMMAND, 0, data) /
                       sc_core::sc_time(1, sc_core::SC_NS));
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(cycles, (std::vector<uint64_t>{101, 101, 102, 132, 228}));
}

TEST(Dram, SecondRequestQueuesBehindTheFirst) {
  uint64_t first = 0, second = 0;
  DramBench bench([&](BenchInitiator& b) {
    std::vector<uint8_t> a(3200), c(320);
    first = b.Access(tlm::TLM_WRITE_COMMAND, 0, a) / sc_core::sc_time(1, sc_core::SC_NS);
    second = b.Access(tlm::TLM_READ_COMMAND, 4096, c) / sc_core::sc_time(1, sc_core::SC_NS);
  });
  sc_core::sc_start();
  EXPECT_EQ(first, 200u);   // 100 + 3200/32
  EXPECT_EQ(second, 210u);  // data starts when the bus frees at 200, then 10 cycles
  EXPECT_EQ(bench.dram.stats().queued_cycles, 100u);
}

TEST(Dram, KeepsDataAndRefusesOutOfRange) {
  bool ok_in = false, ok_out = true;
  std::vector<uint8_t> back(4);
  DramBench bench([&](BenchInitiator& b) {
    std::vector<uint8_t> data = {1, 2, 3, 4};
    b.Access(tlm::TLM_WRITE_COMMAND, 5'000'000, data, sc_core::SC_ZERO_TIME, nullptr, &ok_in);
    b.Access(tlm::TLM_READ_COMMAND, 5'000'000, back);
    std::vector<uint8_t> beyond(8);
    b.Access(tlm::TLM_READ_COMMAND, bench.dram.size() - 4, beyond, sc_core::SC_ZERO_TIME, nullptr,
             &ok_out);
  });
  sc_core::sc_start();
  EXPECT_TRUE(ok_in);
  EXPECT_EQ(back, (std::vector<uint8_t>{1, 2, 3, 4}));
  EXPECT_FALSE(ok_out);
}

}  // namespace
}  // namespace npu::hw
