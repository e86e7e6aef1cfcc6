// Node attributes: named ints, floats, strings and lists of them, as in ONNX.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace npu::compiler::ir {

using AttrValue =
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>>;

class Attributes {
 public:
  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  void Set(const std::string& name, AttrValue value) { values_[name] = std::move(value); }
  void Erase(const std::string& name) { values_.erase(name); }

  // The value if present with that type, else `fallback`.
  int64_t GetInt(const std::string& name, int64_t fallback) const;
  float GetFloat(const std::string& name, float fallback) const;
  std::string GetString(const std::string& name, const std::string& fallback) const;
  std::vector<int64_t> GetInts(const std::string& name,
                               const std::vector<int64_t>& fallback = {}) const;
  std::vector<float> GetFloats(const std::string& name,
                               const std::vector<float>& fallback = {}) const;

  // Sorted by name, so printing and comparing are deterministic.
  const std::map<std::string, AttrValue>& values() const { return values_; }
  bool operator==(const Attributes&) const = default;

 private:
  std::map<std::string, AttrValue> values_;
};

std::string AttrText(const AttrValue& value);  // "3", "0.5", "\"SAME\"", "[1,1]"

}  // namespace npu::compiler::ir
