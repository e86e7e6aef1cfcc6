// LowerGraph: the walk over the quantised graph.
//   1. Graph inputs become values in their own buffers.
//   2. In topological order: views (and slices of one contiguous range, transposes moving only
//      dims of one) become values over their input's buffer; a transpose that a
//      matrix product may read through is deferred (lower_views.cc); every other node becomes a
//      layer writing a new value in a new buffer, on the NPU (lower_ops.cc fills in the
//      parameters) or, where the NPU cannot run it, on the control core (CpuLayer).
//   3. One error for every node that cannot run anywhere (or only on the CPU, with the fallback
//      off).
//   4. Mark the buffers the host reads.
//   5. Channel slices become views or DMA copies, other slices DMA gathers (slice_views.h);
//      concatenations become placement (concat_placement.h).
//   6. Wide strided kernels read their input with the stride folded into the channels, where the
//      buffers' layouts (now final) are dense (stride_fold.h); a one-dimensional network runs
//      as columns (column_signals.h).
#include "compiler/lower/lower_graph.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "compiler/lower/column_signals.h"
#include "compiler/lower/concat_placement.h"
#include "compiler/lower/cpu_op_desc.h"
#include "compiler/lower/lowering.h"
#include "compiler/lower/shuffle_windows.h"
#include "compiler/lower/slice_views.h"
#include "compiler/lower/stride_fold.h"
#include "hw/spec/cpu_ops.h"

