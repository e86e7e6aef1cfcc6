// The quantiser's graph walk: builds the quantised graph node by node from the float one.
// Internal to compiler/quantize; Quantize() (quantize.h) is the entry point.
//
// Naming: a quantised activation takes the name of the float tensor whose values it stands for
// (after a merged ReLU, the ReLU's output), so per-layer comparisons pair tensors by name; nodes
// keep their float names; weights and biases keep their float constants' names.
#pragma once

#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/passes/pass_context.h"
#include "compiler/quantize/calibrate.h"
#include "compiler/quantize/lut_regions.h"
#include "compiler/quantize/quant_params.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

class GraphQuantizer {
 public:
  GraphQuantizer(const ir::Graph& float_graph, const TensorRanges& ranges, passes::PassContext& ctx,
                 int weight_bits = 8, std::set<std::string> int4_layers = {},
                 std::set<std::string> fp16_layers = {})
      : f_(float_graph),
        ranges_(ranges),
        ctx_(ctx),
        q_(float_graph.name()),
        weight_bits_(weight_bits),
        int4_layers_(std::move(int4_layers)),
        fp16_layers_(std::move(fp16_layers)) {}
  // The FP16 graph instead (ConvertToFp16, docs/quantized-ir.md "FP16 graphs"): f16 activations
  // and weights, f32 biases, no quantisation parameters; emit_fp16.cc holds the per-op rules.
  struct Fp16Tag {};
  GraphQuantizer(const ir::Graph& float_graph, passes::PassContext& ctx, Fp16Tag)
      : GraphQuantizer(float_graph, NoRanges(), ctx) {
    all_fp16_ = fp16_ = true;
  }

  StatusOr<ir::Graph> Run();

 private:
  static const TensorRanges& NoRanges() {
    static const TensorRanges none;
    return none;
  }
  // A chain of ReLU / Clip(0,6) nodes merged into the op before it.
  struct Tail {
    const ir::Tensor* out;   // the float tensor the op's quantised output stands for
    std::string activation;  // "none", "relu", "relu6"
  };

  // quantize.cc: inputs, outputs, dispatch, shared helpers.
  Status EmitInputs();
  Status EmitNode(const ir::Node& n);
  Status EmitOutputs();
  Tail FollowActivations(const ir::Tensor* out, std::string activation);
  // The chain FollowActivations merges, without merging it (its nodes into `chain` if given).
  Tail ActivationChain(const ir::Tensor* out, std::string activation,
                       std::vector<const ir::Node*>* chain) const;
  StatusOr<ir::QuantParams> ParamsFor(const ir::Tensor& t);
  StatusOr<ir::Tensor*> Operand(const ir::Node& n, size_t i, bool need_nhwc);
  ir::Node* AddNode(const ir::Node& f, ir::OpKind kind, std::vector<ir::Tensor*> inputs,
                    const ir::Tensor& represents, const ir::QuantParams& params,
                    ir::Attributes attrs);
  Status Unsupported(const ir::Node& n, const std::string& why) const;
  // Mixed int8 and FP16 (QuantizeOptions::fp16_layers): whether `n` computes in FP16, and `v`
  // (the value of float tensor `t`) in the type the node being emitted computes in, through a
  // conversion node made once per value and type.
  bool ComputesInFp16(const ir::Node& n) const;
  bool InputsAreFp16(const ir::Node& n) const;  // pools, adds, views follow their inputs
  StatusOr<ir::Tensor*> InNodeType(const ir::Tensor& t, ir::Tensor* v);
  static void SetClamp(ir::Attributes& attrs, ClampRange clamp);

