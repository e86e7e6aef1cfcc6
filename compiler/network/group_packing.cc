// Grouped convolutions packed side by side (group_packing.h).
#include "compiler/network/group_packing.h"

#include <fmt/format.h>

#include <algorithm>

namespace npu::compiler {
namespace {

// Parts [first, first + count) as one grouped CONV: channels side by side, each group's weights
// after the last's ([out_c][kh][kw][in_c / groups]: the parts' weights concatenated).
ConvPart Pack(const std::vector<ConvPart>& parts, size_t first, uint32_t count,
              uint32_t recomputed) {
  const ConvLayer& g = parts[first].conv;
  ConvPart packed = parts[first];
  packed.recomputed_groups = recomputed;
  ConvLayer& c = packed.conv;
  c.name = count == parts.size() ? g.name.substr(0, g.name.rfind(".g"))
                                 : fmt::format("{}-{}", g.name, first + count - 1);
  c.groups = count;
  c.in_c = g.in_c * count;
  c.out_c = g.out_c * count;
  c.weights.clear(), c.bias.clear(), c.multiplier.clear(), c.shift.clear();
  for (uint32_t k = 0; k < count; ++k) {
    const ConvLayer& part = parts[first + k].conv;
    c.weights.insert(c.weights.end(), part.weights.begin(), part.weights.end());
    c.bias.insert(c.bias.end(), part.bias.begin(), part.bias.end());
    c.multiplier.insert(c.multiplier.end(), part.multiplier.begin(), part.multiplier.end());
    c.shift.insert(c.shift.end(), part.shift.begin(), part.shift.end());
  }
  return packed;
}

}  // namespace

uint32_t GroupsPerPart(const spec::NpuConfig& config, const NetLayer& layer) {
  const std::vector<ConvPart>* parts = layer.conv_parts();
  if (parts == nullptr || parts->size() < 2) return 1;
  const ConvLayer& g = parts->front().conv;
  if (g.fp16 || g.depthwise || g.activation_weights || g.groups != 1) return 1;
  const uint32_t groups = uint32_t(parts->size());
  const uint32_t most = std::min(groups, config.mac().cols() / g.out_c);
  if (most < 2) return 1;
  uint32_t divisor = most;
  while (groups % divisor != 0) --divisor;
  // The fewest parts; on a tie no group computed twice.
  return groups / divisor <= (groups + most - 1) / most ? divisor : most;
}

int PackGroups(const spec::NpuConfig& config, Network& net) {
  int packed = 0;
  for (NetLayer& layer : net.layers) {
    const uint32_t p = GroupsPerPart(config, layer);
    if (p == 1) continue;
    const std::vector<ConvPart>& parts = *layer.conv_parts();
    std::vector<ConvPart> out;
    // A last part short of p groups slides back to end at the last group.
    for (size_t first = 0; first < parts.size(); first += p) {
      const size_t start = std::min(first, parts.size() - p);
      out.push_back(Pack(parts, start, p, uint32_t(first - start)));
    }
    layer.note = fmt::format("{}; {} groups a grouped convolution{}",
                             layer.note, p,
                             parts.size() % p ? fmt::format(", the last recomputing {}",
                                                            p - parts.size() % p)
                                              : "");
    layer.work = std::move(out);
    ++packed;
  }
  return packed;
}

}  // namespace npu::compiler
