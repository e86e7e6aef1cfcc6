// Named architecture configs shipped with the tools, so a design point can be picked by name
// (`--config edge`) as well as from a file. Each is the default config with a few fields changed.
#pragma once

#include <string>
#include <vector>

#include "hw/spec/npu_config.pb.h"

namespace npu::spec {

struct NamedConfig {
  std::string name;
  std::string summary;
  NpuConfig config;
};

// "default" first; every entry passes Validate().
const std::vector<NamedConfig>& BuiltinConfigs();

// The built-in config called `name`, or null.
const NpuConfig* FindBuiltinConfig(const std::string& name);

}  // namespace npu::spec
