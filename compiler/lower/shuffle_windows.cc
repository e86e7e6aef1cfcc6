// FoldSlicesIntoShuffles.
#include "compiler/lower/shuffle_windows.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "compiler/lower/slice_views.h"

namespace npu::compiler {
namespace {

// Layer `l`'s shuffle, if it is a whole one: a copy layer with a group and no window.
const CopyLayer* WholeShuffle(const NetLayer& l) {
  const CopyLayer* copy = std::get_if<CopyLayer>(&l.work);
  if (copy == nullptr || !copy->Shuffles() || copy->group_stride != 0) return nullptr;
  return copy;
}

// Whether value `v` is alone in its buffer and no graph output: nothing but its readers sees it.
bool Private(const Network& net, int v) {
  for (int out : net.outputs) {
    if (out == v) return false;
  }
  for (size_t u = 0; u < net.values.size(); ++u) {
    if (int(u) != v && net.values[u].buffer == net.value(v).buffer) return false;
  }
  return true;
}

// The window of `shuffle` that reader `l` (a channel slice of its output `v`) keeps, if it can
// become one: bounds on whole groups, the same quantisation.
std::optional<CopyLayer> Window(const Network& net, const CopyLayer& shuffle, int v,
                                const NetLayer& l) {
  const std::optional<uint32_t> start = ChannelSliceStart(net, l);
  if (!start || l.inputs.size() != 1 || l.inputs[0] != v) return std::nullopt;
  const ActivationValue &in = net.value(v), &out = net.value(l.output);
  const uint32_t g = shuffle.group;
  if (*start % g != 0 || out.c % g != 0 || out.scale != in.scale ||
      out.zero_point != in.zero_point || out.fp16 || in.fp16) {
    return std::nullopt;
  }
  CopyLayer window{l.name, out.h, out.w, out.c, g};
  window.group_stride = shuffle.c / g;
  window.group_offset = *start / g;
  if (!CheckCopyLayer(window).ok()) return std::nullopt;
  return window;
}

// The first layer after `i` that reads layer i's output.
size_t FirstReader(const Network& net, size_t i) {
  for (size_t r = i + 1; r < net.layers.size(); ++r) {
    const std::vector<int>& in = net.layers[r].inputs;
    if (std::find(in.begin(), in.end(), net.layers[i].output) != in.end()) return r;
  }
  return net.layers.size();
}

// The windows of one shuffle in the order their outputs are first read, in the places they had:
// a ShuffleNet unit's branch half (read by the next convolution) before the half passed through
// (read by the concatenation after the branch), so the branch starts one window earlier and the
// other window runs beside it. Each window still runs before its first reader: the k-th earliest
// place lies before the k-th earliest first read, as each window's own place does before its own.
void RunFirstReadFirst(Network& net, const std::vector<std::pair<size_t, CopyLayer>>& windows) {
  std::vector<std::pair<size_t, size_t>> by_read;  // (first reader, place)
  for (const auto& [place, window] : windows) by_read.emplace_back(FirstReader(net, place), place);
  std::sort(by_read.begin(), by_read.end());
  std::vector<NetLayer> moved;
  for (const auto& [reader, place] : by_read) moved.push_back(net.layers[place]);
  for (size_t k = 0; k < windows.size(); ++k) net.layers[windows[k].first] = std::move(moved[k]);
}

}  // namespace

int FoldSlicesIntoShuffles(Network& net) {
  int folded = 0;
  for (size_t s = 0; s < net.layers.size();) {
    const CopyLayer* shuffle = WholeShuffle(net.layers[s]);
    const int v = net.layers[s].output;
    if (shuffle == nullptr || !Private(net, v)) {
      ++s;
      continue;
    }
    std::vector<std::pair<size_t, CopyLayer>> windows;
    bool all = true;
    for (size_t r = s + 1; r < net.layers.size() && all; ++r) {
      const NetLayer& l = net.layers[r];
      if (std::find(l.inputs.begin(), l.inputs.end(), v) == l.inputs.end()) continue;
      std::optional<CopyLayer> window = Window(net, *shuffle, v, l);
      all = window.has_value();
      if (all) windows.emplace_back(r, *std::move(window));
    }
    if (!all || windows.empty()) {
      ++s;
      continue;
    }
    const int source = net.layers[s].inputs[0];
    for (auto& [r, window] : windows) {
      NetLayer& l = net.layers[r];
      l.note = fmt::format(
          "channels [{}, {}) of a shuffle of {} groups: {} channels from {} of each group",
          window.group_offset * window.group, window.group_offset * window.group + window.c,
          window.group, window.PerGroup(), window.group_offset);
      l.op = "channel_shuffle";
      l.inputs = {source};
      l.work = std::move(window);
      ++folded;
    }
    RunFirstReadFirst(net, windows);
    net.buffers[net.value(v).buffer] = NetBuffer{};
    net.layers.erase(net.layers.begin() + s);
  }
  return folded;
}

}  // namespace npu::compiler