  // emit_fp16.cc: the FP16 forms of FusedConv, Gemm, the pools and Add; the rest has none.
  Status EmitFp16Node(const ir::Node& n);
  Status EmitConvFp16(const ir::Node& n);
  Status EmitGemmFp16(const ir::Node& n);
  Status EmitPoolFp16(const ir::Node& n);
  Status EmitAddFp16(const ir::Node& n);
  // The float operands of a FusedConv (emit_mac.cc), checked: the weights re-laid out OHWI
  // [O][kh][kw][I/group].
  struct FloatConv {
    ir::Tensor* x;
    const ir::Tensor *w, *b;  // b may be null
    std::vector<float> ohwi;
    int64_t out_c, group;
  };
  StatusOr<FloatConv> ReadConv(const ir::Node& n);
  // Those of a Gemm or MatMul by a constant: weight rows W[j][k] = alpha * op(B)[k][j], the bias
  // (beta * C, plus a constant Add of one value per output reading the result alone, which is
  // merged; empty if neither), and the tensor the result then stands for with the Add's
  // activation.
  struct FloatGemm {
    ir::Tensor* x;
    const ir::Tensor *bw, *c;  // c may be null
    int64_t k, out_n;
    bool trans_b;
    float alpha;
    std::vector<float> rows, bias;
    const ir::Tensor* result;
    std::string activation;
  };
  StatusOr<FloatGemm> ReadGemm(const ir::Node& n);
  // emit_mac.cc: FusedConv, Gemm, MatMul.
  Status EmitConv(const ir::Node& n);
  Status EmitGemm(const ir::Node& n);
  ir::Tensor* AddWeights(const std::string& base, ir::Shape shape, const QuantizedWeights& w);
  ir::Tensor* AddBias(const std::string& base, std::vector<int32_t> values, float input_scale,
                      const std::vector<float>& weight_scales);

  Status EmitMatMul(const ir::Node& n);  // two activations
  // emit_deconv.cc: ConvTranspose as a phase convolution and a depth-to-space shuffle.
  Status EmitConvTranspose(const ir::Node& n);
  // A node of the quantised graph standing for no float tensor (a step of a decomposition).
  ir::Tensor* AddInternal(ir::OpKind kind, const std::string& name, std::vector<ir::Tensor*> inputs,
                          ir::Shape shape, ir::Layout layout, const ir::QuantParams& params,
                          ir::Attributes attrs);
  // The bias of a Gemm/MatMul: a constant Add reading its output alone (`add`), if any.
  const ir::Node* BiasAdd(const ir::Tensor* out, int64_t n) const;

  // emit_vector.cc: pools, views.
  Status EmitMaxPool(const ir::Node& n);
  Status EmitAveragePool(const ir::Node& n);
  Status EmitView(const ir::Node& n);

  // emit_elementwise.cc: lookup tables, binary ops with broadcasting and constants.
  Status EmitLut(const ir::Node& n);
  Status EmitBinary(const ir::Node& n);
  // A quantised tensor of `t` (an activation, or a constant quantised per tensor).
  StatusOr<ir::Tensor*> ValueOrConstant(const ir::Node& n, size_t i);
  ir::Tensor* QuantizedConstant(const std::string& name, const ir::Shape& shape,
                                const std::vector<float>& values);
  // `x` requantised to `params` by a table (itself if they already agree).
  ir::Tensor* Requantized(ir::Tensor* x, const ir::QuantParams& params, const std::string& name);

  // emit_data.cc: ops that move values without requantising them, and concat.
  Status EmitConcat(const ir::Node& n);
  Status EmitSlice(const ir::Node& n);
  Status EmitSplit(const ir::Node& n);
  Status EmitTranspose(const ir::Node& n);
  Status EmitChannelShuffle(const ir::Node& n);
  Status EmitPad(const ir::Node& n);
  Status EmitResize(const ir::Node& n);

  // emit_norm.cc: softmax, layer normalisation, reductions.
  Status EmitSoftmax(const ir::Node& n);
  Status EmitLayerNorm(const ir::Node& n);
  Status EmitReduce(const ir::Node& n);

  const ir::Graph& f_;
  const TensorRanges& ranges_;
  passes::PassContext& ctx_;
  ir::Graph q_;
  std::unordered_map<const ir::Tensor*, ir::Tensor*> value_;  // float tensor -> quantised
  std::unordered_set<const ir::Node*> merged_;                // emitted as part of another node
  LutRegions regions_;
  bool all_fp16_ = false;  // ConvertToFp16
  bool fp16_ = false;      // the node being emitted computes in FP16
  std::unordered_map<const ir::Tensor*, ir::Tensor*> converted_;  // a value in the other type
  int weight_bits_;  // QuantizeOptions::weight_bits
  std::set<std::string> int4_layers_;  // QuantizeOptions::int4_layers
  std::set<std::string> fp16_layers_;  // QuantizeOptions::fp16_layers
  // The bits of node `n`'s constant weights when no scales are given.
  int WeightBits(const ir::Node& n) const {
    return int4_layers_.count(n.name()) ? 4 : weight_bits_;
  }
};

}  // namespace npu::compiler::quantize
