// Softmax, layer normalisation, reductions and matrix products of two activations on the
// control core (the integer semantics of docs/quantized-ir.md).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <climits>

#include "firmware/cpu/kernels.h"
#include "firmware/cpu/operand_rules.h"
#include "firmware/cpu/tensor_index.h"
#include "hw/spec/arith.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/semantics.h"

namespace npu::fw::cpu {
namespace {

int32_t Sat32(int64_t v) { return static_cast<int32_t>(spec::Clamp64(v, INT32_MIN, INT32_MAX)); }

}  // namespace

Status Softmax(Call& call) {
  const std::vector<int64_t> table = call.Ints("exp_table");
  const Dims dims = DimsOf(*call.inputs[0].desc);
  const int64_t axis = call.Int("axis");
  int64_t outer = 1, len = dims[axis], inner = 1;
  for (int64_t d = 0; d < int64_t(dims.size()); ++d) {
    if (d < axis) outer *= dims[d];
    if (d > axis) inner *= dims[d];
  }
  std::span<const int8_t> x = call.inputs[0].i8();
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      int32_t m = -128;
      for (int64_t k = 0; k < len; ++k) m = std::max<int32_t>(m, x[base + k * inner]);
      int64_t sum = 0;
      for (int64_t k = 0; k < len; ++k) sum += table[x[base + k * inner] - m + 255];
      for (int64_t k = 0; k < len; ++k) {
        const int64_t e = table[x[base + k * inner] - m + 255];
        call.outputs[0][base + k * inner] =
            static_cast<int8_t>(spec::Clamp64(spec::RoundDiv(256 * e, sum) - 128, -128, 127));
      }
    }
  }
  return Status::Ok();
}

Status LayerNorm(Call& call) {
  const Operand &x = call.inputs[0], &w = call.inputs[1], &bias = call.inputs[2];
  const int64_t c = x.desc->shape(x.desc->shape_size() - 1);
  const std::vector<int64_t> m = call.Ints("multiplier"), s = call.Ints("shift");
  std::vector<spec::LayerNormChannel> channels(c);
  for (int64_t k = 0; k < c; ++k) {
    channels[k] = {w.i8()[k], bias.i32()[k], int32_t(m[k]), int32_t(s[k])};
  }
  spec::LayerNormRows(x.i8(), x.zero_point(), call.Int("eps_term"), channels,
                      call.op.outputs(0).zero_point(), int32_t(call.Int("clamp_min", -128)),
                      int32_t(call.Int("clamp_max", 127)), call.outputs[0]);
  return Status::Ok();
}

Status Reduce(Call& call) {
  const Dims in = DimsOf(*call.inputs[0].desc);
  Dims kept = in;
  for (int64_t a : call.Ints("axes")) kept[a] = 1;
  const std::vector<int64_t> to_out = BroadcastSource(kept, in);
  const bool max = call.op.kernel() == "reduce_max";
  std::vector<int8_t>& y = call.outputs[0];
  std::vector<int64_t> acc(y.size(), max ? -128 : 0);
  std::span<const int8_t> x = call.inputs[0].i8();
  const int64_t zx = call.inputs[0].zero_point();
  for (size_t i = 0; i < x.size(); ++i) {
    int64_t& a = acc[to_out[i]];
    a = max ? std::max<int64_t>(a, x[i]) : a + x[i] - zx;
  }
  const int64_t count = int64_t(x.size() / y.size());
  const int64_t lo = std::max<int64_t>(call.Int("clamp_min", -128), -128);
  const int64_t hi = std::min<int64_t>(call.Int("clamp_max", 127), 127);
  for (size_t o = 0; o < y.size(); ++o) {
    if (max) {
      y[o] = static_cast<int8_t>(acc[o]);
      continue;
    }
    const int64_t q =
        call.op.outputs(0).zero_point() +
        spec::RescaledReduction(acc[o], count, call.op.kernel() == "reduce_mean",
                                int32_t(call.Int("multiplier")), int(call.Int("shift", 1)));
    y[o] = static_cast<int8_t>(spec::Clamp64(q, lo, hi));
  }
  return Status::Ok();
}

