// Which on-chip buffer goes back to DRAM (eviction.h).
#include "compiler/network/eviction.h"

namespace npu::compiler {

std::vector<uint64_t> OffChipTraffic(const Network& net) {
  std::vector<uint64_t> traffic(net.buffers.size(), 0);
  for (const NetLayer& layer : net.layers) {
    for (const int v : layer.inputs) traffic[net.value(v).buffer] += net.value(v).bytes();
    traffic[net.value(layer.output).buffer] += net.value(layer.output).bytes();
  }
  return traffic;
}

int CheapestToEvict(const std::vector<EvictionCandidate>& candidates, uint64_t need) {
  const EvictionCandidate* cheapest = nullptr;
  const EvictionCandidate* largest = nullptr;
  // traffic / bytes, compared cross-multiplied: exact, and both products below 2^128.
  const auto cheaper = [](const EvictionCandidate& a, const EvictionCandidate& b) {
    const unsigned __int128 x = static_cast<unsigned __int128>(a.traffic) * b.bytes;
    const unsigned __int128 y = static_cast<unsigned __int128>(b.traffic) * a.bytes;
    return x < y || (x == y && a.bytes > b.bytes);
  };
  for (const EvictionCandidate& c : candidates) {
    if (largest == nullptr || c.bytes > largest->bytes) largest = &c;
    if (c.bytes >= need && (cheapest == nullptr || cheaper(c, *cheapest))) cheapest = &c;
  }
  if (cheapest != nullptr) return cheapest->buffer;
  return largest != nullptr ? largest->buffer : -1;
}

}  // namespace npu::compiler
