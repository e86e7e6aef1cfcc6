// Concat placement, in reverse execution order, so that the outermost concatenation claims a
// buffer first. A concatenation along an outer axis (only ones before it) is its inputs written
// one after the other: any producer writes its contiguous range (and row slices of the output,
// which row strips read as their residual rows, stay views of it). Along the channels:
//   1. A concatenation whose inputs already lie side by side, in order, in one buffer (DenseNet's
//      concatenations of the block's first features: prefixes of the block's last one) becomes a
//      view of that run of slices.
//   2. Otherwise it is placed where its output lives (its own buffer, or a slice of an outer
//      concatenation's): each input becomes the slice at its offset, its producer writing there.
// Step 2 requires of every input: no graph input or output, the output's plane, a buffer of its
// own (but for row slices of it, read by layers that stride, which move with it), produced by a
// convolution, a pool, a concatenation placeable in turn or a concatenation of rows whose parts
// such layers write (row strips), and read otherwise only by convolutions, pools and
// concatenations step 1 will make views of this one.
#include "compiler/lower/concat_placement.h"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "hw/spec/status.h"

namespace npu::compiler {
namespace {

class Placer {
 public:
  explicit Placer(Network& n) : net_(n) {
    for (size_t i = 0; i < n.layers.size(); ++i) {
      producer_[n.layers[i].output] = int(i);
      for (int v : n.layers[i].inputs) readers_[v].push_back(int(i));
    }
    for (int v : n.inputs) io_.insert(v);
    for (int v : n.outputs) io_.insert(v);
  }

  int Run() {
    for (int i = int(net_.layers.size()) - 1; i >= 0; --i) {
      if (IsOuterConcat(i) && CanPlaceOuter(i)) {
        PlaceOuter(i);
        placed_layers_.insert(i);
        continue;
      }
      if (!IsChannelConcat(i)) continue;
      if (MakeView(i) || (CanPlace(i) && (Place(i), true))) placed_layers_.insert(i);
    }
    for (auto it = placed_layers_.rbegin(); it != placed_layers_.rend(); ++it) {
      net_.layers.erase(net_.layers.begin() + *it);
    }
    net_.concats_placed += int(placed_layers_.size());
    return int(placed_layers_.size());
  }

  // Before each channel concatenation Run left, a copy of every input whose producer cannot
  // write its slice (a graph input, a view, a CPU layer, a value other layers read dense), and
  // likewise of an outer one's inputs (views: the rows a row strip keeps of the strip before),
  // so that the next Run places it. Returns the copies made.
  int CopyInputs() {
    std::vector<std::pair<int, std::vector<size_t>>> copies;  // (concat, its inputs), ascending
    int count = 0;
    // An outer concatenation's parts so far: a value two of them take (a strip's rows, which
    // two readers each join to the rows they keep of the strip before) is part of the first only.
    std::set<int> parts;
    for (int i = 0; i < int(net_.layers.size()); ++i) {
      if (IsOuterConcat(i) && DenseButForViews(net_.layers[i].output)) {
        std::vector<size_t> inputs;
        for (size_t k = 0; k < net_.layers[i].inputs.size(); ++k) {
          if (!OuterInputMayBePart(net_.layers[i].inputs[k], parts)) inputs.push_back(k);
        }
        if (inputs.empty()) continue;
        count += int(inputs.size());
        copies.emplace_back(i, std::move(inputs));
        continue;
      }
      if (!IsChannelConcat(i)) continue;
      const NetLayer& l = net_.layers[i];
      const ActivationValue& out = net_.value(l.output);
      std::set<int> seen;
      std::vector<size_t> inputs;
      bool plane = true;
      for (size_t k = 0; k < l.inputs.size(); ++k) {
        const int v = l.inputs[k];
        std::set<int> visiting{i};
        plane &= net_.value(v).h == out.h && net_.value(v).w == out.w;
        if (!seen.insert(v).second || !InputMayBeSlice(i, v, visiting, true)) inputs.push_back(k);
      }
      if (!plane || inputs.empty()) continue;
      count += int(inputs.size());
      copies.emplace_back(i, std::move(inputs));
    }
    // Each before its concatenation, in input order, or right after the layer writing its input
    // if a global pool reads that too (CopyPosition); made from the last concatenation back (the
    // copies' buffers numbered so), inserted from the last position back, so that earlier
    // positions stay valid, and at one position the last made first.
    struct Inserted {
      int position, order;
      NetLayer layer;
    };
    std::vector<Inserted> inserted;
    for (auto it = copies.rbegin(); it != copies.rend(); ++it) {
      const auto& [concat, inputs] = *it;
      for (size_t k : inputs) {
        const int position = CopyPosition(concat, net_.layers[concat].inputs[k]);
        inserted.push_back({position, int(inserted.size()), CopyOf(concat, k)});
      }
    }
    std::sort(inserted.begin(), inserted.end(), [](const Inserted& a, const Inserted& b) {
      return a.position != b.position ? a.position > b.position : a.order > b.order;
    });
    for (Inserted& c : inserted) {
      net_.layers.insert(net_.layers.begin() + c.position, std::move(c.layer));
    }
    return count;
  }

