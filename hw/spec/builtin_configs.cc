// The built-in configs.
#include "hw/spec/builtin_configs.h"

#include "hw/spec/config.h"

namespace npu::spec {
namespace {

NpuConfig With(const std::string& name, const std::vector<std::string>& overrides) {
  NpuConfig c = DefaultConfig();
  c.set_name(name);
  for (const std::string& o : overrides) NPU_CHECK(ApplyOverride(c, o).ok());
  NPU_CHECK(Validate(c).ok());
  return c;
}

std::vector<NamedConfig> Make() {
  return {
      {"default", "32x32 weight-stationary, 1 MiB SRAM, 32 B/cycle DRAM", DefaultConfig()},
      {"default-os", "the default with an output-stationary array",
       With("default-os", {"mac.dataflow=OUTPUT_STATIONARY"})},
      {"tiny", "8x8 array, 64 KiB SRAM in 8 banks, 8 B/cycle DRAM, one load channel",
       With("tiny", {"mac.rows=8", "mac.cols=8", "mac.acc_buffer_bytes=16384",
                     "sram.size_bytes=65536", "sram.banks=8", "dram.bytes_per_cycle=8",
                     "dma.load_channels=1", "act.lanes=8", "cpu.core=SMALL_CORE"})},
      {"edge", "16x16 array, 256 KiB SRAM, 16 B/cycle DRAM",
       With("edge",
            {"mac.rows=16", "mac.cols=16", "mac.acc_buffer_bytes=65536", "sram.size_bytes=262144",
             "dram.bytes_per_cycle=16", "act.lanes=16", "cpu.core=SMALL_CORE"})},
      {"server", "64x64 array, 4 MiB SRAM in 32 banks, 64 B/cycle DRAM, 4 load channels",
       With("server", {"mac.rows=64", "mac.cols=64", "mac.acc_buffer_bytes=524288",
                       "sram.size_bytes=4194304", "sram.banks=32", "dram.bytes_per_cycle=64",
                       "dma.load_channels=4", "dma.store_channels=2", "act.lanes=64"})},
  };
}

}  // namespace

const std::vector<NamedConfig>& BuiltinConfigs() {
  static const std::vector<NamedConfig> configs = Make();
  return configs;
}

const NpuConfig* FindBuiltinConfig(const std::string& name) {
  for (const NamedConfig& c : BuiltinConfigs()) {
    if (c.name == name) return &c.config;
  }
  return nullptr;
}

}  // namespace npu::spec
