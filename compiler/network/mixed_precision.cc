// Choosing each layer's precision within an accuracy goal (mixed_precision.h).
#include "compiler/network/mixed_precision.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "compiler/accuracy/metrics.h"
#include "compiler/interp/interpreter.h"
#include "compiler/network/parallel_for.h"
#include "compiler/qinterp/host_io.h"
#include "compiler/qinterp/qinterp.h"

namespace npu::compiler {
namespace {

// An assignment: the layers with int4 weights and the layers in FP16; the rest int8.
struct Assignment {
  std::set<std::string> int4, fp16;
};

// Measures assignments on one calibration: the worst output's SNR (dB) against the float graph,
// over the samples (accuracy::ErrorStats, as the accuracy report computes it). The float outputs
// are computed once; many assignments are measured on parallel threads, each alone
// deterministic, so the results do not depend on the thread count.
class AssignmentMeter {
 public:
  AssignmentMeter(const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
                  const quantize::QuantizeOptions& options,
                  const std::vector<std::vector<interp::HostTensor>>& samples, int& measured)
      : f_(float_graph),
        ranges_(ranges),
        options_(options),
        samples_(samples),
        measured_(measured) {
    options_.weight_bits = 8;
  }

  Status Init() {
    for (const std::vector<interp::HostTensor>& sample : samples_) {
      NPU_ASSIGN_OR_RETURN(std::vector<interp::HostTensor> out, interp::Interpret(f_, sample));
      float_outputs_.push_back(std::move(out));
    }
    return Status::Ok();
  }

  StatusOr<double> SnrDb(std::set<std::string> int4_layers, std::set<std::string> fp16_layers) {
    NPU_ASSIGN_OR_RETURN(const std::vector<double> snr,
                         SnrDbMany({{std::move(int4_layers), std::move(fp16_layers)}}));
    return snr[0];
  }

  StatusOr<std::vector<double>> SnrDbMany(const std::vector<Assignment>& assignments) {
    std::vector<StatusOr<double>> results(assignments.size(), StatusOr<double>(0.0));
    ParallelFor(assignments.size(), [&](size_t i) { results[i] = Measure(assignments[i]); });
    std::vector<double> snr;
    for (StatusOr<double>& r : results) {
      NPU_ASSIGN_OR_RETURN(const double v, std::move(r));
      snr.push_back(v);
    }
    measured_ += int(assignments.size());
    return snr;
  }

 private:
  StatusOr<double> Measure(const Assignment& a) const {
    quantize::QuantizeOptions o = options_;
    o.int4_layers = a.int4;
    o.fp16_layers = a.fp16;
    NPU_ASSIGN_OR_RETURN(const ir::Graph q, quantize::QuantizeWithRanges(f_, ranges_, o));
    std::vector<accuracy::ErrorStats> stats(q.outputs().size());
    for (size_t s = 0; s < samples_.size(); ++s) {
      std::vector<std::vector<int8_t>> inputs;
      for (size_t i = 0; i < samples_[s].size(); ++i) {
        NPU_ASSIGN_OR_RETURN(std::vector<int8_t> v,
                             qinterp::QuantizeInput(*q.inputs()[i], samples_[s][i]));
        inputs.push_back(std::move(v));
      }
      NPU_ASSIGN_OR_RETURN(const auto outputs, qinterp::InterpretQuantized(q, inputs));
      for (size_t i = 0; i < outputs.size(); ++i) {
        const interp::HostTensor& ref = float_outputs_[s][i];
        NPU_ASSIGN_OR_RETURN(
            const interp::HostTensor got,
            qinterp::ToShape(qinterp::DequantizeOutput(*q.outputs()[i], outputs[i]), ref.shape));
        stats[i].Add(ref.values<float>(), got.values<float>());
      }
    }
    double worst = std::numeric_limits<double>::infinity();
    for (const accuracy::ErrorStats& e : stats) worst = std::min(worst, e.SnrDb());
    return worst;
  }

