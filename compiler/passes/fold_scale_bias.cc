// Folds a Mul or Add by a constant into the Conv, Gemm or MatMul (+ bias Add) producing its
// other operand, when it is that result's only reader and the constant is a scalar or varies
// only along the output channels (Conv: [C,1,1] / [1,C,1,1]; Gemm, MatMul: [N] / [1,..,1,N]).
// ConvNeXt's layer scale and exporters' bias Adds disappear this way, like fold-batchnorm:
//   Conv:   Mul s: W[o] *= s[o], b[o] *= s[o];    Add a: b[o] += a[o]
//   Gemm:   Mul s: op(B)[:, n] *= s[n], C *= s;   Add a: C += a / beta        (C absent or [N])
//   MatMul(A, B const 2-D): Mul s: B[:, n] *= s[n];  + Add(bias const): bias *= s / bias += a
// Also through a Transpose that alone reads the producer's result and only the Mul/Add reads
// (ConvNeXt's Linear -> permute to NCHW -> layer scale), the constant moved back through it.
// Runs on NCHW graphs before fusion. After it, no such Mul/Add follows such a producer.
#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// The constant's values per output channel (`channels` of them) if it broadcasts only along
// `axis` of a rank-`rank` result (or is a scalar), else nullopt.
std::optional<std::vector<float>> PerChannel(const ir::Tensor* c, int64_t rank, int64_t axis,
                                             int64_t channels) {
  std::optional<std::vector<float>> v = FloatConstant(c);
  if (!v || static_cast<int64_t>(c->shape().size()) > rank) return std::nullopt;
  if (v->size() == 1) return std::vector<float>(channels, (*v)[0]);
  ir::Shape padded = c->shape();
  padded.insert(padded.begin(), rank - padded.size(), 1);
  for (int64_t d = 0; d < rank; ++d) {
    if (padded[d] != (d == axis ? channels : 1)) return std::nullopt;
  }
  return v;
}

ir::Tensor* NewConstant(ir::Graph& g, const ir::Tensor* like, const std::string& suffix,
                        const ir::Shape& shape, const std::vector<float>& values) {
  return g.AddConstant(g.UniqueName(like->name() + suffix), shape, values);
}

// Scales (mul) or shifts (!mul) a per-channel vector `old` (absent: zeros) by `s`.
std::vector<float> Apply(std::optional<std::vector<float>> old, const std::vector<float>& s,
                         bool mul) {
  std::vector<float> v = old ? *old : std::vector<float>(s.size(), 0.0f);
  for (size_t i = 0; i < v.size(); ++i) v[i] = mul ? v[i] * s[i] : v[i] + s[i];
  return v;
}

// W [rows, cols] with column n (or row n if `by_row`) scaled by s[n].
std::vector<float> ScaleMatrix(std::vector<float> w, int64_t cols, const std::vector<float>& s,
                               bool by_row) {
  for (size_t i = 0; i < w.size(); ++i) w[i] *= s[by_row ? i / cols : i % cols];
  return w;
}

bool FoldIntoConv(ir::Graph& g, ir::Node* conv, const ir::Tensor* c, bool mul) {
  const ir::Tensor* w = conv->input(1);
  const std::optional<std::vector<float>> weights = FloatConstant(w);
  const bool bias_ok = conv->input(2) == nullptr || FloatConstant(conv->input(2));
  if (!weights || !bias_ok || conv->output(0)->layout() == ir::Layout::kNHWC) return false;
  const int64_t out_c = w->shape()[0];
  const auto s = PerChannel(c, static_cast<int64_t>(conv->output(0)->shape().size()), 1, out_c);
  if (!s) return false;
  const std::optional<std::vector<float>> bias = FloatConstant(conv->input(2));
  if (mul) {
    g.SetNodeInput(
        conv, 1,
        NewConstant(g, w, ".scaled", w->shape(),
                    ScaleMatrix(*weights, ir::NumElements(w->shape()) / out_c, *s, true)));
  }
  if (mul && !bias) return true;
  g.SetNodeInput(conv, 2, NewConstant(g, conv->output(0), ".bias", {out_c}, Apply(bias, *s, mul)));
  return true;
}

bool FoldIntoGemm(ir::Graph& g, ir::Node* gemm, const ir::Tensor* c, bool mul) {
  const ir::Tensor* b = gemm->input(1);
  const std::optional<std::vector<float>> bv = FloatConstant(b);
  const ir::Tensor* ct = gemm->input(2);
  const std::optional<std::vector<float>> cv = FloatConstant(ct);
  if (!bv || b->shape().size() != 2 || (ct != nullptr && (!cv || ct->shape().size() != 1))) {
    return false;
  }
  const int64_t n = gemm->output(0)->shape()[1];
  const auto s = PerChannel(c, 2, 1, n);
  const float beta = gemm->attrs().GetFloat("beta", 1.0f);
  if (!s || (cv && cv->size() != static_cast<size_t>(n)) || (!mul && beta == 0.0f)) return false;
  const bool trans_b = gemm->attrs().GetInt("transB", 0) != 0;
  if (mul) {
    g.SetNodeInput(
        gemm, 1,
        NewConstant(g, b, ".scaled", b->shape(), ScaleMatrix(*bv, b->shape()[1], *s, trans_b)));
    if (!cv) return true;
  }
  std::vector<float> shift = *s;
  for (float& v : shift) v = mul ? v : v / beta;
  g.SetNodeInput(gemm, 2, NewConstant(g, gemm->output(0), ".bias", {n}, Apply(cv, shift, mul)));
  return true;
}

