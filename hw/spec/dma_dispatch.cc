// A DMA engine's dispatch and retirement rule (dma_dispatch.h).
#include "hw/spec/dma_dispatch.h"

#include <algorithm>
#include <cassert>
#include <numeric>

namespace npu::spec {

DmaDispatch::DmaDispatch(size_t channels) : on_channel_(channels), priority_(channels) {
  std::iota(priority_.rbegin(), priority_.rend(), size_t{0});  // the highest-numbered first
}

DmaDispatch::Held DmaDispatch::Holds(const std::vector<Footprint>& footprint) const {
  for (const Descriptor& d : in_flight_) {
    if (!d.finished && Conflicts(footprint, d.footprint)) return Held::kHazard;
  }
  const bool free = std::any_of(on_channel_.begin(), on_channel_.end(),
                                [](const auto& id) { return !id.has_value(); });
  return free ? Held::kNo : Held::kNoChannel;
}

size_t DmaDispatch::Start(uint32_t id, std::vector<Footprint> footprint) {
  const auto free = std::find_if(on_channel_.begin(), on_channel_.end(),
                                 [](const auto& on) { return !on.has_value(); });
  assert(free != on_channel_.end());
  *free = id;
  in_flight_.push_back({id, std::move(footprint)});
  return static_cast<size_t>(free - on_channel_.begin());
}

DmaDispatch::Descriptor& DmaDispatch::Find(uint32_t id) {
  const auto it = std::find_if(in_flight_.begin(), in_flight_.end(),
                               [id](const Descriptor& d) { return d.id == id; });
  assert(it != in_flight_.end());
  return *it;
}

uint32_t DmaDispatch::Finish(size_t channel) {
  const uint32_t id = *on_channel_[channel];
  on_channel_[channel].reset();
  Find(id).finished = true;
  return id;
}

std::optional<uint32_t> DmaDispatch::Retirable() const {
  if (in_flight_.empty() || !in_flight_.front().finished) return std::nullopt;
  return in_flight_.front().id;
}

std::optional<uint32_t> DmaDispatch::Retire() {
  const std::optional<uint32_t> id = Retirable();
  if (id) in_flight_.pop_front();
  return id;
}

}  // namespace npu::spec
