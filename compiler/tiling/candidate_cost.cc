// CandidateCost and its memory.
#include "compiler/tiling/candidate_cost.h"

#include <optional>
#include <string>

#include "compiler/schedule/dependencies.h"
#include "compiler/tiling/remembered.h"

namespace npu::compiler {
namespace {

CostEstimate Replay(const spec::NpuConfig& config, std::vector<spec::Instruction> insns,
                    bool exact) {
  AssignDependencies(insns);
  const StatusOr<CostEstimate> cost = PredictCost(config, insns, nullptr, {.exact = exact});
  NPU_CHECK(cost.ok());  // the dependency pass only emits backward, balanced tokens
  return *cost;
}

}  // namespace

CostEstimate CandidateCost(const spec::NpuConfig& config,
                           const std::vector<spec::Instruction>& insns, bool exact) {
  static Remembered<CostEstimate> costs;
  std::string key = StreamKey(config, insns);
  key.push_back(exact ? 'e' : 'f');  // the replay's kind, after the fixed-length config length
  if (const std::optional<CostEstimate> seen = costs.Find(key)) return *seen;
  const CostEstimate cost = Replay(config, insns, exact);
  costs.Remember(std::move(key), cost);
  return cost;
}

}  // namespace npu::compiler
