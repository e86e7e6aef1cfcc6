// An op the control core runs instead of the NPU (docs/cpu-fallback.md): the quantised IR node
// as the firmware's CPU kernel takes it (hw/spec/cpu_ops.h) — its attributes, its activation
// operands (values in DRAM) and its constant operands (copied into the layer's constants).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "hw/spec/binary.pb.h"
#include "hw/spec/status.h"

namespace npu::compiler {

struct CpuConstant {
  std::string name;
  spec::DataType dtype = spec::INT8;
  std::vector<uint32_t> shape;
  std::vector<uint8_t> bytes;
  float scale = 0;  // per-tensor quantisation, if any (0: none)
  int32_t zero_point = 0;
};

// One operand in the op's input order: an activation value, a constant, or absent.
struct CpuOperand {
  int value = -1;     // an activation value id
  int constant = -1;  // index into CpuLayer::constants
};

struct CpuLayer {
  std::string kernel;  // the quantised IR op name, e.g. "fused_conv"
  std::vector<spec::CpuAttr> attrs;
  std::vector<CpuOperand> operands;
  std::vector<CpuConstant> constants;
  uint64_t macs = 0;
  std::string reason;  // why the NPU does not run it

  // The integers of attribute `name` (empty if it has none).
  std::vector<int64_t> Ints(const std::string& name) const;
};

// The node's attributes as CPU op attributes (ints, int lists, floats, strings).
std::vector<spec::CpuAttr> CpuAttrsOf(const ir::Node& node);
// A constant tensor of the quantised graph as a CPU operand; InvalidArgument if its type is not
// one the kernels take (int8, int32).
StatusOr<CpuConstant> CpuConstantOf(const ir::Tensor& tensor);

}  // namespace npu::compiler
