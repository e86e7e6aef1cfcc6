// Transposes the NPU reads and writes through instead of running (attention's heads and K^T):
//   - A transpose is deferred (not run) when a matrix product reads its output: the product
//     reads its source through a strided view (strided_view.h). A lookup table after such a
//     transpose whose only readers are products runs before it instead (it commutes with any
//     permutation), and the transpose stays deferred. Any reader that cannot read through a
//     deferred transpose makes it run where that reader is (Materialize), on the control core,
//     as it would have without the deferral.
//   - A product whose only reader is a transpose keeping its rows contiguous writes its result
//     straight into the transpose's output (the transpose is fused).
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "compiler/lower/lowering.h"

namespace npu::compiler::lowering {
namespace {

using ir::OpKind;

using Forced = std::function<bool(const ir::Node&)>;

bool OnlyReadByProducts(const ir::Graph& g, const ir::Tensor& t, const Forced& forced) {
  return !g.IsGraphOutput(&t) && !t.users().empty() &&
         std::all_of(t.users().begin(), t.users().end(), [&](const ir::Node* u) {
           return u->kind() == OpKind::kMatMul && !forced(*u);
         });
}

// Whether a product reads `t`: directly, through a lookup table only products read (it can run
// before), or through another transpose.
bool ReadByProducts(const ir::Graph& g, const ir::Tensor& t, const Forced& forced) {
  return std::any_of(t.users().begin(), t.users().end(), [&](const ir::Node* u) {
    if (forced(*u)) return false;
    return u->kind() == OpKind::kMatMul ||
           (u->kind() == OpKind::kLut && OnlyReadByProducts(g, *u->output(0), forced)) ||
           (u->kind() == OpKind::kTranspose && ReadByProducts(g, *u->output(0), forced));
  });
}

// A view a product can read: rows contiguous, or for b also its columns (b transposed).
bool Readable(const StridedView& v, bool is_b) {
  const size_t r = v.shape.size();
  return r >= 2 && (v.strides[r - 1] == 1 || (is_b && v.strides[r - 2] == 1));
}

}  // namespace

StridedView Lowering::ViewOfDeferred(const Deferred& d) const {
  return Transposed(ViewOf(net_, d.source, d.shape), d.perm);
}

StatusOr<bool> Lowering::Defer(const ir::Node& n) {
  auto forced = [&](const ir::Node& u) { return ForcedOnCpu(u); };
  if (ForcedOnCpu(n)) return false;
  if (n.kind() == OpKind::kLut) {
    auto it = deferred_.find(n.input(0));
    if (it == deferred_.end() || !OnlyReadByProducts(*g_, *n.output(0), forced)) return false;
    return DeferLutBeforeTranspose(n, it->second);
  }
  if (n.kind() != OpKind::kTranspose || n.input(0)->is_constant() ||
      !ReadByProducts(*g_, *n.output(0), forced)) {
    return false;
  }
  const std::vector<int64_t> perm = n.attrs().GetInts("perm");
  if (perm.size() != n.output(0)->shape().size()) return false;
  Deferred d{&n, -1, n.input(0)->shape(), perm};
  if (auto it = deferred_.find(n.input(0)); it != deferred_.end()) {  // a transpose of one
    d.source = it->second.source, d.shape = it->second.shape;
    for (size_t i = 0; i < perm.size(); ++i) d.perm[i] = it->second.perm[perm[i]];
  } else {
    NPU_ASSIGN_OR_RETURN(d.source, ValueOf(*n.input(0)));
    const ActivationValue& x = net_.value(d.source);
    if (x.channel_offset != 0 || net_.PixelStride(d.source) != x.c) return false;  // not dense
  }
  deferred_.emplace(n.output(0), std::move(d));
  return true;
}

StatusOr<bool> Lowering::DeferLutBeforeTranspose(const ir::Node& lut, const Deferred& transpose) {
  const ActivationValue& x = net_.value(transpose.source);
  LutLayer l;
  l.name = lut.name();
  l.h = x.h, l.w = x.w, l.c = x.c;
  for (int64_t v : lut.attrs().GetInts("table")) l.table.push_back(static_cast<int8_t>(v));
  if (!CheckLutLayer(l).ok()) return false;
  const ir::Tensor& y = *lut.output(0);
  ActivationValue v = x;
  v.name = y.name() + " (before transpose)";
  v.scale = y.quant().scale[0];
  v.zero_point = y.quant().zero_point[0];
  v.buffer = static_cast<int>(net_.buffers.size());
  net_.buffers.push_back({v.bytes()});
  net_.values.push_back(v);
  NetLayer layer;
  layer.name = lut.name();
  layer.op = "lut";
  layer.inputs = {transpose.source};
  layer.output = static_cast<int>(net_.values.size()) - 1;
  layer.note = fmt::format("applied before transpose '{}', which the matrix products read through",
                           transpose.node->name());
  layer.work = std::move(l);
  net_.layers.push_back(std::move(layer));
  deferred_.emplace(&y, Deferred{&lut, net_.layers.back().output, transpose.shape, transpose.perm});
  return true;
}

StatusOr<int> Lowering::Materialize(const ir::Tensor& t) {
  auto it = deferred_.find(&t);
  if (it == deferred_.end()) return ValueOf(t);
  const ir::Node* node = it->second.node;
  deferred_.erase(it);
  NPU_TRY(Lower(*node));  // a transpose on the control core; a table after its transpose
  return ValueOf(t);
}

StatusOr<StridedView> Lowering::OperandView(const ir::Tensor& t, bool is_b) {
  if (auto it = deferred_.find(&t); it != deferred_.end()) {
    const StridedView v = ViewOfDeferred(it->second);
    if (Readable(v, is_b)) return v;
  }
  NPU_ASSIGN_OR_RETURN(const int v, Materialize(t));
  return ViewOf(net_, v, t.shape());
}

const ir::Node* Lowering::TransposeAfter(const ir::Node& n) const {
  const ir::Tensor* out = n.output(0);
  if (out->users().size() != 1 || g_->IsGraphOutput(out)) return nullptr;
  const ir::Node* u = out->users()[0];
  if (u->kind() != OpKind::kTranspose || ForcedOnCpu(*u)) return nullptr;
  const std::vector<int64_t> perm = u->attrs().GetInts("perm");
  const int64_t rank = int64_t(out->shape().size());
  return perm.size() == size_t(rank) && perm.back() == rank - 1 ? u : nullptr;
}

StatusOr<NetLayer> Lowering::MatMulNpuLayer(const ir::Node& n) {
  NetLayer layer;
  layer.name = n.name();
  MatMulViews views;
  for (int i : {0, 1}) {
    const ir::Tensor* t = n.input(i);
    if (t == nullptr || t->is_constant()) return Unimplemented("a constant operand");
    NPU_ASSIGN_OR_RETURN((i == 0 ? views.a : views.b), OperandView(*t, i == 1));
    layer.inputs.push_back((i == 0 ? views.a : views.b).value);
  }
  const ir::Node* through = TransposeAfter(n);
  const ir::Tensor& out = through ? *through->output(0) : *n.output(0);
  const size_t values = net_.values.size(), buffers = net_.buffers.size();
  NPU_ASSIGN_OR_RETURN(layer.output, NewValue(out, -1));
  views.y = ViewOf(net_, layer.output, out.shape());
  if (through) views.y = Untransposed(views.y, through->attrs().GetInts("perm"));
  const Status lowered = LowerMatMul(n, net_, layer, views);
  if (!lowered.ok()) {  // undo the output value: the node may go to the CPU instead
    net_.values.resize(values);
    net_.buffers.resize(buffers);
    value_of_.erase(&out);
    return lowered;
  }
  if (through) {
    fused_.insert(through);
    layer.note = fmt::format("writes through transpose '{}'", through->name());
  }
  return layer;
}

}  // namespace npu::compiler::lowering
