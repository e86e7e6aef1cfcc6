// npu_quant: quantise a model to int8 and report how much accuracy it keeps against float.
//
//   npu_quant resnet18                     percentile observer, 16 calibration inputs, 16 held out
//   npu_quant mobilenet_v2 --observer=mse --calib-count=16 --eval-count=64
//   npu_quant model.onnx --calib=images.npy --eval=test.npy --json=report.json
//   npu_quant tests/onnx/data/qdq_cnn.op13.onnx  a QDQ model: its own scales are kept
//   npu_quant small_cnn --dump                  also print the quantised IR
//
// The float reference is the model after the front-end pipeline (a QDQ model: without its
// fake quantisation). Exit status: 0 success, 2 error (bad option, model or data).
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <fstream>
#include <iostream>

#include "compiler/accuracy/accuracy.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/pipeline.h"
#include "compiler/quantize/qdq_fold.h"
#include "compiler/quantize/quantize.h"
#include "tools/common/command_line.h"
#include "tools/common/output_files.h"
#include "tools/npu_quant/onnx_read.h"
#include "tools/npu_quant/samples.h"
#include "workloads/models/models.h"

namespace po = boost::program_options;

namespace npu::tools {
namespace {

namespace ir = compiler::ir;
namespace quantize = compiler::quantize;

constexpr int kExitError = 2;

struct Options {
  std::string model, observer = "percentile", json, precision = "int8";
  double percentile = 99.99;
  int bins = 2048, calib_count = 16, eval_count = 16;
  int64_t image_size = 0;
  std::vector<std::string> calib, eval;
  bool dump = false;
};

po::options_description Describe(Options& o) {
  po::options_description d(
      "Usage: npu_quant MODEL [options]\n"
      "Quantises MODEL (a built-in name or an .onnx file, float or QDQ) to int8 and compares it\n"
      "with float on held-out inputs, per output and per layer.\n\nOptions");
  d.add_options()("help,h", "show this help")("observer", po::value(&o.observer),
                                              "range choice: minmax, percentile (default), mse")(
      "percentile", po::value(&o.percentile), "percentile observer: share kept, default 99.99")(
      "bins", po::value(&o.bins), "histogram bins of percentile/mse, default 2048")(
      "precision", po::value(&o.precision),
      "int8 (default); w4a8: convolution and fully connected weights as int4; fp16: "
      "activations and weights in FP16 (no calibration)")(
      "calib", po::value(&o.calib)->composing(),
      "calibration .npy (float32, the input's shape or a stack [S,...]); repeatable")(
      "calib-count", po::value(&o.calib_count), "built-in calibration inputs, default 16")(
      "eval", po::value(&o.eval)->composing(), "held-out .npy inputs to measure on; repeatable")(
      "eval-count", po::value(&o.eval_count), "built-in held-out inputs, default 16")(
      "image-size", po::value(&o.image_size), "input size of built-in image models")(
      "dump", po::bool_switch(&o.dump), "print the quantised IR")(
      "json", po::value(&o.json), "write the accuracy report as JSON to this file");
  return d;
}

// Returns an exit code to stop with, or -1 to go on.
int Parse(int argc, char** argv, Options& o) {
  po::options_description visible = Describe(o);
  po::variables_map vm;
  if (const std::optional<int> exit =
          tools::ParseCommandLine("npu_quant", argc, argv, visible, "model", vm)) {
    return *exit;
  }
  if (vm.count("model")) o.model = vm["model"].as<std::string>();
  if (o.model.empty()) {
    std::cerr << "npu_quant: no model given\n" << visible << "\n";
    return kExitError;
  }
  return -1;
}

bool IsOnnxPath(const std::string& s) {
  return s.size() > 5 && s.compare(s.size() - 5, 5, ".onnx") == 0;
}

// The float graph the quantiser takes: loaded, QDQ folded, through the pipeline.
StatusOr<ir::Graph> LoadFloatGraph(const Options& o, compiler::passes::PassContext& ctx) {
  ir::Graph g;
  if (IsOnnxPath(o.model)) {
    NPU_ASSIGN_OR_RETURN(g, ReadOnnxModel(o.model));
  } else {
    NPU_ASSIGN_OR_RETURN(g, workloads::BuildModel(o.model, {.image_size = o.image_size}));
  }
  NPU_TRY(quantize::FoldQdq(g, ctx).WithContext("fold-qdq"));
  NPU_TRY(compiler::passes::RunPipeline(g, {}, ctx));
  return g;
}

StatusOr<Samples> GetSamples(const ir::Graph& g, const std::vector<std::string>& files,
                             uint32_t seed, int count) {
  if (!files.empty()) return SamplesFromNpy(g, files);
  if (count < 0) return InvalidArgument(fmt::format("sample count {} is negative", count));
  return SeededSamples(g, seed, count);
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

Status Run(const Options& o) {
  // 1. The float graph and the input sets.
  compiler::passes::PassContext ctx;
  NPU_ASSIGN_OR_RETURN(const ir::Graph f, LoadFloatGraph(o, ctx));
  NPU_ASSIGN_OR_RETURN(const quantize::Observer observer, quantize::ParseObserver(o.observer));
  NPU_ASSIGN_OR_RETURN(Samples calib,
                       GetSamples(f, o.calib, quantize::kCalibrationSeed, o.calib_count));
  NPU_ASSIGN_OR_RETURN(Samples eval,
                       GetSamples(f, o.eval, quantize::kEvaluationSeed, o.eval_count));
  // 2. Quantise.
  const auto start = std::chrono::steady_clock::now();
  if (o.precision != "int8" && o.precision != "w4a8" && o.precision != "fp16") {
    return InvalidArgument(fmt::format("--precision {}: must be int8, w4a8 or fp16", o.precision));
  }
  quantize::QuantizeOptions qo;
  qo.observer = observer;
  qo.percentile = o.percentile;
  qo.histogram_bins = o.bins;
  qo.weight_bits = o.precision == "w4a8" ? 4 : 8;
  const size_t calib_count = calib.size();
  const bool fp16 = o.precision == "fp16";  // no calibration: every value rounded to FP16
  NPU_ASSIGN_OR_RETURN(const ir::Graph q, fp16 ? quantize::ConvertToFp16(f, &ctx)
                                               : quantize::Quantize(f, {std::move(calib)}, qo, &ctx));
  if (fp16) {
    fmt::print("converted {} to fp16 in {:.2f} s\n", q.name(), Seconds(start));
  } else {
    fmt::print("quantised {} to {} ({} observer, {} calibration inputs) in {:.2f} s\n", q.name(),
               o.precision, o.observer, calib_count, Seconds(start));
  }
  for (const auto& [name, n] : ctx.stats) {
    if (name.rfind("quantize.", 0) == 0 || name.rfind("fold-qdq.", 0) == 0 ||
        name.rfind("fp16.", 0) == 0) {
      fmt::print("  {:<40} {}\n", name, n);
    }
  }
  if (o.dump) fmt::print("\n{}\n", ir::PrintGraph(q));
  // 3. Accuracy.
  const auto eval_start = std::chrono::steady_clock::now();
  NPU_ASSIGN_OR_RETURN(compiler::accuracy::AccuracyReport report,
                       compiler::accuracy::CompareAccuracy(f, q, eval));
  compiler::accuracy::CalibrationSummary summary;
  summary.samples = static_cast<int64_t>(calib_count);
  summary.files = o.calib;
  summary.observer = o.observer;
  summary.precision = o.precision;
  report.calibration = summary;
  fmt::print("\n{}", compiler::accuracy::FormatAccuracyText(report));
  fmt::print("(measured in {:.2f} s)\n", Seconds(eval_start));
  if (o.json.empty()) return Status::Ok();
  OutputFiles files;
  files.Add(o.json, compiler::accuracy::FormatAccuracyJson(report));
  return files.Commit();
}

}  // namespace
}  // namespace npu::tools

int main(int argc, char** argv) {
  npu::tools::Options options;
  if (const int code = npu::tools::Parse(argc, argv, options); code >= 0) return code;
  const npu::Status status = npu::tools::Run(options);
  if (!status.ok()) {
    std::cerr << "npu_quant: " << status.message() << "\n";
    return npu::tools::kExitError;
  }
  return 0;
}
