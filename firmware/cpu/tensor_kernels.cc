// Lookup tables, broadcasting binary ops and data movement on the control core (the semantics of
// docs/quantized-ir.md over whole tensors).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "firmware/cpu/tensor_index.h"
#include "hw/spec/arith.h"
#include "hw/spec/isa.h"
#include "hw/spec/resize.h"

namespace npu::fw::cpu {
namespace {

int8_t Saturate(int64_t v, const Call& call) {
  const int64_t lo = std::max<int64_t>(call.Int("clamp_min", -128), -128);
  const int64_t hi = std::min<int64_t>(call.Int("clamp_max", 127), 127);
  return static_cast<int8_t>(spec::Clamp64(v, lo, hi));
}

// Copies x into y through `source`: y[i] = x[source[i]].
void Pick(std::span<const int8_t> x, const std::vector<int64_t>& source, std::vector<int8_t>& y) {
  for (size_t i = 0; i < y.size(); ++i) y[i] = x[source[i]];
}

// The source index of each output element of a transpose (`perm`) or slice (`start`, `step`).
std::vector<int64_t> Sources(const Dims& in, const Dims& out, const Dims& perm, const Dims& start,
                             const Dims& step) {
  const Dims strides = StridesOf(in);
  std::vector<int64_t> source, pos(out.size(), 0);
  source.reserve(Count(out));
  do {
    int64_t i = 0;
    for (size_t d = 0; d < out.size(); ++d) i += (start[d] + pos[d] * step[d]) * strides[perm[d]];
    source.push_back(i);
  } while (Next(pos, out));
  return source;
}

Dims Iota(size_t n) {
  Dims v(n);
  for (size_t d = 0; d < n; ++d) v[d] = int64_t(d);
  return v;
}

}  // namespace

Status Lut(Call& call) {
  const std::vector<int64_t> table = call.Ints("table");
  std::span<const int8_t> x = call.inputs[0].i8();
  for (size_t i = 0; i < x.size(); ++i) call.outputs[0][i] = static_cast<int8_t>(table[x[i] + 128]);
  return Status::Ok();
}

Status Binary(Call& call) {
  const Operand &a = call.inputs[0], &b = call.inputs[1];
  const Dims out = DimsOf(call.op.outputs(0));
  const std::vector<int64_t> ia = BroadcastSource(DimsOf(*a.desc), out);
  const std::vector<int64_t> ib = BroadcastSource(DimsOf(*b.desc), out);
  const int32_t za = a.zero_point(), zb = b.zero_point(), zy = call.op.outputs(0).zero_point();
  const int64_t shift = call.Int("shift", 1);
  std::vector<int8_t>& y = call.outputs[0];
  const std::string& k = call.op.kernel();
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t da = a.i8()[ia[i]] - za, db = b.i8()[ib[i]] - zb;
    if (k == "mul") {
      const int32_t m = int32_t(call.Int("multiplier"));
      y[i] = Saturate(zy + spec::ApplyScale(int32_t(da * db), m, int(shift)), call);
      continue;
    }
    const int64_t ta = da * call.Int("a_multiplier"), tb = db * call.Int("b_multiplier");
    const int64_t t = k == "max" ? std::max(ta, tb) : k == "min" ? std::min(ta, tb) : ta + tb;
    y[i] = Saturate(zy + ((t + (int64_t{1} << (shift - 1))) >> shift), call);
  }
  return Status::Ok();
}

Status Concat(Call& call) {
  const Dims out = DimsOf(call.op.outputs(0));
  const int64_t axis = call.Int("axis");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(out.size()); ++d) {
    if (d < axis) outer *= out[d];
    if (d > axis) inner *= out[d];
  }
  int64_t offset = 0;
  for (const Operand& in : call.inputs) {
    const int64_t run = in.desc->shape(int(axis)) * inner;
    for (int64_t o = 0; o < outer; ++o) {
      std::copy_n(in.i8().data() + o * run, run,
                  call.outputs[0].data() + o * out[axis] * inner + offset);
    }
    offset += run;
  }
  return Status::Ok();
}

Status Slice(Call& call) {
  const Dims in = DimsOf(*call.inputs[0].desc), out = DimsOf(call.op.outputs(0));
  Pick(call.inputs[0].i8(),
       Sources(in, out, Iota(in.size()), call.Ints("starts"), call.Ints("steps")), call.outputs[0]);
  return Status::Ok();
}

Status Transpose(Call& call) {
  const Dims in = DimsOf(*call.inputs[0].desc), out = DimsOf(call.op.outputs(0));
  Pick(call.inputs[0].i8(),
       Sources(in, out, call.Ints("perm"), Dims(out.size(), 0), Dims(out.size(), 1)),
       call.outputs[0]);
  return Status::Ok();
}

