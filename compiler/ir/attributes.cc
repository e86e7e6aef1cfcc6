// Attribute lookup and printing.
#include "compiler/ir/attributes.h"

#include <fmt/format.h>

namespace npu::compiler::ir {
namespace {
template <class T>
T Get(const std::map<std::string, AttrValue>& values, const std::string& name, const T& fallback) {
  auto it = values.find(name);
  if (it == values.end()) return fallback;
  const T* v = std::get_if<T>(&it->second);
  return v != nullptr ? *v : fallback;
}
}  // namespace

int64_t Attributes::GetInt(const std::string& name, int64_t fallback) const {
  return Get(values_, name, fallback);
}
float Attributes::GetFloat(const std::string& name, float fallback) const {
  return Get(values_, name, fallback);
}
std::string Attributes::GetString(const std::string& name, const std::string& fallback) const {
  return Get(values_, name, fallback);
}
std::vector<int64_t> Attributes::GetInts(const std::string& name,
                                         const std::vector<int64_t>& fallback) const {
  return Get(values_, name, fallback);
}
std::vector<float> Attributes::GetFloats(const std::string& name,
                                         const std::vector<float>& fallback) const {
  return Get(values_, name, fallback);
}

std::string AttrText(const AttrValue& value) {
  struct Visitor {
    std::string operator()(int64_t v) const { return std::to_string(v); }
    std::string operator()(float v) const { return fmt::format("{}", v); }
    std::string operator()(const std::string& v) const { return fmt::format("\"{}\"", v); }
    std::string operator()(const std::vector<int64_t>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
    std::string operator()(const std::vector<float>& v) const {
      return fmt::format("[{}]", fmt::join(v, ","));
    }
  };
  return std::visit(Visitor{}, value);
}

}  // namespace npu::compiler::ir
