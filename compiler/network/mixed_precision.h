// --precision auto (issue 14): the precision of each convolution and fully connected layer:
// int4 weights (W4A8), int8, or FP16 (docs/quantization.md, "Mixed precision").
//
// Two goals. A budget (`budget_db`): the output SNR (against the float model) the int4 layers
// may cost against the all-int8 network; FP16 is not used. A target (`target_db`): the output
// SNR the network must reach; when all-int8 misses it, FP16 layers where needed, then int4 while
// it still holds; a target beyond what every candidate in FP16 reaches is an error naming the
// best reachable.
//
// Both steps lower precision from where the goal holds, one layer at a time, in order of MACs
// per dB lost, each kept if the whole assignment, measured again, still meets the goal. With a
// target that all-int8 misses, the search starts from every candidate FP16 and measures each
// alone back in int8 (the rest FP16: a layer's FP16 pays only beside FP16 neighbours, as every
// border rounds to int8); then the layers left int8 are measured alone in int4 (the SNR lost
// from the assignment so far) and lowered the same way.
// Measured on `samples` (float inputs in the float graph's shapes), with the calibration's
// ranges, so every assignment shares one calibration.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/status.h"

namespace npu::compiler {

enum class LayerNumbers { kInt4, kInt8, kFp16 };  // int4 weights with int8 activations; FP16
const char* LayerNumbersName(LayerNumbers n);     // "int4", "int8", "fp16"

struct LayerPrecision {
  std::string layer;         // the float graph's node
  uint64_t macs = 0;         // per inference
  double int8_loss_db = 0;   // target mode: output SNR lost with only this layer int8, rest FP16
  double alone_loss_db = 0;  // output SNR lost with only this layer int4 (from the FP16 choice)
  LayerNumbers numbers = LayerNumbers::kInt8;  // chosen
};

// The cycles a program of the model with these int4 and FP16 layers takes (the compiler's
// prediction on some config).
using PredictCycles = std::function<StatusOr<uint64_t>(const std::set<std::string>& int4_layers,
                                                       const std::set<std::string>& fp16_layers)>;

struct PrecisionGoal {
  double budget_db = 1.0;            // without a target: what int4 may cost against all-int8
  std::optional<double> target_db;   // the output SNR to reach (enables FP16)
  // Target mode: the FP16 layers chosen are kept only if predicted faster than every layer
  // FP16 (the conversions at int8/FP16 borders cost vector-unit passes and DRAM traffic that
  // MACs do not show). None: not compared.
  PredictCycles cycles = nullptr;
};

struct MixedPrecision {
  std::set<std::string> int4_layers, fp16_layers;
  std::vector<LayerPrecision> layers;  // every candidate, in graph order
  PrecisionGoal goal;
  double int8_snr_db = 0, snr_db = 0;  // the worst output's SNR vs float: all int8, chosen
  int assignments_measured = 0;
  // Target mode with PrecisionGoal::cycles: the predicted cycles of the mix the search found and
  // of every layer FP16 (the cheaper is kept).
  std::optional<uint64_t> mix_cycles, all_fp16_cycles;
};

// InvalidArgument for a budget that is negative or not finite, a target that is not finite, or
// a target no assignment reaches (naming the best reachable SNR).
StatusOr<MixedPrecision> ChooseMixedPrecision(
    const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
    const quantize::QuantizeOptions& options,
    const std::vector<std::vector<interp::HostTensor>>& samples, const PrecisionGoal& goal);

// A table for the report: each candidate's MACs, losses alone and choice; the SNR reached.
std::string FormatMixedPrecision(const MixedPrecision& m);

}  // namespace npu::compiler
