// Choosing int4 layers within an accuracy budget (mixed_precision.h).
#include "compiler/network/mixed_precision.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "compiler/accuracy/accuracy.h"

namespace npu::compiler {
namespace {

// The worst output's SNR (dB) of `int4_layers` int4 against the float graph on the samples.
StatusOr<double> SnrDb(const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
                       quantize::QuantizeOptions options, std::set<std::string> int4_layers,
                       const std::vector<std::vector<interp::HostTensor>>& samples) {
  options.weight_bits = 8;
  options.int4_layers = std::move(int4_layers);
  NPU_ASSIGN_OR_RETURN(const ir::Graph q,
                       quantize::QuantizeWithRanges(float_graph, ranges, options));
  NPU_ASSIGN_OR_RETURN(const accuracy::AccuracyReport r,
                       accuracy::CompareAccuracy(float_graph, q, samples));
  double worst = std::numeric_limits<double>::infinity();
  for (const accuracy::OutputAccuracy& o : r.outputs) worst = std::min(worst, o.metrics.snr_db);
  return worst;
}

// The layers the quantiser lowers to int4 when asked for all, with their MACs per inference.
StatusOr<std::vector<LayerPrecision>> Candidates(const ir::Graph& float_graph,
                                                 const quantize::TensorRanges& ranges,
                                                 quantize::QuantizeOptions options) {
  options.weight_bits = 4;
  NPU_ASSIGN_OR_RETURN(const ir::Graph q,
                       quantize::QuantizeWithRanges(float_graph, ranges, options));
  std::vector<LayerPrecision> layers;
  for (const ir::Node* n : q.nodes()) {
    if (n->attrs().GetInt("weight_bits", 8) != 4 || n->num_inputs() < 2) continue;
    const ir::Shape& w = n->input(1)->shape();
    const int64_t per_output = w.empty() || w[0] == 0 ? 0 : ir::NumElements(w) / w[0];
    layers.push_back({n->name(), uint64_t(ir::NumElements(n->output(0)->shape()) * per_output)});
  }
  return layers;
}

}  // namespace

StatusOr<MixedPrecision> ChooseMixedPrecision(
    const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
    const quantize::QuantizeOptions& options,
    const std::vector<std::vector<interp::HostTensor>>& samples, double budget_db) {
  if (!std::isfinite(budget_db) || budget_db < 0) {
    return InvalidArgument(fmt::format(
        "accuracy budget {} dB: must be a finite number of dB >= 0 (the output SNR the int4 "
        "layers may cost against all-int8)",
        budget_db));
  }
  MixedPrecision m;
  m.budget_db = budget_db;
  NPU_ASSIGN_OR_RETURN(m.layers, Candidates(float_graph, ranges, options));
  NPU_ASSIGN_OR_RETURN(m.int8_snr_db, SnrDb(float_graph, ranges, options, {}, samples));
  m.snr_db = m.int8_snr_db;
  ++m.assignments_measured;
  // 1. Each layer alone.
  for (LayerPrecision& l : m.layers) {
    NPU_ASSIGN_OR_RETURN(const double snr,
                         SnrDb(float_graph, ranges, options, {l.layer}, samples));
    ++m.assignments_measured;
    l.alone_loss_db = std::max(0.0, m.int8_snr_db - snr);
  }
  // 2. Most MACs per dB first; keep a layer if the network with it stays within the budget.
  std::vector<size_t> order(m.layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto value = [&](size_t i) {
    return double(m.layers[i].macs) / std::max(m.layers[i].alone_loss_db, 1e-3);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return value(a) > value(b); });
  for (size_t i : order) {
    LayerPrecision& l = m.layers[i];
    if (l.alone_loss_db > budget_db) continue;  // alone already over: together only worse
    std::set<std::string> trial = m.int4_layers;
    trial.insert(l.layer);
    NPU_ASSIGN_OR_RETURN(const double snr, SnrDb(float_graph, ranges, options, trial, samples));
    ++m.assignments_measured;
    if (m.int8_snr_db - snr > budget_db) continue;
    m.int4_layers = std::move(trial);
    m.snr_db = snr;
    l.int4 = true;
  }
  return m;
}

std::string FormatMixedPrecision(const MixedPrecision& m) {
  uint64_t macs = 0, int4_macs = 0;
  for (const LayerPrecision& l : m.layers) {
    macs += l.macs;
    int4_macs += l.int4 ? l.macs : 0;
  }
  std::string s = fmt::format(
      "mixed precision: {} of {} layers int4 ({:.0f}% of their MACs); output SNR {:.1f} dB "
      "(all int8: {:.1f} dB; budget {:.1f} dB; {} assignments measured)\n",
      m.int4_layers.size(), m.layers.size(), macs ? 100.0 * double(int4_macs) / double(macs) : 0.0,
      m.snr_db, m.int8_snr_db, m.budget_db, m.assignments_measured);
  s += fmt::format("{:<28} {:>10} {:>13} {}\n", "layer", "MMACs", "alone: -dB", "weights");
  for (const LayerPrecision& l : m.layers) {
    s += fmt::format("{:<28} {:>10.1f} {:>13.2f} {}\n", l.layer.substr(0, 28),
                     double(l.macs) / 1e6, l.alone_loss_db, l.int4 ? "int4" : "int8");
  }
  return s;
}

}  // namespace npu::compiler
