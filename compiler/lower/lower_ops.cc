// Per-op lowering: attributes and constants of one quantised IR node -> layer parameters.
#include "compiler/lower/lower_ops.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/tiling/tile_grid.h"

namespace npu::compiler::lowering {
namespace {

template <class T>
StatusOr<std::vector<T>> Constant(const ir::Node& n, size_t index, const ir::Shape& shape) {
  const ir::Tensor* t = n.input(index);
  if (t == nullptr || !t->is_constant() || t->dtype() != ir::DTypeOf<T>() || t->shape() != shape) {
    return BadNode(n, fmt::format("input {} must be a {} constant of shape {}", index,
                                  ir::DTypeName(ir::DTypeOf<T>()), ir::ShapeText(shape)));
  }
  const auto data = t->data<T>();
  return std::vector<T>(data.begin(), data.end());
}

std::vector<int32_t> Narrow(const std::vector<int64_t>& v) { return {v.begin(), v.end()}; }

// FP16 (an FP16 graph's node, checked by qinterp::CheckFp16Graph): the layer's FP16 weights
// (the FP16 graph's constants; `weights` and `bias` stay empty), FP32 bias and FP16 clamp bounds.
Status SetFp16(const ir::Node& n, uint32_t out_c, ConvLayer& c) {
  const ir::Tensor *w = n.input(1), *b = n.input(2);
  if (w->dtype() != ir::DType::kFloat16 || b == nullptr || b->dtype() != ir::DType::kFloat32 ||
      ir::NumElements(b->shape()) != out_c) {
    return BadNode(n, "an FP16 layer takes f16 weights and an f32 bias of one value a channel");
  }
  c.fp16 = true;
  c.weights_fp16.assign(w->data<uint16_t>().begin(), w->data<uint16_t>().end());
  c.bias_fp32.assign(b->data<float>().begin(), b->data<float>().end());
  c.fp16_clamp_min = static_cast<uint16_t>(n.attrs().GetInt("fp16_clamp_min", 0xFC00));
  c.fp16_clamp_max = static_cast<uint16_t>(n.attrs().GetInt("fp16_clamp_max", 0x7C00));
  if (KernelBlocking(c).count() > 1) {
    return Unimplemented(fmt::format(
        "node '{}': an FP16 kernel of {}x{} (dilation {}x{}) would be split over several CONVs, "
        "each rounding its sum; at most {} taps and dilation {} per axis",
        n.name(), c.kernel_h, c.kernel_w, c.dilation_h, c.dilation_w, kMaxConvField,
        kMaxConvField));
  }
  return Status::Ok();
}

// Requantisation and clamp of a conv or gemm with `out_c` channels, and the quantisation of its
// input and output values.
Status SetRequant(const ir::Node& n, const Network& net, const NetLayer& layer, uint32_t out_c,
                  ConvLayer& c) {
  if (net.value(layer.output).fp16) return SetFp16(n, out_c, c);
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> m, IntsAttr(n, "multiplier", out_c));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(n, "shift", out_c));
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(n, "clamp_min"));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(n, "clamp_max"));
  c.multiplier = Narrow(m);
  c.shift = Narrow(s);
  c.clamp_min = static_cast<int32_t>(lo);
  c.clamp_max = static_cast<int32_t>(hi);
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  c.input_scale = x.scale, c.input_zero_point = x.zero_point;
  c.output_scale = y.scale, c.output_zero_point = y.zero_point;
  return Status::Ok();
}

