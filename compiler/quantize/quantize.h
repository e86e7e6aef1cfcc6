// Post-training INT8 quantisation: a float graph after the front-end pipeline (NHWC, fused) and
// a calibration set in, the quantised graph of docs/quantized-ir.md out.
//
//   CalibrationSet calib;                                  // float inputs of the float graph
//   for (uint32_t s = 0; s < 8; ++s) calib.samples.push_back(MakeInputs(g, kCalibrationSeed + s));
//   StatusOr<ir::Graph> q = Quantize(g, calib, {.observer = Observer::kPercentile});
//
// Activations become int8 per tensor (asymmetric; ranges from the observer), weights int8
// symmetric per output channel re-laid out to OHWI, biases int32 in accumulator scale; every
// multiplier/shift and clamp is computed here, once, and stored on the nodes. A float tensor that
// already carries QuantParams (from a QDQ model, see qdq_fold.h) keeps them: only tensors without
// them are calibrated. docs/quantization.md has the rules and their rounding.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/passes/pass_context.h"
#include "compiler/quantize/observer.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

enum class Observer { kMinMax, kPercentile, kMse };
std::string_view ObserverName(Observer observer);  // "minmax", "percentile", "mse"
StatusOr<Observer> ParseObserver(std::string_view name);

// Seeds of the built-in sets (workloads::MakeInputs(graph, seed)): calibration draws from
// kCalibrationSeed on, accuracy is measured on held-out inputs from kEvaluationSeed on.
inline constexpr uint32_t kCalibrationSeed = 1000;
inline constexpr uint32_t kEvaluationSeed = 2000;

struct CalibrationSet {
  // One entry per sample: a float32 value for each graph input, in order, of the input's shape.
  std::vector<std::vector<interp::HostTensor>> samples;
};

struct QuantizeOptions {
  Observer observer = Observer::kPercentile;  // the best top-1 agreement measured (docs)
  double percentile = 99.99;  // kPercentile: the share of values inside the range, in (50, 100]
  int histogram_bins = 2048;  // kPercentile and kMse, in [16, 8192] (MSE search: bins^2 / 4)
  // 8, or 4 (W4A8): the constant weights of convolutions and fully connected layers as int4 per
  // output channel (scale max|w| / 7), run by the MAC array's int4 mode. A QDQ model's given
  // weight scales stay int8.
  int weight_bits = 8;
  // Mixed precision: these float-graph nodes (convolutions, fully connected layers) get int4
  // weights whatever weight_bits says (compiler/network/mixed_precision.h chooses them).
  std::set<std::string> int4_layers = {};
  // Mixed precision with FP16: these float-graph nodes (convolutions, fully connected layers)
  // compute in FP16 (docs/quantized-ir.md, "Mixed int8 and FP16"); so do the pools, adds and
  // views all of whose inputs are FP16. Values change type through DequantizeLinear (int8 to
  // FP16) and QuantizeLinear (FP16 to int8) nodes where needed.
  std::set<std::string> fp16_layers = {};
};

// InvalidArgument naming the sample, the input and both types when a sample does not match the
// graph's inputs (count, element type, shape).
Status CheckCalibrationSet(const ir::Graph& float_graph, const CalibrationSet& calibration);

// The quantised graph (it passes qinterp::CheckQuantizedGraph). Fails with FailedPrecondition if
// the graph has not been through the pipeline, Unimplemented naming the node for ops or forms the
// quantised IR has no equivalent for, InvalidArgument for bad options or calibration data.
// `ctx`, if given, receives counters ("quantize.bias-saturated", ...).
StatusOr<ir::Graph> Quantize(const ir::Graph& float_graph, const CalibrationSet& calibration,
                             const QuantizeOptions& options = {},
                             passes::PassContext* ctx = nullptr);

// Quantize's two steps, for a caller that quantises one calibration several ways (mixed
// precision): the ranges (by float tensor name), then the graph from them.
using TensorRanges = std::map<std::string, ValueRange>;
StatusOr<TensorRanges> CalibrateRanges(const ir::Graph& float_graph,
                                       const CalibrationSet& calibration,
                                       const QuantizeOptions& options = {});
StatusOr<ir::Graph> QuantizeWithRanges(const ir::Graph& float_graph, const TensorRanges& ranges,
                                       const QuantizeOptions& options = {},
                                       passes::PassContext* ctx = nullptr);

// The FP16 graph (docs/quantized-ir.md, "FP16 graphs"; it passes qinterp::CheckQuantizedGraph):
// the float graph's FusedConv, Gemm (and MatMul by a constant), pools, Add of two activations and
// views with f16 activations and weights (rounded to nearest even) and f32 biases; no calibration.
// Unimplemented naming the node for any other op or form.
StatusOr<ir::Graph> ConvertToFp16(const ir::Graph& float_graph,
                                  passes::PassContext* ctx = nullptr);

}  // namespace npu::compiler::quantize
