// Calibration over the float interpreter, and the checks on what it is given.
#include "compiler/quantize/calibrate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compiler/interp/interpreter.h"

namespace npu::compiler::quantize {
namespace {

using interp::HostTensor;

struct MinMax {
  float min = INFINITY, max = -INFINITY;
  void Add(std::span<const float> v) {
    for (float x : v) {
      if (std::isnan(x)) continue;
      min = std::min(min, x);
      max = std::max(max, x);
    }
  }
};

// Calls `visit(name, values)` for every graph input and float node output of every sample.
template <class Visit>
Status ForEachValue(const ir::Graph& g, const CalibrationSet& calib, Visit visit) {
  interp::InterpretOptions options;
  options.observe = [&](const ir::Tensor& t, const HostTensor& v) {
    if (v.dtype == ir::DType::kFloat32) visit(t.name(), v.values<float>());
  };
  for (size_t s = 0; s < calib.samples.size(); ++s) {
    const std::vector<HostTensor>& inputs = calib.samples[s];
    for (size_t i = 0; i < inputs.size(); ++i)
      visit(g.inputs()[i]->name(), inputs[i].values<float>());
    NPU_TRY(interp::Interpret(g, inputs, options)
                .status()
                .WithContext(fmt::format("calibration sample {}", s)));
  }
  return Status::Ok();
}

// Whether `name` is a graph output, or feeds one through the layout pass's transpose back.
bool IsGraphOutput(const ir::Graph& g, const std::string& name) {
  for (const ir::Tensor* t : g.outputs()) {
    if (t->name() == name) return true;
    const ir::Node* p = t->producer();
    if (p != nullptr && p->kind() == ir::OpKind::kTranspose && p->input(0)->name() == name) {
      return true;
    }
  }
  return false;
}

Status CheckOptions(const QuantizeOptions& o) {
  if (!(o.percentile > 50.0 && o.percentile <= 100.0)) {
    return InvalidArgument(fmt::format("percentile {} must be in (50, 100]", o.percentile));
  }
  if (o.histogram_bins < 16 || o.histogram_bins > 8192) {
    return InvalidArgument(
        fmt::format("histogram_bins {} must be in [16, 8192]", o.histogram_bins));
  }
  return Status::Ok();
}

}  // namespace

std::string_view ObserverName(Observer observer) {
  switch (observer) {
    case Observer::kMinMax:
      return "minmax";
    case Observer::kPercentile:
      return "percentile";
    case Observer::kMse:
      return "mse";
  }
  return "?";
}

StatusOr<Observer> ParseObserver(std::string_view name) {
  for (Observer o : {Observer::kMinMax, Observer::kPercentile, Observer::kMse}) {
    if (ObserverName(o) == name) return o;
  }
  return InvalidArgument(
      fmt::format("no observer named '{}'; the observers are minmax, percentile, mse", name));
}

Status CheckCalibrationSet(const ir::Graph& g, const CalibrationSet& calib) {
  for (size_t s = 0; s < calib.samples.size(); ++s) {
    const std::vector<HostTensor>& inputs = calib.samples[s];
    if (inputs.size() != g.inputs().size()) {
      return InvalidArgument(fmt::format("calibration sample {} has {} inputs, graph '{}' has {}",
                                         s, inputs.size(), g.name(), g.inputs().size()));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const ir::Tensor* t = g.inputs()[i];
      const HostTensor& v = inputs[i];
      const bool bytes_ok =
          v.data.size() == static_cast<size_t>(std::max<int64_t>(v.num_elements(), 0)) * 4;
      if (v.dtype != ir::DType::kFloat32 || v.shape != t->shape() || !bytes_ok) {
        return InvalidArgument(
            fmt::format("calibration sample {}, input '{}': given {}{}, the graph expects {}{}", s,
                        t->name(), ir::DTypeName(v.dtype), ir::ShapeText(v.shape),
                        ir::DTypeName(t->dtype()), ir::ShapeText(t->shape())));
      }
    }
  }
  return Status::Ok();
}

StatusOr<TensorRanges> Calibrate(const ir::Graph& g, const CalibrationSet& calib,
                                 const QuantizeOptions& options) {
  NPU_TRY(CheckOptions(options));
  NPU_TRY(CheckCalibrationSet(g, calib));
  // 1. Min and max of every value.
  std::map<std::string, MinMax> seen;
  NPU_TRY(ForEachValue(
      g, calib, [&](const std::string& name, std::span<const float> v) { seen[name].Add(v); }));
  TensorRanges ranges;
  for (const auto& [name, mm] : seen) {
    if (mm.min <= mm.max) ranges[name] = {mm.min, mm.max};  // else: only NaNs
  }
  if (options.observer == Observer::kMinMax) return ranges;
  // 2. Histograms over those ranges.
  std::map<std::string, Histogram> hists;
  for (const auto& [name, r] : ranges)
    hists.emplace(name, Histogram(r.lo, r.hi, options.histogram_bins));
  NPU_TRY(ForEachValue(g, calib, [&](const std::string& name, std::span<const float> v) {
    auto it = hists.find(name);
    if (it != hists.end()) it->second.Add(v);
  }));
  // 3. The observer's choice, except for graph outputs: a classifier's decision lives in the tail
  //    of its logits, which clipping would flatten into ties; outputs keep their whole range.
  for (const auto& [name, h] : hists) {
    if (IsGraphOutput(g, name)) continue;
    ranges[name] = options.observer == Observer::kPercentile
                       ? PercentileRange(h, options.percentile)
                       : MseRange(h);
  }
  return ranges;
}

}  // namespace npu::compiler::quantize
