// A DMA engine's dispatch and retirement rule, one rule for both drivers (hw/dma and the
// compiler's replay): descriptors leave the queue in order; one starts when no descriptor still
// moving overlaps it (spec::Conflicts on their footprints) and a channel is free, on the free
// channel with the lowest number; descriptors retire (give their tokens) in queue order, each once
// its channel has finished it and every older one has retired.
//
// Same-cycle priority: channels that act at the same cycle do so in a fixed order, the engines in
// kDmaEnginePriority (the load engine's channels first), each engine's highest-numbered channel
// first (ChannelPriority). That order decides which of two same-cycle bursts the DRAM controller
// and the SRAM banks serve first. It is a rule of the hardware, not of a simulator: the SystemC
// model runs every channel in one process in this order, and the compiler's replay follows it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "hw/spec/footprint.h"

namespace npu::spec {

inline constexpr std::array<Queue, 2> kDmaEnginePriority = {Queue::kLoad, Queue::kStore};

class DmaDispatch {
 public:
  explicit DmaDispatch(size_t channels);

  enum class Held { kNo, kHazard, kNoChannel };
  // Whether a descriptor with `footprint` may start now, and if not, what holds it.
  Held Holds(const std::vector<Footprint>& footprint) const;
  // Starts descriptor `id` on the lowest free channel and returns it; the caller checked Holds.
  size_t Start(uint32_t id, std::vector<Footprint> footprint);
  // The channel has finished its descriptor: the channel is free; returns the descriptor.
  uint32_t Finish(size_t channel);
  // The oldest descriptor if its channel has finished it: it may retire.
  std::optional<uint32_t> Retirable() const;
  // Retires Retirable(), if any, and returns it.
  std::optional<uint32_t> Retire();

  // The order in which channels due at the same cycle act, first to last.
  const std::vector<size_t>& ChannelPriority() const { return priority_; }
  bool busy(size_t channel) const { return on_channel_[channel].has_value(); }
  size_t channels() const { return on_channel_.size(); }
  bool idle() const { return in_flight_.empty(); }

 private:
  struct Descriptor {
    uint32_t id;
    std::vector<Footprint> footprint;
    bool finished = false;
  };
  Descriptor& Find(uint32_t id);

  std::vector<std::optional<uint32_t>> on_channel_;  // the descriptor each channel moves
  std::deque<Descriptor> in_flight_;                 // started, not retired, oldest first
  std::vector<size_t> priority_;
};

}  // namespace npu::spec
