// A CPU layer as the firmware runs it: the spec::CpuOp naming its kernel, attributes and operand
// tensors at their DRAM offsets (relative to the data base; the program builder relocates).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "compiler/lower/network.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

// Where a CPU layer's operands are in DRAM.
struct CpuPlaces {
  std::function<uint64_t(int value)> value;  // an activation value's offset
  std::vector<uint64_t> constants;           // per CpuLayer::constants entry
};

spec::CpuOp DescribeCpuOp(const NetLayer& layer, const Network& net, const CpuPlaces& places);

// The MACs the kernel does (spec::CpuOpWork's multiply-accumulates), for reports.
StatusOr<uint64_t> CpuLayerMacs(const NetLayer& layer, const Network& net);

}  // namespace npu::compiler