// MatMul(A, B) [-> Add(bias)]: `last` is the node whose output the Mul/Add reads.
bool FoldIntoMatMul(ir::Graph& g, ir::Node* last, const ir::Tensor* c, bool mul) {
  ir::Node* matmul = last;
  ir::Tensor* bias = nullptr;
  if (last->kind() == ir::OpKind::kAdd) {
    const auto [k, y] = ConstantAndOther(*last);
    matmul = SoleProducer(g, y, ir::OpKind::kMatMul);
    bias = k;
    if (matmul == nullptr) return false;
  } else if (!mul) {
    return false;  // MatMul holds no bias: MatMul + Add stays
  }
  const ir::Tensor* b = matmul->input(1);
  const std::optional<std::vector<float>> bv = FloatConstant(b);
  if (!bv || b->shape().size() != 2 || matmul->input(0)->is_constant()) return false;
  const int64_t n = b->shape()[1], rank = matmul->output(0)->shape().size();
  const auto s = PerChannel(c, rank, rank - 1, n);
  const auto bias_v = bias ? PerChannel(bias, rank, rank - 1, n) : std::nullopt;
  if (!s || (bias && !bias_v)) return false;
  if (mul) {
    g.SetNodeInput(matmul, 1,
                   NewConstant(g, b, ".scaled", b->shape(), ScaleMatrix(*bv, n, *s, false)));
  }
  if (bias) {
    const size_t index = last->input(0) == bias ? 0 : 1;
    g.SetNodeInput(last, index, NewConstant(g, bias, ".folded", {n}, Apply(bias_v, *s, mul)));
  }
  return true;
}

// The constant `c` as it broadcasts over the input of `transpose` (whose output it broadcasts
// over): its dims, padded to the output's rank, moved back through the permutation. The values
// keep their order: a constant folded varies along one axis at most.
ir::Tensor* BeforeTranspose(ir::Graph& g, const ir::Node& transpose, const ir::Tensor* c) {
  const std::vector<int64_t> perm = transpose.attrs().GetInts("perm");
  const std::optional<std::vector<float>> v = FloatConstant(c);
  const ir::Shape& out = transpose.output(0)->shape();
  if (!v || perm.size() != out.size() || c->shape().size() > out.size()) return nullptr;
  ir::Shape padded = c->shape();
  padded.insert(padded.begin(), out.size() - padded.size(), 1);
  ir::Shape before(out.size(), 1);
  for (size_t a = 0; a < perm.size(); ++a) {
    if (perm[a] < 0 || perm[a] >= int64_t(out.size())) return nullptr;
    before[perm[a]] = padded[a];
  }
  return NewConstant(g, c, ".untransposed", before, *v);
}

// Folds the Mul or Add `n` by the constant `c` into the producer `p` of its other operand.
bool FoldInto(ir::Graph& g, ir::Node* p, const ir::Tensor* c, bool mul) {
  switch (p->kind()) {
    case ir::OpKind::kConv:
      return FoldIntoConv(g, p, c, mul);
    case ir::OpKind::kGemm:
      return FoldIntoGemm(g, p, c, mul);
    case ir::OpKind::kMatMul:
    case ir::OpKind::kAdd:
      return FoldIntoMatMul(g, p, c, mul);
    default:
      return false;
  }
}

}  // namespace

Status FoldScaleBias(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* n : graph.nodes()) {
    const bool mul = n->kind() == ir::OpKind::kMul;
    if (!mul && n->kind() != ir::OpKind::kAdd) continue;
    auto [c, y] = ConstantAndOther(*n);
    if (c == nullptr || y->dtype() != ir::DType::kFloat32 || y->shape() != n->output(0)->shape() ||
        !CanReplace(graph, *n, y)) {
      continue;
    }
    ir::Node* p = y->producer();
    if (p == nullptr || SoleUser(graph, y) != n) continue;
    // Through a transpose read by `n` alone (torchvision's ConvNeXt scales its blocks' Linear
    // output after permuting it back to NCHW): the constant moved back through it.
    if (p->kind() == ir::OpKind::kTranspose) {
      ir::Node* before = p->input(0)->producer();
      if (before == nullptr || SoleUser(graph, p->input(0)) != p) continue;
      c = BeforeTranspose(graph, *p, c);
      if (c == nullptr) continue;
      p = before;
    }
    if (!FoldInto(graph, p, c, mul)) continue;
    ReplaceNode(graph, n, y);
    ctx.Count(std::string("fold-scale-bias.") + (mul ? "mul" : "add"));
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