Status MatMul(Call& call) {
  const Operand &a = call.inputs[0], &b = call.inputs[1];
  const Dims da = DimsOf(*a.desc), db = DimsOf(*b.desc), dy = DimsOf(call.op.outputs(0));
  const int64_t m = da[da.size() - 2], k = da.back(), cols = db.back();
  const Dims batch(dy.begin(), dy.end() - 2);
  const std::vector<int64_t> ia = BroadcastSource(Dims(da.begin(), da.end() - 2), batch);
  const std::vector<int64_t> ib = BroadcastSource(Dims(db.begin(), db.end() - 2), batch);
  const int32_t za = a.zero_point(), zb = b.zero_point(), zy = call.op.outputs(0).zero_point();
  const int32_t mult = int32_t(call.Int("multiplier")), shift = int32_t(call.Int("shift", 1));
  const int32_t lo = int32_t(call.Int("clamp_min", -128)), hi = int32_t(call.Int("clamp_max", 127));
  for (size_t bi = 0; bi < ia.size(); ++bi) {
    const int8_t* pa = a.i8().data() + ia[bi] * m * k;
    const int8_t* pb = b.i8().data() + ib[bi] * k * cols;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < cols; ++c) {
        int64_t acc = 0;
        for (int64_t j = 0; j < k; ++j) acc += (pa[r * k + j] - za) * (pb[j * cols + c] - zb);
        call.outputs[0][(bi * m + r) * cols + c] =
            spec::Requantize(Sat32(acc), 0, mult, shift, zy, lo, hi);
      }
    }
  }
  return Status::Ok();
}

}  // namespace npu::fw::cpu

// Operand checks of the kernels above (kernels.h).
namespace npu::fw::cpu {

// One int8 input of rank 1 or more; `axis` (default 0) one of its dims; a table of 256 entries
// in 0..65536 whose last, the maximum's, is in every row's sum and positive, so no row divides
// by 0. The output has the input's shape.
Status CheckSoftmax(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const spec::TensorDesc& x = op.inputs(0);
  if (x.shape_size() == 0) return DataLoss(fmt::format("input '{}' is a scalar", x.name()));
  NPU_TRY(IntAttr(op, "axis", 0, 0, x.shape_size() - 1).status());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> table,
                       IntsAttr(op, "exp_table", 256, 0, 1 << 16));
  if (table[255] == 0) return DataLoss("exp_table[255], the maximum's entry, is 0");
  return ExpectShape(op.outputs(0), DimsOf(x));
}

// Normalises the last dim (at most kMaxReduction values): int8 weights and int32 bias, one per
// value, per-channel requantisation; eps_term keeps the variance's sum inside int64.
Status CheckLayerNorm(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 3, {spec::INT8, spec::INT8, spec::INT32}));
  const spec::TensorDesc& x = op.inputs(0);
  if (x.shape_size() == 0) return DataLoss(fmt::format("input '{}' is a scalar", x.name()));
  const int64_t c = x.shape(x.shape_size() - 1);
  if (c > kMaxReduction) {
    return DataLoss(fmt::format("normalises {} values, more than {}", c, kMaxReduction));
  }
  NPU_TRY(ExpectShape(op.inputs(1), {c}));
  NPU_TRY(ExpectShape(op.inputs(2), {c}));
  NPU_TRY(IntAttr(op, "eps_term", 0, 0, int64_t{1} << 62).status());
  NPU_TRY(ExpectRequantisation(op, c));
  return ExpectShape(op.outputs(0), DimsOf(x));
}

// `axes` (required, none twice) are reduced to 1 (keepdims) or dropped; the output has the kept
// shape. reduce_mean and reduce_sum rescale; reduce_max keeps the input's quantisation and reads
// no multiplier or shift.
Status CheckReduce(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 1));
  const Dims x = DimsOf(op.inputs(0));
  const int64_t rank = int64_t(x.size());
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> axes, IntsAttr(op, "axes", -1, 0, rank - 1));
  NPU_ASSIGN_OR_RETURN(const int64_t keep, IntAttr(op, "keepdims", 1, 0, 1));
  Dims y;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t listed = std::count(axes.begin(), axes.end(), d);
    if (listed > 1) return DataLoss(fmt::format("axes lists dim {} twice", d));
    if (listed == 0) y.push_back(x[d]);
    if (listed == 1 && keep) y.push_back(1);
  }
  if (op.kernel() != "reduce_max") NPU_TRY(ExpectScale(op));
  return ExpectShape(op.outputs(0), y);
}

// [..., M, K] x [..., K, N] -> [..., M, N], the batch dims broadcasting, K at most
// kMaxReduction; one requantisation.
Status CheckMatMul(const spec::CpuOp& op) {
  NPU_TRY(ExpectOperands(op, 2));
  const Dims a = DimsOf(op.inputs(0)), b = DimsOf(op.inputs(1));
  if (a.size() < 2 || b.size() < 2) {
    return DataLoss(fmt::format("operands [{}] and [{}] need two dims or more", fmt::join(a, ","),
                                fmt::join(b, ",")));
  }
  const int64_t k = a.back();
  if (b[b.size() - 2] != k) {
    return DataLoss(fmt::format("inner dims {} and {} differ", k, b[b.size() - 2]));
  }
  if (k > kMaxReduction) return DataLoss(fmt::format("K = {} is more than {}", k, kMaxReduction));
  std::optional<Dims> y = Broadcast(Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  if (!y) return DataLoss("the batch dims do not broadcast");
  NPU_TRY(ExpectScale(op));
  y->push_back(a[a.size() - 2]);
  y->push_back(b.back());
  return ExpectShape(op.outputs(0), *y);
}

}  // namespace npu::fw::cpu