namespace npu::compiler {
namespace lowering {
namespace {

using ir::OpKind;

bool IsView(OpKind k) {
  return k == OpKind::kFlatten || k == OpKind::kReshape || k == OpKind::kIdentity;
}

bool IsEltwise(OpKind k) {
  return k == OpKind::kAdd || k == OpKind::kFusedAdd || k == OpKind::kMul || k == OpKind::kMax ||
         k == OpKind::kMin;
}

bool HasNpuLowering(OpKind k) {
  return k == OpKind::kFusedConv || k == OpKind::kGemm || k == OpKind::kMaxPool ||
         k == OpKind::kAveragePool || k == OpKind::kGlobalAveragePool || k == OpKind::kLut ||
         k == OpKind::kMatMul || k == OpKind::kTranspose || k == OpKind::kResize ||
         k == OpKind::kChannelShuffle || k == OpKind::kDequantizeLinear ||
         k == OpKind::kQuantizeLinear || k == OpKind::kLayerNormalization ||
         k == OpKind::kPoolSum || k == OpKind::kPoolMean || IsEltwise(k);
}

// The buffer a node's output must share: an accumulating pool sum's sums operand's, which it
// adds to in place (POOL reads the sums at its output); else -1, a buffer of its own.
int SharedOutputBuffer(const ir::Node& n, const Network& net,
                       const std::unordered_map<const ir::Tensor*, int>& value_of) {
  if (n.kind() != OpKind::kPoolSum || n.inputs().size() != 2) return -1;
  const auto it = value_of.find(n.input(1));
  return it == value_of.end() ? -1 : net.value(it->second).buffer;
}

// The lookup table reading `n`'s output alone, which its ACTs can apply instead.
const ir::Node* FusableLut(const ir::Graph& g, const ir::Node& n) {
  if (n.kind() != OpKind::kFusedConv && n.kind() != OpKind::kGemm) return nullptr;
  const ir::Tensor* out = n.output(0);
  if (out->users().size() != 1 || g.IsGraphOutput(out)) return nullptr;
  const ir::Node* u = out->users()[0];
  return u->kind() == OpKind::kLut ? u : nullptr;
}

}  // namespace

StatusOr<std::array<uint32_t, 3>> HwcOf(const ir::Tensor& t) {
  const ir::Shape& s = t.shape();
  auto bad = [&](const std::string& why) {
    return InvalidArgument(fmt::format("tensor '{}' {}: {}", t.name(), ir::ShapeText(s), why));
  };
  const bool fp16 = t.dtype() == ir::DType::kFloat16;  // an FP16 graph: no parameters
  const bool sums = t.dtype() == ir::DType::kInt32 && t.producer() != nullptr &&
                    t.producer()->kind() == OpKind::kPoolSum;
  if (t.dtype() != ir::DType::kInt8 && !fp16 && !sums) {
    return bad("activations must be i8 (or f16, or a pool sum's i32)");
  }
  if (!fp16 && (t.quant().empty() || t.quant().per_channel())) {
    return bad("activations need per-tensor quantisation parameters");
  }
  for (int64_t d : s) {
    if (d <= 0 || d > INT32_MAX) return bad("every dimension must be positive");
  }
  if (s.size() == 4 && t.layout() == ir::Layout::kNCHW) return bad("activations must be NHWC");
  if (s.empty()) return bad("activations are not scalars");
  if (ir::NumElements(s) > INT32_MAX) return bad("more than 2^31 values");
  std::array<uint32_t, 3> hwc{1, 1, uint32_t(s.back())};
  if (s.size() >= 2) hwc[1] = uint32_t(s[s.size() - 2]);
  for (size_t d = 0; d + 2 < s.size(); ++d) hwc[0] *= uint32_t(s[d]);
  return hwc;
}

StatusOr<Network> Lowering::Run(const ir::Graph& g) {
  g_ = &g;
  net_.name = g.name();
  for (const ir::Tensor* t : g.inputs()) {
    NPU_ASSIGN_OR_RETURN(const int v, NewValue(*t, -1));
    net_.buffers[net_.values[v].buffer].graph_input = true;
    net_.inputs.push_back(v);
  }
  for (const ir::Node* n : g.nodes()) {
    if (!fused_.count(n)) NPU_TRY(Node(*n));
  }
  for (const ir::Node* n : g.nodes()) {  // kInDram: its output's buffer never on chip
    if (n->attrs().GetInt(kInDram, 0) == 0 || n->num_outputs() != 1) continue;
    if (const auto it = value_of_.find(n->output(0)); it != value_of_.end()) {
      net_.buffers[net_.values[it->second].buffer].in_dram = true;
    }
  }
  for (const ir::Tensor* t : g.outputs()) NPU_TRY(Materialize(*t).status());
  if (!refused_.empty()) return Refusal(g);
  for (const ir::Tensor* t : g.outputs()) {
    NPU_ASSIGN_OR_RETURN(const int v, ValueOf(*t));
    net_.buffers[net_.values[v].buffer].graph_output = true;
    net_.outputs.push_back(v);
  }
  FoldSlicesIntoShuffles(net_);
  PlaceSlices(net_);
  PlaceConcats(net_);
  FoldStrides(net_);
  RunSignalsAsColumns(net_);
  if (net_.layers.empty()) {
    return Unimplemented(fmt::format("graph '{}' has no layer to run", g.name()));
  }
  return std::move(net_);
}

Status Lowering::Refusal(const ir::Graph& g) const {
  return Unimplemented(
      fmt::format("graph '{}': {} node(s) cannot run {}: {}", g.name(), refused_.size(),
                  options_.cpu_fallback ? "on the NPU or the control core"
                                        : "on the NPU, and the CPU fallback is off",
                  fmt::join(refused_, "; ")));
}

bool Lowering::ForcedOnCpu(const ir::Node& n) const {
  const auto& ops = options_.cpu_ops;
  return std::find(ops.begin(), ops.end(), n.name()) != ops.end() ||
         std::find(ops.begin(), ops.end(), std::string(ir::OpName(n.kind()))) != ops.end();
}

// A value for tensor `t`, in `buffer` (a view) or in a new buffer (-1).
StatusOr<int> Lowering::NewValue(const ir::Tensor& t, int buffer) {
  NPU_ASSIGN_OR_RETURN(const auto hwc, HwcOf(t));
  const bool fp16 = t.dtype() == ir::DType::kFloat16;
  ActivationValue v{t.name(),
                    {},
                    hwc[0],
                    hwc[1],
                    hwc[2],
                    fp16 ? 1.0f : t.quant().scale[0],
                    fp16 || t.quant().zero_point.empty() ? 0 : t.quant().zero_point[0],
                    buffer};
  v.fp16 = fp16;
  v.int32 = t.dtype() == ir::DType::kInt32;
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

StatusOr<int> Lowering::ValueOf(const ir::Tensor& t) const {
  auto it = value_of_.find(&t);
  if (it != value_of_.end()) return it->second;
  return InvalidArgument(fmt::format(
      "tensor '{}' is read as an activation but is neither a graph input nor computed by a node "
      "(constant activations are not supported)",
      t.name()));
}

Status Lowering::Node(const ir::Node& n) {
  if (n.num_outputs() != 1 || n.input(0) == nullptr) {
    return InvalidArgument(
        fmt::format("node '{}' ({}): expected an activation input and one output", n.name(),
                    ir::OpName(n.kind())));
  }
  NPU_ASSIGN_OR_RETURN(const bool deferred, Defer(n));
  if (deferred) return Status::Ok();
  if ((IsView(n.kind()) || MemoryOrderTranspose(n)) && !ForcedOnCpu(n)) {
    NPU_ASSIGN_OR_RETURN(const int x, Materialize(*n.input(0)));
    const ActivationValue& in = net_.values[x];
    // A view of a contiguous part of its buffer (a batch's image: a slice of the outer axis) is
    // that part again.
    if (in.bytes() != net_.buffers[in.buffer].bytes && in.channel_offset == 0 &&
        net_.buffers[in.buffer].pixel_channels == 0) {
      return SliceView(n, x, in.byte_offset);
    }
    return NewValue(*n.output(), in.buffer).status();
  }
  if (n.kind() == OpKind::kSlice && !ForcedOnCpu(n)) {
    NPU_ASSIGN_OR_RETURN(const int x, Materialize(*n.input(0)));
    if (const std::optional<uint64_t> at = ContiguousSlice(n, x)) return SliceView(n, x, *at);
  }
  return Lower(n);
}

bool Lowering::MemoryOrderTranspose(const ir::Node& n) {
  if (n.kind() != OpKind::kTranspose) return false;
  const ir::Shape& s = n.input(0)->shape();
  return KeepsMemoryOrder(std::vector<uint64_t>(s.begin(), s.end()), n.attrs().GetInts("perm"));
}

std::optional<uint64_t> Lowering::ContiguousSlice(const ir::Node& n, int input) const {
  const ActivationValue& x = net_.values[input];
  if (net_.buffers[x.buffer].pixel_channels != 0 || x.bytes() != net_.buffers[x.buffer].bytes) {
    return std::nullopt;
  }
  const ir::Shape &in = n.input(0)->shape(), &out = n.output(0)->shape();
  const std::vector<int64_t> start = n.attrs().GetInts("starts"), step = n.attrs().GetInts("steps");
  if (start.size() != in.size() || step.size() != in.size()) return std::nullopt;
  size_t axis = 0;  // the first dim the slice keeps more than one of
  while (axis < out.size() && out[axis] == 1) ++axis;
  uint64_t offset = 0, stride = 1;
  for (size_t d = in.size(); d-- > 0;) {
    if (step[d] != 1 || (d > axis && (start[d] != 0 || out[d] != in[d]))) return std::nullopt;
    offset += uint64_t(start[d]) * stride;
    stride *= uint64_t(in[d]);
  }
  return x.byte_offset + offset * x.element_bytes();
}

Status Lowering::SliceView(const ir::Node& n, int input, uint64_t byte_offset) {
  NPU_ASSIGN_OR_RETURN(const auto hwc, HwcOf(*n.output(0)));
  const ir::Tensor& t = *n.output(0);
  const bool fp16 = t.dtype() == ir::DType::kFloat16;
  ActivationValue v{t.name(),
                    {},
                    hwc[0],
                    hwc[1],
                    hwc[2],
                    fp16 ? 1.0f : t.quant().scale[0],
                    fp16 ? 0 : t.quant().zero_point[0],
                    net_.values[input].buffer};
  v.fp16 = fp16;
  v.int32 = t.dtype() == ir::DType::kInt32;
  for (int64_t d : t.shape()) v.shape.push_back(static_cast<uint32_t>(d));
  v.byte_offset = byte_offset;
  net_.values.push_back(v);
  value_of_[&t] = static_cast<int>(net_.values.size()) - 1;
  return Status::Ok();
}

Status Lowering::Lower(const ir::Node& n) {
  std::string reason = ForcedOnCpu(n) ? "placed on the CPU by the options" : "";
  if (reason.empty() && HasNpuLowering(n.kind())) {
    StatusOr<NetLayer> layer = n.kind() == OpKind::kMatMul ? MatMulNpuLayer(n) : NpuLayer(n);
    if (layer.ok()) {
      if (const ir::Node* lut = FusableLut(*g_, n)) FuseTable(*lut, *layer);
      net_.layers.push_back(*std::move(layer));
      return Status::Ok();
    }
    if (layer.status().kind() != ErrorKind::kUnimplemented) return layer.status();
    reason = layer.status().message();
  } else if (reason.empty()) {
    reason = fmt::format("the NPU has no {}", ir::OpName(n.kind()));
  }
  return CpuNode(n, reason);
}

namespace {

// ELTWISE's a is the operand with the output's shape (an activation), b the other.
EltwiseOperands Operands(const ir::Node& n) {
  const ir::Tensor *a = n.input(0), *b = n.input(1);
  return {a->is_constant() || (a->shape() != n.output(0)->shape() &&
                               b->shape() == n.output(0)->shape() && !b->is_constant())};
}

}  // namespace

StatusOr<NetLayer> Lowering::NpuLayer(const ir::Node& n) {
  NetLayer layer;
  layer.name = n.name();
  const EltwiseOperands operands = IsEltwise(n.kind()) ? Operands(n) : EltwiseOperands{};
  const ir::Tensor* a = n.input(operands.swapped ? 1 : 0);
  if (a->is_constant()) return Unimplemented("the NPU's layers read activations");
  NPU_ASSIGN_OR_RETURN(const int x, Materialize(*a));
  layer.inputs.push_back(x);
  if (IsEltwise(n.kind())) {
    const ir::Tensor* b = n.input(operands.swapped ? 0 : 1);
    if (b == nullptr) return InvalidArgument(fmt::format("node '{}': no b", n.name()));
    if (!b->is_constant()) {
      NPU_ASSIGN_OR_RETURN(const int bv, Materialize(*b));
      layer.inputs.push_back(bv);
    }
  }
  if (n.kind() == OpKind::kPoolSum && n.inputs().size() == 2) {  // the sums it adds to
    NPU_ASSIGN_OR_RETURN(const int sums, Materialize(*n.input(1)));
    layer.inputs.push_back(sums);
  }
  const size_t values = net_.values.size(), buffers = net_.buffers.size();
  NPU_ASSIGN_OR_RETURN(layer.output, NewValue(*n.output(), SharedOutputBuffer(n, net_, value_of_)));
  const Status lowered = LowerNode(n, layer, operands);
  if (!lowered.ok()) {  // undo the output value: the node may go to the CPU instead
    net_.values.resize(values);
    net_.buffers.resize(buffers);
    value_of_.erase(n.output());
    return lowered;
  }
  return layer;
}

Status Lowering::LowerNode(const ir::Node& n, NetLayer& layer, const EltwiseOperands& operands) {
  if (IsEltwise(n.kind())) return LowerEltwise(n, net_, layer, operands);
  switch (n.kind()) {
    case OpKind::kFusedConv:
      return LowerConv(n, net_, layer);
    case OpKind::kGemm:
      return LowerGemm(n, net_, layer);
    case OpKind::kLut:
      return LowerLut(n, net_, layer);
    case OpKind::kDequantizeLinear:
    case OpKind::kQuantizeLinear:
      return LowerConversion(n, net_, layer);
    case OpKind::kTranspose:
      return LowerTranspose(n, net_, layer);
    case OpKind::kResize:
      return LowerResize(n, net_, layer);
    case OpKind::kChannelShuffle:
      return LowerChannelShuffle(n, net_, layer);
    case OpKind::kLayerNormalization:
      if (!options_.layer_norm) {
        return Unimplemented("this NPU has no layer normaliser (act.norm_dividers = 0)");
      }
      return LowerLayerNorm(n, net_, layer);
    default:
      return LowerPool(n, net_, layer);
  }
}

// The convolution's ACTs apply `lut`'s table: its output value becomes the table's output.
void Lowering::FuseTable(const ir::Node& lut, NetLayer& layer) {
  std::vector<int8_t> table;
  for (int64_t v : lut.attrs().GetInts("table")) table.push_back(static_cast<int8_t>(v));
  for (ConvPart& part : std::get<std::vector<ConvPart>>(layer.work)) part.conv.table = table;
  ActivationValue& v = net_.values[layer.output];
  const ir::Tensor& y = *lut.output(0);
  v.name = y.name();
  v.scale = y.quant().scale[0];
  v.zero_point = y.quant().zero_point[0];
  value_of_.erase(lut.input(0));
  value_of_[&y] = layer.output;
  layer.note += fmt::format("{}lookup table '{}' applied by its ACTs",
                            layer.note.empty() ? "" : "; ", lut.name());
  fused_.insert(&lut);
}

// The node as a CPU layer, or one more entry of the refusal.
Status Lowering::CpuNode(const ir::Node& n, const std::string& reason) {
  const std::string op(ir::OpName(n.kind()));
  if (!options_.cpu_fallback || !spec::IsCpuKernel(op)) {
    refused_.push_back(fmt::format("'{}' ({}): {}{}", n.name(), op, reason,
                                   spec::IsCpuKernel(op) ? "" : ", and the CPU has no kernel"));
    return NewValue(*n.output(), -1).status();  // so its readers can still be looked at
  }
  NetLayer layer;
  layer.name = n.name();
  layer.op = op;
  CpuLayer cpu;
  cpu.kernel = op;
  cpu.reason = reason;
  cpu.attrs = CpuAttrsOf(n);
  for (const ir::Tensor* t : n.inputs()) {
    CpuOperand operand;
    if (t != nullptr && t->is_constant()) {
      NPU_ASSIGN_OR_RETURN(CpuConstant c, CpuConstantOf(*t));
      operand.constant = static_cast<int>(cpu.constants.size());
      cpu.constants.push_back(std::move(c));
    } else if (t != nullptr) {
      NPU_ASSIGN_OR_RETURN(operand.value, Materialize(*t));
      layer.inputs.push_back(operand.value);
    }
    cpu.operands.push_back(operand);
  }
  NPU_ASSIGN_OR_RETURN(layer.output, NewValue(*n.output(), -1));
  layer.work = std::move(cpu);
  NPU_ASSIGN_OR_RETURN(std::get<CpuLayer>(layer.work).macs, CpuLayerMacs(layer, net_));
  net_.layers.push_back(std::move(layer));
  return Status::Ok();
}

}  // namespace lowering

StatusOr<Network> LowerGraph(const ir::Graph& quantized, const LowerOptions& options) {
  return lowering::Lowering(options).Run(quantized);
}

}  // namespace npu::compiler
