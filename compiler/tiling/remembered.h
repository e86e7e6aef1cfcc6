// Results of pure searches remembered for the process, shared by every thread (kAuto's variants
// compile side by side): the tiling searches' (survey_memo.h; the vector layers' in
// eltwise_tiling.h) and the candidate replays' (candidate_cost.h: the tiling searches' and the
// interleaving pass's). Keys are bytes that say everything the result depends on, never hashes
// (a collision would be a silent wrong schedule); past kRememberedKeyBytes of keys the memory
// starts over, so a long process stays bounded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

inline constexpr size_t kRememberedKeyBytes = size_t{256} << 20;

template <class Result>
class Remembered {
 public:
  std::optional<Result> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = seen_.find(key);
    if (it == seen_.end()) return std::nullopt;
    return it->second;
  }

  void Remember(std::string key, const Result& result) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (key_bytes_ + key.size() > kRememberedKeyBytes) {
      seen_.clear();
      key_bytes_ = 0;
    }
    key_bytes_ += key.size();
    seen_.emplace(std::move(key), result);
  }

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, Result> seen_;
  size_t key_bytes_ = 0;
};

// The result remembered in `memory` under `key`, else `search`'s, remembered if it succeeds (an
// error names the layer searched, which the key leaves out).
template <class Result, class SearchFn>
StatusOr<Result> FindOrSearch(Remembered<Result>& memory, std::string key, SearchFn search) {
  if (std::optional<Result> seen = memory.Find(key)) return *std::move(seen);
  NPU_ASSIGN_OR_RETURN(Result result, search());
  memory.Remember(std::move(key), result);
  return result;
}

// The key of a search on the config whose bytes are `config_bytes`: them, then `fields` (of a
// layer and its context: everything the search depends on), each 8 bytes.
inline std::string FieldsKey(std::string config_bytes, const std::vector<int64_t>& fields) {
  config_bytes.append(reinterpret_cast<const char*>(fields.data()),
                      fields.size() * sizeof(int64_t));
  return config_bytes;
}

// The key of a replay of `insns` on `config`: the config's bytes, the instructions
// (spec::AppendKey), then the config's length (so no config and stream pair reads as another's).
inline std::string StreamKey(const spec::NpuConfig& config,
                             const std::vector<spec::Instruction>& insns) {
  std::string key = config.SerializeAsString();
  const size_t config_bytes = key.size();
  key.reserve(config_bytes + insns.size() * spec::kInsnBytes + sizeof(config_bytes));
  for (const spec::Instruction& insn : insns) spec::AppendKey(insn, key);
  key.append(reinterpret_cast<const char*>(&config_bytes), sizeof(config_bytes));
  return key;
}

}  // namespace npu::compiler