Status ChannelShuffle(Call& call) {  // y[p, j*g + i] = x[p, i*(C/g) + j]
  const int64_t c = call.op.outputs(0).shape(3), g = call.Int("group", 1), per = c / g;
  std::span<const int8_t> x = call.inputs[0].i8();
  std::vector<int8_t>& y = call.outputs[0];
  for (size_t p = 0; p < y.size() / c; ++p) {
    for (int64_t i = 0; i < g; ++i) {
      for (int64_t j = 0; j < per; ++j) y[p * c + j * g + i] = x[p * c + i * per + j];
    }
  }
  return Status::Ok();
}

Status Pad(Call& call) {
  const Dims in = DimsOf(*call.inputs[0].desc), out = DimsOf(call.op.outputs(0));
  const std::vector<int64_t> pads = call.Ints("pads");
  std::vector<int8_t>& y = call.outputs[0];
  std::fill(y.begin(), y.end(), static_cast<int8_t>(call.Int("value")));
  const Dims strides = StridesOf(out);
  std::vector<int64_t> pos(in.size(), 0);
  for (int8_t v : call.inputs[0].i8()) {
    int64_t i = 0;
    for (size_t d = 0; d < in.size(); ++d) i += (pos[d] + pads[d]) * strides[d];
    y[i] = v;
    Next(pos, in);
  }
  return Status::Ok();
}

// The blend of each output element is spec::ResizeBlend, the one the NPU's RESIZE uses.
Status Resize(Call& call) {
  const Dims in = DimsOf(*call.inputs[0].desc), out = DimsOf(call.op.outputs(0));
  const std::vector<int64_t> ht = call.Ints("h_taps"), wt = call.Ints("w_taps");
  const int64_t w_in = in[2], c = in[3];
  const int32_t z = call.inputs[0].zero_point();
  std::span<const int8_t> x = call.inputs[0].i8();
  for (int64_t oy = 0; oy < out[1]; ++oy) {
    const int64_t* h = &ht[3 * oy];
    for (int64_t ox = 0; ox < out[2]; ++ox) {
      const int64_t* w = &wt[3 * ox];
      for (int64_t ch = 0; ch < c; ++ch) {
        auto at = [&](int r, int q) { return x[(h[r] * w_in + w[q]) * c + ch]; };
        call.outputs[0][(oy * out[2] + ox) * c + ch] = spec::ResizeBlend(
            at(0, 0), at(0, 1), at(1, 0), at(1, 1), int32_t(h[2]), int32_t(w[2]), z);
      }
    }
  }
  return Status::Ok();
}

}  // namespace npu::fw::cpu

// Operand checks of the kernels above (kernels.h).
namespace npu::fw::cpu {
namespace {

// `name` holds 3 ints per output index: two source indices below `in` and the weight of the
// second, at most a whole tap (spec::kResizeWeightOne).
Status ExpectTaps(const spec::CpuOp& op, std::string_view name, int64_t in, int64_t out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> taps, IntsAttr(op, name, 3 * out, 0, 1 << 30));
  for (int64_t i = 0; i < out; ++i) {
    if (taps[3 * i] >= in || taps[3 * i + 1] >= in || taps[3 * i + 2] > spec::kResizeWeightOne) {
      return DataLoss(fmt::format(
          "{}[{}] samples {} and {} of the input's {}, weighing {} (at most {})", name, i,
          taps[3 * i], taps[3 * i + 1], in, taps[3 * i + 2], spec::kResizeWeightOne));
    }
  }
  return Status::Ok();
}

}  // namespace

// The output has the input's shape; 256 int8 entries, indexed by x + 128.
Status CheckLut(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  NPU_TRY(IntsAttr(op, "table", spec::kLutEntries, -128, 127).status());
  return ExpectShape(op.outputs(0), DimsOf(op.inputs(0)));
}

// Two int8 operands that broadcast to the output's shape. mul rescales their product (multiplier
// and shift); add, fused_add, max and min weigh each by an int16 multiplier and shift the result.
Status CheckBinary(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 2));
  const std::optional<Dims> y = Broadcast(DimsOf(op.inputs(0)), DimsOf(op.inputs(1)));
  if (!y) {
    return DataLoss(fmt::format("inputs [{}] and [{}] do not broadcast",
                                fmt::join(op.inputs(0).shape(), ","),
                                fmt::join(op.inputs(1).shape(), ",")));
  }
  if (op.kernel() == "mul") {
    NPU_TRY(ExpectScale(op));
  } else {
    NPU_TRY(IntAttr(op, "a_multiplier", kRequired, INT16_MIN, INT16_MAX).status());
    NPU_TRY(IntAttr(op, "b_multiplier", kRequired, INT16_MIN, INT16_MAX).status());
    NPU_TRY(IntAttr(op, "shift", 1, spec::kMinShift, spec::kMaxShift).status());
    NPU_TRY(ExpectClamp(op));
  }
  return ExpectShape(op.outputs(0), *y);
}

