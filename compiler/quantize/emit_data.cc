// Quantised forms of the ops that move values without computing on them: each output keeps its
// input's parameters (unify_ranges.h made them one range), the constant operands become
// attributes:
//   concat          axis; every input in the output's parameters (a table requantises one a QDQ
//                   model gave others);
//   slice, split    per-dimension start and step over the whole rank (split: one slice per
//                   output);
//   transpose       perm (a transpose that only moves dims of size 1 is a reshape);
//   channel_shuffle group (NHWC);
//   pad             pads, and the pad value in the input's quantisation;
//   resize          NHWC [1,H,W,C] -> [1,H',W',C]; per output row and column its two source
//                   indices and the second's weight in 1/1024 (the float op's sampling).
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/interp/resize_taps.h"
#include "compiler/quantize/graph_quantizer.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

std::vector<int64_t> IntConstant(const ir::Tensor* t) {
  if (t == nullptr || !t->is_constant() || t->dtype() != ir::DType::kInt64) return {};
  const auto v = t->data<int64_t>();
  return {v.begin(), v.end()};
}

int64_t Axis(int64_t axis, int64_t rank) { return axis < 0 ? axis + rank : axis; }

// ONNX Slice's start of one axis, clamped as the op clamps it.
int64_t SliceStart(int64_t start, int64_t dim, int64_t step) {
  if (start < 0) start += dim;
  return step > 0 ? std::clamp<int64_t>(start, 0, dim) : std::clamp<int64_t>(start, 0, dim - 1);
}

bool IsView(const std::vector<int64_t>& perm, const ir::Shape& shape) {
  int64_t last = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  return true;
}

}  // namespace

Status GraphQuantizer::EmitConcat(const ir::Node& n) {
  const ir::Tensor* out = n.output(0);
  NPU_ASSIGN_OR_RETURN(const ir::QuantParams params, ParamsFor(*out));
  std::vector<ir::Tensor*> inputs;
  for (size_t i = 0; i < n.num_inputs(); ++i) {
    NPU_ASSIGN_OR_RETURN(ir::Tensor * x, ValueOrConstant(n, i));
    inputs.push_back(Requantized(x, params, fmt::format("{}.in{}", n.name(), i)));
  }
  ir::Attributes attrs;
  attrs.Set("axis", Axis(n.attrs().GetInt("axis", 0), int64_t(out->shape().size())));
  AddNode(n, OpKind::kConcat, std::move(inputs), *out, params, std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitSlice(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const ir::Shape& shape = x->shape();
  const int64_t rank = int64_t(shape.size());
  const std::vector<int64_t> starts = IntConstant(n.input(1)), ends = IntConstant(n.input(2));
  std::vector<int64_t> axes = IntConstant(n.input(3)), steps = IntConstant(n.input(4));
  if (starts.empty() || starts.size() != ends.size()) {
    return Unsupported(n, "starts and ends must be constants (after shape folding)");
  }
  if (axes.empty()) {
    for (size_t i = 0; i < starts.size(); ++i) axes.push_back(int64_t(i));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  std::vector<int64_t> start(rank, 0), step(rank, 1);
  for (size_t i = 0; i < axes.size(); ++i) {
    const int64_t d = Axis(axes[i], rank);
    if (d < 0 || d >= rank || steps[i] == 0) return Unsupported(n, "a bad axis or a zero step");
    step[d] = steps[i];
    start[d] = SliceStart(starts[i], shape[d], steps[i]);
  }
  ir::Attributes attrs;
  attrs.Set("starts", start);
  attrs.Set("steps", step);
  AddNode(n, OpKind::kSlice, {x}, *n.output(0), x->quant(), std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitSplit(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const int64_t rank = int64_t(x->shape().size());
  const int64_t axis = Axis(n.attrs().GetInt("axis", 0), rank);
  int64_t offset = 0;
  for (size_t i = 0; i < n.num_outputs(); ++i) {
    const ir::Tensor* out = n.output(i);
    std::vector<int64_t> start(rank, 0), step(rank, 1);
    start[axis] = offset;
    offset += out->shape()[axis];
    ir::Attributes attrs;
    attrs.Set("starts", start);
    attrs.Set("steps", step);
    ir::Node* node = q_.AddNode(OpKind::kSlice, fmt::format("{}.{}", n.name(), i), {x},
                                {out->name()}, std::move(attrs));
    ir::Tensor* q = node->output(0);
    q->set_dtype(ir::DType::kInt8);
    q->set_shape(out->shape());
    q->set_layout(out->layout());
    q->quant() = x->quant();
    value_[out] = q;
  }
  return Status::Ok();
}

Status GraphQuantizer::EmitTranspose(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const std::vector<int64_t> perm = n.attrs().GetInts("perm");
  if (perm.size() != x->shape().size()) return Unsupported(n, "perm does not match the rank");
  if (IsView(perm, x->shape())) return EmitView(n);
  ir::Attributes attrs;
  attrs.Set("perm", perm);
  AddNode(n, OpKind::kTranspose, {x}, *n.output(0), x->quant(), std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitChannelShuffle(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  ir::Attributes attrs;
  attrs.Set("group", n.attrs().GetInt("group", 1));
  AddNode(n, OpKind::kChannelShuffle, {x}, *n.output(0), x->quant(), std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitPad(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/false));
  const std::vector<int64_t> pads = IntConstant(n.input(1));
  if (pads.size() != 2 * x->shape().size()) return Unsupported(n, "pads must be a constant");
  float value = 0;
  if (const ir::Tensor* v = n.input(2); v != nullptr) {
    if (!v->is_constant() || v->dtype() != ir::DType::kFloat32) {
      return Unsupported(n, "the pad value must be a float constant");
    }
    value = v->data<float>()[0];
  }
  ir::Attributes attrs;
  attrs.Set("pads", pads);
  attrs.Set("value", int64_t{QuantizeToInt8(value, x->quant().scale[0], x->quant().zero_point[0])});
  AddNode(n, OpKind::kPad, {x}, *n.output(0), x->quant(), std::move(attrs));
  return Status::Ok();
}

Status GraphQuantizer::EmitResize(const ir::Node& n) {
  NPU_ASSIGN_OR_RETURN(ir::Tensor * x, Operand(n, 0, /*need_nhwc=*/true));
  const ir::Shape &in = x->shape(), &out = n.output(0)->shape();
  if (out.size() != 4 || out[0] != in[0] || out[3] != in[3]) {
    return Unsupported(n, "only the height and width are resized");
  }
  const ir::Tensor* scales = n.num_inputs() > 2 ? n.input(2) : nullptr;
  const bool has_scales =
      scales != nullptr && scales->is_constant() && ir::NumElements(scales->shape()) == 4;
  ir::Attributes attrs;
  for (int d : {1, 2}) {
    // The layout pass put NCHW scales in NHWC order, like the shapes.
    const float scale = has_scales ? scales->data<float>()[d] : float(out[d]) / float(in[d]);
    NPU_ASSIGN_OR_RETURN(const std::vector<interp::ResizeTap> taps,
                         interp::ResizeAxisTaps(n.attrs(), in[d], out[d], scale));
    std::vector<int64_t> flat;
    for (const interp::ResizeTap& t : taps) {
      flat.insert(flat.end(), {t.i0, t.i1, std::clamp<int64_t>(std::lround(t.w1 * 1024), 0, 1024)});
    }
    attrs.Set(d == 1 ? "h_taps" : "w_taps", flat);
  }
  AddNode(n, OpKind::kResize, {x}, *n.output(0), x->quant(), std::move(attrs));
  return Status::Ok();
}

}  // namespace npu::compiler::quantize
