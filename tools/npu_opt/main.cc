// npu_opt: runs the front-end pipeline on a model and shows what it did.
//
//   npu_opt resnet18                          summary: nodes, MACs, what each pass changed
//   npu_opt resnet18 --print                  the final IR
//   npu_opt small_cnn --dump-after=fold-batchnorm --disable-pass=convert-layout-nhwc
//   npu_opt mobilenet_v2 --check              also interpret before and after, compare outputs
//   npu_opt resnet18 --export-onnx=resnet18.onnx   the model as built, for other ONNX tools
//   npu_opt model.onnx                        an ONNX file (when built with compiler/onnx)
//   npu_opt --list-passes | --list-models
//
// Exit status: 0 success, 1 --check found different outputs, 2 error (bad option or model).
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <iostream>

#include "compiler/interp/interpreter.h"
#include "compiler/ir/printer.h"
#include "compiler/passes/graph_stats.h"
#include "compiler/passes/pipeline.h"
#include "tools/common/command_line.h"
#include "tools/npu_opt/model_source.h"
#include "workloads/models/models.h"

namespace po = boost::program_options;

namespace npu::tools {
namespace {

namespace ir = compiler::ir;
namespace passes = compiler::passes;

constexpr int kExitMismatch = 1;
constexpr int kExitError = 2;

struct Options {
  std::string model, export_onnx;
  passes::PipelineOptions pipeline;
  workloads::ModelOptions model_options;
  bool print = false, check = false;
};

po::options_description Describe() {
  po::options_description d(
      "Usage: npu_opt MODEL [options]\n"
      "Runs the front-end passes on MODEL (a built-in name, or an .onnx file when ONNX import\n"
      "is built in) and reports what they did.\n\nOptions");
  d.add_options()("help,h", "show this help")("list-passes", "list the passes, in order")(
      "list-models", "list the built-in models")("disable-pass",
                                                 po::value<std::vector<std::string>>()->composing(),
                                                 "skip a pass (repeatable)")(
      "dump-after", po::value<std::string>(), "print the graph after this pass")(
      "print", "print the final graph")("check",
                                        "interpret the graph before and after the passes and "
                                        "compare the outputs (max error / output scale <= 1e-5)")(
      "export-onnx", po::value<std::string>(),
      "write the model as loaded (before the passes: ONNX has no fused ops or NHWC) to an ONNX "
      "file")("image-size", po::value<int64_t>(),
              "input height and width for built-in image models")("batch", po::value<int64_t>(),
                                                                  "batch size for built-in models");
  return d;
}

// Returns an exit code to stop with, or -1 to go on.
int Parse(int argc, char** argv, Options& o) {
  po::options_description visible = Describe();
  po::variables_map vm;
  if (const std::optional<int> exit =
          tools::ParseCommandLine("npu_opt", argc, argv, visible, "model", vm)) {
    return *exit;
  }
  if (vm.count("list-passes")) {
    for (const passes::PassInfo& p : passes::ListPasses()) {
      fmt::print("{:<22} {}\n", p.name, p.summary);
    }
    return 0;
  }
  if (vm.count("list-models")) {
    for (const workloads::ModelInfo& m : workloads::ListModels()) {
      fmt::print("{:<14} {}\n", m.name, m.summary);
    }
    return 0;
  }
  if (!vm.count("model")) {
    std::cerr << "npu_opt: no MODEL given (npu_opt --list-models lists the built-in ones)\n";
    return kExitError;
  }
  o.model = vm["model"].as<std::string>();
  if (vm.count("disable-pass")) {
    for (const std::string& p : vm["disable-pass"].as<std::vector<std::string>>()) {
      o.pipeline.disabled.insert(p);
    }
  }
  if (vm.count("dump-after")) o.pipeline.dump_after = vm["dump-after"].as<std::string>();
  if (vm.count("export-onnx")) o.export_onnx = vm["export-onnx"].as<std::string>();
  if (vm.count("image-size")) o.model_options.image_size = vm["image-size"].as<int64_t>();
  if (vm.count("batch")) o.model_options.batch = vm["batch"].as<int64_t>();
  o.print = vm.count("print") > 0;
  o.check = vm.count("check") > 0;
  return -1;
}

void Summarise(const ir::Graph& before, const ir::Graph& after, const passes::PassContext& ctx,
               double ms) {
  const auto ops_before = passes::CountOps(before);
  const auto ops_after = passes::CountOps(after);
  auto total = [](const std::map<std::string, int64_t>& m) {
    int64_t n = 0;
    for (const auto& [k, v] : m) n += v;
    return n;
  };
  fmt::print("model {}: {} nodes -> {} nodes in {:.1f} ms, {} MACs\n", after.name(),
             total(ops_before), total(ops_after), ms, passes::CountMacs(after));
  for (const auto& [op, n] : ops_after) fmt::print("  {:<22} {}\n", op, n);
  fmt::print("pass statistics:\n");
  for (const auto& [name, n] : ctx.stats) fmt::print("  {:<40} {}\n", name, n);
}

// Interprets both graphs on the same inputs; returns whether all outputs agree.
StatusOr<bool> Check(const ir::Graph& before, const ir::Graph& after) {
  const std::vector<compiler::interp::HostTensor> inputs = workloads::MakeInputs(before, 1);
  NPU_ASSIGN_OR_RETURN(auto want, compiler::interp::Interpret(before, inputs));
  NPU_ASSIGN_OR_RETURN(auto got, compiler::interp::Interpret(after, inputs));
  bool same = want.size() == got.size();
  for (size_t i = 0; same && i < want.size(); ++i) {
    const double err = compiler::interp::MaxRelativeError(got[i], want[i]);
    fmt::print("check: output %{}: max error / output scale = {:.3g}\n", after.outputs()[i]->name(),
               err);
    same = err <= 1e-5;
  }
  fmt::print("check: {}\n", same ? "PASS" : "FAIL");
  return same;
}

int Main(int argc, char** argv) {
  Options o;
  if (const int code = Parse(argc, argv, o); code >= 0) return code;
  StatusOr<ir::Graph> graph = LoadModel(o.model, o.model_options);
  if (!graph.ok()) return fmt::print(stderr, "npu_opt: {}\n", graph.status().message()), kExitError;
  const ir::Graph original = graph->Clone();
  passes::PassContext ctx;
  const auto start = std::chrono::steady_clock::now();
  const Status run = passes::RunPipeline(*graph, o.pipeline, ctx);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!run.ok()) return fmt::print(stderr, "npu_opt: {}\n", run.message()), kExitError;
  if (!ctx.dump.empty()) fmt::print("{}", ctx.dump);
  if (o.print) fmt::print("{}", ir::PrintGraph(*graph));
  Summarise(original, *graph, ctx, ms);
  if (!o.export_onnx.empty()) {
    const Status s = ExportModel(original, o.export_onnx);
    if (!s.ok()) return fmt::print(stderr, "npu_opt: {}\n", s.message()), kExitError;
    fmt::print("wrote {}\n", o.export_onnx);
  }
  if (o.check) {
    const StatusOr<bool> same = Check(original, *graph);
    if (!same.ok()) return fmt::print(stderr, "npu_opt: {}\n", same.status().message()), kExitError;
    if (!*same) return kExitMismatch;
  }
  return 0;
}

}  // namespace
}  // namespace npu::tools

int main(int argc, char** argv) { return npu::tools::Main(argc, argv); }
