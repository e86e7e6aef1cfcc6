// Network queries: per-layer figures, buffer lifetimes, in-place elementwise layers.
#include "compiler/lower/network.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>

#include "hw/spec/int4.h"
#include "hw/spec/isa.h"

namespace npu::compiler {

uint64_t NetLayer::Macs() const {
  if (const CpuLayer* c = cpu()) return c->macs;
  if (const MatMulLayer* m = matmul()) return m->Macs();
  uint64_t macs = 0;
  if (const auto* parts = conv_parts()) {
    for (const ConvPart& p : *parts) macs += p.Macs();
  }
  return macs;
}

uint64_t NetLayer::Int4Macs() const {
  uint64_t macs = 0;
  if (const auto* parts = conv_parts()) {
    for (const ConvPart& p : *parts) macs += p.conv.weights_int4 ? p.Macs() : 0;
  }
  return macs;
}

uint64_t NetLayer::Fp16Macs() const {
  uint64_t macs = 0;
  if (const auto* parts = conv_parts()) {
    for (const ConvPart& p : *parts) macs += p.conv.fp16 ? p.Macs() : 0;
  }
  return macs;
}

uint64_t NetLayer::ConstantBytes() const {
  uint64_t bytes = 0;
  if (const CpuLayer* c = cpu()) {
    for (const CpuConstant& k : c->constants) bytes += k.bytes.size();
  }
  if (const auto* parts = conv_parts()) {
    for (const ConvPart& p : *parts) {
      const uint64_t weights = p.conv.weights_int4
                                   ? p.conv.out_c * spec::Int4RowBytes(p.conv.ReductionSize())
                                   : p.conv.fp16 ? p.conv.WeightBytes()
                                                 : p.conv.weights.size();
      bytes += weights + uint64_t{p.conv.out_c} * spec::kActParamBytes;
    }
    if (!parts->empty()) bytes += parts->front().conv.table.size();  // one table per layer
  } else if (const auto* e = std::get_if<EltwiseLayer>(&work)) {
    bytes += e->b_constant.size();
  } else if (const auto* l = std::get_if<LutLayer>(&work)) {
    bytes += l->table.size();
  } else if (const auto* n = std::get_if<NormLayer>(&work)) {
    bytes += n->ParamBytes();
  } else if (const MatMulLayer* m = matmul()) {
    bytes += uint64_t{m->n} * spec::kActParamBytes;  // one set of ACT records for every batch
  } else if (const auto* r = std::get_if<ResizeLayer>(&work)) {
    bytes += (r->row_taps.size() + r->col_taps.size()) * spec::kResizeTapBytes;
  }
  return bytes;
}

std::string NetLayer::ShapeText(const std::vector<ActivationValue>& values) const {
  auto hwc = [&](int id) {
    const ActivationValue& v = values.at(id);
    return fmt::format("{}x{}x{}", v.h, v.w, v.c);
  };
  if (const auto* parts = conv_parts()) {
    const ConvLayer& c = parts->front().conv;
    return fmt::format("{} -> {}, {}x{}/{}", hwc(inputs[0]), hwc(output), c.kernel_h, c.kernel_w,
                       c.stride_h);
  }
  if (const auto* pool = std::get_if<PoolLayer>(&work)) {
    return fmt::format("{} -> {}, {}x{}/{}", hwc(inputs[0]), hwc(output), pool->kernel_h,
                       pool->kernel_w, pool->stride_h);
  }
  if (matmul() != nullptr) {
    return fmt::format("{} x {} -> {}", hwc(inputs[0]), hwc(inputs[1]), hwc(output));
  }
  if (on_cpu()) {
    std::vector<std::string> in;
    for (int v : inputs) in.push_back(hwc(v));
    return fmt::format("{} -> {}", fmt::join(in, ", "), hwc(output));
  }
  if (const auto* e = std::get_if<EltwiseLayer>(&work)) {
    const std::string b =
        e->b_is_constant() ? fmt::format("const[{}]", e->BElements()) : hwc(inputs.at(1));
    const char* symbol = e->op == spec::EltwiseOp::kAdd   ? "+"
                         : e->op == spec::EltwiseOp::kMul ? "*"
                                                          : e->OpName();
    return fmt::format("{} {} {} -> {}", hwc(inputs[0]), symbol, b, hwc(output));
  }
  if (const auto* r = std::get_if<ResizeLayer>(&work)) {
    return fmt::format("{} -> {}, {}", hwc(inputs[0]), hwc(output),
                       r->Nearest() ? "nearest" : "bilinear");
  }
  if (std::holds_alternative<CopyLayer>(work) || std::holds_alternative<GatherLayer>(work)) {
    return fmt::format("{} -> {}", hwc(inputs[0]), hwc(output));
  }
  if (std::holds_alternative<NormLayer>(work)) {
    return fmt::format("{} -> {}, per pixel", hwc(inputs[0]), hwc(output));
  }
  return fmt::format("{} -> {}, table", hwc(inputs[0]), hwc(output));
}

bool Network::Overlap(int a, int b) const {
  const ActivationValue &x = value(a), &y = value(b);
  // [first, last) of each: its channels, and the bytes from its first pixel to past its last.
  const auto bytes = [&](int id, const ActivationValue& v) {
    return std::pair{v.byte_offset,
                     v.byte_offset + uint64_t{v.h} * v.w * PixelStride(id) * v.element_bytes()};
  };
  const auto meet = [](auto p, auto q) { return p.first < q.second && q.first < p.second; };
  return x.buffer == y.buffer &&
         meet(std::pair{x.channel_offset, x.channel_offset + x.c},
              std::pair{y.channel_offset, y.channel_offset + y.c}) &&
         meet(bytes(a, x), bytes(b, y));
}

std::vector<Lifetime> BufferLifetimes(const Network& n) {
  std::vector<Lifetime> life(n.buffers.size(), {INT_MAX, INT_MIN});
  auto touch = [&](int value, int layer) {
    Lifetime& l = life[n.values[value].buffer];
    l.first = std::min(l.first, layer);
    l.last = std::max(l.last, layer);
  };
  for (int v : n.inputs) touch(v, -1);
  for (size_t i = 0; i < n.layers.size(); ++i) {
    for (int v : n.layers[i].inputs) touch(v, static_cast<int>(i));
    touch(n.layers[i].output, static_cast<int>(i));
  }
  for (int v : n.outputs) touch(v, static_cast<int>(n.layers.size()));
  for (Lifetime& l : life) {
    if (l.first == INT_MAX) l = {0, -1};  // never used: empty
  }
  return life;
}

namespace {

// A value's bytes in its buffer.
struct Bytes {
  uint64_t begin = 0, end = 0;
  bool Overlaps(const Bytes& o) const { return begin < o.end && o.begin < end; }
  bool operator==(const Bytes&) const = default;
};
Bytes BytesOf(const Network& n, int value) {
  const ActivationValue& v = n.values[value];
  return {v.byte_offset, v.byte_offset + v.bytes()};
}

bool IsElementwise(const NetLayer& layer) {
  return std::holds_alternative<EltwiseLayer>(layer.work) ||
         std::holds_alternative<LutLayer>(layer.work) ||
         std::holds_alternative<NormLayer>(layer.work);
}

// Every value of `buffer` spans all of it (no slices of a placed concatenation, a batch or a
// fused group's strips).
bool Whole(const Network& n, int buffer) {
  if (n.buffers[buffer].pixel_channels != 0) return false;
  for (const ActivationValue& v : n.values) {
    if (v.buffer == buffer && (v.byte_offset != 0 || v.bytes() != n.buffers[buffer].bytes)) {
      return false;
    }
  }
  return true;
}

// The layers writing `buffer` (their output is in it), in order.
std::vector<size_t> WritersOf(const Network& n, int buffer) {
  std::vector<size_t> writers;
  for (size_t i = 0; i < n.layers.size(); ++i) {
    if (n.values[n.layers[i].output].buffer == buffer) writers.push_back(i);
  }
  return writers;
}

// Whether every layer writing buffer `out` may write over buffer `in` in place: each is
// elementwise and reads a value of `in` at exactly its output's bytes, and no layer touches
// those bytes of `in` after it, nor reads them beside that operand; `in` is neither a graph
// input (the host's bytes stay) nor a graph output. The strips of a fused group (row_strips.h)
// each write their rows of the output over their rows of the input: a bottleneck's sum over
// the block's input (wide_resnet50_2 85.3 -> 81.2 MB of DRAM traffic, 11,549,961 -> 11,532,271
// cycles; resnet50 30.8 -> 29.6 MB, 4,278,236 -> 4,269,509 cycles; resnext50_32x4d 4,522,744
// -> 4,513,801 cycles, 33.8 -> 34.9 MB, as kAuto now prefers another variant). One layer
// writing a whole buffer does so only where neither buffer is sliced (Whole): writing a sum over
// a convolution's strips' output tied two buffers of different lives in the residency
// (lraspp_mobilenet_v3_large 2,890,045 -> 2,924,430 cycles, convnext_tiny 4,701,977 ->
// 4,713,899). Full-size exports, default config, --timing-only --no-tuning.
bool CanWriteOver(const Network& n, int out, int in) {
  const NetBuffer& a = n.buffers[in];
  if (in == out || a.graph_input || a.graph_output || a.bytes != n.buffers[out].bytes ||
      a.pixel_channels != 0 || n.buffers[out].pixel_channels != 0) {
    return false;
  }
  const std::vector<size_t> writers = WritersOf(n, out);
  if (writers.empty() || (writers.size() == 1 && !(Whole(n, in) && Whole(n, out)))) return false;
  for (const size_t j : writers) {
    const NetLayer& writer = n.layers[j];
    const Bytes overwritten = BytesOf(n, writer.output);
    const auto touches = [&](int v) {
      return n.values[v].buffer == in && BytesOf(n, v).Overlaps(overwritten);
    };
    const auto read_under = std::find_if(writer.inputs.begin(), writer.inputs.end(), [&](int v) {
      return n.values[v].buffer == in && BytesOf(n, v) == overwritten;
    });
    if (!IsElementwise(writer) || read_under == writer.inputs.end()) return false;
    for (size_t i = j; i < n.layers.size(); ++i) {
      const NetLayer& layer = n.layers[i];
      if (i > j && touches(layer.output)) return false;
      for (int v : layer.inputs) {
        if (touches(v) && (i > j || v != *read_under)) return false;
      }
    }
  }
  return true;
}

// Whether the one layer writing buffer `out` (all of it, dense) may write over operand `v`, a
// part of a larger buffer: the layer is elementwise, `v` has its output's bytes and whole
// pixels, and no layer touches those bytes after it, nor reads them beside that operand; `v`'s
// buffer is neither a graph input or output nor kept in DRAM. A squeeze-and-excitation's product
// strips each scale their rows of the image they slice (row_strips.h, a channel scaling) where
// those rows lie: lraspp's block 13, whose 731 KB image stays on chip, then had the SRAM of its
// two 66 KB product strips to hold its projection's weights (105 KB) across its 11 strips,
// which LOADed them each before.
bool CanWriteOverSlice(const Network& n, int out, int v) {
  const ActivationValue& slice = n.values[v];
  const int in = slice.buffer;
  const NetBuffer& a = n.buffers[in];
  const std::vector<size_t> writers = WritersOf(n, out);
  const NetBuffer& b = n.buffers[out];
  if (in == out || a.graph_input || a.graph_output || a.in_dram ||
      b.graph_output || writers.size() != 1 || b.pixel_channels != 0 || !Whole(n, out) ||
      slice.bytes() != b.bytes || slice.bytes() >= a.bytes ||
      (a.pixel_channels != 0 && (slice.c != a.pixel_channels || slice.channel_offset != 0))) {
    return false;
  }
  const size_t j = writers.front();
  if (!IsElementwise(n.layers[j])) return false;
  const Bytes overwritten = BytesOf(n, v);
  const auto touches = [&](int u) {
    return n.values[u].buffer == in && BytesOf(n, u).Overlaps(overwritten);
  };
  for (size_t i = j; i < n.layers.size(); ++i) {
    const NetLayer& layer = n.layers[i];
    if (i > j && touches(layer.output)) return false;
    for (int u : layer.inputs) {
      if (touches(u) && (i > j || u != v)) return false;
    }
  }
  return true;
}

// The operands, the one whose buffer was first written latest first: written over, it is the
// buffer whose life grows least. An addition of an early output (read much later: lraspp's low
// classifier, 65x65x21, computed after block 6 and added to the head's output) and a recent one
// written over the early one put the sum in the early one's buffer, in DRAM for the layers
// between, where over the recent one it stays on chip: lraspp 2,761,054 -> 2,757,870 cycles,
// DRAM 18.5 -> 18.2 MB; transformer_encoder 668,750 -> 650,942 (DRAM -11 %: each residual sum
// over the sublayer's output, not the sublayer's input); resnet50 -0.02 %, wide_resnet50_2
// -0.1 % (DRAM +1.2 %); full-size exports, default config, --no-tuning. On `tiny` mobilenet_v2
// lost 0.13 % (its blocks' sums over the projections' outputs, not the blocks' inputs).
std::vector<int> ByLatestWritten(const Network& n, std::vector<int> operands) {
  const auto first_written = [&](int v) {
    const std::vector<size_t> writers = WritersOf(n, n.values[v].buffer);
    return writers.empty() ? -1 : int(writers.front());
  };
  std::stable_sort(operands.begin(), operands.end(),
                   [&](int a, int b) { return first_written(a) > first_written(b); });
  return operands;
}

// Every value of buffer `from` moves into buffer `to`, `at` bytes in; `from` is left empty.
void MoveValuesInto(Network& n, int from, int to, uint64_t at) {
  n.buffers[to].graph_output |= n.buffers[from].graph_output;
  for (ActivationValue& v : n.values) {
    if (v.buffer != from) continue;
    v.buffer = to;
    v.byte_offset += at;
  }
  n.buffers[from].bytes = 0;
  n.buffers[from].graph_output = false;
}

// Per elementwise layer in order, its operands (the one written latest first) until
// `write_over(output buffer, operand)` has it write over one: that returns how many layers it
// made in place (0: not this operand). The layers made in place.
template <class WriteOver>
int WriteOverOperands(Network& n, WriteOver write_over) {
  int made = 0;
  for (size_t i = 0; i < n.layers.size(); ++i) {
    const NetLayer& layer = n.layers[i];
    if (!IsElementwise(layer)) continue;
    const int out_buffer = n.values[layer.output].buffer;
    for (int operand : ByLatestWritten(n, layer.inputs)) {
      const int now = write_over(out_buffer, operand);
      made += now;
      if (now > 0) break;
    }
  }
  return made;
}

}  // namespace

int MakeElementwiseInPlace(Network& n) {
  return WriteOverOperands(n, [&](int out_buffer, int operand) {
    const int buffer = n.values[operand].buffer;
    if (!CanWriteOver(n, out_buffer, buffer)) return 0;
    // The layers write over `operand`'s buffer; every value on the output buffer moves there.
    const int writers = static_cast<int>(WritersOf(n, out_buffer).size());
    MoveValuesInto(n, out_buffer, buffer, 0);
    return writers;
  });
}

int MakeSlicesInPlace(Network& n, const std::vector<bool>& into) {
  return WriteOverOperands(n, [&](int out_buffer, int operand) {
    const ActivationValue& slice = n.values[operand];
    if (!into.at(slice.buffer) || !CanWriteOverSlice(n, out_buffer, operand)) return 0;
    MoveValuesInto(n, out_buffer, slice.buffer, slice.byte_offset);
    return 1;
  });
}

}  // namespace npu::compiler
