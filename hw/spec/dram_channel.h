// One DRAM channel's command timeline: its banks' row buffers and every JEDEC spacing rule
// between ACT, PRE, RD, WR and REF, in command-clock cycles (ticks). No SystemC: the platform's
// DRAM model and the compiler's event replay both drive it through DramController.
//
// Policy (open page, in order, with early activation): bursts are served in the order they
// arrive. A burst's column command never passes an earlier one's and the data bus carries data
// in that order, but its ACT (and the PRE before it) may go out as soon as the bank and the
// ACT-spacing rules allow, ahead of earlier bursts' column commands, as a controller looking into
// its queue would. Rows stay open until a burst needs another row of the bank or refresh closes
// them. For streaming DMA, whose bursts walk rows in order, this is what FR-FCFS does: there is no
// later row hit to promote. An all-bank refresh goes out when due, between bursts, after
// precharging every open bank.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "hw/spec/dram_device.h"

namespace npu::spec {

// A command as the channel issues it, for tests and traces.
struct DramCommand {
  enum Kind { kAct, kPre, kPreAll, kRead, kWrite, kRefresh };
  Kind kind;
  uint32_t channel;
  uint32_t bank;  // group * banks_per_group + bank; 0 for kPreAll and kRefresh
  uint64_t row;
  int64_t tick;
  bool operator==(const DramCommand&) const = default;
};

// What the controller counts; the report shows the rates.
struct DramStats {
  uint64_t requests = 0;
  uint64_t bursts = 0;         // column commands
  uint64_t row_hits = 0;       // bursts whose row was open
  uint64_t row_misses = 0;     // bursts whose bank was closed: ACT
  uint64_t row_conflicts = 0;  // bursts whose bank had another row open: PRE, ACT
  uint64_t refreshes = 0;
  uint64_t data_ck = 0;        // ticks some channel's data bus moved data, summed over channels
  uint64_t busy_ck = 0;        // ticks some channel had a burst in progress, summed over channels
  uint64_t queued_cycles = 0;  // IDEAL: NPU cycles requests waited behind others for the bus

  double RowHitRate() const { return bursts ? static_cast<double>(row_hits) / bursts : 0.0; }
  // Data cycles over busy cycles: what the channels' time with work went to moving data.
  double Efficiency() const { return busy_ck ? static_cast<double>(data_ck) / busy_ck : 0.0; }
};

// Where the channel reports what it did.
struct DramSink {
  DramStats stats;
  std::vector<DramCommand>* trace = nullptr;
};

class DramChannel {
 public:
  DramChannel(const DramDevice& device, uint32_t index, DramSink& sink);

  // Serves one burst reaching the controller at tick `arrival`; returns the tick after its data.
  int64_t Burst(int64_t arrival, uint32_t group, uint32_t bank, uint64_t row, bool write);

 private:
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    int64_t act_ok = 0;  // earliest ACT (tRP after PRE, tRFC after refresh)
    int64_t pre_ok = 0;  // earliest PRE (tRAS after ACT, tRTP after RD, tWR after write data)
    int64_t col_ok = 0;  // earliest column command (tRCD after ACT)
  };
  static constexpr int64_t kLongAgo = -(int64_t{1} << 40);

  void RefreshUntil(int64_t tick);
  void Open(Bank& bank, uint32_t group, uint32_t flat, uint64_t row, int64_t arrival);
  int64_t ColumnTick(const Bank& bank, uint32_t group, int64_t arrival, bool write) const;
  void Record(DramCommand::Kind kind, uint32_t bank, uint64_t row, int64_t tick);

  const DramDevice& d_;
  uint32_t index_;
  DramSink& sink_;
  std::vector<Bank> banks_;
  std::vector<int64_t> act_in_group_, col_in_group_, write_end_in_group_;
  std::array<int64_t, 4> last_four_acts_;  // ring, oldest at faw_next_
  size_t faw_next_ = 0;
  int64_t last_act_ = kLongAgo, last_col_ = kLongAgo, last_read_ = kLongAgo;
  int64_t write_end_ = kLongAgo, data_free_ = 0, busy_until_ = 0, next_refresh_;
};

}  // namespace npu::spec
