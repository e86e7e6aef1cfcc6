// Folding a convolution's width stride into its input channels (stride_fold.h).
#include "compiler/lower/stride_fold.h"

#include <fmt/format.h>

#include <algorithm>

#include "compiler/tiling/tile_grid.h"

namespace npu::compiler::lowering {
namespace {

bool Foldable(const Network& net, const NetLayer& layer) {
  const auto* parts = layer.conv_parts();
  if (parts == nullptr || parts->size() != 1) return false;
  const ConvLayer& c = parts->front().conv;
  const uint32_t s = c.stride_w;
  const ActivationValue& x = net.value(layer.inputs[0]);
  return s > 1 && !c.depthwise && !c.fp16 && !c.activation_weights && c.groups == 1 &&
         c.batches == 1 && c.dilation_w == 1 && c.pad_left == 0 && c.pad_right == 0 &&
         c.kernel_w % s == 0 && c.in_w % s == 0 && x.channel_offset == 0 &&
         net.buffer_of(layer.inputs[0]).pixel_channels == 0 && !x.fp16;
}

// `c` reading s pixels as one: weights [o][i][j][r*in_c + ch] = old [o][i][j*s + r][ch].
ConvLayer Folded(const ConvLayer& c) {
  const uint32_t s = c.stride_w;
  ConvLayer f = c;
  f.in_w = c.in_w / s;
  f.in_c = c.in_c * s;
  f.kernel_w = c.kernel_w / s;
  f.stride_w = 1;
  const uint64_t taps_h = c.kernel_h, old_w = c.kernel_w, in_c = c.in_c;
  for (uint64_t o = 0; o < c.out_c; ++o) {
    for (uint64_t i = 0; i < taps_h; ++i) {
      for (uint64_t k = 0; k < old_w; ++k) {  // old tap k = j*s + r: new tap j, channels r*in_c..
        const uint64_t j = k / s, r = k % s;
        const uint64_t from = ((o * taps_h + i) * old_w + k) * in_c;
        const uint64_t to = ((o * taps_h + i) * f.kernel_w + j) * f.in_c + r * in_c;
        std::copy_n(c.weights.begin() + int64_t(from), in_c, f.weights.begin() + int64_t(to));
      }
    }
  }
  return f;
}

// Folds `layer`'s stride if that cuts its kernel blocks.
bool Fold(Network& net, NetLayer& layer) {
  if (!Foldable(net, layer)) return false;
  ConvLayer& c = std::get<std::vector<ConvPart>>(layer.work).front().conv;
  ConvLayer folded = Folded(c);
  const uint32_t blocks = KernelBlocking(folded).count(), was = KernelBlocking(c).count();
  if (blocks >= was) return false;
  ActivationValue view = net.value(layer.inputs[0]);  // a copy: values grow below
  view.name += fmt::format(".fold{}", c.stride_w);
  view.w = folded.in_w;
  view.c = folded.in_c;
  view.shape = {1, view.c, view.h, view.w};  // NCHW, as the IR's
  net.values.push_back(view);
  layer.inputs[0] = int(net.values.size() - 1);
  layer.note = fmt::format(
      "stride {} folded into the channels: {} pixels of {} channel(s) read as one of {}, {} taps "
      "as {}{}",
      c.stride_w, c.stride_w, c.in_c, folded.in_c, c.kernel_w, folded.kernel_w,
      blocks > 1 ? fmt::format(" in {} kernel blocks (was {})", blocks, was) : "");
  c = std::move(folded);
  return true;
}

}  // namespace

int FoldStrides(Network& net) {
  int folded = 0;
  for (NetLayer& layer : net.layers) folded += Fold(net, layer);
  return folded;
}

}  // namespace npu::compiler::lowering
