// The replaying cost model.
#include "compiler/cost/cost_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>

#include "compiler/cost/dram_bus.h"
#include "compiler/cost/event_replay.h"
#include "hw/spec/footprint.h"
#include "hw/spec/semantics.h"
#include "hw/spec/timing_model.h"

namespace npu::compiler {
namespace {

constexpr int kQueues = spec::kNumQueues;

struct QueueState {
  std::vector<uint64_t> channel_free;  // one entry for compute and vector
  std::vector<uint64_t> starts;        // start times, in queue order (for queue_depth)
  uint64_t last_start = 0, last_retire = 0;
};

class Replay {
 public:
  Replay(const spec::NpuConfig& config, const std::vector<uint64_t>* unused)
      : c_(config), bus_(config.dram().bytes_per_cycle()) {
    for (int q = 0; q < kQueues; ++q) {
      uint32_t channels = 1;
      if (q == static_cast<int>(spec::Queue::kLoad)) channels = c_.dma().load_channels();
      if (q == static_cast<int>(spec::Queue::kStore)) channels = c_.dma().store_channels();
      queues_[q].channel_free.assign(channels, 0);
    }
  }

  Status Run(const std::vector<spec::Instruction>& insns) {
    timeline_.reserve(insns.size());
    for (size_t i = 0; i < insns.size(); ++i) {
      if (i % c_.cmd().fetch_batch() == 0) {
        const uint64_t batch = std::min<uint64_t>(c_.cmd().fetch_batch(), insns.size() - i);
        cp_time_ += spec::DramTransferCycles(c_, batch * spec::kInsnBytes);
        cost_.dram_read_bytes += batch * spec::kInsnBytes;
      }
      NPU_TRY(Step(i, insns[i]));
    }
    for (const QueueState& q : queues_) cost_.cycles = std::max(cost_.cycles, q.last_retire);
    // The DRAM data bus is shared: all transfers together need at least their data cycles.
    const uint64_t first_fetch = insns.empty() ? 0 : timeline_.front().dispatch;
    cost_.cycles =
        std::max(cost_.cycles, first_fetch + c_.dram().latency_cycles() + dma_data_cycles_);
    return Status::Ok();
  }
  const CostEstimate& cost() const { return cost_; }
  std::vector<spec::InsnRecord>& timeline() { return timeline_; }

 private:
  Status Step(size_t i, const spec::Instruction& insn) {
    const int q = static_cast<int>(insn.queue());
    QueueState& state = queues_[q];
    // 1. Dispatch once the queue has room.
    const size_t depth = c_.cmd().queue_depth();
    if (state.starts.size() >= depth) {
      cp_time_ = std::max(cp_time_, state.starts[state.starts.size() - depth]);
    }
    // 2. Start after dispatch, in queue order, on a free channel, holding every token.
    uint64_t start = std::max({cp_time_, state.last_start});
    auto channel = std::min_element(state.channel_free.begin(), state.channel_free.end());
    start = std::max(start, *channel);
    for (int p = 0; p < kQueues; ++p) {
      if (!(insn.wait_mask >> p & 1)) continue;
      std::deque<uint64_t>& tokens = tokens_[p][q];
      if (tokens.empty()) {
        return FailedPrecondition(
            fmt::format("instruction #{} waits for a token from {} that no "
                        "earlier instruction gives",
                        i, spec::QueueName(static_cast<spec::Queue>(p))));
      }
      start = std::max(start, tokens.front());
      tokens.pop_front();
    }
    if (q == static_cast<int>(spec::Queue::kLoad) || q == static_cast<int>(spec::Queue::kStore)) {
      start = std::max(start, Hazard(q, insn));
    }
    // 3. Duration; 4. in-order retirement and tokens.
    const uint64_t end = start + Duration(insn, start);
    if (q == static_cast<int>(spec::Queue::kLoad) || q == static_cast<int>(spec::Queue::kStore)) {
      recent_[q].push_back({spec::Footprints(insn), end});
      if (recent_[q].size() > kHazardWindow) recent_[q].pop_front();
    }
    *channel = end;
    state.last_start = start;
    state.starts.push_back(start);
    state.last_retire = std::max(state.last_retire, end);
    cost_.busy_cycles[q] += end - start;
    timeline_.push_back({cp_time_, start, end, state.last_retire});
    for (int p = 0; p < kQueues; ++p) {
      if (insn.signal_mask >> p & 1) tokens_[q][p].push_back(state.last_retire);
    }
    return Status::Ok();
  }