// Splits a grouped convolution into one part per group over its channel slices.
std::vector<ConvPart> SplitGroups(const ConvLayer& whole, uint32_t groups) {
  std::vector<ConvPart> parts;
  const uint32_t in_g = whole.in_c / groups, out_g = whole.out_c / groups;
  const uint64_t per_channel = uint64_t{whole.kernel_h} * whole.kernel_w * in_g;
  for (uint32_t g = 0; g < groups; ++g) {
    ConvPart p{whole, g * in_g, g * out_g};
    p.conv.name = fmt::format("{}.g{}", whole.name, g);
    p.conv.in_c = in_g;
    p.conv.out_c = out_g;
    auto slice = [&](const auto& v, uint64_t per) {
      return std::decay_t<decltype(v)>(v.begin() + g * out_g * per,
                                       v.begin() + (g + 1) * out_g * per);
    };
    if (whole.fp16) {
      p.conv.weights_fp16 = slice(whole.weights_fp16, per_channel);
      p.conv.bias_fp32 = slice(whole.bias_fp32, 1);
      parts.push_back(std::move(p));
      continue;
    }
    p.conv.weights = slice(whole.weights, per_channel);
    p.conv.bias = slice(whole.bias, 1);
    p.conv.multiplier = slice(whole.multiplier, 1);
    p.conv.shift = slice(whole.shift, 1);
    parts.push_back(std::move(p));
  }
  return parts;
}

// What the tiler will decompose for CONV's 4-bit kernel, stride and dilation fields (and
// windows of padding alone), said in the layer's note.
std::string FieldNote(const ConvLayer& c) {
  std::vector<std::string> notes;
  const uint32_t blocks = KernelBlocking(c).count();
  if (blocks > 1) {
    notes.push_back(fmt::format(
        "kernel {}x{} (dilation {}x{}) as {} kernel blocks accumulating "
        "into one tile (CONV encodes at most {} taps and dilation {})",
        c.kernel_h, c.kernel_w, c.dilation_h, c.dilation_w, blocks, kMaxConvField, kMaxConvField));
  }
  if (c.stride_h > kMaxConvField || c.stride_w > kMaxConvField) {
    notes.push_back(
        fmt::format("stride {}x{} (CONV encodes at most {}): one output row/column "
                    "per tile",
                    c.stride_h, c.stride_w, kMaxConvField));
  }
  if (c.pad_top >= c.KernelExtentH() || c.pad_bottom >= c.KernelExtentH() ||
      c.pad_left >= c.KernelExtentW() || c.pad_right >= c.KernelExtentW()) {
    notes.push_back("windows of padding alone read a row of pad values (their output is the bias)");
  }
  return fmt::format("{}", fmt::join(notes, "; "));
}

Status CheckOutput(const ir::Node& n, const ConvLayer& c, const ActivationValue& y) {
  if (c.OutH() != y.h || c.OutW() != y.w || c.out_c != y.c) {
    return BadNode(n, fmt::format("output {}x{}x{} does not match the convolution's {}x{}x{}", y.h,
                                  y.w, y.c, c.OutH(), c.OutW(), c.out_c));
  }
  return Status::Ok();
}

// The quantiser marks int4 weights with weight_bits = 4 (W4A8; CheckSizes checks the values).
bool Int4Weights(const ir::Node& n) { return n.attrs().GetInt("weight_bits", 8) == 4; }

}  // namespace

