// Quantised IR nodes as CPU ops.
#include "compiler/lower/cpu_layer.h"

#include <fmt/format.h>

#include <variant>

namespace npu::compiler {

std::vector<int64_t> CpuLayer::Ints(const std::string& name) const {
  for (const spec::CpuAttr& a : attrs) {
    if (a.name() == name) return {a.ints().begin(), a.ints().end()};
  }
  return {};
}

std::vector<spec::CpuAttr> CpuAttrsOf(const ir::Node& node) {
  std::vector<spec::CpuAttr> attrs;
  for (const auto& [name, value] : node.attrs().values()) {
    spec::CpuAttr a;
    a.set_name(name);
    if (const auto* i = std::get_if<int64_t>(&value)) a.add_ints(*i);
    if (const auto* f = std::get_if<float>(&value)) a.add_floats(*f);
    if (const auto* s = std::get_if<std::string>(&value)) a.set_text(*s);
    if (const auto* is = std::get_if<std::vector<int64_t>>(&value)) {
      for (int64_t v : *is) a.add_ints(v);
    }
    if (const auto* fs = std::get_if<std::vector<float>>(&value)) {
      for (float v : *fs) a.add_floats(v);
    }
    attrs.push_back(std::move(a));
  }
  return attrs;
}

StatusOr<CpuConstant> CpuConstantOf(const ir::Tensor& t) {
  CpuConstant c;
  c.name = t.name();
  if (t.dtype() == ir::DType::kInt8) {
    c.dtype = spec::INT8;
  } else if (t.dtype() == ir::DType::kInt32) {
    c.dtype = spec::INT32;
  } else {
    return InvalidArgument(fmt::format("constant '{}' is {}: CPU kernels take int8 and int32",
                                       t.name(), ir::DTypeName(t.dtype())));
  }
  for (int64_t d : t.shape()) c.shape.push_back(static_cast<uint32_t>(d));
  c.bytes = t.bytes();
  if (!t.quant().empty() && !t.quant().per_channel()) {
    c.scale = t.quant().scale[0];
    c.zero_point = t.quant().zero_point.empty() ? 0 : t.quant().zero_point[0];
  }
  return c;
}

}  // namespace npu::compiler
