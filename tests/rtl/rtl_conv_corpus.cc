// Writes tests/rtl/data/convs_<R>x<C>.txt: every distinct CONV the compiler emits for the
// built-in models on an R x C array (default config otherwise), addresses cleared, run alone
// (accumulate off), depthwise ones included.
//   rtl_conv_corpus ROWS COLS OUT.txt
#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "compiler/network/model_pipeline.h"
#include "hw/spec/config.h"
#include "tests/rtl/rtl_bench.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    fmt::print(stderr, "usage: rtl_conv_corpus ROWS COLS OUT.txt\n");
    return 2;
  }
  npu::spec::NpuConfig config = npu::spec::DefaultConfig();
  config.mutable_mac()->set_rows(std::stoi(argv[1]));
  config.mutable_mac()->set_cols(std::stoi(argv[2]));
  // The RTL array has no row or column groups; without the vector unit's depthwise datapath the models'
  // depthwise layers stay CONVs for the RTL to run.
  config.mutable_mac()->set_row_groups(1);
  config.mutable_mac()->set_col_groups(1);
  config.mutable_act()->set_depthwise_taps(0);
  std::map<std::string, std::string> distinct;  // shape -> line
  int depthwise = 0;
  for (const char* model : {"resnet18", "mobilenet_v2", "small_cnn", "mlp"}) {
    npu::compiler::ModelPipelineOptions options;
    options.calibration_samples = 1;
    options.compute_reference = false;
    auto m = npu::compiler::PrepareModel(model, config, options);
    if (!m.ok()) {
      fmt::print(stderr, "{}: {}\n", model, m.status().message());
      return 1;
    }
    for (const npu::spec::Instruction& insn : m->compiled.instructions) {
      const auto* conv = std::get_if<npu::spec::ConvArgs>(&insn.args);
      if (conv == nullptr) continue;
      npu::spec::ConvArgs c = *conv;
      c.in_addr = c.wt_addr = c.acc_addr = 0;
      c.accumulate = false;
      npu::spec::ConvArgs shape = c;
      shape.in_zero_point = shape.wt_zero_point = shape.pad_value = 0;
      const bool added =
          distinct.emplace(npu::rtl::FormatConv(shape), npu::rtl::FormatConv(c)).second;
      depthwise += c.depthwise && added;
    }
  }
  std::ofstream out(argv[3]);
  out << fmt::format(
      "# rtl_conv_corpus {} {}: distinct CONVs of resnet18 mobilenet_v2 small_cnn mlp "
      "({} of them depthwise)\n# fields: npu_rtl_pkg::field_t order\n",
      argv[1], argv[2], depthwise);
  for (const auto& [shape, line] : distinct) out << line << "\n";
  return out ? 0 : 1;
}
