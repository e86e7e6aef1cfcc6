// Reading the attributes of the quantised IR's ops (docs/quantized-ir.md) into plain structs,
// with every value range-checked. The checker and the integer interpreter both go through these,
// so a graph the checker accepts is exactly a graph the interpreter can run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::qinterp {

// A 2-D window: kernel_shape [kh,kw], strides, pads [top,left,bottom,right], dilations.
struct QWindow {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;

  // floor((in + pads - ((k - 1) * d + 1)) / s) + 1; <= 0 when the window does not fit.
  int64_t OutH(int64_t in_h) const;
  int64_t OutW(int64_t in_w) const;
};

// Output clamp, both ends in [-128, 127], min <= max.
struct QClamp {
  int32_t min = -128, max = 127;
};

// kFusedConv and kGemm: per-output-channel requantisation.
struct QRequant {
  std::vector<int32_t> multiplier;  // [O], in (0, 2^31)
  std::vector<int32_t> shift;       // [O], in 1..62
  QClamp clamp;
};

struct QConvAttrs {
  QWindow window;
  int64_t group = 1;
  QRequant requant;
};

// kAveragePool / kGlobalAveragePool carry a scalar multiplier and shift; kMaxPool none.
struct QPoolAttrs {
  QWindow window;  // global average pool: filled in by the caller from the input plane
  bool count_include_pad = false;
  int32_t multiplier = 0, shift = 0;
  QClamp clamp;
};

struct QAddAttrs {
  int32_t a_multiplier = 0, b_multiplier = 0;  // int16 range
  int32_t shift = 0;                           // 1..62
  QClamp clamp;
};

// kMul, kMatMul, kReduceMean, kReduceSum: one multiplier/shift pair and a clamp.
struct QScale {
  int32_t multiplier = 0, shift = 0;
  QClamp clamp;
};

// Each fails with InvalidArgument naming the node and the attribute that is missing, of the
// wrong type or out of range.
StatusOr<int64_t> ReadInt(const ir::Node& node, const std::string& name, int64_t lo, int64_t hi);
// `size` values (any number if negative), each in [lo, hi].
StatusOr<std::vector<int64_t>> ReadInts(const ir::Node& node, const std::string& name, int64_t size,
                                        int64_t lo, int64_t hi);
StatusOr<QScale> ReadScale(const ir::Node& node);
StatusOr<QWindow> ReadWindow(const ir::Node& node, bool has_dilations);
StatusOr<QClamp> ReadClamp(const ir::Node& node);
StatusOr<QRequant> ReadRequant(const ir::Node& node, int64_t out_channels);
StatusOr<QConvAttrs> ReadConvAttrs(const ir::Node& node, int64_t out_channels);
// Max, average, global average, and a pool mean (its window: the attribute `window`).
StatusOr<QPoolAttrs> ReadPoolAttrs(const ir::Node& node);
StatusOr<QAddAttrs> ReadAddAttrs(const ir::Node& node);  // also kMax, kMin

}  // namespace npu::compiler::qinterp
