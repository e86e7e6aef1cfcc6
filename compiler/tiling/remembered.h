// Results of pure searches remembered for the process, shared by every thread (kAuto's variants
// compile side by side): the tiling searches' (survey_memo.h) and the candidate replays'
// (candidate_cost.h). Keys are bytes that say everything the result depends on; past
// kRememberedKeyBytes of keys the memory starts over, so a long process stays bounded.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

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

}  // namespace npu::compiler