 private:
  bool IsChannelConcat(int layer) const {
    const CpuLayer* cpu = net_.layers[layer].cpu();
    return cpu != nullptr && cpu->kernel == "concat" &&
           Axis(layer) == int64_t(net_.value(net_.layers[layer].output).shape.size()) - 1;
  }

  int64_t Axis(int layer) const {
    const std::vector<int64_t> axis = net_.layers[layer].cpu()->Ints("axis");
    return axis.size() == 1 ? axis[0] : -1;
  }

  // A concatenation along an axis with only ones before it: its inputs are contiguous byte
  // ranges of the output (a batch's images, rows of an image).
  bool IsOuterConcat(int layer) const {
    const CpuLayer* cpu = net_.layers[layer].cpu();
    if (cpu == nullptr || cpu->kernel != "concat") return false;
    const std::vector<uint32_t>& shape = net_.value(net_.layers[layer].output).shape;
    const int64_t axis = Axis(layer);
    if (axis < 0 || axis >= int64_t(shape.size()) || axis == int64_t(shape.size()) - 1) {
      return false;
    }
    return std::all_of(shape.begin(), shape.begin() + axis, [](uint32_t d) { return d == 1; });
  }

  // v starts its buffer, which is not one of channel slices.
  bool Unstrided(int v) const {
    const ActivationValue& x = net_.value(v);
    return net_.buffers[x.buffer].pixel_channels == 0 && x.byte_offset == 0 &&
           x.channel_offset == 0;
  }

  bool Dense(int v) const { return Unstrided(v) && AloneInBuffer(v); }

  // Dense, though views of it may share its buffer (row slices that its readers take: row
  // strips' residual operands): they stay where they are, as does the value.
  bool DenseButForViews(int v) const {
    if (!Unstrided(v)) return false;
    for (size_t u = 0; u < net_.values.size(); ++u) {
      if (int(u) != v && net_.values[u].buffer == net_.value(v).buffer && producer_.count(int(u))) {
        return false;
      }
    }
    return true;
  }

  // Any layer writes a contiguous range; its readers read it dense. Or, the output being a
  // channel slice (a channel concatenation placed it: row strips' outputs, which a dense
  // block's concatenation reads), layers that stride write its parts' rows of it.
  bool CanPlaceOuter(int concat) const {
    const NetLayer& l = net_.layers[concat];
    if (Strided(l.output)) return OuterPartsMayStride(concat);
    if (!DenseButForViews(l.output)) return false;
    std::set<int> seen;
    for (int v : l.inputs) {
      if (!OuterInputMayBePart(v, seen)) return false;
    }
    return true;
  }

