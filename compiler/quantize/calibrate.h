// Calibration: run the float interpreter over the calibration set and choose, with the observer,
// the real range each tensor's int8 form must cover.
//   1. First pass: every graph input and node output's min and max over all samples.
//   2. Second pass (percentile, MSE only): a histogram per tensor over that [min, max].
//   3. The observer's range per tensor.
// Same graph, samples and options -> the same ranges, bit for bit (integer counts, fixed order,
// a deterministic interpreter).
#pragma once

#include <map>
#include <string>

#include "compiler/ir/graph.h"
#include "compiler/quantize/observer.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/status.h"

namespace npu::compiler::quantize {

using TensorRanges = std::map<std::string, ValueRange>;  // by float tensor name

// Ranges for the graph's inputs and every float node output. An empty set gives no ranges.
StatusOr<TensorRanges> Calibrate(const ir::Graph& float_graph, const CalibrationSet& calibration,
                                 const QuantizeOptions& options);

}  // namespace npu::compiler::quantize