  // The DMA engines hold back a descriptor whose footprint overlaps one still in flight on the
  // same engine: the latest end among recent conflicting descriptors.
  uint64_t Hazard(int q, const spec::Instruction& insn) const {
    uint64_t after = 0;
    if (recent_[q].empty()) return after;
    const std::vector<spec::Footprint> mine = spec::Footprints(insn);
    for (const auto& [footprints, end] : recent_[q]) {
      if (end > after && spec::Conflicts(mine, footprints)) after = end;
    }
    return after;
  }

  // IdealCycles, remembering DMAs by shape: a DMA's bursts depend on its DRAM offset only
  // modulo the burst size and its SRAM cycles on its address only modulo the bank width.
  uint64_t Alone(const spec::Instruction& insn) {
    const auto* d = std::get_if<spec::DmaArgs>(&insn.args);
    if (d == nullptr) return InstructionCycles(c_, insn);
    const std::array<uint32_t, 10> key = {uint32_t(insn.opcode),
                                          d->run_bytes,
                                          d->n1,
                                          d->n2,
                                          d->dram_stride1,
                                          d->dram_stride2,
                                          d->sram_stride1,
                                          d->sram_stride2,
                                          d->dram_offset % c_.dma().burst_bytes(),
                                          d->sram_addr % c_.sram().bank_width_bytes()};
    auto [it, inserted] = dma_cycles_.try_emplace(key, 0);
    if (inserted) it->second = InstructionCycles(c_, insn);
    return it->second;
  }

  uint64_t Duration(const spec::Instruction& insn, uint64_t start) {
    const uint64_t alone = Alone(insn);
    const auto* dma = std::get_if<spec::DmaArgs>(&insn.args);
    if (dma == nullptr) {
      const auto* conv = std::get_if<spec::ConvArgs>(&insn.args);
      if (conv == nullptr) return alone;
      cost_.macs += spec::ConvMacs(*conv);
      // Without fill and drain if it continues the previous CONV's fold chain.
      const spec::ConvArgs* chained_after = chain_.Predecessor(c_, *conv, start);
      const uint64_t cycles = chained_after ? spec::IdealCycles(c_, insn, chained_after) : alone;
      chain_.Ended(*conv, start + cycles);
      return cycles;
    }
    const uint64_t bytes = spec::DmaBytes(*dma);
    (insn.opcode == spec::Opcode::kLoad ? cost_.dram_read_bytes : cost_.dram_write_bytes) += bytes;
    dma_data_cycles_ += spec::DramDataCycles(c_, bytes);
    // The channel alone would move its bytes over (alone - latency) cycles; the shared bus may
    // stretch that.
    const uint64_t latency = c_.dram().latency_cycles();
    const double rate =
        static_cast<double>(bytes) / std::max<uint64_t>(1, alone - std::min(alone, latency));
    const uint64_t bus_end = bus_.Transfer(start + latency, bytes, rate);
    return std::max(alone, bus_end - start);
  }

  const spec::NpuConfig& c_;
  std::array<QueueState, kQueues> queues_;
  std::array<std::array<std::deque<uint64_t>, kQueues>, kQueues> tokens_;  // [src][dst] times
  uint64_t cp_time_ = 0;
  uint64_t dma_data_cycles_ = 0;  // DRAM data-bus cycles of every LOAD and STORE
  DramBus bus_;
  std::map<std::array<uint32_t, 10>, uint64_t> dma_cycles_;
  static constexpr size_t kHazardWindow = 16;
  std::array<std::deque<std::pair<std::vector<spec::Footprint>, uint64_t>>, kQueues> recent_;
  CostEstimate cost_;
  std::vector<spec::InsnRecord> timeline_;
  spec::FoldChain chain_;
};

}  // namespace

uint64_t InstructionCycles(const spec::NpuConfig& c, const spec::Instruction& insn) {
  return spec::IdealCycles(c, insn);
}

StatusOr<CostEstimate> PredictCost(const spec::NpuConfig& config,
                                   const std::vector<spec::Instruction>& insns,
                                   std::vector<spec::InsnRecord>* timeline,
                                   const CostOptions& options) {
  if (options.exact) return EventReplay(config, insns, timeline, options.instruction_offset);
  Replay replay(config, nullptr);
  NPU_TRY(replay.Run(insns));
  if (timeline != nullptr) *timeline = std::move(replay.timeline());
  return replay.cost();
}

}  // namespace npu::compiler
