// The feeder's reads per fold (operand_stream.h).
#include "hw/spec/operand_stream.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "hw/spec/fp16.h"
#include "hw/spec/timing_model.h"

namespace npu::spec {
namespace {

struct Shape {
  uint64_t m, n, k;            // pixels, output channels, reduction length
  uint64_t rows, cols, width;  // rows: per fold, the K-chunk (WS: R x the int4 rate) or pixels
  bool depthwise, weights_kn, int4;
  uint64_t elem;    // bytes of an input or (not int4) weight element: 2 for fp16
  uint64_t groups;  // row groups (RowGroups)
  // Channel groups (depthwise: one channel each; CONV's groups): each column takes its own
  // group's input value, so a vector holds one value per group a column tile spans.
  bool channel_groups;
  uint64_t group_count, group_in, group_out;  // groups, input and output channels of each
};

Shape ShapeOf(const NpuConfig& c, const ConvArgs& conv) {
  const ConvGemmShape g = ConvGemm(conv);
  return {g.m,
          g.n,
          g.k,
          c.mac().dataflow() == WEIGHT_STATIONARY ? FoldReductionRows(c, conv) : c.mac().rows(),
          c.mac().cols(),
          c.sram().bank_width_bytes(),
          conv.depthwise,
          conv.weights_kn,
          conv.weights_int4,
          ElementBytes(conv.fp16),
          RowGroups(c, conv),
          conv.depthwise || conv.groups > 1,
          conv.depthwise ? conv.in_c : conv.groups,
          conv.depthwise ? 1 : conv.in_c / conv.groups,
          conv.depthwise ? 1 : conv.out_c / conv.groups};
}

// The groups a column tile of c output channels spans (tiles start at group boundaries).
uint64_t TileGroups(const Shape& s, uint64_t c) {
  return std::min(s.group_count, CeilDiv(c, s.group_out));
}

// One channel-grouped vector, reduction indices [k0, k0 + r) (k = tap * group_in + i): r values
// for each of the tile's groups, read per tap touched as the span of the groups' channels.
FoldReads GroupedVector(const Shape& s, const ConvArgs& conv, uint64_t k0, uint64_t r,
                        uint64_t c) {
  const uint64_t groups = TileGroups(s, c);
  const uint64_t taps = (k0 + r - 1) / s.group_in - k0 / s.group_in + 1;
  const uint64_t span = std::min<uint64_t>(conv.in_c, groups * s.group_in) * s.elem;
  return {r * groups * s.elem, taps * CeilDiv(span, s.width)};
}

// The input columns the windows of `g` adjacent output pixels of one row read: the union of
// {ox * stride_w + kx * dilation_w}.
uint64_t UnionColumns(const ConvArgs& conv, uint64_t g) {
  std::vector<bool> used(conv.stride_w * (g - 1) + uint64_t{conv.dilation_w} * (conv.kernel_w - 1) +
                         1);
  for (uint64_t ox = 0; ox < g; ++ox) {
    for (uint64_t kx = 0; kx < conv.kernel_w; ++kx)
      used[ox * conv.stride_w + kx * conv.dilation_w] = true;
  }
  return uint64_t(std::count(used.begin(), used.end(), true));
}

// A depthwise fold's input vectors with row groups: per output row, groups of `groups` adjacent
// pixels (the last may be fewer), each reading the union of its windows once: kernel_h rows of
// UnionColumns pixels, c channels each.
uint64_t GroupedPixelVectors(const Shape& s, const ConvArgs& conv) {
  const uint64_t full = conv.out_w / s.groups, rest = conv.out_w % s.groups;
  const uint64_t per_row =
      full * UnionColumns(conv, s.groups) + (rest ? UnionColumns(conv, rest) : 0);
  return uint64_t{conv.out_h} * conv.kernel_h * per_row;
}

// The bytes of weights [k0, k0 + r) of one weight row: r elements, or int4 the bytes holding
// them.
uint64_t RowBytes(const Shape& s, uint64_t k0, uint64_t r) {
  return s.int4 ? (k0 + r + 1) / 2 - k0 / 2 : r * s.elem;
}

// The elements between memory jumps in one pixel's im2col row (not depthwise): a kernel row
// when its taps are adjacent pixels, else one tap's channels.
uint64_t SegmentValues(const ConvArgs& conv) {
  return conv.dilation_w == 1 ? uint64_t{conv.kernel_w} * conv.in_c : conv.in_c;
}

// Bank words of the im2col bytes [k0, k0 + r) of one pixel, split where the memory jumps every
// `segment` bytes.
uint64_t VectorWords(uint64_t k0, uint64_t r, uint64_t segment, uint64_t width) {
  uint64_t words = 0;
  for (uint64_t k = k0, end = k0 + r; k < end;) {
    const uint64_t next = std::min(end, (k / segment + 1) * segment);
    words += CeilDiv(next - k, width);
    k = next;
  }
  return words;
}

// The r x c weight block of reduction indices k0.. and columns n0..: c runs of a row's bytes
// for them, or (weights_kn) r runs of c.
uint64_t BlockWords(const Shape& s, uint64_t k0, uint64_t r, uint64_t c) {
  return s.weights_kn ? r * CeilDiv(c * s.elem, s.width) : c * CeilDiv(RowBytes(s, k0, r), s.width);
}

// Weight-stationary: the r x c block, then m vectors of the K-chunk [k0, k0 + r).
FoldReads WeightStationaryFold(const Shape& s, const ConvArgs& conv, uint64_t k0, uint64_t r,
                               uint64_t c) {
  const uint64_t e = s.elem;
  // Depthwise row groups: the weights once (replicated in the array), each group's windows
  // once. Other CONVs' groups take whole pixels' vectors, the same reads as one pixel a step.
  if (s.groups > 1 && s.depthwise) {
    const uint64_t pixels = GroupedPixelVectors(s, conv);
    return {c * RowBytes(s, k0, r) + pixels * c * e,
            BlockWords(s, k0, r, c) + pixels * CeilDiv(c * e, s.width)};
  }
  const FoldReads vector =
      s.channel_groups
          ? GroupedVector(s, conv, k0, r, c)
          : FoldReads{r * e, VectorWords(k0 * e, r * e, SegmentValues(conv) * e, s.width)};
  const uint64_t vector_bytes = vector.bytes, vector_words = vector.words;
  return {c * RowBytes(s, k0, r) + s.m * vector_bytes,
          BlockWords(s, k0, r, c) + s.m * vector_words};
}

// Output-stationary: r pixels' windows and c output channels' weights, K steps.
FoldReads OutputStationaryFold(const Shape& s, const ConvArgs& conv, uint64_t r, uint64_t c) {
  const uint64_t e = s.elem;
  const FoldReads grouped = s.channel_groups ? GroupedVector(s, conv, 0, s.k, c) : FoldReads{};
  const uint64_t window_bytes = s.channel_groups ? grouped.bytes : s.k * e;
  const uint64_t window_words =
      s.channel_groups
          ? grouped.words
          : uint64_t{conv.kernel_h} * CeilDiv(uint64_t{conv.kernel_w} * conv.in_c * e, s.width);
  const uint64_t tap_words =
      uint64_t{conv.kernel_h} * conv.kernel_w * CeilDiv(conv.in_c * e, s.width);
  const uint64_t pixel_words =
      conv.dilation_w == 1 || s.channel_groups ? window_words : tap_words;
  const uint64_t weight_words = BlockWords(s, 0, s.k, c);
  return {r * window_bytes + c * RowBytes(s, 0, s.k), r * pixel_words + weight_words};
}

// A split of `total` into chunks of `size`: how many full ones before the last, and the last's
// size.
struct Chunks {
  uint64_t full_before_last, last;
};
Chunks Split(uint64_t total, uint64_t size) {
  return {CeilDiv(total, size) - 1, LastChunk(total, size)};
}

}  // namespace

void ForEachFoldClass(const NpuConfig& c, const ConvArgs& conv,
                      const std::function<void(const FoldClass&)>& visit) {
  const Shape s = ShapeOf(c, conv);
  if (s.m == 0 || s.n == 0 || s.k == 0) return;
  const auto add = [&](uint64_t count, const FoldReads& reads, uint64_t stream,
                       bool last = false) {
    if (count > 0) visit({count, reads, last, stream});
  };
  const Chunks n = Split(s.n, s.cols);
  if (c.mac().dataflow() == WEIGHT_STATIONARY) {
    // Folds walk the K-chunks inside each N-chunk: the last fold is the last K-chunk of the last.
    // Consecutive K-chunks that read and stream alike are one class (a K of thousands is a few
    // classes; a short last K-chunk streams fewer steps in row groups, a narrow last N-chunk in
    // column groups).
    uint64_t run = 0, full_stream = 0, edge_stream = 0;
    FoldReads full, edge;  // the run's folds of a full N-chunk and of the last
    for (uint64_t k0 = 0; k0 < s.k; k0 += s.rows) {
      const uint64_t r = std::min(s.rows, s.k - k0);
      const FoldReads f = WeightStationaryFold(s, conv, k0, r, s.cols);
      const FoldReads e = WeightStationaryFold(s, conv, k0, r, n.last);
      const uint64_t tf = FoldStream(c, conv, r, s.cols), te = FoldStream(c, conv, r, n.last);
      if (run > 0 && f == full && e == edge && tf == full_stream && te == edge_stream) {
        ++run;
        continue;
      }
      add(run * n.full_before_last, full, full_stream);
      add(run, edge, edge_stream);
      run = 1, full = f, edge = e, full_stream = tf, edge_stream = te;
    }
    add(run * n.full_before_last, full, full_stream);
    add(run - 1, edge, edge_stream);
    add(1, edge, edge_stream, true);
    return;
  }
  const Chunks m = Split(s.m, s.rows);
  const uint64_t t = ConvStream(c, conv);
  add(m.full_before_last * n.full_before_last, OutputStationaryFold(s, conv, s.rows, s.cols), t);
  add(m.full_before_last, OutputStationaryFold(s, conv, s.rows, n.last), t);
  add(n.full_before_last, OutputStationaryFold(s, conv, m.last, s.cols), t);
  add(1, OutputStationaryFold(s, conv, m.last, n.last), t, true);
}

std::vector<FoldClass> ConvFoldClasses(const NpuConfig& c, const ConvArgs& conv) {
  std::vector<FoldClass> classes;
  ForEachFoldClass(c, conv, [&](const FoldClass& f) { classes.push_back(f); });
  return classes;
}

FoldReads ConvStreamReads(const NpuConfig& c, const ConvArgs& conv) {
  FoldReads total;
  ForEachFoldClass(c, conv, [&](const FoldClass& f) {
    total.bytes += f.count * f.reads.bytes;
    total.words += f.count * f.reads.words;
  });
  return total;
}

uint64_t FoldSramCycles(const NpuConfig& c, const FoldReads& reads) {
  return CeilDiv(reads.words, c.sram().banks());
}

}  // namespace npu::spec
