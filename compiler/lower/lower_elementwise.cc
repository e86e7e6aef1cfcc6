// Elementwise lowering: quantised add/sub/mul/max/min -> ELTWISE (EltwiseLayer), lut -> LUT
// (LutLayer), and a mixed-precision network's conversions: int8 -> FP16 (DequantizeLinear) a LUT
// with FP16 entries, FP16 -> int8 (QuantizeLinear) an FP16 ELTWISE adding -0 with int8_out.
//
// ELTWISE reads a as the whole output and b as a's shape or broadcast per channel (one value per
// channel: b is [.., 1, C]), per pixel (one per pixel: b is the output's shape with one channel)
// or a scalar; b may be an activation or a constant. An op whose a is the broadcast operand
// swaps them (each op is symmetric once the multipliers swap with them); any other broadcast is
// Unimplemented (the control core runs it).
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "compiler/lower/lower_ops.h"
#include "hw/spec/fp16.h"

namespace npu::compiler::lowering {
namespace {

using ir::OpKind;

// `s` right-aligned to `rank` dims, padded with ones.
ir::Shape Aligned(const ir::Shape& s, size_t rank) {
  ir::Shape a(rank - std::min(rank, s.size()), 1);
  a.insert(a.end(), s.begin(), s.end());
  return a;
}

// How `b` broadcasts to `y`, if ELTWISE can read it that way.
std::optional<spec::Broadcast> BroadcastOf(const ir::Shape& b_shape, const ir::Shape& y) {
  const ir::Shape b = Aligned(b_shape, y.size());
  if (b == y) return spec::Broadcast::kNone;
  if (ir::NumElements(b) == 1) return spec::Broadcast::kScalar;
  ir::Shape channel(y.size(), 1), pixel = y;
  channel.back() = y.back();
  pixel.back() = 1;
  if (b == channel) return spec::Broadcast::kChannel;
  if (b == pixel) return spec::Broadcast::kPixel;
  return std::nullopt;
}

spec::EltwiseOp OpOf(OpKind k) {
  switch (k) {
    case OpKind::kMul:
      return spec::EltwiseOp::kMul;
    case OpKind::kMax:
      return spec::EltwiseOp::kMax;
    case OpKind::kMin:
      return spec::EltwiseOp::kMin;
    default:
      return spec::EltwiseOp::kAdd;
  }
}

}  // namespace

Status LowerEltwise(const ir::Node& n, const Network& net, NetLayer& layer,
                    const EltwiseOperands& ops) {
  const ActivationValue& y = net.value(layer.output);
  const ir::Tensor *ta = n.input(ops.swapped ? 1 : 0), *tb = n.input(ops.swapped ? 0 : 1);
  const ir::Shape& shape_y = n.output(0)->shape();
  if (Aligned(ta->shape(), shape_y.size()) != shape_y) {
    return Unimplemented("neither operand has the output's shape");
  }
  const std::optional<spec::Broadcast> broadcast = BroadcastOf(tb->shape(), shape_y);
  if (!broadcast) {
    return Unimplemented(
        fmt::format("b {} broadcasts to {} in a way ELTWISE does not read (per "
                    "channel, per pixel, scalar)",
                    ir::ShapeText(tb->shape()), ir::ShapeText(shape_y)));
  }
  EltwiseLayer e;
  e.name = n.name();
  e.op = OpOf(n.kind());
  e.h = y.h, e.w = y.w, e.c = y.c;
  e.broadcast = *broadcast;
  if (y.fp16) {  // an FP16 add of two activations (qinterp::CheckFp16Graph)
    if (tb->is_constant() || e.op != spec::EltwiseOp::kAdd) {
      return BadNode(n, "an FP16 elementwise op adds two activations");
    }
    e.fp16 = true;
    e.fp16_relu = n.attrs().GetInt("fp16_relu", 0) != 0;
    NPU_TRY(CheckEltwiseLayer(e));
    layer.op = e.OpName();
    layer.work = std::move(e);
    return Status::Ok();
  }
  e.a_zero_point = ta->quant().zero_point[0];
  e.b_zero_point = tb->quant().zero_point[0];
  e.output_zero_point = y.zero_point;
  if (tb->is_constant()) {
    const auto v = tb->data<int8_t>();
    e.b_constant.assign(v.begin(), v.end());
  }
  if (e.op == spec::EltwiseOp::kMul) {
    NPU_ASSIGN_OR_RETURN(const int64_t m, IntAttr(n, "multiplier"));
    e.a_multiplier = int32_t(m), e.b_multiplier = 0;
  } else {
    NPU_ASSIGN_OR_RETURN(const int64_t ma, IntAttr(n, "a_multiplier"));
    NPU_ASSIGN_OR_RETURN(const int64_t mb, IntAttr(n, "b_multiplier"));
    e.a_multiplier = int32_t(ops.swapped ? mb : ma);
    e.b_multiplier = int32_t(ops.swapped ? ma : mb);
  }
  NPU_ASSIGN_OR_RETURN(const int64_t shift, IntAttr(n, "shift"));
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(n, "clamp_min"));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(n, "clamp_max"));
  e.shift = int32_t(shift), e.clamp_min = int32_t(lo), e.clamp_max = int32_t(hi);
  const Status fits = CheckEltwiseLayer(e);
  if (!fits.ok()) return Unimplemented(fits.message());
  layer.op = e.OpName();
  layer.work = std::move(e);
  return Status::Ok();
}

Status LowerLut(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue& y = net.value(layer.output);
  LutLayer l;
  l.name = n.name();
  l.h = y.h, l.w = y.w, l.c = y.c;
  for (int64_t v : n.attrs().GetInts("table")) l.table.push_back(static_cast<int8_t>(v));
  NPU_TRY(CheckLutLayer(l));
  layer.op = "lut";
  layer.work = std::move(l);
  return Status::Ok();
}

Status LowerConversion(const ir::Node& n, const Network& net, NetLayer& layer) {
  const ActivationValue& y = net.value(layer.output);
  if (n.kind() == OpKind::kDequantizeLinear) {
    const ir::QuantParams& q = n.input(0)->quant();
    LutLayer l;
    l.name = n.name();
    l.function = "to fp16";
    l.h = y.h, l.w = y.w, l.c = y.c;
    l.fp16_out = true;
    const std::array<spec::Fp16, 256> table = spec::DequantizeTable(q.zero_point[0], q.scale[0]);
    l.table.resize(l.TableBytes());
    for (size_t k = 0; k < table.size(); ++k) spec::StoreFp16(l.table.data(), k, table[k]);
    NPU_TRY(CheckLutLayer(l));
    layer.op = "to_fp16";
    layer.work = std::move(l);
    return Status::Ok();
  }
  EltwiseLayer e;
  e.name = n.name();
  e.op = spec::EltwiseOp::kAdd;
  e.h = y.h, e.w = y.w, e.c = y.c;
  e.broadcast = spec::Broadcast::kScalar;
  e.b_constant = {0x00, static_cast<int8_t>(0x80)};  // FP16 -0: x + -0 is x, +0 included
  e.fp16 = true;
  e.int8_out = true;
  e.a_multiplier = static_cast<int32_t>(spec::FloatToBits(spec::Fp16InverseScale(y.scale)));
  e.output_zero_point = y.zero_point;
  NPU_TRY(CheckEltwiseLayer(e));
  layer.op = "to_int8";
  layer.work = std::move(e);
  return Status::Ok();
}

}  // namespace npu::compiler::lowering
