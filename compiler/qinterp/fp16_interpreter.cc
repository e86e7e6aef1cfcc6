// The FP16 reference interpreter (fp16.h): each op from docs/fp16-semantics.md, over whole
// tensors, in graph order. It knows nothing of tiles, folds or instructions.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "compiler/qinterp/fp16.h"
#include "compiler/qinterp/graph_walk.h"
#include "hw/spec/fp16.h"

namespace npu::compiler::qinterp {
namespace {

using ir::OpKind;
using spec::Fp16;

// An FP16 value: elements in the tensor's stored order (NHWC for 4-D).
using Values = std::unordered_map<const ir::Tensor*, std::vector<Fp16>>;

std::vector<Fp16> FromBytes(const std::vector<int8_t>& bytes) {
  std::vector<Fp16> v(bytes.size() / 2);
  for (size_t i = 0; i < v.size(); ++i) v[i] = spec::LoadFp16(bytes.data(), i);
  return v;
}

std::vector<int8_t> ToBytes(const std::vector<Fp16>& v) {
  std::vector<int8_t> bytes(v.size() * 2);
  for (size_t i = 0; i < v.size(); ++i) spec::StoreFp16(bytes.data(), i, v[i]);
  return bytes;
}

struct Plane {
  int64_t h, w, c;
};
Plane PlaneOf(const ir::Tensor& t) {
  const ir::Shape& s = t.shape();
  return {s[1], s[2], s[3]};
}

// FP16(FP32(sum + bias)) clamped: CONV's sum rounded once, then ACT.
Fp16 Activate(const spec::Fp16DotProduct& dot, float bias, Fp16 lo, Fp16 hi) {
  return spec::ClampFp16(spec::FloatToFp16(dot.Result() + bias), lo, hi);
}

Fp16 ClampAttr(const ir::Node& n, const char* name) {
  return static_cast<Fp16>(n.attrs().GetInt(name, 0));
}

void Conv(const ir::Node& n, const std::vector<Fp16>& x, std::vector<Fp16>& y) {
  const Plane in = PlaneOf(*n.input(0)), out = PlaneOf(*n.output(0));
  const ir::Shape& ws = n.input(1)->shape();  // [O][kh][kw][I/group]
  const auto w = n.input(1)->data<uint16_t>();
  const auto b = n.input(2)->data<float>();
  const auto strides = n.attrs().GetInts("strides", {1, 1});
  const auto pads = n.attrs().GetInts("pads", {0, 0, 0, 0});
  const auto dil = n.attrs().GetInts("dilations", {1, 1});
  const int64_t group = n.attrs().GetInt("group", 1), per_group = ws[3], outs = ws[0] / group;
  const int64_t taps = ws[1] * ws[2], row = taps * per_group;
  const Fp16 lo = ClampAttr(n, "fp16_clamp_min"), hi = ClampAttr(n, "fp16_clamp_max");
  // Split into terms once (spec::Decompose16); a weight row or window holding an infinity or NaN
  // goes value by value, where the special rules apply.
  std::vector<spec::Fp16Term> w_terms(w.size());
  std::vector<uint8_t> w_finite(ws[0], 1);
  for (size_t i = 0; i < w.size(); ++i) {
    w_terms[i] = spec::Decompose16(w[i]);
    if (!spec::IsFinite16(w[i])) w_finite[i / row] = 0;
  }
  std::vector<Fp16> window(taps * in.c);  // [tap][channel], +0 in the padding
  std::vector<spec::Fp16Term> terms(window.size());
  for (int64_t oh = 0; oh < out.h; ++oh) {
    for (int64_t ow = 0; ow < out.w; ++ow) {
      bool finite = true;
      for (int64_t kh = 0; kh < ws[1]; ++kh) {
        const int64_t iy = oh * strides[0] + kh * dil[0] - pads[0];
        for (int64_t kw = 0; kw < ws[2]; ++kw) {
          const int64_t ix = ow * strides[1] + kw * dil[1] - pads[1];
          const bool inside = iy >= 0 && iy < in.h && ix >= 0 && ix < in.w;
          for (int64_t c = 0; c < in.c; ++c) {
            // Padding is +0 times the weight, as CONV computes it (0 x inf is NaN there too).
            const Fp16 v = inside ? x[(iy * in.w + ix) * in.c + c] : Fp16{0};
            const int64_t i = (kh * ws[2] + kw) * in.c + c;
            window[i] = v;
            terms[i] = spec::Decompose16(v);
            finite = finite && spec::IsFinite16(v);
          }
        }
      }
      for (int64_t o = 0; o < out.c; ++o) {
        const int64_t c0 = (o / outs) * per_group;
        spec::Fp16DotProduct dot;
        for (int64_t t = 0; t < taps; ++t) {
          const int64_t wi = o * row + t * per_group, xi = t * in.c + c0;
          if (finite && w_finite[o]) {
            dot.AddTerms(w_terms.data() + wi, terms.data() + xi, 1, per_group);
          } else {
            for (int64_t c = 0; c < per_group; ++c) dot.Add(window[xi + c], w[wi + c]);
          }
        }
        y[(oh * out.w + ow) * out.c + o] = Activate(dot, b[o], lo, hi);
      }
    }
  }
}

void Gemm(const ir::Node& n, const std::vector<Fp16>& x, std::vector<Fp16>& y) {
  const ir::Shape& ws = n.input(1)->shape();  // [N][K]
  const auto w = n.input(1)->data<uint16_t>();
  const auto b = n.input(2)->data<float>();
  const Fp16 lo = ClampAttr(n, "fp16_clamp_min"), hi = ClampAttr(n, "fp16_clamp_max");
  const int64_t k = ws[1], rows = static_cast<int64_t>(x.size()) / k;
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t j = 0; j < ws[0]; ++j) {
      spec::Fp16DotProduct dot;
      for (int64_t i = 0; i < k; ++i) dot.Add(x[r * k + i], static_cast<Fp16>(w[j * k + i]));
      y[r * ws[0] + j] = Activate(dot, b[j], lo, hi);
    }
  }
}

