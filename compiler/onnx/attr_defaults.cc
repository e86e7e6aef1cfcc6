// Defaults from the ONNX operator specs (opsets 11..17).
#include "compiler/onnx/attr_defaults.h"

#include <fmt/format.h>

#include <algorithm>

namespace npu::compiler::onnx_detail {
namespace {

using ir::OpKind;

void Default(ir::Attributes& attrs, const std::string& name, ir::AttrValue value) {
  if (!attrs.Has(name)) attrs.Set(name, std::move(value));
}

// Total padding of one spatial dim for SAME_*: the output is ceil(in / stride).
int64_t SamePadding(int64_t in, int64_t kernel, int64_t stride, int64_t dilation) {
  const int64_t out = (in + stride - 1) / stride;
  return std::max<int64_t>((out - 1) * stride + (kernel - 1) * dilation + 1 - in, 0);
}

// Replaces auto_pad by explicit pads [begin..., end...] (ONNX order), as torch writes them.
// 1. NOTSET keeps the given pads (default zeros), VALID is zeros.
// 2. SAME_UPPER / SAME_LOWER split the total padding with the odd unit at the end / beginning;
//    the total needs the input's spatial size unless every stride is 1.
Status ResolvePads(const std::vector<ir::Tensor*>& inputs, ir::Attributes& attrs,
                   const std::string& where) {
  const std::vector<int64_t> kernel = attrs.GetInts("kernel_shape");
  const size_t n = kernel.size();
  const std::vector<int64_t> strides = attrs.GetInts("strides");
  const std::vector<int64_t> dilations = attrs.GetInts("dilations", std::vector<int64_t>(n, 1));
  const std::string mode = attrs.GetString("auto_pad", "NOTSET");
  attrs.Erase("auto_pad");
  if (strides.size() != n || dilations.size() != n) {
    return InvalidArgument(
        fmt::format("{}: kernel_shape, strides and dilations have {}, {} and "
                    "{} entries",
                    where, n, strides.size(), dilations.size()));
  }
  for (size_t i = 0; i < n; ++i) {
    if (kernel[i] < 1 || strides[i] < 1 || dilations[i] < 1) {
      return InvalidArgument(fmt::format(
          "{}: kernel_shape {}, strides {} and dilations {} must "
          "be positive",
          where, ir::ShapeText(kernel), ir::ShapeText(strides), ir::ShapeText(dilations)));
    }
  }
  std::vector<int64_t> pads(2 * n, 0);
  if (mode == "NOTSET") pads = attrs.GetInts("pads", pads);
  if (pads.size() != 2 * n) {
    return InvalidArgument(fmt::format("{}: pads has {} entries; a {}-D kernel needs {}", where,
                                       pads.size(), n, 2 * n));
  }
  if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
    const ir::Shape& x = inputs[0]->shape();
    const bool unit_strides =
        std::all_of(strides.begin(), strides.end(), [](int64_t s) { return s == 1; });
    if (!unit_strides && x.size() != n + 2) {
      return Unimplemented(
          fmt::format("{}: auto_pad {} with strides {} needs the input's spatial "
                      "size, which the model does not declare (no value_info for "
                      "'{}')",
                      where, mode, ir::ShapeText(strides), inputs[0]->name()));
    }
    for (size_t i = 0; i < n; ++i) {
      const int64_t total = unit_strides
                                ? (kernel[i] - 1) * dilations[i]
                                : SamePadding(x[i + 2], kernel[i], strides[i], dilations[i]);
      const int64_t small = total / 2, large = total - small;
      pads[i] = mode == "SAME_UPPER" ? small : large;
      pads[i + n] = mode == "SAME_UPPER" ? large : small;
    }
  }
  attrs.Set("pads", pads);
  return Status::Ok();
}

// Conv, QLinearConv, ConvTranspose, MaxPool, AveragePool.
Status NormalizeWindow(OpKind kind, const std::vector<ir::Tensor*>& inputs, ir::Attributes& attrs,
                       const std::string& where) {
  const bool conv =
      kind == OpKind::kConv || kind == OpKind::kQLinearConv || kind == OpKind::kConvTranspose;
  if (conv && !attrs.Has("kernel_shape")) {
    const ir::Tensor* w = inputs[kind == OpKind::kQLinearConv ? 3 : 1];
    if (w == nullptr || w->shape().size() < 3) {
      return Unimplemented(
          fmt::format("{}: no kernel_shape, and the weight's shape is unknown", where));
    }
    attrs.Set("kernel_shape", std::vector<int64_t>(w->shape().begin() + 2, w->shape().end()));
  }
  if (!attrs.Has("kernel_shape")) {
    return InvalidArgument(fmt::format("{}: kernel_shape is required", where));
  }
  const size_t n = attrs.GetInts("kernel_shape").size();
  Default(attrs, "strides", std::vector<int64_t>(n, 1));
  if (kind != OpKind::kAveragePool) Default(attrs, "dilations", std::vector<int64_t>(n, 1));
  if (conv) Default(attrs, "group", int64_t{1});
  if (conv && attrs.GetInt("group", 0) < 1) {
    return InvalidArgument(fmt::format("{}: group must be positive", where));
  }
  if (!conv) Default(attrs, "ceil_mode", int64_t{0});
  if (kind == OpKind::kAveragePool) Default(attrs, "count_include_pad", int64_t{0});
  if (kind == OpKind::kConvTranspose) {
    Default(attrs, "output_padding", std::vector<int64_t>(n, 0));
    const std::string mode = attrs.GetString("auto_pad", "NOTSET");
    if (mode != "NOTSET" && mode != "VALID") {  // SAME_* pads the output, not the input
      return Unimplemented(fmt::format("{}: ConvTranspose auto_pad {}; give pads", where, mode));
    }
  }
  return ResolvePads(inputs, attrs, where);
}

// Before opset 13, Softmax flattens the input to 2-D at `axis` (default 1); from 13 it works
// along `axis` (default -1). The two agree when `axis` is the last dim, the only case torch
// exports without surrounding Transposes; the IR uses the opset-13 meaning.
Status NormalizeSoftmax(const std::vector<ir::Tensor*>& inputs, ir::Attributes& attrs,
                        const RankMap& ranks, int64_t opset, const std::string& where) {
  if (opset >= 13) {
    Default(attrs, "axis", int64_t{-1});
    return Status::Ok();
  }
  const int64_t axis = attrs.GetInt("axis", 1);
  const std::optional<int> rank = ranks.Get(inputs[0]);
  if (!rank) {
    return Unimplemented(
        fmt::format("{}: Softmax of opset {} needs its input's rank, which "
                    "import cannot tell (declare it in value_info)",
                    where, opset));
  }
  if ((axis < 0 ? axis + *rank : axis) != *rank - 1) {
    return Unimplemented(
        fmt::format("{}: Softmax of opset {} over axis {} of a rank-{} input "
                    "coerces it to 2-D; only the last axis is supported",
                    where, opset, axis, *rank));
  }
  attrs.Set("axis", axis);
  return Status::Ok();
}

// Reductions: keepdims written out (default 1); noop_with_empty_axes kept only when 1.
void NormalizeReduce(ir::Attributes& attrs) {
  Default(attrs, "keepdims", int64_t{1});
  if (attrs.GetInt("noop_with_empty_axes", 0) == 0) attrs.Erase("noop_with_empty_axes");
}

// Resize: mode, coordinate_transformation_mode and nearest_mode written out; the attributes of
// the modes import refuses (cubic, tf_crop_and_resize) dropped.
void NormalizeResize(ir::Attributes& attrs) {
  Default(attrs, "mode", std::string("nearest"));
  Default(attrs, "coordinate_transformation_mode", std::string("half_pixel"));
  Default(attrs, "nearest_mode", std::string("round_prefer_floor"));
  for (const char* name : {"cubic_coeff_a", "exclude_outside", "extrapolation_value"}) {
    attrs.Erase(name);
  }
}

// The ops added for torch's exports that only need defaults written out.
Status NormalizeNewOps(OpKind kind, ir::Attributes& attrs, const std::string& where) {
  switch (kind) {
    case OpKind::kHardSigmoid:
      Default(attrs, "alpha", 0.2f);
      Default(attrs, "beta", 0.5f);
      break;
    case OpKind::kLeakyRelu:
      Default(attrs, "alpha", 0.01f);
      break;
    case OpKind::kElu:
      Default(attrs, "alpha", 1.0f);
      break;
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      NormalizeReduce(attrs);
      break;
    case OpKind::kSplit:
      Default(attrs, "axis", int64_t{0});
      break;
    case OpKind::kResize:
      NormalizeResize(attrs);
      break;
    case OpKind::kLayerNormalization:
      Default(attrs, "axis", int64_t{-1});
      Default(attrs, "epsilon", 1e-5f);
      attrs.Erase("stash_type");  // precision of the training outputs
      break;
    case OpKind::kCast:
      if (!attrs.Has("to")) return InvalidArgument(fmt::format("{}: Cast needs 'to'", where));
      break;
    default:
      break;
  }
  return Status::Ok();
}

}  // namespace