// Int8 inputs of the output's rank, equal to it but along `axis`, where they add up to it.
Status CheckConcat(const spec::CpuOp& op) {
  if (op.inputs_size() == 0) return DataLoss("no inputs");
  NPU_TRY(ExpectOperands(op, op.inputs_size()));
  const Dims y = DimsOf(op.outputs(0));
  NPU_ASSIGN_OR_RETURN(const int64_t axis, IntAttr(op, "axis", 0, 0, int64_t(y.size()) - 1));
  int64_t along = 0;
  for (const spec::TensorDesc& x : op.inputs()) {
    Dims dx = DimsOf(x);
    if (dx.size() == y.size()) {
      along += dx[axis];
      dx[axis] = y[axis];
    }
    if (dx != y) {
      return DataLoss(fmt::format("input '{}' [{}] does not fit the output [{}] off axis {}",
                                  x.name(), fmt::join(x.shape(), ","), fmt::join(y, ","), axis));
    }
  }
  if (along != y[axis]) {
    return DataLoss(
        fmt::format("the inputs hold {} along axis {}, the output {}", along, axis, y[axis]));
  }
  return Status::Ok();
}

// The output keeps the input's rank; every dim's first and last sampled index (start, then steps
// of a non-zero step) inside the input.
Status CheckSlice(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const Dims x = DimsOf(op.inputs(0)), y = DimsOf(op.outputs(0));
  if (x.size() != y.size()) {
    return DataLoss(fmt::format("a slice keeps the rank: input of rank {}, output of rank {}",
                                x.size(), y.size()));
  }
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> start, IntsAttr(op, "starts", rank, 0, 1 << 30));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> step,
                       IntsAttr(op, "steps", rank, -(1 << 30), 1 << 30));
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t last = start[d] + (y[d] - 1) * step[d];
    if (step[d] == 0 || start[d] >= x[d] || last < 0 || last >= x[d]) {
      return DataLoss(fmt::format("dim {}: {} values from {} by {} leave the input's {}", d, y[d],
                                  start[d], step[d], x[d]));
    }
  }
  return Status::Ok();
}

// perm is a permutation of the input's dims; the output the input's dims in its order.
Status CheckTranspose(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const Dims x = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, IntsAttr(op, "perm", rank, 0, rank - 1));
  std::vector<bool> seen(x.size(), false);
  Dims y;
  for (int64_t p : perm) {
    if (seen[p])
      return DataLoss(fmt::format("perm [{}] names dim {} twice", fmt::join(perm, ","), p));
    seen[p] = true;
    y.push_back(x[p]);
  }
  return ExpectShape(op.outputs(0), y);
}

// An NHWC tensor of batch 1 whose channels `group` divides; the output has its shape.
Status CheckChannelShuffle(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const spec::TensorDesc& x = op.inputs(0);
  NPU_TRY(Expect4D(x));
  const int64_t c = x.shape(3);
  NPU_ASSIGN_OR_RETURN(const int64_t g, IntAttr(op, "group", 1, 1, c));
  if (c % g != 0) return DataLoss(fmt::format("group {} does not divide {} channels", g, c));
  return ExpectShape(op.outputs(0), DimsOf(x));
}

// pads: begin values for every dim, then end values; the output is the padded input.
Status CheckPad(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  Dims y = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(y.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, IntsAttr(op, "pads", 2 * rank, 0, 1 << 20));
  NPU_TRY(IntAttr(op, "value", 0, -128, 127).status());
  for (int64_t d = 0; d < rank; ++d) y[d] += pads[d] + pads[d + rank];
  return ExpectShape(op.outputs(0), y);
}

// NHWC tensors of batch 1 and the same channels, resampled in height and width by taps inside the
// input.
Status CheckResize(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const spec::TensorDesc &x = op.inputs(0), &y = op.outputs(0);
  NPU_TRY(Expect4D(x));
  NPU_TRY(Expect4D(y));
  if (y.shape(3) != x.shape(3)) {
    return DataLoss(fmt::format("output '{}' has {} channels, the input {}: resize keeps them",
                                y.name(), y.shape(3), x.shape(3)));
  }
  NPU_TRY(ExpectTaps(op, "h_taps", x.shape(1), y.shape(1)));
  return ExpectTaps(op, "w_taps", x.shape(2), y.shape(2));
}

}  // namespace npu::fw::cpu
