// Slices, reshapes and transposes the NPU reads and writes through instead of running
// (attention's q, k and v split off one projection, its heads and K^T):
//   - A slice or transpose (of a dense value, or of a node deferred already), or a reshape of a
//     deferred node, is deferred (not run) when a matrix product reads its output, directly or
//     through more such nodes: the product reads the source through a strided view
//     (strided_view.h). A lookup table in that chain whose only readers are products runs
//     before it instead, on the whole source (a table commutes with any choice or order of
//     elements), and the chain stays deferred. Any reader that cannot read through a deferred
//     node makes it run where that reader is (Materialize), on the control core (a reshape as
//     the view it always was), as it would have without the deferral.
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

bool IsReshape(OpKind k) {
  return k == OpKind::kReshape || k == OpKind::kFlatten || k == OpKind::kIdentity;
}
bool IsViewLike(OpKind k) { return k == OpKind::kTranspose || k == OpKind::kSlice || IsReshape(k); }

bool OnlyReadByProducts(const ir::Graph& g, const ir::Tensor& t, const Forced& forced) {
  return !g.IsGraphOutput(&t) && !t.users().empty() &&
         std::all_of(t.users().begin(), t.users().end(), [&](const ir::Node* u) {
           return u->kind() == OpKind::kMatMul && !forced(*u);
         });
}

// Whether a product reads `t`: directly, through slices, reshapes and transposes, or through a
// lookup table only products read (it can run before).
bool ReadByProducts(const ir::Graph& g, const ir::Tensor& t, const Forced& forced) {
  return std::any_of(t.users().begin(), t.users().end(), [&](const ir::Node* u) {
    if (forced(*u)) return false;
    return u->kind() == OpKind::kMatMul ||
           (u->kind() == OpKind::kLut && OnlyReadByProducts(g, *u->output(0), forced)) ||
           (IsViewLike(u->kind()) && ReadByProducts(g, *u->output(0), forced));
  });
}

// A view a product can read: rows contiguous, or for b also its columns (b transposed); rows
// and columns going forwards (a slice with negative steps does not).
bool Readable(const StridedView& v, bool is_b) {
  const size_t r = v.shape.size();
  if (r < 2 || v.strides[r - 1] < 0 || v.strides[r - 2] < 0) return false;
  const bool rows = v.strides[r - 1] == 1 || v.shape[r - 1] == 1;
  return rows || (is_b && (v.strides[r - 2] == 1 || v.shape[r - 2] == 1));
}

// A table on the whole source does at most this many times the work of the view's elements.
constexpr int64_t kMaxTableOverwork = 4;

}  // namespace

StatusOr<std::optional<StridedView>> Lowering::InputView(const ir::Node& n, bool only_deferred) {
  const ir::Tensor& in = *n.input(0);
  using View = std::optional<StridedView>;
  if (auto it = deferred_.find(&in); it != deferred_.end()) return View(it->second.view);
  if (only_deferred || in.is_constant()) return View();
  NPU_ASSIGN_OR_RETURN(const int v, ValueOf(in));
  const ActivationValue& x = net_.value(v);
  if (x.channel_offset != 0 || net_.PixelStride(v) != x.c) return View();  // not dense
  return View(ViewOf(net_, v, in.shape()));
}

StatusOr<bool> Lowering::Defer(const ir::Node& n) {
  const Forced forced = [&](const ir::Node& u) { return ForcedOnCpu(u); };
  if (ForcedOnCpu(n)) return false;
  if (n.kind() == OpKind::kLut) {
    auto it = deferred_.find(n.input(0));
    if (it == deferred_.end() || !OnlyReadByProducts(*g_, *n.output(0), forced)) return false;
    return DeferLutBeforeViews(n, it->second);
  }
  if (!IsViewLike(n.kind()) || !ReadByProducts(*g_, *n.output(0), forced)) return false;
  NPU_ASSIGN_OR_RETURN(const std::optional<StridedView> in, InputView(n, IsReshape(n.kind())));
  if (!in) return false;
  const ir::Shape& shape = n.output(0)->shape();
  std::optional<StridedView> out;
  if (n.kind() == OpKind::kTranspose) {
    const std::vector<int64_t> perm = n.attrs().GetInts("perm");
    if (perm.size() == shape.size()) out = Transposed(*in, perm);
  } else if (n.kind() == OpKind::kSlice) {
    const std::vector<int64_t> starts = n.attrs().GetInts("starts"),
                               steps = n.attrs().GetInts("steps");
    if (starts.size() == shape.size() && steps.size() == shape.size()) {
      out = Sliced(*in, starts, steps, shape);
    }
  } else {
    out = Reshaped(*in, shape);
  }
  if (!out) return false;
  deferred_.emplace(n.output(0), Deferred{&n, *out});
  return true;
}

StatusOr<bool> Lowering::DeferLutBeforeViews(const ir::Node& lut, const Deferred& views) {
  const ActivationValue x = net_.value(views.view.value);  // a copy: values grow below
  if (int64_t(x.bytes()) > kMaxTableOverwork * ir::NumElements(views.view.shape)) return false;
  LutLayer l;
  l.name = lut.name();
  l.h = x.h, l.w = x.w, l.c = x.c;
  for (int64_t v : lut.attrs().GetInts("table")) l.table.push_back(static_cast<int8_t>(v));
  if (!CheckLutLayer(l).ok()) return false;
  const ir::Tensor& y = *lut.output(0);
  ActivationValue v = x;
  v.name = y.name() + " (before " + views.node->name() + ")";
  v.scale = y.quant().scale[0];
  v.zero_point = y.quant().zero_point[0];
  v.buffer = static_cast<int>(net_.buffers.size());
  net_.buffers.push_back({v.bytes()});
  net_.values.push_back(v);
  NetLayer layer;
  layer.name = lut.name();
  layer.op = "lut";
  layer.inputs = {views.view.value};
  layer.output = static_cast<int>(net_.values.size()) - 1;
  layer.note = fmt::format("applied to '{}' before '{}', which the matrix products read through",
                           x.name, views.node->name());
  layer.work = std::move(l);
  net_.layers.push_back(std::move(layer));
  StridedView view = views.view;
  view.value = net_.layers.back().output;
  deferred_.emplace(&y, Deferred{&lut, view});
  return true;
}

StatusOr<int> Lowering::Materialize(const ir::Tensor& t) {
  auto it = deferred_.find(&t);
  if (it == deferred_.end()) return ValueOf(t);
  const ir::Node* node = it->second.node;
  deferred_.erase(it);
  if (IsReshape(node->kind())) {  // the view over its (materialised) input it always was
    NPU_ASSIGN_OR_RETURN(const int x, Materialize(*node->input(0)));
    return NewValue(t, net_.values[x].buffer);
  }
  NPU_TRY(Lower(*node));  // a slice or transpose on the control core; a table after them
  return ValueOf(t);
}

StatusOr<StridedView> Lowering::OperandView(const ir::Tensor& t, bool is_b) {
  if (auto it = deferred_.find(&t); it != deferred_.end() && Readable(it->second.view, is_b)) {
    return it->second.view;
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