Status NormalizeAttributes(OpKind kind, const std::vector<ir::Tensor*>& inputs,
                           ir::Attributes& attrs, const RankMap& ranks, int64_t opset,
                           const std::string& where) {
  switch (kind) {
    case OpKind::kConv:
    case OpKind::kQLinearConv:
    case OpKind::kConvTranspose:
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
      return NormalizeWindow(kind, inputs, attrs, where);
    case OpKind::kSoftmax:
      return NormalizeSoftmax(inputs, attrs, ranks, opset, where);
    case OpKind::kBatchNormalization:
      Default(attrs, "epsilon", 1e-5f);
      attrs.Erase("momentum");  // running-statistics update rate: training only
      attrs.Erase("training_mode");
      return Status::Ok();
    case OpKind::kGemm:
      Default(attrs, "alpha", 1.0f);
      Default(attrs, "beta", 1.0f);
      Default(attrs, "transA", int64_t{0});
      Default(attrs, "transB", int64_t{0});
      return Status::Ok();
    case OpKind::kFlatten:
      Default(attrs, "axis", int64_t{1});
      return Status::Ok();
    case OpKind::kGather:
      Default(attrs, "axis", int64_t{0});
      return Status::Ok();
    case OpKind::kPad:
      Default(attrs, "mode", std::string("constant"));
      return Status::Ok();
    case OpKind::kReshape:  // allowzero=0 (opset 14+) is what Reshape always did before 14
      if (attrs.GetInt("allowzero", 1) == 0) attrs.Erase("allowzero");
      return Status::Ok();
    case OpKind::kConcat:
      if (attrs.Has("axis")) return Status::Ok();
      return InvalidArgument(fmt::format("{}: Concat needs an axis attribute", where));
    case OpKind::kTranspose:
      if (std::optional<int> rank = ranks.Get(inputs[0]); rank && !attrs.Has("perm")) {
        std::vector<int64_t> perm(*rank);
        for (int i = 0; i < *rank; ++i) perm[i] = *rank - 1 - i;  // ONNX default: reverse
        attrs.Set("perm", perm);
      }
      return Status::Ok();
    default:
      return NormalizeNewOps(kind, attrs, where);
  }
}

}  // namespace npu::compiler::onnx_detail
