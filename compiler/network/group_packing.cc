// Grouped convolutions as one grouped CONV (group_packing.h).
#include "compiler/network/group_packing.h"

#include <fmt/format.h>

namespace npu::compiler {
namespace {

// The parts as one grouped part: channels side by side, each group's weights after the last's
// ([out_c][kh][kw][in_c / groups]: the parts' weights concatenated).
ConvPart Pack(const std::vector<ConvPart>& parts) {
  const ConvLayer& g = parts.front().conv;
  ConvPart packed = parts.front();
  ConvLayer& c = packed.conv;
  c.name = g.name.substr(0, g.name.rfind(".g"));
  c.groups = uint32_t(parts.size());
  c.in_c = g.in_c * c.groups;
  c.out_c = g.out_c * c.groups;
  c.weights.clear(), c.bias.clear(), c.multiplier.clear(), c.shift.clear();
  c.weights_fp16.clear(), c.bias_fp32.clear();
  for (const ConvPart& part : parts) {
    const ConvLayer& p = part.conv;
    c.weights.insert(c.weights.end(), p.weights.begin(), p.weights.end());
    c.weights_fp16.insert(c.weights_fp16.end(), p.weights_fp16.begin(), p.weights_fp16.end());
    c.bias_fp32.insert(c.bias_fp32.end(), p.bias_fp32.begin(), p.bias_fp32.end());
    c.bias.insert(c.bias.end(), p.bias.begin(), p.bias.end());
    c.multiplier.insert(c.multiplier.end(), p.multiplier.begin(), p.multiplier.end());
    c.shift.insert(c.shift.end(), p.shift.begin(), p.shift.end());
  }
  return packed;
}

}  // namespace

bool PackableGroups(const NetLayer& layer) {
  const std::vector<ConvPart>* parts = layer.conv_parts();
  if (parts == nullptr || parts->size() < 2) return false;
  const ConvLayer& g = parts->front().conv;
  return !g.depthwise && !g.activation_weights && g.groups == 1;
}

int PackGroups(Network& net) {
  int packed = 0;
  for (NetLayer& layer : net.layers) {
    if (!PackableGroups(layer)) continue;
    const size_t groups = layer.conv_parts()->size();
    ConvPart one = Pack(*layer.conv_parts());
    layer.work = std::vector<ConvPart>{std::move(one)};
    // Lowering noted one convolution per group (lower_ops.cc); say what runs now.
    const std::string apart = fmt::format("as {} convolutions over channel slices", groups);
    const size_t at = layer.note.find(apart);
    layer.note = at == std::string::npos
                     ? fmt::format("{}; as one grouped convolution", layer.note)
                     : layer.note.replace(at, apart.size(), "as one grouped convolution");
    ++packed;
  }
  return packed;
}

}  // namespace npu::compiler