  const ir::Graph& f_;
  const quantize::TensorRanges& ranges_;
  quantize::QuantizeOptions options_;
  const std::vector<std::vector<interp::HostTensor>>& samples_;
  std::vector<std::vector<interp::HostTensor>> float_outputs_;
  int& measured_;
};

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

Status CheckGoal(const PrecisionGoal& goal) {
  if (goal.target_db && !std::isfinite(*goal.target_db)) {
    return InvalidArgument(fmt::format(
        "accuracy target {} dB: must be a finite number of dB (the output SNR against the float "
        "model to reach)",
        *goal.target_db));
  }
  if (!goal.target_db && (!std::isfinite(goal.budget_db) || goal.budget_db < 0)) {
    return InvalidArgument(fmt::format(
        "accuracy budget {} dB: must be a finite number of dB >= 0 (the output SNR the int4 "
        "layers may cost against all-int8)",
        goal.budget_db));
  }
  return Status::Ok();
}

// Indices of `layers` sorted by `value`, largest first (stable: graph order breaks ties).
template <class Value>
std::vector<size_t> ByValue(const std::vector<LayerPrecision>& layers, Value value) {
  std::vector<size_t> order(layers.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return value(layers[a]) > value(layers[b]); });
  return order;
}

// Target mode, all-int8 short of it: every candidate FP16, then each back to int8, the most
// MACs per dB lost first, while the target holds.
Status ChooseFp16(MixedPrecision& m, AssignmentMeter& meter, double target) {
  std::set<std::string> all;
  for (const LayerPrecision& l : m.layers) all.insert(l.layer);
  NPU_ASSIGN_OR_RETURN(const double top, meter.SnrDb({}, all));
  if (top < target) {
    return InvalidArgument(fmt::format(
        "accuracy target {:.1f} dB cannot be reached: the best reachable output SNR is {:.1f} dB "
        "(every one of the {} layers FP16; all int8: {:.1f} dB)",
        target, top, m.layers.size(), m.int8_snr_db));
  }
  std::vector<Assignment> alone;
  for (const LayerPrecision& l : m.layers) {
    alone.push_back({{}, all});
    alone.back().fp16.erase(l.layer);
  }
  NPU_ASSIGN_OR_RETURN(const std::vector<double> snr, meter.SnrDbMany(alone));
  for (size_t i = 0; i < m.layers.size(); ++i) {
    m.layers[i].int8_loss_db = std::max(0.0, top - snr[i]);
  }
  m.fp16_layers = all;
  m.snr_db = top;
  const std::vector<size_t> order = ByValue(m.layers, [](const LayerPrecision& l) {
    return double(l.macs) / std::max(l.int8_loss_db, 1e-3);
  });
  for (size_t i : order) {
    const LayerPrecision& l = m.layers[i];
    if (top - l.int8_loss_db < target) continue;  // alone already below: together only worse
    std::set<std::string> trial = m.fp16_layers;
    trial.erase(l.layer);
    NPU_ASSIGN_OR_RETURN(const double snr, meter.SnrDb({}, trial));
    if (snr < target) continue;
    m.fp16_layers = std::move(trial);
    m.snr_db = snr;
  }
  if (m.goal.cycles && m.fp16_layers != all) {
    NPU_ASSIGN_OR_RETURN(m.mix_cycles, m.goal.cycles({}, m.fp16_layers));
    NPU_ASSIGN_OR_RETURN(m.all_fp16_cycles, m.goal.cycles({}, all));
    if (*m.all_fp16_cycles < *m.mix_cycles) {
      m.fp16_layers = all;
      m.snr_db = top;
    }
  }
  for (LayerPrecision& l : m.layers) {
    if (m.fp16_layers.count(l.layer)) l.numbers = LayerNumbers::kFp16;
  }
  return Status::Ok();
}

// The int8 layers left take int4 weights, the most MACs per dB lost first, each kept while the
// assignment's SNR stays at or above `floor_db`.
Status DowngradeToInt4(MixedPrecision& m, AssignmentMeter& meter, double floor_db) {
  const double base = m.snr_db;
  std::vector<Assignment> alone;
  std::vector<LayerPrecision*> measured;
  for (LayerPrecision& l : m.layers) {
    if (l.numbers != LayerNumbers::kInt8) continue;
    alone.push_back({{l.layer}, m.fp16_layers});
    measured.push_back(&l);
  }
  NPU_ASSIGN_OR_RETURN(const std::vector<double> snr, meter.SnrDbMany(alone));
  for (size_t i = 0; i < measured.size(); ++i) {
    measured[i]->alone_loss_db = std::max(0.0, base - snr[i]);
  }
  const std::vector<size_t> order = ByValue(m.layers, [](const LayerPrecision& l) {
    return double(l.macs) / std::max(l.alone_loss_db, 1e-3);
  });
  for (size_t i : order) {
    LayerPrecision& l = m.layers[i];
    if (l.numbers != LayerNumbers::kInt8) continue;
    if (base - l.alone_loss_db < floor_db) continue;  // alone already below: together only worse
    std::set<std::string> trial = m.int4_layers;
    trial.insert(l.layer);
    NPU_ASSIGN_OR_RETURN(const double snr, meter.SnrDb(trial, m.fp16_layers));
    if (snr < floor_db) continue;
    m.int4_layers = std::move(trial);
    m.snr_db = snr;
    l.numbers = LayerNumbers::kInt4;
  }
  return Status::Ok();
}

}  // namespace

