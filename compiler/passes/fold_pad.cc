// Folds a constant-mode Pad of the spatial dims of a 4-D tensor into the Conv, AveragePool or
// MaxPool reading it (inception's and densenet's Pad(0) -> AveragePool), when that is exact:
//   Conv: the pad value is 0 (Conv pads with zeros); its pads grow by the Pad's.
//   AveragePool: the value is 0 and the padded zeros counted as taps, so count_include_pad
//     becomes 1, which needs the pool's own pads to be 0 or counted already.
//   MaxPool: the value is -inf, or no higher than every input (a Relu's output and value <= 0),
//     so padding never wins.
// Pools with ceil_mode=1 are left alone (their last window's rule depends on where the input
// ends). The Pad's output must have no other reader. After it, no such Pad feeds such an op.
#include <limits>

#include "compiler/passes/passes.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// The Pad's [top, left, bottom, right] if it pads only H and W of a 4-D tensor, constantly.
std::optional<std::vector<int64_t>> SpatialPads(const ir::Node& pad) {
  const ir::Tensor* p = pad.input(1);
  if (pad.attrs().GetString("mode", "constant") != "constant" || p == nullptr ||
      !p->is_constant() || p->dtype() != ir::DType::kInt64 || p->shape() != ir::Shape{8} ||
      pad.input(0)->layout() == ir::Layout::kNHWC) {
    return std::nullopt;
  }
  const std::span<const int64_t> v = p->data<int64_t>();
  for (int64_t x : v) {
    if (x < 0) return std::nullopt;
  }
  if (v[0] || v[1] || v[4] || v[5]) return std::nullopt;
  return std::vector<int64_t>{v[2], v[3], v[6], v[7]};
}

std::optional<float> PadValue(const ir::Node& pad) {
  if (pad.num_inputs() < 3 || pad.input(2) == nullptr) return 0.0f;
  const std::optional<std::vector<float>> v = FloatConstant(pad.input(2));
  if (!v || v->size() != 1) return std::nullopt;
  return (*v)[0];
}

// Whether every value of `t` is >= `value` by construction.
bool AtLeast(const ir::Tensor* t, float value) {
  if (value == -std::numeric_limits<float>::infinity()) return true;
  const ir::Node* p = t->producer();
  if (p == nullptr) return false;
  const std::optional<std::string> act = ActivationName(*p);
  const bool relu = act.has_value() || (p->kind() == ir::OpKind::kFusedConv &&
                                        p->attrs().GetString("activation", "none") != "none");
  return relu && value <= 0.0f;
}

bool CanFold(const ir::Node& pad, const ir::Node& reader, float value) {
  if (reader.input(0) != pad.output(0) || reader.input(0)->shape().size() != 4) return false;
  switch (reader.kind()) {
    case ir::OpKind::kConv:
      return value == 0.0f && reader.input(1) != pad.output(0);
    case ir::OpKind::kAveragePool: {
      const std::vector<int64_t> own = reader.attrs().GetInts("pads", {0, 0, 0, 0});
      const bool counted = reader.attrs().GetInt("count_include_pad", 0) != 0 ||
                           own == std::vector<int64_t>{0, 0, 0, 0};
      return value == 0.0f && counted && reader.attrs().GetInt("ceil_mode", 0) == 0;
    }
    case ir::OpKind::kMaxPool:
      return AtLeast(pad.input(0), value) && reader.attrs().GetInt("ceil_mode", 0) == 0;
    default:
      return false;
  }
}

}  // namespace

Status FoldPad(ir::Graph& graph, PassContext& ctx) {
  for (ir::Node* pad : graph.NodesOfKind(ir::OpKind::kPad)) {
    ir::Node* reader = SoleUser(graph, pad->output(0));
    const std::optional<std::vector<int64_t>> extra = SpatialPads(*pad);
    const std::optional<float> value = PadValue(*pad);
    if (reader == nullptr || !extra || !value || !CanFold(*pad, *reader, *value)) continue;
    std::vector<int64_t> pads = reader->attrs().GetInts("pads", {0, 0, 0, 0});
    if (pads.size() != 4) continue;
    for (size_t i = 0; i < 4; ++i) pads[i] += (*extra)[i];
    reader->attrs().Set("pads", pads);
    if (reader->kind() == ir::OpKind::kAveragePool) {
      reader->attrs().Set("count_include_pad", int64_t{1});
    }
    graph.SetNodeInput(reader, 0, pad->input(0));
    graph.EraseNode(pad);
    ctx.Count("fold-pad.folded");
  }
  graph.RemoveUnusedTensors();
  return Status::Ok();
}

}  // namespace npu::compiler::passes
