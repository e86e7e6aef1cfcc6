// One quantised resampling layer, as the vector unit's RESIZE computes it: an int8 NHWC tensor
// resized in height and width by per-row and per-column taps (hw/spec/resize.h: two source
// indices and the second's weight in 1/1024ths), bilinear or nearest (weight 0), any coordinate
// transformation; the quantisation is the input's. Batch 1.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/resize.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct ResizeLayer {
  std::string name;
  uint32_t in_h = 1, in_w = 1, channels = 1;
  uint32_t out_h = 1, out_w = 1;
  int32_t zero_point = 0;  // the input's and the output's
  // One per output row (out_h) and column (out_w); indices into the whole input.
  std::vector<spec::ResizeTap> row_taps, col_taps;

  uint64_t InputBytes() const { return uint64_t{in_h} * in_w * channels; }
  uint64_t OutputBytes() const { return uint64_t{out_h} * out_w * channels; }
  // Every weight 0 or 1024: each output is one input value.
  bool Nearest() const;
  std::string DisplayName() const { return name.empty() ? "<unnamed>" : name; }
};

// RESIZE's 16-bit extents and pixel strides: a tensor above this in any dimension runs on the
// control core.
inline constexpr uint32_t kMaxResizeExtent = 65535;

// A non-empty shape, one tap per output row and column inside the input with weights 0..1024, an
// int8 zero point (InvalidArgument); Unimplemented for a dimension above kMaxResizeExtent. The
// error names the layer.
Status CheckResizeLayer(const ResizeLayer& layer);

}  // namespace npu::compiler
