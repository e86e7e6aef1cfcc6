// The architecture config: built-in default, loading from text-proto or JSON files, `--set`
// overrides, validation and a fingerprint that binaries carry. Hardware, compiler and firmware
// all take a config that passed Validate(); nothing downstream re-checks these rules.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::spec {

// The built-in architecture (docs/config.md lists its values).
NpuConfig DefaultConfig();

// Reads a config file, text-proto (`.textproto`, `.txtpb`, `.pbtxt`) or JSON (`.json`), and merges
// it onto DefaultConfig(). Does not validate: apply overrides first, then Validate().
StatusOr<NpuConfig> LoadConfigFile(const std::string& path);
// LoadConfigFile() of a file called `path` whose content is `text`.
StatusOr<NpuConfig> LoadConfigText(const std::string& path, const std::string& text);

// Applies one `path.to.field=value` override, e.g. "mac.rows=64" or
// "mac.dataflow=OUTPUT_STATIONARY".
Status ApplyOverride(NpuConfig& config, std::string_view assignment);

// Checks every field against its rule; the error names the field, its value and the rule.
Status Validate(const NpuConfig& config);

// A lower bound on the SRAM any layer needs: double-buffered minimal tiles of a layer with a 1x1
// kernel (see Validate()). Larger kernels need more; the compiler names the layer and the bytes.
uint64_t MinimalSramBytes(const NpuConfig& config);

// Default (or the built-in config named `file`, see builtin_configs.h), then the optional file,
// then overrides, not validated: for callers that add more overrides before Validate().
StatusOr<NpuConfig> LoadWithOverrides(const std::string& file,
                                      const std::vector<std::string>& overrides);
// LoadWithOverrides, then validation: what every tool does.
StatusOr<NpuConfig> ResolveConfig(const std::string& file,
                                  const std::vector<std::string>& overrides);
// The same with `base` (a binary's recorded config) in place of the default.
StatusOr<NpuConfig> ResolveConfig(const NpuConfig& base, const std::string& file,
                                  const std::vector<std::string>& overrides);

// The accumulator buffer's size in int32 entries (its ACC_ENTRIES register).
inline uint64_t AccBufferEntries(const NpuConfig& config) {
  return config.mac().acc_buffer_bytes() / 4;
}

// CRC-64 of the canonical serialisation of every NPU field (the name, the control core's cost
// model and the technology are excluded: none changes what a binary does; mac.fold_pipelining at
// its DOUBLE_BUFFERED default is left out, so binaries from before the field keep their
// fingerprint).
uint64_t Fingerprint(const NpuConfig& config);

// Text-proto rendering, for `--print-config` and reports.
std::string ToText(const NpuConfig& config);

}  // namespace npu::spec
