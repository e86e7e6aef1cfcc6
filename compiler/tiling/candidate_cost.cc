// CandidateCost and its memory.
#include "compiler/tiling/candidate_cost.h"

#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "compiler/schedule/dependencies.h"

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

class Memo {
 public:
  std::optional<CostEstimate> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = seen_.find(key);
    if (it == seen_.end()) return std::nullopt;
    return it->second;
  }

  void Remember(std::string key, const CostEstimate& cost) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (key_bytes_ + key.size() > kCandidateCostMemoBytes) {
      seen_.clear();
      key_bytes_ = 0;
    }
    key_bytes_ += key.size();
    seen_.emplace(std::move(key), cost);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, CostEstimate> seen_;
  size_t key_bytes_ = 0;
};

Memo& TheMemo() {
  static Memo memo;
  return memo;
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
  std::string key = Key(config, insns);
  if (const std::optional<CostEstimate> seen = TheMemo().Find(key)) return *seen;
  const CostEstimate cost = Replay(config, insns);
  TheMemo().Remember(std::move(key), cost);
  return cost;
}

}  // namespace npu::compiler