void Pool(const ir::Node& n, const std::vector<Fp16>& x, std::vector<Fp16>& y) {
  const Plane in = PlaneOf(*n.input(0)), out = PlaneOf(*n.output(0));
  const bool global = n.kind() == OpKind::kGlobalAveragePool;
  const auto kernel = global ? std::vector<int64_t>{in.h, in.w} : n.attrs().GetInts("kernel_shape", {1, 1});
  const auto strides = global ? std::vector<int64_t>{1, 1} : n.attrs().GetInts("strides", {1, 1});
  const auto pads = global ? std::vector<int64_t>{0, 0, 0, 0} : n.attrs().GetInts("pads", {0, 0, 0, 0});
  const bool max = n.kind() == OpKind::kMaxPool;
  const bool include_pad = n.attrs().GetInt("count_include_pad", 0) != 0;
  for (int64_t oh = 0; oh < out.h; ++oh) {
    for (int64_t ow = 0; ow < out.w; ++ow) {
      for (int64_t c = 0; c < out.c; ++c) {
        Fp16 largest = spec::kFp16NegInf;
        float sum = 0.0f;  // FP32, taps in window order
        int64_t inside = 0;
        for (int64_t kh = 0; kh < kernel[0]; ++kh) {
          const int64_t iy = oh * strides[0] + kh - pads[0];
          if (iy < 0 || iy >= in.h) continue;
          for (int64_t kw = 0; kw < kernel[1]; ++kw) {
            const int64_t ix = ow * strides[1] + kw - pads[1];
            if (ix < 0 || ix >= in.w) continue;
            const Fp16 v = x[(iy * in.w + ix) * in.c + c];
            largest = spec::MaxFp16(largest, v);
            sum += spec::Fp16ToFloat(v);
            ++inside;
          }
        }
        const int64_t count = include_pad ? kernel[0] * kernel[1] : inside;
        const Fp16 mean = count == 0 ? Fp16{0} : spec::FloatToFp16(sum / static_cast<float>(count));
        y[(oh * out.w + ow) * out.c + c] = max ? largest : mean;
      }
    }
  }
}

