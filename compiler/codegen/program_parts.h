// The pieces every compiled Program is assembled from: int8 NHWC tensor descriptors, DRAM layout
// regions and constant segments. Shared by the single-layer and the whole-network builders.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hw/spec/binary.pb.h"

namespace npu::compiler {

spec::TensorDesc Int8Tensor(const std::string& name, const std::vector<uint32_t>& shape,
                            uint64_t offset, uint64_t bytes, float scale, int32_t zero_point);
void AddRegion(spec::Program& p, const std::string& name, const std::string& kind, uint64_t offset,
               uint64_t bytes);
void AddSegment(spec::Program& p, const std::string& name, uint64_t offset,
                const std::vector<uint8_t>& data);

}  // namespace npu::compiler
