// run_workload: compile a built-in workload for an architecture, run it on the virtual platform,
// check it bit for bit against the integer reference, and report where the cycles went.
//
//   run_workload conv3x3
//   run_workload fc --set mac.rows=64 --set mac.dataflow=OUTPUT_STATIONARY
//   run_workload conv3x3 --config small.textproto
//
// Exit status: 0 PASS, 1 FAIL (outputs differ), 2 error (bad option, config, model, or run).
#include <fmt/format.h>

#include <boost/program_options.hpp>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <systemc>
#include <vector>

#include "compiler/compile.h"
#include "compiler/reference/reference_conv.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "platform/run.h"
#include "tools/run_workload/terminal_report.h"
#include "workloads/single_layer.h"

namespace po = boost::program_options;

namespace npu::tools {
namespace {

struct Options {
  std::string model;
  std::string config_file;
  std::vector<std::string> overrides;
  bool list = false;
};

constexpr int kExitFail = 1;
constexpr int kExitError = 2;

po::options_description Describe() {
  po::options_description d(
      "Usage: run_workload MODEL [options]\n"
      "Compiles MODEL for the architecture, runs it on the simulated NPU, checks every output\n"
      "byte against the integer reference and reports cycles, utilisation, stalls and DRAM\n"
      "traffic.\n\n"
      "Examples:\n"
      "  run_workload conv3x3\n"
      "  run_workload fc --set mac.rows=64 --set mac.dataflow=OUTPUT_STATIONARY\n"
      "  run_workload conv3x3 --config small.textproto\n\n"
      "Options");
  d.add_options()("help,h", "show this help")(
      "list", "list the built-in workloads and the default architecture")(
      "config", po::value<std::string>(),
      "architecture config file (.textproto or .json), merged onto the default (docs/config.md)")(
      "set", po::value<std::vector<std::string>>()->composing(),
      "override one config field, e.g. --set mac.rows=64 (repeatable)");
  return d;
}

// Parses the command line; returns an exit code to stop with, or -1 to go on.
int ParseOptions(int argc, char** argv, Options& options) {
  po::options_description visible = Describe();
  po::options_description all;
  all.add(visible).add_options()("model", po::value<std::string>());
  po::positional_options_description positional;
  positional.add("model", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "run_workload: " << e.what() << "\n(run_workload --help lists the options)\n";
    return kExitError;
  }
  if (vm.count("help")) {
    std::cout << visible << "\n";
    return 0;
  }
  options.list = vm.count("list") > 0;
  if (vm.count("model")) options.model = vm["model"].as<std::string>();
  if (vm.count("config")) options.config_file = vm["config"].as<std::string>();
  if (vm.count("set")) options.overrides = vm["set"].as<std::vector<std::string>>();
  if (!options.list && options.model.empty()) {
    std::cerr << "run_workload: no MODEL given\n(run_workload --list names the built-in ones)\n";
    return kExitError;
  }
  return -1;
}

void PrintList() {
  std::cout << "built-in workloads:\n";
  for (const std::string& name : workloads::SingleLayerWorkloadNames()) {
    const StatusOr<workloads::Workload> w = workloads::MakeSingleLayerWorkload(name);
    std::cout << fmt::format("  {:<10} {}\n", name, w.ok() ? w->description : "");
  }
  std::cout << "\ndefault architecture (--config and --set change it):\n"
            << spec::ToText(spec::DefaultConfig());
}

CheckResult Compare(const std::vector<int8_t>& got, const std::vector<int8_t>& expected) {
  CheckResult check;
  check.bytes = expected.size();
  for (size_t i = 0; i < expected.size(); ++i) {
    const int g = i < got.size() ? got[i] : 0;
    if (i < got.size() && g == expected[i]) continue;
    if (check.mismatches++ == 0) {
      check.first_mismatch = fmt::format("output[{}]: got {}, expected {}", i, g, expected[i]);
    }
  }
  return check;
}

std::string Headline(const spec::NpuConfig& c, const workloads::Workload& w,
                     const compiler::CompiledLayer& compiled) {
  const spec::LayerInfo& info = compiled.program.layers(0);
  const compiler::ConvLayer& l = w.layer;
  return fmt::format(
      "{} on '{}': {}x{} {} array, {} KiB SRAM, {} MHz\n"
      "layer            {} {}x{}x{} -> {}x{}x{}, kernel {}x{} stride {}x{}, {} MACs\n"
      "tiling           {}\n",
      w.name, c.name(), c.mac().rows(), c.mac().cols(), spec::Dataflow_Name(c.mac().dataflow()),
      c.sram().size_bytes() / 1024, c.clock_mhz(), info.op(), l.in_h, l.in_w, l.in_c, l.OutH(),
      l.OutW(), l.out_c, l.kernel_h, l.kernel_w, l.stride_h, l.stride_w, Grouped(info.macs()),
      info.tiling());
}

int Run(const Options& options) {
  StatusOr<spec::NpuConfig> config = spec::ResolveConfig(options.config_file, options.overrides);
  if (!config.ok()) {
    std::cerr << "run_workload: " << config.status().message() << "\n";
    return kExitError;
  }
  StatusOr<workloads::Workload> workload = workloads::MakeSingleLayerWorkload(options.model);
  if (!workload.ok()) {
    std::cerr << "run_workload: " << workload.status().message() << "\n";
    return kExitError;
  }
  StatusOr<compiler::CompiledLayer> compiled =
      compiler::CompileConvLayerDetailed(*config, workload->layer);
  if (!compiled.ok()) {
    std::cerr << "run_workload: compiling " << workload->name << ": " << compiled.status().message()
              << "\n";
    return kExitError;
  }
  std::cout << Headline(*config, *workload, *compiled) << std::flush;
  StatusOr<platform::RunResult> run = platform::RunBinary(
      *config, spec::SealProgram(compiled->program), {workload->input}, hw::NpuOptions{});
  if (!run.ok()) {
    std::cerr << "run_workload: running " << workload->name << ": " << run.status().message()
              << "\n";
    return kExitError;
  }
  StatusOr<std::vector<int8_t>> expected =
      compiler::ReferenceConv(workload->layer, workload->input);
  if (!expected.ok()) {
    std::cerr << "run_workload: reference: " << expected.status().message() << "\n";
    return kExitError;
  }
  const CheckResult check = Compare(run->outputs.at(0), *expected);
  const Measurement m =
      Measure(*config, run->counters, compiled->program.layers(0).predicted_cycles());
  std::cout << FormatReport(m, check)
            << fmt::format("simulated in {:.2f} s wall ({:.1f} M simulated cycles per second)\n",
                           run->wall_seconds, m.cycles / 1e6 / std::max(run->wall_seconds, 1e-9));
  return check.pass() ? 0 : kExitFail;
}

}  // namespace
}  // namespace npu::tools

int sc_main(int argc, char** argv) {
  npu::tools::Options options;
  if (const int code = npu::tools::ParseOptions(argc, argv, options); code >= 0) return code;
  if (options.list) {
    npu::tools::PrintList();
    return 0;
  }
  return npu::tools::Run(options);
}

// SystemC prints its banner before sc_main unless told not to; a tool's output is its report.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
  return sc_core::sc_elab_and_sim(argc, argv);
}
