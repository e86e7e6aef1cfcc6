// Helpers shared by the op files: argument checks and 4-D activation geometry. Internal to
// compiler/interp.
#pragma once

#include <fmt/format.h>

#include <span>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/arith.h"
#include "hw/spec/status.h"

namespace npu::compiler::interp {

using Types = std::vector<TensorType>;
using Inputs = std::span<const TensorRef>;
using Outputs = std::span<HostTensor>;

// Rule and kernel signatures; op_semantics.cc maps each OpKind to one of each.
using RuleFn = StatusOr<Types> (*)(const ir::Node&, Inputs);
using KernelFn = Status (*)(const ir::Node&, Inputs, Outputs);

// `in` has between `min` and `max` entries and the first `min` are present.
Status ExpectInputCount(Inputs in, size_t min, size_t max);
// Input `i` is present with element type `dtype`.
Status ExpectDType(Inputs in, size_t i, ir::DType dtype);
// Input `i` is present with rank `rank`.
Status ExpectRank(Inputs in, size_t i, int64_t rank);
// Input `i` is present and its value known (constant, or propagated during shape inference).
Status ExpectValue(Inputs in, size_t i, const char* what);
// An axis in [-rank, rank) made non-negative.
StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
// numpy (multidirectional) broadcasting of two shapes.
StatusOr<ir::Shape> BroadcastShape(const ir::Shape& a, const ir::Shape& b);
// The input's values as int64 (accepting int32 too), e.g. Reshape's shape or Pad's pads.
std::vector<int64_t> IntValues(const TensorRef& t);

// A 4-D activation's dimensions, read according to its layout (kNone counts as NCHW, the ONNX
// order of an imported graph).
struct Act4D {
  int64_t n = 0, c = 0, h = 0, w = 0;
  bool nhwc = false;
};
Act4D ActDims(const TensorRef& t);
ir::Layout ActLayout(const TensorRef& t);  // kNHWC, or kNCHW for NCHW and kNone
ir::Shape ActShape(int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc);

// The largest window attribute (hw/spec/arith.h): beyond it a model is refused at shape
// inference, naming the attribute.
inline constexpr int64_t kMaxWindowValue = spec::kMaxWindowValue;
// `values` (attribute `name`) all at most kMaxWindowValue.
Status CheckWindowValues(const std::string& name, const std::vector<int64_t>& values);

// A 2-D sliding window (conv, pools) resolved from ONNX attributes: kernel_shape, strides,
// pads [top, left, bottom, right], dilations, auto_pad, and ceil_mode for pools.
struct Window2D {
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1;
  int64_t pad_t = 0, pad_l = 0, pad_b = 0, pad_r = 0;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
};
// `kernel` is (kh, kw) from the weights (conv) or kernel_shape (pools).
StatusOr<Window2D> ResolveWindow(const ir::Attributes& attrs, int64_t in_h, int64_t in_w,
                                 int64_t kh, int64_t kw, bool ceil_mode);

// 1-D window ops (Conv, ConvTranspose, pools on [N,C,L]) run as 2-D ones with H = 1 (and the
// canonicalize-1d pass rewrites them so): kernel_shape [k] -> [1,k], strides and dilations
// [s] -> [1,s], pads [b,e] -> [0,b,0,e], output_padding [p] -> [0,p]. Other attributes, and
// lists that are not 1-D, are kept.
ir::Attributes WidenAttributes1D(const ir::Attributes& attrs);
// [N,C,L] -> [N,C,1,L] (the type only; the data is the same bytes). Other ranks unchanged.
TensorRef Widen1D(const TensorRef& t);
// The output type of a widened op back in 1-D: [N,C,1,L] -> [N,C,L], layout none.
TensorType Narrow1D(TensorType t);

// Fused activations (kFusedConv, kFusedAdd): "none", "relu", "relu6".
enum class Activation { kNone, kRelu, kRelu6 };
StatusOr<Activation> ActivationOf(const ir::Node& node);
void ApplyActivation(Activation act, std::span<float> values);

}  // namespace npu::compiler::interp
