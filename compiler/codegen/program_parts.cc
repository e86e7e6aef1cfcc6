// Program parts.
#include "compiler/codegen/program_parts.h"

namespace npu::compiler {

spec::TensorDesc Int8Tensor(const std::string& name, const std::vector<uint32_t>& shape,
                            uint64_t offset, uint64_t bytes, float scale, int32_t zero_point) {
  spec::TensorDesc t;
  t.set_name(name);
  for (uint32_t d : shape) t.add_shape(d);
  t.set_dtype(spec::INT8);
  t.set_layout("NHWC");
  t.set_dram_offset(static_cast<uint32_t>(offset));
  t.set_size_bytes(static_cast<uint32_t>(bytes));
  t.set_scale(scale);
  t.set_zero_point(zero_point);
  return t;
}

void AddRegion(spec::Program& p, const std::string& name, const std::string& kind, uint64_t offset,
               uint64_t bytes) {
  spec::DramRegion* r = p.add_dram_layout();
  r->set_name(name);
  r->set_kind(kind);
  r->set_offset(static_cast<uint32_t>(offset));
  r->set_size_bytes(static_cast<uint32_t>(bytes));
}

void AddSegment(spec::Program& p, const std::string& name, uint64_t offset,
                const std::vector<uint8_t>& data) {
  spec::Segment* s = p.add_constants();
  s->set_name(name);
  s->set_dram_offset(static_cast<uint32_t>(offset));
  s->set_data(std::string(data.begin(), data.end()));
}

}  // namespace npu::compiler
