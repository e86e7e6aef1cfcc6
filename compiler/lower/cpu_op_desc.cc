// CPU layers as spec::CpuOp.
#include "compiler/lower/cpu_op_desc.h"

#include "compiler/codegen/program_parts.h"
#include "hw/spec/cpu_ops.h"

namespace npu::compiler {
namespace {

spec::TensorDesc ValueDesc(const ActivationValue& v, uint64_t offset) {
  return Int8Tensor(v.name, v.shape, offset, v.bytes(), v.scale, v.zero_point);
}

spec::TensorDesc ConstantDesc(const CpuConstant& c, uint64_t offset) {
  spec::TensorDesc t;
  t.set_name(c.name);
  for (uint32_t d : c.shape) t.add_shape(d);
  t.set_dtype(c.dtype);
  t.set_dram_offset(static_cast<uint32_t>(offset));
  t.set_size_bytes(static_cast<uint32_t>(c.bytes.size()));
  t.set_scale(c.scale);
  t.set_zero_point(c.zero_point);
  return t;
}

}  // namespace

spec::CpuOp DescribeCpuOp(const NetLayer& layer, const Network& net, const CpuPlaces& places) {
  const CpuLayer& cpu = *layer.cpu();
  spec::CpuOp op;
  op.set_name(layer.name);
  op.set_kernel(cpu.kernel);
  for (const CpuOperand& operand : cpu.operands) {
    if (operand.value >= 0) {
      *op.add_inputs() = ValueDesc(net.value(operand.value), places.value(operand.value));
    } else if (operand.constant >= 0) {
      const uint64_t at = size_t(operand.constant) < places.constants.size()
                              ? places.constants[operand.constant]
                              : 0;
      *op.add_inputs() = ConstantDesc(cpu.constants[operand.constant], at);
    } else {
      op.add_inputs();  // absent: DTYPE_UNSPECIFIED
    }
  }
  *op.add_outputs() = ValueDesc(net.value(layer.output), places.value(layer.output));
  for (const spec::CpuAttr& a : cpu.attrs) *op.add_attrs() = a;
  return op;
}

StatusOr<uint64_t> CpuLayerMacs(const NetLayer& layer, const Network& net) {
  const spec::CpuOp op = DescribeCpuOp(layer, net, {[](int) { return uint64_t{0}; }, {}});
  NPU_ASSIGN_OR_RETURN(const std::vector<spec::CpuWorkItem> work, spec::CpuOpWork(op));
  uint64_t macs = 0;
  for (const spec::CpuWorkItem& w : work) {
    if (w.kind == spec::CpuWork::kMac) macs += w.count;
  }
  return macs;
}

}  // namespace npu::compiler