const char* LayerNumbersName(LayerNumbers n) {
  switch (n) {
    case LayerNumbers::kInt4:
      return "int4";
    case LayerNumbers::kFp16:
      return "fp16";
    default:
      return "int8";
  }
}

StatusOr<MixedPrecision> ChooseMixedPrecision(
    const ir::Graph& float_graph, const quantize::TensorRanges& ranges,
    const quantize::QuantizeOptions& options,
    const std::vector<std::vector<interp::HostTensor>>& samples, const PrecisionGoal& goal) {
  NPU_TRY(CheckGoal(goal));
  MixedPrecision m;
  m.goal = goal;
  AssignmentMeter meter(float_graph, ranges, options, samples, m.assignments_measured);
  NPU_TRY(meter.Init());
  NPU_ASSIGN_OR_RETURN(m.layers, Candidates(float_graph, ranges, options));
  NPU_ASSIGN_OR_RETURN(m.int8_snr_db, meter.SnrDb({}, {}));
  m.snr_db = m.int8_snr_db;
  if (goal.target_db && m.int8_snr_db < *goal.target_db) {
    NPU_TRY(ChooseFp16(m, meter, *goal.target_db));
  }
  NPU_TRY(
      DowngradeToInt4(m, meter, goal.target_db ? *goal.target_db : m.int8_snr_db - goal.budget_db));
  return m;
}

std::string FormatMixedPrecision(const MixedPrecision& m) {
  uint64_t macs = 0, int4_macs = 0, fp16_macs = 0;
  for (const LayerPrecision& l : m.layers) {
    macs += l.macs;
    int4_macs += l.numbers == LayerNumbers::kInt4 ? l.macs : 0;
    fp16_macs += l.numbers == LayerNumbers::kFp16 ? l.macs : 0;
  }
  const auto share = [&](uint64_t part) {
    return macs ? 100.0 * double(part) / double(macs) : 0.0;
  };
  const std::string goal = m.goal.target_db ? fmt::format("target {:.1f} dB", *m.goal.target_db)
                                            : fmt::format("budget {:.1f} dB", m.goal.budget_db);
  std::string s = fmt::format(
      "mixed precision: {} of {} layers int4 ({:.0f}% of their MACs), {} FP16 ({:.0f}%); output "
      "SNR {:.1f} dB (all int8: {:.1f} dB; {}; {} assignments measured)\n",
      m.int4_layers.size(), m.layers.size(), share(int4_macs), m.fp16_layers.size(),
      share(fp16_macs), m.snr_db, m.int8_snr_db, goal, m.assignments_measured);
  if (m.mix_cycles && m.all_fp16_cycles) {
    const bool kept = *m.mix_cycles <= *m.all_fp16_cycles;
    s += fmt::format(
        "predicted: the mix the search found {} cycles, every layer FP16 {} cycles: {}\n",
        *m.mix_cycles, *m.all_fp16_cycles,
        kept ? "the mix kept"
             : "every layer FP16 kept (its conversions cost more than FP16 saves)");
  }
  const bool fp16 = m.goal.target_db && m.int8_snr_db < *m.goal.target_db;
  s += fmt::format("{:<28} {:>10} {}{:>13} {}\n", "layer", "MMACs",
                   fp16 ? fmt::format("{:>12}", "int8: -dB") : "", "int4: -dB", "numbers");
  for (const LayerPrecision& l : m.layers) {
    s += fmt::format("{:<28} {:>10.1f} {}{:>13} {}\n", l.layer.substr(0, 28), double(l.macs) / 1e6,
                     fp16 ? fmt::format("{:>12.2f}", l.int8_loss_db) : "",
                     l.numbers == LayerNumbers::kFp16 ? std::string("-")
                                                      : fmt::format("{:.2f}", l.alone_loss_db),
                     LayerNumbersName(l.numbers));
  }
  return s;
}

}  // namespace npu::compiler