void Add(const ir::Node& n, const std::vector<Fp16>& a, const std::vector<Fp16>& b,
         std::vector<Fp16>& y) {
  const bool relu = n.attrs().GetInt("fp16_relu", 0) != 0;
  for (size_t i = 0; i < y.size(); ++i) {
    Fp16 r = spec::AddFp16(a[i], b[i]);
    if (relu) r = spec::ReluFp16(r);
    y[i] = r;
  }
}

void RunNode(const ir::Node& n, const Values& values, std::vector<Fp16>& y) {
  const std::vector<Fp16>& x = values.at(n.input(0));
  switch (n.kind()) {
    case OpKind::kFusedConv:
      return Conv(n, x, y);
    case OpKind::kGemm:
      return Gemm(n, x, y);
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return Pool(n, x, y);
    case OpKind::kAdd:
      return Add(n, x, values.at(n.input(1)), y);
    default:  // the views: the same elements
      y = x;
      return;
  }
}

}  // namespace

void RunFp16Node(const ir::Node& n, const ByteValues& values, std::vector<int8_t>& y) {
  Values fp16;
  for (const ir::Tensor* t : n.inputs()) {
    if (t != nullptr && !t->is_constant()) fp16[t] = FromBytes(values.at(t));
  }
  std::vector<Fp16> out(static_cast<size_t>(ir::NumElements(n.output(0)->shape())));
  RunNode(n, fp16, out);
  y = ToBytes(out);
}

void RunConversionNode(const ir::Node& n, const ByteValues& values, std::vector<int8_t>& y) {
  const std::vector<int8_t>& x = values.at(n.input(0));
  if (n.kind() == OpKind::kDequantizeLinear) {  // int8 -> FP16: one value per int8 value
    const ir::QuantParams& q = n.input(0)->quant();
    const std::array<Fp16, 256> table = spec::DequantizeTable(q.zero_point[0], q.scale[0]);
    std::vector<Fp16> out(x.size());
    for (size_t i = 0; i < x.size(); ++i) out[i] = table[size_t(int32_t{x[i]} + 128)];
    y = ToBytes(out);
    return;
  }
  const ir::QuantParams& q = n.output(0)->quant();  // FP16 -> int8: ELTWISE's int8_out
  const float inv_scale = spec::Fp16InverseScale(q.scale[0]);
  y.resize(x.size() / 2);
  for (size_t i = 0; i < y.size(); ++i) {
    const int64_t v = int64_t{q.zero_point[0]} + spec::QuantizeFp16(spec::LoadFp16(x.data(), i), inv_scale);
    y[i] = static_cast<int8_t>(std::clamp<int64_t>(v, -128, 127));
  }
}

StatusOr<std::vector<std::vector<int8_t>>> InterpretFp16(
    const ir::Graph& graph, const std::vector<std::vector<int8_t>>& inputs,
    const QInterpretOptions& options) {
  NPU_TRY(CheckFp16Graph(graph));
  if (inputs.size() != graph.inputs().size()) {
    return InvalidArgument(fmt::format("graph '{}' has {} inputs, {} given", graph.name(),
                                       graph.inputs().size(), inputs.size()));
  }
  Values values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ir::Tensor* t = graph.inputs()[i];
    const int64_t bytes = ir::NumElements(t->shape()) * 2;
    if (static_cast<int64_t>(inputs[i].size()) != bytes) {
      return InvalidArgument(fmt::format("input {} '{}' has {} bytes, the FP16 graph expects {} ({})",
                                         i, t->name(), inputs[i].size(), bytes,
                                         ir::ShapeText(t->shape())));
    }
    values[t] = FromBytes(inputs[i]);
  }
  std::vector<std::vector<Fp16>> outputs =
      WalkGraph(graph, std::move(values), RunNode, [&](const ir::Tensor& t, const std::vector<Fp16>& y) {
        if (options.observe) options.observe(t, ToBytes(y));
      });
  std::vector<std::vector<int8_t>> result;
  for (const std::vector<Fp16>& y : outputs) result.push_back(ToBytes(y));
  return result;
}

}  // namespace npu::compiler::qinterp
