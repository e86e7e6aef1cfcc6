// LowerGraph: the walk over the quantised graph.
//   1. Refuse, in one error, every node whose op the NPU has no lowering for.
//   2. Graph inputs become values in their own buffers.
//   3. In topological order: views become values over their input's buffer; layers become
//      NetLayers writing a new value in a new buffer (lower_ops.cc fills in the parameters).
//   4. Mark the buffers the host reads.
#include "compiler/lower/lower_graph.h"

#include <fmt/format.h>

#include <array>
#include <unordered_map>

#include "compiler/lower/lower_ops.h"

namespace npu::compiler {
namespace {

using ir::OpKind;

bool IsView(OpKind k) {
  return k == OpKind::kFlatten || k == OpKind::kReshape || k == OpKind::kIdentity;
}

bool IsLayer(OpKind k) {
  return k == OpKind::kFusedConv || k == OpKind::kGemm || k == OpKind::kMaxPool ||
         k == OpKind::kAveragePool || k == OpKind::kGlobalAveragePool || k == OpKind::kAdd ||
         k == OpKind::kFusedAdd;
}

// Step 1: every node the NPU cannot run, named with its op.
Status CheckSupported(const ir::Graph& g) {
  std::vector<std::string> unsupported;
  for (const ir::Node* n : g.nodes()) {
    if (!IsView(n->kind()) && !IsLayer(n->kind())) {
      unsupported.push_back(fmt::format("'{}' ({})", n->name(), ir::OpName(n->kind())));
    }
  }
  if (unsupported.empty()) return Status::Ok();
  return Unimplemented(fmt::format(
      "graph '{}': {} node(s) have no NPU lowering (supported: fused_conv, gemm, max_pool, "
      "average_pool, global_average_pool, add, fused_add, flatten, reshape, identity): {}",
      g.name(), unsupported.size(), fmt::join(unsupported, ", ")));
}

// An activation's (h, w, c): [1,H,W,C] (NHWC), [1,K] or [K] (1x1xK); i8 with per-tensor quant.
StatusOr<std::array<uint32_t, 3>> HwcOf(const ir::Tensor& t) {
  const ir::Shape& s = t.shape();
  auto bad = [&](const std::string& why) {
    return InvalidArgument(fmt::format("tensor '{}' {}: {}", t.name(), ir::ShapeText(s), why));
  };
  if (t.dtype() != ir::DType::kInt8) return bad("activations must be i8");
  if (t.quant().empty() || t.quant().per_channel()) {
    return bad("activations need per-tensor quantisation parameters");
  }
  for (int64_t d : s) {
    if (d <= 0 || d > INT32_MAX) return bad("every dimension must be positive");
  }
  if (s.size() == 4 && s[0] == 1 && t.layout() != ir::Layout::kNCHW) {
    return std::array<uint32_t, 3>{uint32_t(s[1]), uint32_t(s[2]), uint32_t(s[3])};
  }
  if (s.size() == 2 && s[0] == 1) return std::array<uint32_t, 3>{1, 1, uint32_t(s[1])};
  if (s.size() == 1) return std::array<uint32_t, 3>{1, 1, uint32_t(s[0])};
  return bad("the NPU takes NHWC [1,H,W,C] or [1,K] activations (batch 1)");
}

class Lowering {
 public:
  StatusOr<Network> Run(const ir::Graph& g) {
    NPU_TRY(CheckSupported(g));
    net_.name = g.name();
    for (const ir::Tensor* t : g.inputs()) {
      NPU_ASSIGN_OR_RETURN(const int v, NewValue(*t, -1));
      net_.buffers[net_.values[v].buffer].graph_input = true;
      net_.inputs.push_back(v);
    }
    for (const ir::Node* n : g.nodes()) NPU_TRY(Node(*n));
    for (const ir::Tensor* t : g.outputs()) {
      NPU_ASSIGN_OR_RETURN(const int v, ValueOf(*t));
      net_.buffers[net_.values[v].buffer].graph_output = true;
      net_.outputs.push_back(v);
    }
    if (net_.layers.empty()) {
      return Unimplemented(fmt::format("graph '{}' has no layer for the NPU to run", g.name()));
    }
    return std::move(net_);
  }

 private:
  // A value for tensor `t`, in `buffer` (a view) or in a new buffer (-1).
  StatusOr<int> NewValue(const ir::Tensor& t, int buffer) {
    NPU_ASSIGN_OR_RETURN(const auto hwc, HwcOf(t));
    ActivationValue v{t.name(),
                      {},
                      hwc[0],
                      hwc[1],
                      hwc[2],
                      t.quant().scale[0],
                      t.quant().zero_point.empty() ? 0 : t.quant().zero_point[0],
                      buffer};
    for (int64_t d : t.shape()) v.shape.push_back(static_cast<uint32_t>(d));
    if (buffer < 0) {
      v.buffer = static_cast<int>(net_.buffers.size());
      net_.buffers.push_back({v.bytes()});
    } else if (v.bytes() != net_.buffers[buffer].bytes) {
      return InvalidArgument(fmt::format("view '{}' has {} bytes; its input has {}", t.name(),
                                         v.bytes(), net_.buffers[buffer].bytes));
    }
    net_.values.push_back(v);
    value_of_[&t] = static_cast<int>(net_.values.size()) - 1;
    return static_cast<int>(net_.values.size()) - 1;
  }

  StatusOr<int> ValueOf(const ir::Tensor& t) const {
    auto it = value_of_.find(&t);
    if (it != value_of_.end()) return it->second;
    return InvalidArgument(fmt::format(
        "tensor '{}' is read as an activation but is neither a graph input nor computed by a node "
        "(constant activations are not supported)",
        t.name()));
  }

  Status Node(const ir::Node& n) {
    if (n.num_outputs() != 1 || n.input(0) == nullptr) {
      return InvalidArgument(
          fmt::format("node '{}' ({}): expected one activation input and one "
                      "output",
                      n.name(), ir::OpName(n.kind())));
    }
    NPU_ASSIGN_OR_RETURN(const int x, ValueOf(*n.input(0)));
    if (IsView(n.kind())) {
      return NewValue(*n.output(), net_.values[x].buffer).status();
    }
    NetLayer layer;
    layer.name = n.name();
    layer.inputs.push_back(x);
    if (n.kind() == OpKind::kAdd || n.kind() == OpKind::kFusedAdd) {
      if (n.input(1) == nullptr) return InvalidArgument(fmt::format("add '{}': no b", n.name()));
      NPU_ASSIGN_OR_RETURN(const int b, ValueOf(*n.input(1)));
      layer.inputs.push_back(b);
    }
    NPU_ASSIGN_OR_RETURN(layer.output, NewValue(*n.output(), -1));
    NPU_TRY(LowerNode(n, layer));
    net_.layers.push_back(std::move(layer));
    return Status::Ok();
  }

  Status LowerNode(const ir::Node& n, NetLayer& layer) {
    switch (n.kind()) {
      case OpKind::kFusedConv:
        return lowering::LowerConv(n, net_, layer);
      case OpKind::kGemm:
        return lowering::LowerGemm(n, net_, layer);
      case OpKind::kAdd:
      case OpKind::kFusedAdd:
        return lowering::LowerAdd(n, net_, layer);
      default:
        return lowering::LowerPool(n, net_, layer);
    }
  }

  Network net_;
  std::unordered_map<const ir::Tensor*, int> value_of_;
};

}  // namespace

StatusOr<Network> LowerGraph(const ir::Graph& quantized) { return Lowering().Run(quantized); }

}  // namespace npu::compiler
