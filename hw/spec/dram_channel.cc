// One channel's command timeline (dram_channel.h states the policy).
#include "hw/spec/dram_channel.h"

#include <algorithm>

namespace npu::spec {

DramChannel::DramChannel(const DramDevice& device, uint32_t index, DramSink& sink)
    : d_(device),
      index_(index),
      sink_(sink),
      banks_(device.banks),
      act_in_group_(device.bank_groups, kLongAgo),
      col_in_group_(device.bank_groups, kLongAgo),
      write_end_in_group_(device.bank_groups, kLongAgo),
      next_refresh_(device.refi) {
  last_four_acts_.fill(kLongAgo);
}

void DramChannel::Record(DramCommand::Kind kind, uint32_t bank, uint64_t row, int64_t tick) {
  if (sink_.trace != nullptr) sink_.trace->push_back({kind, index_, bank, row, tick});
}

// Every refresh due by `tick`: precharge all open banks once they may close, then REF; no bank
// opens again before tRFC has passed. Refreshes run back to back if the channel was idle.
void DramChannel::RefreshUntil(int64_t tick) {
  while (next_refresh_ <= tick) {
    int64_t start = next_refresh_;
    bool any_open = false;
    for (const Bank& b : banks_) {
      if (!b.open) continue;
      start = std::max(start, b.pre_ok);
      any_open = true;
    }
    if (any_open) {
      Record(DramCommand::kPreAll, 0, 0, start);
      start += d_.rp;
    }
    Record(DramCommand::kRefresh, 0, 0, start);
    for (Bank& b : banks_) {
      b.open = false;
      b.act_ok = std::max(b.act_ok, start + static_cast<int64_t>(d_.rfc));
    }
    ++sink_.stats.refreshes;
    next_refresh_ += d_.refi;
  }
}

// Opens `row` in `bank`: PRE first if another row is open, then ACT once tRP, tRRD (short across
// groups, long within one) and the four-activate window allow.
void DramChannel::Open(Bank& b, uint32_t group, uint32_t flat, uint64_t row, int64_t arrival) {
  int64_t act = std::max(arrival, b.act_ok);
  if (b.open) {
    const int64_t pre = std::max(arrival, b.pre_ok);
    Record(DramCommand::kPre, flat, b.row, pre);
    act = std::max(act, pre + static_cast<int64_t>(d_.rp));
    ++sink_.stats.row_conflicts;
  } else {
    ++sink_.stats.row_misses;
  }
  act = std::max({act, last_act_ + d_.rrd_s, act_in_group_[group] + d_.rrd_l,
                  last_four_acts_[faw_next_] + d_.faw});
  Record(DramCommand::kAct, flat, row, act);
  b.open = true;
  b.row = row;
  b.col_ok = act + d_.rcd;
  b.pre_ok = act + d_.ras;
  last_act_ = act_in_group_[group] = last_four_acts_[faw_next_] = act;
  faw_next_ = (faw_next_ + 1) % last_four_acts_.size();
}

// The earliest column command: the row open (tRCD), column spacing (tCCD short/long), bus
// turnaround (tRTW after a read; tWTR short/long after write data), and the data bus free.
int64_t DramChannel::ColumnTick(const Bank& b, uint32_t group, int64_t arrival, bool write) const {
  const int64_t latency = write ? d_.cwl : d_.cl;
  int64_t col = std::max({arrival, b.col_ok, last_col_ + d_.ccd_s, col_in_group_[group] + d_.ccd_l,
                          data_free_ - latency});
  if (write) return std::max(col, last_read_ + d_.rtw);
  return std::max({col, write_end_ + d_.wtr_s, write_end_in_group_[group] + d_.wtr_l});
}

int64_t DramChannel::Burst(int64_t arrival, uint32_t group, uint32_t bank, uint64_t row,
                           bool write) {
  const int64_t latency = write ? d_.cwl : d_.cl;
  // 1. Refreshes due by the time this burst reaches the head of the channel go first.
  RefreshUntil(std::max(arrival, data_free_ - latency));
  // 2. The row: a hit needs nothing, a closed bank an ACT, another open row a PRE and an ACT.
  const uint32_t flat = group * d_.BanksPerGroup() + bank;
  Bank& b = banks_[flat];
  if (b.open && b.row == row) {
    ++sink_.stats.row_hits;
  } else {
    Open(b, group, flat, row, arrival);
  }
  // 3. The column command and its data.
  const int64_t col = ColumnTick(b, group, arrival, write);
  const int64_t end = col + latency + d_.burst_ck;
  Record(write ? DramCommand::kWrite : DramCommand::kRead, flat, row, col);
  // 4. What it leaves behind: spacing for later commands, the bank's earliest PRE.
  last_col_ = col_in_group_[group] = col;
  if (write) {
    write_end_ = write_end_in_group_[group] = end;
    b.pre_ok = std::max(b.pre_ok, end + d_.wr);
  } else {
    last_read_ = col;
    b.pre_ok = std::max(b.pre_ok, col + d_.rtp);
  }
  data_free_ = end;
  ++sink_.stats.bursts;
  sink_.stats.data_ck += d_.burst_ck;
  sink_.stats.busy_ck += std::max<int64_t>(0, end - std::max(arrival, busy_until_));
  busy_until_ = std::max(busy_until_, end);
  return end;
}

}  // namespace npu::spec
