// Matrix products of two activations: the quantised matmul -> MatMulLayer (a batched 1x1
// convolution whose weights are LOADed from b). Each operand is read through its view (a value
// as it is, or a transpose of one that is not run: strided_view.h), and the output written
// through its own (a transpose after the product): for every output batch index the offset of
// its a, b and y matrices, broadcast as the IR allows. What the layer cannot run (K above
// kMaxActivationReduction, N above CONV's 16 bits, a view whose rows are not contiguous) is
// Unimplemented: the control core runs it.
#include <fmt/format.h>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler::lowering {
namespace {

// The matrix places of every operand, or why a view cannot be read so.
Status SetPlaces(const MatMulViews& views, const ir::Shape& batch, MatMulLayer& m) {
  const ViewMatrices a = MatricesOf(views.a, batch), b = MatricesOf(views.b, batch);
  const ViewMatrices y = MatricesOf(views.y, batch);
  if (a.col_stride != 1 || y.col_stride != 1 || int64_t(a.places.row_stride) <= 0 ||
      int64_t(y.places.row_stride) <= 0 || int64_t(b.places.row_stride) <= 0) {
    return Unimplemented("a's or the output's rows are not contiguous, or a view runs backwards");
  }
  m.a = a.places, m.y = y.places, m.b = b.places;
  if (b.col_stride == 1) return Status::Ok();
  if (b.places.row_stride != 1)
    return Unimplemented("b has neither its rows nor its columns contiguous");
  // b's columns are contiguous: it is N rows of K (a K^T read as K), CONV's usual layout.
  m.b_transposed = true;
  m.b.row_stride = uint64_t(b.col_stride);
  return Status::Ok();
}

}  // namespace

Status LowerMatMul(const ir::Node& n, const Network& net, NetLayer& layer,
                   const MatMulViews& views) {
  const ir::Shape &sa = views.a.shape, &sb = views.b.shape, &sy = n.output(0)->shape();
  if (sa.size() < 2 || sb.size() < 2 || sy.size() < 2 || sb[sb.size() - 2] != sa.back() ||
      sy[sy.size() - 2] != sa[sa.size() - 2] || sy.back() != sb.back()) {
    return BadNode(n, fmt::format("{} x {} -> {} is not a matrix product", ir::ShapeText(sa),
                                  ir::ShapeText(sb), ir::ShapeText(sy)));
  }
  const ActivationValue &a = net.value(views.a.value), &b = net.value(views.b.value);
  const ActivationValue& y = net.value(views.y.value);
  MatMulLayer m;
  m.name = n.name();
  m.m = uint32_t(sa[sa.size() - 2]), m.k = uint32_t(sa.back()), m.n = uint32_t(sb.back());
  NPU_TRY(SetPlaces(views, ir::Shape(sy.begin(), sy.end() - 2), m));
  m.a_scale = a.scale, m.a_zero_point = a.zero_point;
  m.b_scale = b.scale, m.b_zero_point = b.zero_point;
  m.output_scale = y.scale, m.output_zero_point = y.zero_point;
  NPU_ASSIGN_OR_RETURN(const int64_t multiplier, IntAttr(n, "multiplier"));
  NPU_ASSIGN_OR_RETURN(const int64_t shift, IntAttr(n, "shift"));
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(n, "clamp_min"));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(n, "clamp_max"));
  m.multiplier = int32_t(multiplier), m.shift = int32_t(shift);
  m.clamp_min = int32_t(lo), m.clamp_max = int32_t(hi);
  NPU_TRY(CheckMatMulLayer(m));
  layer.op = "matmul";
  layer.work = std::move(m);
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