Status LowerConv(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  const ir::Tensor* w = n.input(1);
  if (w == nullptr || w->shape().size() != 4) return BadNode(n, "weights must be [O][kh][kw][I/g]");
  const ir::Shape& ws = w->shape();
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k, IntsAttr(n, "kernel_shape", 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(n, "strides", 2));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> p, IntsAttr(n, "pads", 4));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> d, IntsAttr(n, "dilations", 2));
  NPU_ASSIGN_OR_RETURN(const int64_t groups, IntAttr(n, "group"));
  if (groups < 1 || x.c % groups != 0 || ws[0] != y.c || y.c % groups != 0 ||
      ws[3] != x.c / groups || ws[1] != k[0] || ws[2] != k[1]) {
    return BadNode(n, fmt::format("weights {} do not fit input channels {}, output channels {}, "
                                  "kernel {}x{} and group {}",
                                  ir::ShapeText(ws), x.c, y.c, k[0], k[1], groups));
  }
  ConvLayer c;
  c.name = n.name();
  c.in_h = x.h, c.in_w = x.w, c.in_c = x.c, c.out_c = y.c;
  c.kernel_h = uint32_t(k[0]), c.kernel_w = uint32_t(k[1]);
  c.stride_h = uint32_t(s[0]), c.stride_w = uint32_t(s[1]);
  c.dilation_h = uint32_t(d[0]), c.dilation_w = uint32_t(d[1]);
  c.pad_top = uint32_t(p[0]), c.pad_left = uint32_t(p[1]);
  c.pad_bottom = uint32_t(p[2]), c.pad_right = uint32_t(p[3]);
  if (!y.fp16) {
    NPU_ASSIGN_OR_RETURN(c.weights, Constant<int8_t>(n, 1, ws));
    NPU_ASSIGN_OR_RETURN(c.bias, Constant<int32_t>(n, 2, {int64_t{y.c}}));
  }
  NPU_TRY(SetRequant(n, net, layer, y.c, c));
  NPU_TRY(CheckOutput(n, c, y));
  c.weights_int4 = Int4Weights(n);
  const bool depthwise = groups > 1 && groups == x.c && groups == y.c;
  c.depthwise = depthwise;
  layer.op = depthwise ? "depthwise_conv2d" : groups > 1 ? "grouped_conv2d" : "conv2d";
  layer.note = FieldNote(c);
  if (groups == 1 || depthwise) {
    NPU_TRY(CheckLayer(c));
    layer.work = std::vector<ConvPart>{{std::move(c)}};
    return Status::Ok();
  }
  std::vector<ConvPart> parts = SplitGroups(c, uint32_t(groups));
  NPU_TRY(CheckLayer(parts.front().conv));
  layer.note = fmt::format(
      "grouped convolution ({} groups) as {} convolutions over channel "
      "slices{}{}",
      groups, groups, layer.note.empty() ? "" : "; ", layer.note);
  layer.work = std::move(parts);
  return Status::Ok();
}

Status LowerGemm(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue &x = net.value(layer.inputs[0]), &y = net.value(layer.output);
  if (n.attrs().GetInt("transB", 0) != 1 || n.attrs().GetInt("transA", 0) != 0) {
    return BadNode(n, "the quantised gemm takes transA = 0, transB = 1");
  }
  if (x.h != y.h || x.w != y.w) {
    return BadNode(n, fmt::format("gemm maps every row of K values to N: {}x{}x{} -> {}x{}x{}", x.h,
                                  x.w, x.c, y.h, y.w, y.c));
  }
  std::vector<int8_t> w;
  std::vector<int32_t> b;
  if (!y.fp16) {
    NPU_ASSIGN_OR_RETURN(w, Constant<int8_t>(n, 1, {y.c, x.c}));
    NPU_ASSIGN_OR_RETURN(b, Constant<int32_t>(n, 2, {int64_t{y.c}}));
  }
  // Rows of a [.., W, K] input are the pixels of an H x W plane: a 1x1 convolution over it.
  ConvLayer c = MakeFullyConnected(n.name(), x.c, y.c, std::move(w), std::move(b));
  c.in_h = x.h, c.in_w = x.w;
  c.weights_int4 = Int4Weights(n);
  NPU_TRY(SetRequant(n, net, layer, y.c, c));
  NPU_TRY(CheckLayer(c));
  layer.op = "fully_connected";
  layer.work = std::vector<ConvPart>{{std::move(c)}};
  return Status::Ok();
}

Status BadNode(const ir::Node& n, const std::string& what) {
  return InvalidArgument(fmt::format("node '{}' ({}): {}", n.name(), ir::OpName(n.kind()), what));
}

StatusOr<int64_t> IntAttr(const ir::Node& n, const std::string& name,
                          std::optional<int64_t> fallback) {
  const auto& values = n.attrs().values();
  auto it = values.find(name);
  if (it == values.end() && fallback) return *fallback;
  const auto* v = it == values.end() ? nullptr : std::get_if<int64_t>(&it->second);
  if (v == nullptr) return BadNode(n, fmt::format("attribute '{}' must be an int", name));
  return *v;
}

StatusOr<std::vector<int64_t>> IntsAttr(const ir::Node& n, const std::string& name, size_t size) {
  const auto& values = n.attrs().values();
  auto it = values.find(name);
  const auto* v = it == values.end() ? nullptr : std::get_if<std::vector<int64_t>>(&it->second);
  if (v == nullptr || v->size() != size) {
    return BadNode(n, fmt::format("attribute '{}' must be a list of {} ints", name, size));
  }
  return *v;
}

}  // namespace npu::compiler::lowering
