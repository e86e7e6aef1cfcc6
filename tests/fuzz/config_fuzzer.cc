// Fuzz target: the architecture config as the tools take it (hw/spec/config*.cc): a config file,
// text proto or JSON by its name's extension, then `--set` overrides, then validation. An input:
//
//   line 1         the file's name, e.g. "edge.json" or "x.textproto"
//   lines 2...     the file's text
//   "--set" line   optional; each line after it is one override, e.g. "mac.rows=64"
//
// Properties of a config that validates: its text form reads back as the same config with the
// same fingerprint, and the compiler's program for a small convolution on it is either refused
// with a clear error or passes the firmware's checks on a board of that architecture ("nothing
// downstream re-checks these rules", config.h).
#include <google/protobuf/util/message_differencer.h>

#include <string>
#include <vector>

#include "compiler/compile.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "tests/fuzz/fuzz_board.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/load_on_board.h"
#include "workloads/synthetic_conv.h"

namespace {

using npu::fuzz::Finding;
using npu::fuzz::RequireNotInternal;
namespace spec = npu::spec;

struct ConfigInput {
  std::string file_name;
  std::string file_text;
  std::vector<std::string> overrides;
};

ConfigInput SplitInput(std::string_view input) {
  ConfigInput parts;
  const size_t name_end = std::min(input.find('\n'), input.size());
  parts.file_name = input.substr(0, name_end);
  input.remove_prefix(std::min(name_end + 1, input.size()));
  constexpr std::string_view kSet = "\n--set\n";
  const size_t set = input.find(kSet);
  parts.file_text = input.substr(0, set);
  if (set == std::string_view::npos) return parts;
  std::string_view rest = input.substr(set + kSet.size());
  while (!rest.empty()) {
    const size_t end = std::min(rest.find('\n'), rest.size());
    parts.overrides.emplace_back(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return parts;
}

void CheckRoundTrip(const spec::NpuConfig& config) {
  npu::StatusOr<spec::NpuConfig> again =
      spec::LoadConfigText("printed.textproto", spec::ToText(config));
  if (!again.ok()) Finding("a valid config's text does not read back: " + again.status().message());
  if (!google::protobuf::util::MessageDifferencer::Equals(config, *again)) {
    Finding("a valid config reads back different from its text:\n" + spec::ToText(config) +
            "---\n" + spec::ToText(*again));
  }
  if (spec::Fingerprint(*again) != spec::Fingerprint(config)) {
    Finding("a valid config's fingerprint changes when printed and read back");
  }
}

// 8x8x16 -> 8x8x16, 3x3 "same": small enough to compile in milliseconds on any valid config.
const npu::compiler::ConvLayer& SmallConv() {
  static const npu::compiler::ConvLayer layer = [] {
    npu::workloads::SyntheticConvSpec s;
    s.name = "fuzz_conv";
    s.in_h = s.in_w = 8;
    s.in_c = s.out_c = 16;
    s.kernel_h = s.kernel_w = 3;
    npu::workloads::SetSamePadding(s);
    npu::StatusOr<npu::compiler::ConvLayer> built = npu::workloads::MakeSyntheticConv(s);
    if (!built.ok()) Finding("the small convolution does not build: " + built.status().message());
    return *std::move(built);
  }();
  return layer;
}

void CheckCompiledProgramLoads(const spec::NpuConfig& config) {
  npu::StatusOr<spec::Program> program = npu::compiler::CompileConvLayer(config, SmallConv());
  if (!program.ok()) {
    RequireNotInternal(program.status(), "the compiler, on a valid config,");
    return;
  }
  npu::fuzz::FuzzBoard board(config);
  const npu::Status loaded = npu::fuzz::LoadAndRunCpuSteps(board, spec::SealProgram(*program));
  if (!loaded.ok()) Finding("a compiled program fails the firmware's checks: " + loaded.message());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const ConfigInput input = SplitInput(npu::fuzz::AsText(data, size));
  npu::StatusOr<spec::NpuConfig> config = spec::LoadConfigText(input.file_name, input.file_text);
  if (!config.ok()) {
    RequireNotInternal(config.status(), "reading a config");
    return 0;
  }
  for (const std::string& assignment : input.overrides) {
    const npu::Status applied = spec::ApplyOverride(*config, assignment);
    if (!applied.ok()) {
      RequireNotInternal(applied, "--set");
      return 0;
    }
  }
  const npu::Status valid = spec::Validate(*config);
  if (!valid.ok()) {
    RequireNotInternal(valid, "validation");
    return 0;
  }
  CheckRoundTrip(*config);
  CheckCompiledProgramLoads(*config);
  return 0;
}
