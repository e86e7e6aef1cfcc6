// CandidateCost and its memory.
#include "compiler/tiling/candidate_cost.h"

#include <optional>
#include <string>

#include "compiler/schedule/dependencies.h"
#include "compiler/tiling/remembered.h"

namespace npu::compiler {
namespace {

// The config's bytes, then the stream's instructions (spec::AppendKey), then the config's length
// (so no config and stream pair reads as another's).
std::string Key(const spec::NpuConfig& config, const std::vector<spec::Instruction>& insns) {
  std::string key = config.SerializeAsString();
  const size_t config_bytes = key.size();
  key.reserve(config_bytes + insns.size() * spec::kInsnBytes + sizeof(config_bytes));
  for (const spec::Instruction& insn : insns) spec::AppendKey(insn, key);
  key.append(reinterpret_cast<const char*>(&config_bytes), sizeof(config_bytes));
  return key;
}

CostEstimate Replay(const spec::NpuConfig& config, std::vector<spec::Instruction> insns) {
  AssignDependencies(insns);
  const StatusOr<CostEstimate> cost = PredictCost(config, insns, nullptr, {.exact = false});
  NPU_CHECK(cost.ok());  // the dependency pass only emits backward, balanced tokens
  return *cost;
}

}  // namespace

CostEstimate CandidateCost(const spec::NpuConfig& config,
                           const std::vector<spec::Instruction>& insns) {
  static Remembered<CostEstimate> costs;
  std::string key = Key(config, insns);
  if (const std::optional<CostEstimate> seen = costs.Find(key)) return *seen;
  const CostEstimate cost = Replay(config, insns);
  costs.Remember(std::move(key), cost);
  return cost;
}

}  // namespace npu::compiler