  // v is a channel slice of a placed concatenation's buffer.
  bool Strided(int v) const { return net_.buffer_of(v).pixel_channels != 0; }

  // Each of the outer concatenation's inputs, whole rows of its output, is written by a layer
  // that strides (row strips' convolutions), once, and is no graph input or output.
  bool OuterPartsMayStride(int concat) const {
    const NetLayer& l = net_.layers[concat];
    const ActivationValue& out = net_.value(l.output);
    std::set<int> seen;
    for (int v : l.inputs) {
      const ActivationValue& x = net_.value(v);
      const auto p = producer_.find(v);
      if (!seen.insert(v).second || io_.count(v) || p == producer_.end() || !Strides(p->second) ||
          x.w != out.w || x.c != out.c || x.fp16 != out.fp16 || Strided(v) ||
          !StridedRowViews(v)) {
        return false;
      }
    }
    return true;
  }

  // A layer writes v where an outer concatenation puts it: v is no graph input or output, no
  // view, and is the concatenation's only once (views of it, rows the next row strip keeps
  // of it, move with it).
  bool OuterInputMayBePart(int v, std::set<int>& seen) const {
    return seen.insert(v).second && !io_.count(v) && DenseButForViews(v) && producer_.count(v);
  }

  void PlaceOuter(int concat) {
    const NetLayer& l = net_.layers[concat];
    const int target = net_.value(l.output).buffer;
    if (Strided(l.output)) {  // each part at its rows of the channel slice
      const ActivationValue out = net_.value(l.output);
      const uint64_t row = uint64_t{out.w} * net_.buffers[target].pixel_channels *
                           out.element_bytes();
      uint64_t rows = 0;
      for (int v : l.inputs) {
        net_.buffers[net_.values[v].buffer] = NetBuffer{};
        MoveWithViews(v, target, out.channel_offset, out.byte_offset + rows * row);
        rows += net_.values[v].h;
      }
      return;
    }
    uint64_t offset = 0;
    for (int v : l.inputs) {
      const int from = net_.values[v].buffer;
      for (ActivationValue& x : net_.values) {  // v, and its views
        if (x.buffer != from) continue;
        x.buffer = target;
        x.byte_offset += offset;
      }
      net_.buffers[from] = NetBuffer{};
      offset += net_.values[v].bytes();
    }
  }

  // Convolutions, pools and copies read and write channel slices through DMA.
  bool Strides(int layer) const {
    const NetLayer& l = net_.layers[layer];
    return l.conv_parts() != nullptr || std::holds_alternative<PoolLayer>(l.work) ||
           std::holds_alternative<CopyLayer>(l.work);
  }

  const std::vector<int>& Readers(int v) const {
    static const std::vector<int> kNone;
    auto it = readers_.find(v);
    return it == readers_.end() ? kNone : it->second;
  }

  // No other value shares v's buffer.
  bool AloneInBuffer(int v) const {
    for (size_t u = 0; u < net_.values.size(); ++u) {
      if (int(u) != v && net_.values[u].buffer == net_.value(v).buffer) return false;
    }
    return true;
  }

  // The other values in v's buffer if each is a row slice of v (row strips read such views:
  // v's width and channels, from a whole row of v on) read only by layers that stride; nullopt
  // if any is not.
  std::optional<std::vector<int>> StridedRowViews(int v) const {
    const ActivationValue& x = net_.value(v);
    const uint64_t row = uint64_t{x.w} * x.c * x.element_bytes();
    std::vector<int> views;
    for (size_t u = 0; u < net_.values.size(); ++u) {
      const ActivationValue& y = net_.values[u];
      if (int(u) == v || y.buffer != x.buffer) continue;
      if (y.w != x.w || y.c != x.c || y.fp16 != x.fp16 || y.channel_offset != x.channel_offset ||
          y.byte_offset < x.byte_offset || (y.byte_offset - x.byte_offset) % row != 0 ||
          producer_.count(int(u)) || io_.count(int(u))) {
        return std::nullopt;
      }
      for (int r : Readers(int(u))) {
        if (!Strides(r)) return std::nullopt;
      }
      views.push_back(int(u));
    }
    return views;
  }

