// npu_compile: compile a model ahead of time into a binary file that runs alone.
//
//   npu_compile resnet18 -o resnet18.npub
//   npu_compile model.onnx --config small --set mac.rows=16 --calib x.npy -o model.npub
//   npu_compile small_cnn --with-reference -o small_cnn.npub   carries its quantised graph
//   npu_compile mobilenet_v2 -o m.npub --report                prints what the compiler decided
//   run_workload resnet18.npub [--input x.npy]                 runs it (docs/binary-format.md)
//
// The model is prepared, quantised and compiled exactly as run_workload MODEL does with the same
// options (tools/run_workload/model_options.h, workload_source.h), so the file runs in the same
// cycles. The file is the sealed binary (hw/spec/binary.proto) plus what a run needs without the
// model: the config compiled for, the batch and, with --with-reference, the quantised graph.
//
// Exit status: 0 written, 2 error (nothing written: the file appears whole or not at all).
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "compiler/ir/graph_proto.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/isa.h"
#include "tools/common/command_line.h"
#include "tools/common/malloc_tuning.h"
#include "tools/common/output_files.h"
#include "tools/run_workload/model_options.h"
#include "tools/run_workload/workload_source.h"

namespace npu::tools {
namespace {

namespace po = boost::program_options;

constexpr int kExitError = 2;

struct CompileRequest {
  Options model;  // MODEL and the options that decide what it compiles to
  std::string output;
  bool with_reference = false;
  bool report = false;  // print the compile report (compile_model.h, CompileReport) on stdout
};

po::options_description Visible() {
  po::options_description d(
      "Usage: npu_compile MODEL -o FILE [options]\n"
      "Compiles MODEL (a built-in name, an .onnx file or a .csv layer list) for the architecture\n"
      "into FILE, a binary that `run_workload FILE` runs alone: the program, its constants, its\n"
      "inputs' and outputs' names, shapes and quantisation, and the config it was compiled\n"
      "for.\n\nOptions");
  // clang-format off
  d.add_options()
      ("help,h", "show this help")
      ("output,o", po::value<std::string>(), "the file to write (conventionally .npub)")
      ("with-reference",
       "also store the quantised graph, so that run_workload FILE checks every output byte "
       "against the integer reference (whole models only; the file grows by about the weights)")
      ("quiet,q", "no summary or progress on stderr")
      ("report",
       "print on stdout what the compiler decided and predicts: per layer its tiling, operands "
       "on chip or in DRAM, predicted and roofline cycles; the fused layer groups; SRAM, DRAM "
       "plan and traffic (whole models only)");
  // clang-format on
  d.add(ModelOptionsDescription());
  return d;
}

// Returns an exit code to stop with, or -1 to go on.
int Parse(int argc, char** argv, CompileRequest& request, bool& quiet) {
  po::variables_map vm;
  if (const std::optional<int> exit =
          ParseCommandLine("npu_compile", argc, argv, Visible(), "model", vm)) {
    return *exit;
  }
  if (vm.count("model")) request.model.model = vm["model"].as<std::string>();
  if (vm.count("output")) request.output = vm["output"].as<std::string>();
  if (request.model.model.empty() || request.output.empty()) {
    std::cerr << "npu_compile: give a MODEL and -o FILE\n(npu_compile --help lists the options)\n";
    return kExitUsage;
  }
  request.with_reference = vm.count("with-reference") > 0;
  request.report = vm.count("report") > 0;
  quiet = vm.count("quiet") > 0;
  request.model.quiet = quiet;      // nor progress
  request.model.reference = false;  // the reference's outputs are run_workload's business
  return TakeModelOptions("npu_compile", vm, request.model);
}

StatusOr<PreparedWorkload> Compile(const CompileRequest& request) {
  NPU_ASSIGN_OR_RETURN(const spec::NpuConfig config,
                       spec::ResolveConfig(request.model.config_file, request.model.overrides));
  NPU_ASSIGN_OR_RETURN(PreparedWorkload w, PrepareWorkload(request.model, config));
  for (const auto& [option, wanted] : {std::pair{"--with-reference", request.with_reference},
                                       std::pair{"--report", request.report}}) {
    if (wanted && !w.model) {
      return InvalidArgument(fmt::format(
          "{}: '{}' is a single-layer workload without a quantised graph; the option needs a "
          "whole model",
          option, request.model.model));
    }
  }
  if (request.with_reference) {
    w.program.set_reference_graph(compiler::ir::SerializeGraph(w.model->quantized));
  }
  return w;
}

std::string Summary(const std::string& path, const spec::Program& p, size_t file_bytes) {
  std::string text = fmt::format(
      "wrote {}: {} for architecture '{}' (fingerprint {:016x}), batch {}, {} instructions, {} "
      "steps, {} bytes{}\n",
      path, p.model_name(), p.arch_name(), p.arch_fingerprint(), std::max<uint32_t>(p.batch(), 1),
      p.instructions().size() / spec::kInsnBytes, p.steps_size(), file_bytes,
      p.reference_graph().empty() ? "" : ", with its reference graph");
  for (const auto* tensors : {&p.inputs(), &p.outputs()}) {
    for (const spec::TensorDesc& t : *tensors) {
      const std::string role = tensors == &p.inputs() ? "input " : "output";
      if (t.dtype() == spec::FLOAT16) {
        text += fmt::format("  {} {}: float16 [{}] {}\n", role, t.name(),
                            fmt::join(t.shape(), ","), t.layout());
        continue;
      }
      text += fmt::format("  {} {}: int8 [{}] {}, scale {} zero point {}\n", role, t.name(),
                          fmt::join(t.shape(), ","), t.layout(), t.scale(), t.zero_point());
    }
  }
  return text;
}

int Run(int argc, char** argv) {
  CompileRequest request;
  bool quiet = false;
  if (const int code = Parse(argc, argv, request, quiet); code >= 0) return code;
  StatusOr<PreparedWorkload> compiled = Compile(request);
  if (!compiled.ok()) {
    std::cerr << "npu_compile: " << compiled.status().message() << "\n";
    return kExitError;
  }
  const std::string sealed = spec::SealProgram(compiled->program);
  OutputFiles files;
  files.Add(request.output, sealed);
  if (const Status s = files.Commit(); !s.ok()) {
    std::cerr << "npu_compile: " << s.message() << "\n";
    return kExitError;
  }
  if (!quiet) std::cerr << Summary(request.output, compiled->program, sealed.size());
  if (request.report) std::cout << compiled->compile_report;
  return 0;
}

}  // namespace
}  // namespace npu::tools

int main(int argc, char** argv) {
  npu::tools::ReexecWithHugePageMalloc(argv);
  return npu::tools::Run(argc, argv);
}
