// PlaceSlices: channel slices as views or DMA copies.
#include "compiler/lower/slice_views.h"

#include <fmt/format.h>

#include <map>
#include <set>

namespace npu::compiler {

std::optional<uint32_t> ChannelSliceStart(const Network& net, const NetLayer& l) {
  const CpuLayer* cpu = l.cpu();
  if (cpu == nullptr || cpu->kernel != "slice" || l.inputs.size() != 1) return std::nullopt;
  const std::vector<uint32_t>&in = net.value(l.inputs[0]).shape, &out = net.value(l.output).shape;
  const std::vector<int64_t> starts = cpu->Ints("starts"), steps = cpu->Ints("steps");
  const size_t rank = in.size();
  if (rank == 0 || out.size() != rank || starts.size() != rank || steps.size() != rank) {
    return std::nullopt;
  }
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (starts[d] != 0 || out[d] != in[d]) return std::nullopt;
  }
  if (steps[rank - 1] != 1) return std::nullopt;
  return static_cast<uint32_t>(starts[rank - 1]);
}

namespace {

class SlicePlacer {
 public:
  explicit SlicePlacer(Network& net) : net_(net) {
    for (size_t i = 0; i < net.layers.size(); ++i) {
      for (int v : net.layers[i].inputs) readers_[v].push_back(int(i));
    }
    for (int v : net.outputs) outputs_.insert(v);
  }

  int Run() {
    std::vector<int> views;
    int placed = 0;
    for (int i = 0; i < int(net_.layers.size()); ++i) {
      const std::optional<uint32_t> start = ChannelSliceStart(net_, net_.layers[i]);
      if (!start || !PlaneOnly(net_.layers[i].inputs[0])) {
        placed += MakeGather(net_.layers[i]);
        continue;
      }
      ++placed;
      if (ReadersStride(net_.layers[i].output)) {
        MakeView(net_.layers[i], *start);
        views.push_back(i);
      } else {
        MakeCopy(net_.layers[i], *start);
      }
    }
    for (auto it = views.rbegin(); it != views.rend(); ++it) {
      net_.layers.erase(net_.layers.begin() + *it);
    }
    return placed;
  }

 private:
  // Every value of v's buffer lies in v's plane (whole pixels, no reshaped view), so the buffer
  // can take a pixel stride.
  bool PlaneOnly(int v) const {
    const ActivationValue& x = net_.value(v);
    for (const ActivationValue& u : net_.values) {
      if (u.buffer == x.buffer && (u.h != x.h || u.w != x.w || u.byte_offset != 0)) return false;
    }
    return true;
  }

  // v may be a channel slice: no graph output, alone in its buffer, read only by layers that
  // read channel slices through DMA (and channel slices of it, which become views or copies).
  bool ReadersStride(int v) const {
    if (outputs_.count(v)) return false;
    for (size_t u = 0; u < net_.values.size(); ++u) {
      if (int(u) != v && net_.values[u].buffer == net_.value(v).buffer) return false;
    }
    auto it = readers_.find(v);
    if (it == readers_.end()) return true;
    for (int r : it->second) {
      const NetLayer& l = net_.layers[r];
      const bool slice = ChannelSliceStart(net_, l) && PlaneOnly(v);  // a view or copy in turn
      if (l.conv_parts() == nullptr && !std::holds_alternative<PoolLayer>(l.work) &&
          !std::holds_alternative<CopyLayer>(l.work) && !slice) {
        return false;
      }
    }
    return true;
  }

  // Value `v` becomes channels [start, start + v.c) of `input`'s buffer.
  void ChannelSliceOf(ActivationValue& v, int input, uint32_t start) {
    const ActivationValue& x = net_.value(input);
    NetBuffer& buffer = net_.buffers[x.buffer];
    if (buffer.pixel_channels == 0) buffer.pixel_channels = x.c;
    v.buffer = x.buffer;
    v.channel_offset = x.channel_offset + start;
  }

  void MakeView(const NetLayer& layer, uint32_t start) {
    ActivationValue& out = net_.values[layer.output];
    net_.buffers[out.buffer] = NetBuffer{};
    ChannelSliceOf(out, layer.inputs[0], start);
  }

  void MakeCopy(NetLayer& layer, uint32_t start) {
    ActivationValue view = net_.value(layer.output);
    view.name += ".slice";
    ChannelSliceOf(view, layer.inputs[0], start);
    net_.values.push_back(view);
    layer.inputs = {int(net_.values.size()) - 1};
    layer.op = "copy";
    layer.work = CopyLayer{layer.name, view.h, view.w, view.c};
    layer.note = fmt::format("channels [{}, {}) gathered by DMA", start, start + view.c);
  }

  // A slice of other axes, of a dense input: a DMA gather (gather_layer.h), if its runs are
  // longer than one byte.
  bool MakeGather(NetLayer& layer) {
    const CpuLayer* cpu = layer.cpu();
    if (cpu == nullptr || cpu->kernel != "slice" || layer.inputs.size() != 1) return false;
    const ActivationValue& x = net_.value(layer.inputs[0]);
    if (net_.buffers[x.buffer].pixel_channels != 0 && net_.PixelStride(layer.inputs[0]) != x.c) {
      return false;  // a channel slice itself
    }
    const std::vector<uint32_t>&in = x.shape, &out = net_.value(layer.output).shape;
    std::optional<GatherLayer> g = compiler::SliceOf(
        layer.name, std::vector<uint64_t>(in.begin(), in.end()), cpu->Ints("starts"),
        cpu->Ints("steps"), std::vector<uint64_t>(out.begin(), out.end()));
    if (!g) return false;
    layer.op = "slice";
    layer.work = *std::move(g);
    layer.note = "gathered by DMA";
    return true;
  }

  Network& net_;
  std::map<int, std::vector<int>> readers_;  // value -> the layers reading it
  std::set<int> outputs_;
};

}  // namespace

int PlaceSlices(Network& network) { return SlicePlacer(network).Run(); }

}  // namespace npu::compiler