  // Moves v, and its row views, to `channel_offset` of `target` from its row `byte_offset` on
  // (strided by the target's pixel channels): a view's rows are as many pixel strides further.
  void MoveWithViews(int v, int target, uint32_t channel_offset, uint64_t byte_offset) {
    const std::optional<std::vector<int>> views = StridedRowViews(v);
    NPU_CHECK(views.has_value());  // the caller's CanPlace, CanPlaceOuter or OutputMayStride
    ActivationValue& x = net_.values[v];
    const uint64_t row = uint64_t{x.w} * x.c * x.element_bytes();
    const uint64_t strided_row =
        uint64_t{x.w} * net_.buffers[target].pixel_channels * x.element_bytes();
    for (int u : *views) {
      ActivationValue& y = net_.values[u];
      y.byte_offset = byte_offset + (y.byte_offset - x.byte_offset) / row * strided_row;
      y.buffer = target;
      y.channel_offset = channel_offset;
    }
    x.buffer = target;
    x.channel_offset = channel_offset;
    x.byte_offset = byte_offset;
  }

  // Concat `inner`'s inputs are a run of `outer`'s, in order.
  bool SubRun(int inner, int outer) const {
    const std::vector<int>&a = net_.layers[inner].inputs, &b = net_.layers[outer].inputs;
    return std::search(b.begin(), b.end(), a.begin(), a.end()) != b.end();
  }

  // Its output may become a strided slice: read only by layers that stride.
  bool OutputMayStride(int layer) const {
    const int out = net_.layers[layer].output;
    if (io_.count(out) || !StridedRowViews(out)) return false;
    for (int r : Readers(out)) {
      if (!Strides(r)) return false;
    }
    return true;
  }

  // With `hopeful`, an input that is a concatenation counts as placeable (copies will make it so).
  bool InputMayBeSlice(int concat, int v, std::set<int>& visiting, bool hopeful = false) const {
    const ActivationValue &x = net_.value(v), &out = net_.value(net_.layers[concat].output);
    if (io_.count(v) || x.h != out.h || x.w != out.w || !StridedRowViews(v)) return false;
    auto p = producer_.find(v);
    if (p == producer_.end()) return false;
    const bool inner_concat = IsChannelConcat(p->second);
    const bool strips = IsOuterConcat(p->second) && OuterPartsMayStride(p->second);
    if (!Strides(p->second) && !strips &&
        !(inner_concat && (hopeful || CanPlace(p->second, visiting)))) {
      return false;
    }
    for (int r : Readers(v)) {
      if (r == concat || Strides(r)) continue;
      if (!IsChannelConcat(r) || !SubRun(r, concat) || !OutputMayStride(r)) return false;
    }
    return true;
  }

  bool CanPlace(int concat) const {
    std::set<int> visiting;
    return CanPlace(concat, visiting);
  }
  bool CanPlace(int concat, std::set<int>& visiting) const {
    if (!visiting.insert(concat).second) return false;
    std::set<int> seen;
    for (int v : net_.layers[concat].inputs) {
      if (!seen.insert(v).second || !InputMayBeSlice(concat, v, visiting)) return false;
    }
    return true;
  }

  // Step 2: the inputs become slices where the output lives.
  void Place(int concat) {
    const ActivationValue& out = net_.value(net_.layers[concat].output);
    const int target = out.buffer;
    if (net_.buffers[target].pixel_channels == 0) net_.buffers[target].pixel_channels = out.c;
    uint32_t offset = out.channel_offset;
    for (int v : net_.layers[concat].inputs) {
      net_.buffers[net_.values[v].buffer] = NetBuffer{};
      // At the output's rows: an outer concatenation's part.
      MoveWithViews(v, target, offset, out.byte_offset);
      offset += net_.values[v].c;
    }
  }

