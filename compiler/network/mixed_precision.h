// --precision auto (issue 14): which layers take int4 weights (W4A8) and which keep int8, within
// an accuracy budget. Each candidate, a convolution or fully connected layer whose constant
// weights the quantiser can lower to int4, is first measured alone: the output SNR (against the
// float model) the network loses when only that layer is int4. Then candidates are tried in
// order of MACs per dB lost, most first, each kept if the whole assignment, measured again,
// stays within `budget_db` of the all-int8 network's SNR. Measured on `samples` (float inputs in
// the float graph's shapes), with the calibration's ranges, so every assignment shares one
// calibration.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "compiler/interp/host_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/quantize/quantize.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct LayerPrecision {
  std::string layer;         // the float graph's node
  uint64_t macs = 0;         // per inference
  double alone_loss_db = 0;  // output SNR lost with only this layer int4
  bool int4 = false;         // chosen
};

struct MixedPrecision {
  std::set<std::string> int4_layers;
  std::vector<LayerPrecision> layers;  // every candidate, in graph order
  double budget_db = 0;
  double int8_snr_db = 0, snr_db = 0;  // the worst output's SNR vs float: all int8, chosen
  int assignments_measured = 0;
};

// InvalidArgument for a budget that is negative or not finite.
StatusOr<MixedPrecision> ChooseMixedPrecision(
    const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
    const quantize::QuantizeOptions& options,
    const std::vector<std::vector<interp::HostTensor>>& samples, double budget_db);

// A table for the report: each candidate's MACs, loss alone and choice; the SNR reached.
std::string FormatMixedPrecision(const MixedPrecision& m);

}  // namespace npu::compiler
