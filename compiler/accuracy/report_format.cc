// The accuracy report as a terminal table (<= 100 columns) and as JSON.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "compiler/accuracy/accuracy.h"

namespace npu::compiler::accuracy {
namespace {

using Json = nlohmann::ordered_json;

constexpr size_t kNameWidth = 28;

// The last `width` characters of `name`, "~" marking a cut.
std::string Fit(const std::string& name, size_t width) {
  if (name.size() <= width) return name;
  std::string cut(1, '~');
  cut.append(name, name.size() - (width - 1), std::string::npos);
  return cut;
}

std::string ShortOp(const std::string& op) {
  if (op == "global_average_pool") return "global_pool";
  if (op == "average_pool") return "avg_pool";
  return op;
}

std::string Snr(double db) {
  return std::isinf(db) ? (db > 0 ? "inf" : "-inf") : fmt::format("{:.1f}", db);
}

std::string Percent(const std::optional<double>& v) {
  return v ? fmt::format("{:.1f}%", *v * 100.0) : "-";
}

std::string OutputsTable(const AccuracyReport& r) {
  std::string s =
      fmt::format("{:<{}} {:>7} {:>7} {:>6} {:>9} {:>9} {:>7} {:>7}\n", "output", kNameWidth,
                  "cosine", "min cos", "SNR dB", "max|err|", "scale", "top-1", "top-5");
  for (const OutputAccuracy& o : r.outputs) {
    s += fmt::format("{:<{}} {:>7.4f} {:>7.4f} {:>6} {:>9.4g} {:>9.4g} {:>7} {:>7}\n",
                     Fit(o.name, kNameWidth), kNameWidth, o.metrics.cosine, o.metrics.min_cosine,
                     Snr(o.metrics.snr_db), o.metrics.max_abs_error, o.scale, Percent(o.top1),
                     Percent(o.top5));
  }
  for (const OutputAccuracy& o : r.outputs) {
    if (o.near_ties == 0) continue;
    s += fmt::format(
        "  {}: {} of {} inputs are float near ties (top-1 leads by < one int8 step);"
        "\n  top-1 agreement on the other inputs: {}\n",
        Fit(o.name, kNameWidth), o.near_ties, r.samples, Percent(o.top1_resolvable));
  }
  return s;
}

std::string LayersTable(const AccuracyReport& r) {
  size_t worst = r.layers.size();
  for (size_t i = 0; i < r.layers.size(); ++i) {
    if (worst == r.layers.size() || r.layers[i].metrics.snr_db < r.layers[worst].metrics.snr_db) {
      worst = i;
    }
  }
  std::string s = fmt::format("{:<{}} {:<11} {:<16} {:>7} {:>6} {:>9} {:>7}\n", "tensor",
                              kNameWidth, "op", "shape", "cosine", "SNR dB", "max|err|", "clipped");
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerAccuracy& l = r.layers[i];
    s += fmt::format("{:<{}} {:<11} {:<16} {:>7.4f} {:>6} {:>9.4g} {:>6.2f}%{}\n",
                     Fit(l.tensor, kNameWidth), kNameWidth, ShortOp(l.op),
                     Fit(ir::ShapeText(l.shape), 16), l.metrics.cosine, Snr(l.metrics.snr_db),
                     l.metrics.max_abs_error, l.clipped * 100.0, i == worst ? " <" : "");
  }
  return s;
}

Json Num(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

Json MetricsJson(const Metrics& m) {
  return {{"cosine", Num(m.cosine)},
          {"min_cosine", Num(m.min_cosine)},
          {"snr_db", Num(m.snr_db)},
          {"max_abs_error", Num(m.max_abs_error)}};
}

Json Optional(const std::optional<double>& v) { return v ? Num(*v) : Json(nullptr); }

// "a.npy", "a.npy and b.npy", "a.npy, b.npy and 3 more files".
std::string FileList(const std::vector<std::string>& files) {
  if (files.size() == 1) return files[0];
  if (files.size() == 2) return files[0] + " and " + files[1];
  return fmt::format("{}, {} and {} more files", files[0], files[1], files.size() - 2);
}

}  // namespace

std::string FormatAccuracyText(const AccuracyReport& r) {
  const std::string precision = r.calibration ? r.calibration->precision : "int8";
  std::string s = fmt::format("{} vs float: {}, {} input{}\n", precision, r.model, r.samples,
                              r.samples == 1 ? "" : "s");
  const bool fp16 = precision == "fp16";
  if (fp16) s += "no calibration: every activation and weight rounded to FP16\n";
  if (const auto& c = r.calibration; c && !fp16) {
    s += fmt::format("calibrated on {} {} ({} observer)\n", c->samples,
                     c->files.empty() ? "built-in seeded inputs"
                                      : fmt::format("samples from {}", FileList(c->files)),
                     c->observer);
    if (c->from_cache) s += "(the quantised model of an earlier run, from the cache)\n";
    if (c->precision == "auto") {
      s += c->mixed_precision.empty()
               ? fmt::format("mixed precision (chosen by an earlier run): {} layers int4, {} FP16\n",
                             c->int4_layers.size(), c->fp16_layers.size())
               : c->mixed_precision;
    }
  }
  s += "\n";
  s += OutputsTable(r);
  s += fmt::format("\nper layer: {} vs float (< marks the lowest SNR)\n",
                   fp16 ? "FP16" : "dequantised int8");
  s += LayersTable(r);
  return s;
}

std::string FormatAccuracyJson(const AccuracyReport& r) {
  Json outputs = Json::array(), layers = Json::array();
  for (const OutputAccuracy& o : r.outputs) {
    Json j = {{"name", o.name}, {"scale", o.scale}};
    j.update(MetricsJson(o.metrics));
    j["top1_agreement"] = Optional(o.top1);
    j["top5_agreement"] = Optional(o.top5);
    j["near_ties"] = o.near_ties;
    j["top1_agreement_resolvable"] = Optional(o.top1_resolvable);
    outputs.push_back(j);
  }
  for (const LayerAccuracy& l : r.layers) {
    Json j = {{"tensor", l.tensor},
              {"op", l.op},
              {"shape", l.shape},
              {"scale", l.scale},
              {"zero_point", l.zero_point}};
    j.update(MetricsJson(l.metrics));
    j["clipped_fraction"] = Num(l.clipped);
    layers.push_back(j);
  }
  Json report = {
      {"model", r.model}, {"samples", r.samples}, {"outputs", outputs}, {"layers", layers}};
  if (const auto& c = r.calibration) {
    report["calibration"] = {{"samples", c->samples},
                             {"source", c->files.empty() ? "built-in" : "files"},
                             {"files", c->files},
                             {"observer", c->observer},
                             {"from_cache", c->from_cache},
                             {"precision", c->precision},
                             {"int4_layers", c->int4_layers},
                             {"fp16_layers", c->fp16_layers}};
  }
  return report.dump(2) + "\n";
}

}  // namespace npu::compiler::accuracy
