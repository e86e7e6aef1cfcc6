// Quantize(): calibrate, then walk the float graph in order and emit each node's quantised form.
// This file holds the walk itself (inputs, dispatch, outputs) and the helpers every emitter uses;
// emit_mac.cc and emit_vector.cc hold the per-op rules.
#include "compiler/quantize/quantize.h"

#include <fmt/format.h>

#include "compiler/ir/verifier.h"
#include "compiler/qinterp/check.h"
#include "compiler/quantize/activations.h"
#include "compiler/quantize/graph_quantizer.h"
#include "compiler/quantize/reduction_limits.h"
#include "compiler/quantize/unify_ranges.h"

namespace npu::compiler::quantize {
namespace {

using ir::OpKind;

bool IsTranspose(const ir::Node& n, const std::vector<int64_t>& perm) {
  return n.kind() == OpKind::kTranspose && n.attrs().GetInts("perm") == perm;
}
bool IsToNhwc(const ir::Node& n) { return IsTranspose(n, {0, 2, 3, 1}); }
bool IsToNchw(const ir::Node& n) { return IsTranspose(n, {0, 3, 1, 2}); }

}  // namespace

Status GraphQuantizer::Unsupported(const ir::Node& n, const std::string& why) const {
  return Unimplemented(
      fmt::format("node '{}' ({}) cannot be quantised: {}", n.name(), ir::OpName(n.kind()), why));
}

void GraphQuantizer::SetClamp(ir::Attributes& attrs, ClampRange clamp) {
  attrs.Set("clamp_min", int64_t{clamp.min});
  attrs.Set("clamp_max", int64_t{clamp.max});
}

GraphQuantizer::Tail GraphQuantizer::ActivationChain(const ir::Tensor* out, std::string activation,
                                                     std::vector<const ir::Node*>* chain) const {
  // A ReLU merges into the op before it when it is that op's only reader; so do chains of them.
  while (out->users().size() == 1 && !f_.IsGraphOutput(out)) {
    const ir::Node* user = out->users()[0];
    const std::string act = ActivationOf(*user);
    if (act.empty()) break;
    activation = CombineActivations(activation, act);
    if (chain != nullptr) chain->push_back(user);
    out = user->output(0);
  }
  return {out, activation};
}

GraphQuantizer::Tail GraphQuantizer::FollowActivations(const ir::Tensor* out,
                                                       std::string activation) {
  std::vector<const ir::Node*> chain;
  const Tail tail = ActivationChain(out, std::move(activation), &chain);
  merged_.insert(chain.begin(), chain.end());
  return tail;
}

StatusOr<ir::QuantParams> GraphQuantizer::ParamsFor(const ir::Tensor& t) {
  // 1. Given by the model (QDQ import): kept as they are.
  if (!t.quant().empty()) {
    const ir::QuantParams& q = t.quant();
    if (q.scale.size() != 1 || q.zero_point.size() != 1 || !(q.scale[0] > 0.0f) ||
        q.zero_point[0] < -128 || q.zero_point[0] > 127) {
      return Unimplemented(fmt::format(
          "tensor '{}' carries {} scales and {} zero points: activations need one scale and one "
          "int8 zero point",
          t.name(), q.scale.size(), q.zero_point.size()));
    }
    return q;
  }
  // 2. FP16 activations have none.
  if (fp16_) return ir::QuantParams{};
  // 3. Calibrated.
  auto it = ranges_.find(t.name());
  if (it != ranges_.end()) return ActivationParams(it->second);
  return FailedPrecondition(fmt::format(
      "tensor '{}' has no quantisation parameters: the model gives none and no calibration "
      "data was given",
      t.name()));
}

StatusOr<ir::Tensor*> GraphQuantizer::Operand(const ir::Node& n, size_t i, bool need_nhwc) {
  const ir::Tensor* t = n.input(i);
  if (t == nullptr)
    return InvalidArgument(fmt::format("node '{}': input {} is missing", n.name(), i));
  auto it = value_.find(t);
  if (it == value_.end()) {
    return Unsupported(n, fmt::format("input %{} is {}", t->name(),
                                      t->is_constant() ? "a constant (only weights and biases "
                                                         "may be)"
                                                       : "not a quantised activation"));
  }
  NPU_ASSIGN_OR_RETURN(ir::Tensor * v, InNodeType(*t, it->second));
  if (need_nhwc && (t->shape().size() != 4 || v->layout() != ir::Layout::kNHWC)) {
    return FailedPrecondition(fmt::format(
        "node '{}' ({}) reads %{} {} {}: run the front-end pipeline (convert-layout-nhwc) before "
        "quantising",
        n.name(), ir::OpName(n.kind()), t->name(), ir::ShapeText(t->shape()),
        ir::LayoutName(t->layout())));
  }
  return v;
}

bool GraphQuantizer::ComputesInFp16(const ir::Node& n) const {
  if (all_fp16_) return true;
  if (fp16_layers_.empty() || regions_.members.count(&n)) return false;
  switch (n.kind()) {
    case OpKind::kFusedConv:
    case OpKind::kGemm:
      return fp16_layers_.count(n.name()) > 0;
    case OpKind::kMatMul:
      return fp16_layers_.count(n.name()) > 0 && n.input(1) != nullptr && n.input(1)->is_constant();
    case OpKind::kAdd:
    case OpKind::kFusedAdd: {
      // FP16 adds two activations of one shape, then at most a ReLU (EmitAddFp16).
      if (n.num_inputs() != 2 || n.input(0)->is_constant() || n.input(1)->is_constant() ||
          n.input(0)->shape() != n.input(1)->shape()) {
        return false;
      }
      const std::string fused = n.kind() == OpKind::kFusedAdd
                                    ? n.attrs().GetString("activation", "none")
                                    : std::string("none");
      if (ActivationChain(n.output(0), fused, nullptr).activation == "relu6") return false;
      return InputsAreFp16(n);
    }
    case OpKind::kMaxPool:
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      // POOL has no FP16 clamp: an activation after it keeps the pool int8 (EmitPoolFp16).
      if (ActivationChain(n.output(0), "none", nullptr).activation != "none") return false;
      return InputsAreFp16(n);
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kSqueeze:
    case OpKind::kUnsqueeze:
    case OpKind::kIdentity:
      return InputsAreFp16(n);
    default:
      return false;
  }
}

bool GraphQuantizer::InputsAreFp16(const ir::Node& n) const {
  bool any = false;
  for (const ir::Tensor* t : n.inputs()) {
    if (t == nullptr || t->is_constant()) continue;
    auto it = value_.find(t);
    if (it == value_.end() || it->second->dtype() != ir::DType::kFloat16) return false;
    any = true;
  }
  return any;
}

StatusOr<ir::Tensor*> GraphQuantizer::InNodeType(const ir::Tensor& t, ir::Tensor* v) {
  const ir::DType want = fp16_ ? ir::DType::kFloat16 : ir::DType::kInt8;
  if (v->dtype() == want) return v;
  auto it = converted_.find(v);
  if (it != converted_.end()) return it->second;
  // int8 -> FP16: DequantizeLinear (exact per value, a LUT of 256 FP16 entries on the NPU);
  // FP16 -> int8: QuantizeLinear to the calibrated parameters of the float tensor.
  ir::QuantParams params;
  if (want == ir::DType::kInt8) {
    NPU_ASSIGN_OR_RETURN(params, ParamsFor(t));
  }
  const ir::OpKind kind = want == ir::DType::kFloat16 ? OpKind::kDequantizeLinear : OpKind::kQuantizeLinear;
  const std::string name = q_.UniqueName(v->name() + (want == ir::DType::kFloat16 ? ".f16" : ".i8"));
  ir::Node* node = q_.AddNode(kind, name, {v}, {name});
  ir::Tensor* out = node->output(0);
  out->set_dtype(want);
  out->set_shape(v->shape());
  out->set_layout(v->layout());
  out->quant() = params;
  ctx_.Count(want == ir::DType::kFloat16 ? "mixed.to-fp16" : "mixed.to-int8");
  converted_[v] = out;
  return out;
}

ir::Node* GraphQuantizer::AddNode(const ir::Node& f, ir::OpKind kind,
                                  std::vector<ir::Tensor*> inputs, const ir::Tensor& represents,
                                  const ir::QuantParams& params, ir::Attributes attrs) {
  ir::Node* node =
      q_.AddNode(kind, f.name(), std::move(inputs), {represents.name()}, std::move(attrs));
  ir::Tensor* out = node->output(0);
  out->set_dtype(fp16_ ? ir::DType::kFloat16 : ir::DType::kInt8);
  out->set_shape(represents.shape());
  out->set_layout(represents.layout());
  out->quant() = params;
  value_[&represents] = out;
  return node;
}

Status GraphQuantizer::EmitInputs() {
  for (const ir::Tensor* in : f_.inputs()) {
    if (in->dtype() != ir::DType::kFloat32 || in->shape().empty() || in->shape()[0] != 1) {
      return Unimplemented(
          fmt::format("graph input '{}' is {}{}: the quantised IR takes float inputs of batch 1",
                      in->name(), ir::DTypeName(in->dtype()), ir::ShapeText(in->shape())));
    }
    // 1. An input the layout pass transposes to NHWC becomes an NHWC int8 input: the host
    //    quantises and reorders the float values (qinterp/host_io.h).
    std::vector<const ir::Node*> to_nhwc;
    for (const ir::Node* u : in->users()) {
      if (IsToNhwc(*u)) to_nhwc.push_back(u);
    }
    const bool transposed = !to_nhwc.empty() && to_nhwc.size() == in->users().size();
    const ir::Tensor& as = transposed ? *to_nhwc[0]->output(0) : *in;
    // 2. Its type: FP16 if every reader computes in FP16 (mixed precision: FP16 layers alone),
    //    so that no int8 rounding comes before them; its parameters: none for FP16, else the
    //    model's, else the calibrated range of the input.
    bool fp16 = all_fp16_ || !as.users().empty();
    for (const ir::Node* u : as.users()) fp16 = fp16 && (all_fp16_ || ComputesInFp16(*u));
    fp16_ = fp16;
    NPU_ASSIGN_OR_RETURN(const ir::QuantParams params, ParamsFor(*in));
    ir::Tensor* q = q_.AddInput(in->name(), fp16 ? ir::DType::kFloat16 : ir::DType::kInt8,
                                as.shape(), as.layout());
    q->quant() = params;
    value_[in] = q;
    if (!transposed) continue;
    for (const ir::Node* t : to_nhwc) {
      value_[t->output(0)] = q;
      merged_.insert(t);
    }
  }
  return Status::Ok();
}

Status GraphQuantizer::EmitNode(const ir::Node& n) {
  fp16_ = ComputesInFp16(n);
  if (fp16_) return EmitFp16Node(n);
  if (regions_.members.count(&n)) {  // a lookup-table region: one table per tensor it hands on
    return regions_.exported.count(n.output(0)) ? EmitLut(n) : Status::Ok();
  }
  switch (n.kind()) {
    case OpKind::kFusedConv:
      return EmitConv(n);
    case OpKind::kConvTranspose:
      return EmitConvTranspose(n);
    case OpKind::kGemm:
      return EmitGemm(n);
    case OpKind::kMatMul:
      return n.input(1) != nullptr && n.input(1)->is_constant() ? EmitGemm(n) : EmitMatMul(n);
    case OpKind::kMaxPool:
      return EmitMaxPool(n);
    case OpKind::kAveragePool:
    case OpKind::kGlobalAveragePool:
      return EmitAveragePool(n);
    case OpKind::kAdd:
    case OpKind::kFusedAdd:
    case OpKind::kSub:
    case OpKind::kMul:
    case OpKind::kDiv:
    case OpKind::kMax:
    case OpKind::kMin:
      return EmitBinary(n);
    case OpKind::kFlatten:
    case OpKind::kReshape:
    case OpKind::kSqueeze:
    case OpKind::kUnsqueeze:
    case OpKind::kIdentity:
      return EmitView(n);
    case OpKind::kConcat:
      return EmitConcat(n);
    case OpKind::kSlice:
      return EmitSlice(n);
    case OpKind::kSplit:
      return EmitSplit(n);
    case OpKind::kTranspose:
      return EmitTranspose(n);
    case OpKind::kChannelShuffle:
      return EmitChannelShuffle(n);
    case OpKind::kPad:
      return EmitPad(n);
    case OpKind::kResize:
      return EmitResize(n);
    case OpKind::kSoftmax:
      return EmitSoftmax(n);
    case OpKind::kLayerNormalization:
      return EmitLayerNorm(n);
    case OpKind::kReduceMean:
    case OpKind::kReduceSum:
    case OpKind::kReduceMax:
      return EmitReduce(n);
    case OpKind::kConv:
      return FailedPrecondition(
          fmt::format("node '{}' is a conv: quantise the graph after the front-end pipeline (fused "
                      "convolutions, batch norms folded, NHWC)",
                      n.name()));
    case OpKind::kBatchNormalization:
      return Unsupported(n,
                         "a batch normalization the pipeline could not turn into a convolution "
                         "has no quantised form");
    default:
      return Unsupported(n, "the quantised IR has no equivalent op (docs/quantized-ir.md)");
  }
}

Status GraphQuantizer::EmitOutputs() {
  for (const ir::Tensor* t : f_.outputs()) {
    // The layout pass's transpose back to NCHW is dropped: the output stays NHWC, named as the
    // float output (the host reorders it, qinterp/host_io.h).
    const ir::Node* p = t->producer();
    if (p != nullptr && merged_.count(p) && IsToNchw(*p)) {
      ir::Tensor* q = value_.at(p->input(0));
      if (q->name() != t->name() && q_.FindTensor(t->name()) == nullptr) {
        q_.RenameTensor(q, t->name());
      }
      q_.AddOutput(q);
      continue;
    }
    auto it = value_.find(t);
    if (it == value_.end()) {
      return Internal(fmt::format("graph output '{}' was not quantised", t->name()));
    }
    q_.AddOutput(it->second);
  }
  return Status::Ok();
}

StatusOr<ir::Graph> GraphQuantizer::Run() {
  // 1. Transposes back to NCHW that only feed graph outputs disappear with the border.
  for (const ir::Tensor* t : f_.outputs()) {
    const ir::Node* p = t->producer();
    if (p != nullptr && IsToNchw(*p) && t->users().empty() && !p->input(0)->is_constant()) {
      merged_.insert(p);
    }
  }
  // 2. Lookup-table regions (their nodes become tables, not ops; FP16 has no tables).
  if (!fp16_) regions_ = FindLutRegions(f_);
  // 3. Inputs, nodes in order (skipping those merged into an earlier one), outputs.
  NPU_TRY(EmitInputs());
  for (const ir::Node* n : f_.nodes()) {
    if (!merged_.count(n)) NPU_TRY(EmitNode(*n));
  }
  NPU_TRY(EmitOutputs());
  return std::move(q_);
}

StatusOr<TensorRanges> CalibrateRanges(const ir::Graph& float_graph,
                                       const CalibrationSet& calibration,
                                       const QuantizeOptions& options) {
  // A typed, well-formed float graph and calibration data that fits it.
  NPU_TRY(ir::Verify(float_graph).WithContext("the float graph"));
  NPU_TRY(CheckReductionLimits(float_graph));
  NPU_TRY(CheckCalibrationSet(float_graph, calibration));
  NPU_ASSIGN_OR_RETURN(TensorRanges ranges, Calibrate(float_graph, calibration, options));
  UnifyRanges(float_graph, ranges);
  return ranges;
}

StatusOr<ir::Graph> QuantizeWithRanges(const ir::Graph& float_graph, const TensorRanges& ranges,
                                       const QuantizeOptions& options,
                                       passes::PassContext* ctx) {
  if (options.weight_bits != 8 && options.weight_bits != 4) {
    return InvalidArgument(
        fmt::format("weight bits {}: must be 8 or 4 (W4A8)", options.weight_bits));
  }
  passes::PassContext local;
  GraphQuantizer quantizer(float_graph, ranges, ctx != nullptr ? *ctx : local,
                           options.weight_bits, options.int4_layers, options.fp16_layers);
  NPU_ASSIGN_OR_RETURN(ir::Graph q, quantizer.Run());
  // What comes out must be the contract; anything else is a bug here.
  const Status checked = qinterp::CheckQuantizedGraph(q);
  if (!checked.ok()) {
    return Internal(fmt::format("the quantiser produced an invalid graph (a compiler bug): {}",
                                checked.message()));
  }
  return q;
}

StatusOr<ir::Graph> ConvertToFp16(const ir::Graph& float_graph, passes::PassContext* ctx) {
  NPU_TRY(ir::Verify(float_graph).WithContext("the float graph"));
  passes::PassContext local;
  GraphQuantizer converter(float_graph, ctx != nullptr ? *ctx : local, GraphQuantizer::Fp16Tag{});
  NPU_ASSIGN_OR_RETURN(ir::Graph g, converter.Run());
  const Status checked = qinterp::CheckQuantizedGraph(g);
  if (!checked.ok()) {
    return Internal(fmt::format("the FP16 conversion produced an invalid graph (a compiler bug): {}",
                                checked.message()));
  }
  return g;
}

StatusOr<ir::Graph> Quantize(const ir::Graph& float_graph, const CalibrationSet& calibration,
                             const QuantizeOptions& options, passes::PassContext* ctx) {
  NPU_ASSIGN_OR_RETURN(const TensorRanges ranges,
                       CalibrateRanges(float_graph, calibration, options));
  return QuantizeWithRanges(float_graph, ranges, options, ctx);
}

}  // namespace npu::compiler::quantize
