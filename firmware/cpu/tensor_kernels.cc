// Lookup tables, broadcasting binary ops and data movement on the control core (the semantics of
// docs/quantized-ir.md over whole tensors).
#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "firmware/cpu/tensor_index.h"
#include "hw/spec/arith.h"
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

constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();

int64_t Rank(const spec::TensorDesc& t) { return t.shape_size(); }

// One int8 input and an output of the same rank.
Status ExpectUnarySameRank(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  NPU_TRY(ExpectInputType(op, 0, spec::INT8));
  if (Rank(op.inputs(0)) != Rank(op.outputs(0))) {
    return DataLoss(fmt::format("input of rank {}, output of rank {}", Rank(op.inputs(0)),
                                Rank(op.outputs(0))));
  }
  return Status::Ok();
}

// `name` holds 3 ints per output index: two source indices below `in` and a weight in 0..1024.
Status ExpectTaps(const spec::CpuOp& op, std::string_view name, int64_t in, int64_t out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> taps,
                       IntsAttr(op, name, 3 * out, 0, spec::kResizeWeightOne));
  for (int64_t i = 0; i < out; ++i) {
    if (taps[3 * i] >= in || taps[3 * i + 1] >= in) {
      return DataLoss(fmt::format("{}[{}] samples {} and {}, outside the input's {}", name, i,
                                  taps[3 * i], taps[3 * i + 1], in));
    }
  }
  return Status::Ok();
}

}  // namespace

Status CheckLut(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  NPU_TRY(ExpectInputType(op, 0, spec::INT8));
  NPU_TRY(IntsAttr(op, "table", spec::kLutEntries, -128, 127).status());
  return ExpectSameElements("output", DimsOf(op.outputs(0)), DimsOf(op.inputs(0)));
}

// Both operands int8 and broadcasting to the output; the arithmetic stays inside int64.
Status CheckBinary(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 2));
  NPU_TRY(ExpectInputType(op, 0, spec::INT8));
  NPU_TRY(ExpectInputType(op, 1, spec::INT8));
  const Dims out = DimsOf(op.outputs(0));
  NPU_TRY(ExpectBroadcastable("input a", DimsOf(op.inputs(0)), out));
  NPU_TRY(ExpectBroadcastable("input b", DimsOf(op.inputs(1)), out));
  NPU_TRY(IntAttr(op, "shift", 1, spec::kMinShift, spec::kMaxShift).status());
  NPU_TRY(IntAttr(op, "multiplier", 0, kMin32, kMax32).status());
  NPU_TRY(IntAttr(op, "a_multiplier", 0, kMin32, kMax32).status());
  return IntAttr(op, "b_multiplier", 0, kMin32, kMax32).status();
}

// Inputs of the output's rank, equal to it but along `axis`, where they add up to it.
Status CheckConcat(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, op.inputs_size()));
  const Dims out = DimsOf(op.outputs(0));
  NPU_ASSIGN_OR_RETURN(const int64_t axis, IntAttr(op, "axis", 0, 0, int64_t(out.size()) - 1));
  int64_t along = 0;
  for (int i = 0; i < op.inputs_size(); ++i) {
    NPU_TRY(ExpectInputType(op, i, spec::INT8));
    Dims in = DimsOf(op.inputs(i));
    if (in.size() != out.size()) return ExpectDims(fmt::format("input {}", i), in, out);
    along += in[axis];
    in[axis] = out[axis];
    NPU_TRY(ExpectDims(fmt::format("input {}", i), in, out));
  }
  if (along != out[axis]) {
    return DataLoss(fmt::format("inputs add up to {} along axis {}, the output has {}", along, axis,
                                out[axis]));
  }
  return Status::Ok();
}

// Every dim's first and last sampled index inside the input.
Status CheckSlice(const spec::CpuOp& op) {
  NPU_TRY(ExpectUnarySameRank(op));
  const Dims in = DimsOf(op.inputs(0)), out = DimsOf(op.outputs(0));
  const int64_t rank = int64_t(in.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> start, IntsAttr(op, "starts", rank, 0, 1 << 30));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> step,
                       IntsAttr(op, "steps", rank, -(1 << 30), 1 << 30));
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t last = start[d] + (out[d] - 1) * step[d];
    if (start[d] >= in[d] || last < 0 || last >= in[d]) {
      return DataLoss(fmt::format("dim {}: {} values from {} by {} leave the input's {}", d, out[d],
                                  start[d], step[d], in[d]));
    }
  }
  return Status::Ok();
}

Status CheckTranspose(const spec::CpuOp& op) {
  NPU_TRY(ExpectUnarySameRank(op));
  const Dims in = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(in.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, IntsAttr(op, "perm", rank, 0, rank - 1));
  std::vector<bool> seen(in.size(), false);
  Dims want;
  for (int64_t p : perm) {
    if (seen[p]) return DataLoss(fmt::format("perm names dim {} twice", p));
    seen[p] = true;
    want.push_back(in[p]);
  }
  return ExpectDims("output", DimsOf(op.outputs(0)), want);
}

Status CheckChannelShuffle(const spec::CpuOp& op) {
  NPU_TRY(ExpectUnarySameRank(op));
  const Dims in = DimsOf(op.inputs(0));
  if (in.size() != 4) return DataLoss("channel_shuffle takes an NHWC tensor");
  NPU_TRY(ExpectDims("output", DimsOf(op.outputs(0)), in));
  NPU_ASSIGN_OR_RETURN(const int64_t g, IntAttr(op, "group", 1, 1, in[3]));
  if (in[3] % g != 0) {
    return DataLoss(fmt::format("group {} does not divide {} channels", g, in[3]));
  }
  return Status::Ok();
}

// pads: begin values for every dim, then end values; the output is the padded input.
Status CheckPad(const spec::CpuOp& op) {
  NPU_TRY(ExpectUnarySameRank(op));
  const Dims in = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(in.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, IntsAttr(op, "pads", 2 * rank, 0, 1 << 20));
  NPU_TRY(IntAttr(op, "value", 0, -128, 127).status());
  Dims want = in;
  for (int64_t d = 0; d < rank; ++d) want[d] += pads[d] + pads[d + rank];
  return ExpectDims("output", DimsOf(op.outputs(0)), want);
}

// An NHWC tensor of batch 1 resampled in height and width, its taps inside the input.
Status CheckResize(const spec::CpuOp& op) {
  NPU_TRY(ExpectUnarySameRank(op));
  const Dims in = DimsOf(op.inputs(0)), out = DimsOf(op.outputs(0));
  if (in.size() != 4 || in[0] != 1 || out[0] != 1 || out[3] != in[3]) {
    return DataLoss("resize takes and gives NHWC tensors of batch 1 with the same channels");
  }
  NPU_TRY(ExpectTaps(op, "h_taps", in[1], out[1]));
  return ExpectTaps(op, "w_taps", in[2], out[2]);
}

}  // namespace npu::fw::cpu
