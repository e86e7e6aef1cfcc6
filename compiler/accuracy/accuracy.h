// How much a quantised graph loses against the float model it came from, per output and per
// layer, over a set of inputs: the report users read to decide whether int8 is good enough, and
// to find the layer that loses accuracy when it is not.
//
//   StatusOr<AccuracyReport> r = CompareAccuracy(float_graph, q_graph, held_out_inputs);
//   fmt::print("{}", FormatAccuracyText(*r));   // or FormatAccuracyJson(*r)
//
// The float graph is the one the quantiser was given (after the front-end pipeline), so tensor
// names pair up: each quantised activation is named after the float tensor whose values it
// stands for (docs/quantization.md). Inputs are float, in the float graph's input shapes; the
// quantised graph gets them quantised with its input parameters (qinterp/host_io.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "hw/spec/status.h"

namespace npu::compiler::accuracy {

// Metrics of dequantised int8 values against float ones, over all samples.
struct Metrics {
  double cosine = 0;         // over all samples' values at once
  double min_cosine = 0;     // of the worst sample
  double snr_db = 0;         // +infinity when the values are identical
  double max_abs_error = 0;  // in the tensor's real units
};

struct OutputAccuracy {
  std::string name;
  Metrics metrics;
  float scale = 0;  // of the int8 output: max_abs_error / scale is the error in steps
  // Share of samples where the float model's top-1 class is the int8 model's top-1 / among its
  // top-5; only for [1, N] outputs with N >= 2 (top-5: N >= 5).
  std::optional<double> top1, top5;
  // Samples whose float top-1 leads the runner-up by less than one int8 output step (`scale`):
  // near ties int8 logits cannot resolve. top1_resolvable: top-1 agreement on the others.
  int64_t near_ties = 0;
  std::optional<double> top1_resolvable;
};

struct LayerAccuracy {
  std::string tensor;  // the name the float and the quantised tensor share
  std::string op;      // the quantised op producing it ("input" for a graph input)
  ir::Shape shape;     // the quantised tensor's
  Metrics metrics;
  float scale = 0;
  int32_t zero_point = 0;
  double clipped = 0;  // share of float values outside the int8 range (range too narrow)
};

// What the quantisation was calibrated on, as the report shows it.
struct CalibrationSummary {
  int64_t samples = 0;
  std::vector<std::string> files;  // empty: the built-in seeded inputs
  std::string observer;            // quantize::ObserverName
  bool from_cache = false;         // the quantised model an earlier run calibrated and stored
  // "int8", "w4a8" (int4 weights), "auto" (mixed) or "fp16" (no calibration: the rest unused)
  std::string precision = "int8";
  std::vector<std::string> int4_layers = {};  // auto: the layers given int4 weights
  std::vector<std::string> fp16_layers = {};  // auto: the layers computing in FP16
  std::string mixed_precision = {};      // auto, chosen in this run: the choice's table
};

struct AccuracyReport {
  std::string model;
  int64_t samples = 0;
  std::vector<OutputAccuracy> outputs;
  std::vector<LayerAccuracy> layers;              // graph inputs, then node outputs in graph order
  std::optional<CalibrationSummary> calibration;  // set by the caller that knows it
};

// Runs both graphs on every sample (`inputs[s]`: one float value per float graph input) and
// compares. Fails if the graphs' inputs or outputs do not correspond (count, shapes up to the
// NCHW/NHWC border reorder) or either interpreter fails.
StatusOr<AccuracyReport> CompareAccuracy(
    const ir::Graph& float_graph, const ir::Graph& quant_graph,
    const std::vector<std::vector<interp::HostTensor>>& inputs);

// A table for terminals (at most 100 columns): outputs, then layers; the layer with the worst
// SNR is marked.
std::string FormatAccuracyText(const AccuracyReport& report);
// The same as JSON (non-finite numbers as null).
std::string FormatAccuracyJson(const AccuracyReport& report);

}  // namespace npu::compiler::accuracy
