// Lookup tables, broadcasting binary ops and data movement on the control core (the semantics of
// docs/quantized-ir.md over whole tensors).
#include <fmt/format.h>

#include <algorithm>

#include "firmware/cpu/kernels.h"
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
  if (table.size() != 256) return InvalidArgument("the table needs 256 entries");
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
  if (shift < 1 || shift > 62) return InvalidArgument("shift outside 1..62");
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