  // Step 1: inputs already side by side in one buffer, in order: the output is their run.
  bool MakeView(int concat) {
    const NetLayer& l = net_.layers[concat];
    const ActivationValue& first = net_.value(l.inputs[0]);
    if (net_.buffers[first.buffer].pixel_channels == 0) return false;
    uint32_t offset = first.channel_offset;
    for (int v : l.inputs) {
      const ActivationValue& x = net_.value(v);
      if (x.buffer != first.buffer || x.channel_offset != offset ||
          x.byte_offset != first.byte_offset) {
        return false;
      }
      offset += x.c;
    }
    if (!OutputMayStride(concat)) return false;
    net_.buffers[net_.values[l.output].buffer] = NetBuffer{};
    MoveWithViews(l.output, first.buffer, first.channel_offset, first.byte_offset);
    return true;
  }

  // Where a copy of `concat`'s input `v` goes: before the concatenation, or, if a global pool
  // reads v's buffer too (a squeeze-and-excitation's pool of a channel group, whose concatenation
  // of groups goes to DRAM: channel_groups.h), right after the last layer before the
  // concatenation writing that buffer, so that the group's output need not stay in SRAM until
  // every group is done.
  int CopyPosition(int concat, int v) const {
    const int buffer = net_.value(v).buffer;
    const auto reads = [&](const NetLayer& l) {
      return std::any_of(l.inputs.begin(), l.inputs.end(),
                         [&](int in) { return net_.value(in).buffer == buffer; });
    };
    bool pooled = false;
    int writer = -1;
    for (int i = 0; i < concat; ++i) {
      const NetLayer& l = net_.layers[i];
      const PoolLayer* pool = std::get_if<PoolLayer>(&l.work);
      pooled |= pool != nullptr && pool->kind == PoolKind::kGlobalAverage && reads(l);
      if (l.output >= 0 && net_.value(l.output).buffer == buffer) writer = i;
    }
    return pooled && writer >= 0 ? writer + 1 : concat;
  }

  // A copy layer of input `k` of `concat`, which now reads the copy instead.
  NetLayer CopyOf(int concat, size_t k) {
    NetLayer& cat = net_.layers[concat];
    const int v = cat.inputs[k];
    ActivationValue copy = net_.value(v);
    copy.name += ".copy";
    copy.buffer = int(net_.buffers.size());
    copy.channel_offset = 0;
    copy.byte_offset = 0;
    net_.buffers.push_back({copy.bytes()});
    net_.values.push_back(copy);
    const int id = int(net_.values.size()) - 1;
    cat.inputs[k] = id;
    size_t activation = 0;  // CPU layers list their activation operands in operand order
    for (CpuOperand& operand : std::get<CpuLayer>(cat.work).operands) {
      if (operand.value >= 0 && activation++ == k) operand.value = id;
    }
    NetLayer layer;
    layer.name = fmt::format("{}/copy{}", cat.name, k);
    layer.op = "copy";
    layer.work = CopyLayer{layer.name, copy.h, copy.w, copy.c};
    layer.placement_copy = true;
    layer.inputs = {v};
    layer.output = id;
    layer.note = fmt::format("'{}' copied into its slice of concatenation '{}'", net_.value(v).name,
                             cat.name);
    return layer;
  }

  Network& net_;
  std::map<int, int> producer_;              // value -> the layer writing it
  std::map<int, std::vector<int>> readers_;  // value -> the layers reading it
  std::set<int> io_, placed_layers_;
};

}  // namespace

int PlaceConcats(Network& network) {
  int placed = Placer(network).Run();
  if (Placer(network).CopyInputs() > 0) placed += Placer(network).Run();
  return placed;
}

}  // namespace npu::compiler
