// Reading operands, dispatching to the kernel, writing results.
#include "firmware/cpu/cpu_op.h"

#include <fmt/format.h>

#include <algorithm>

#include "firmware/cpu/kernels.h"
#include "hw/spec/cpu_ops.h"
#include "hw/spec/memory_map.h"

namespace npu::fw {
namespace {

uint64_t ElementBytes(spec::DataType t) { return t == spec::INT32 ? 4 : 1; }

// An operand: int8 or int32, at least one element, as many bytes as its shape and type give, a
// zero point an int8 value can have, inside the image.
Status CheckTensor(const spec::TensorDesc& t, uint64_t image_bytes) {
  if (t.dtype() == spec::DTYPE_UNSPECIFIED) return Status::Ok();  // an absent optional input
  if (t.dtype() != spec::INT8 && t.dtype() != spec::INT32) {
    return DataLoss(fmt::format("tensor '{}': element type {} is not int8 or int32", t.name(),
                                spec::DataType_Name(t.dtype())));
  }
  if (std::find(t.shape().begin(), t.shape().end(), 0u) != t.shape().end()) {
    return DataLoss(fmt::format("tensor '{}': a dimension is 0", t.name()));
  }
  // The element count, refused once it passes the bytes held (no product can wrap around).
  uint64_t elements = 1;
  for (uint32_t d : t.shape()) {
    elements *= d;
    if (elements > t.size_bytes()) break;
  }
  if (elements > t.size_bytes() || t.size_bytes() != elements * ElementBytes(t.dtype())) {
    return DataLoss(fmt::format("tensor '{}': {} bytes for shape [{}] of {}", t.name(),
                                t.size_bytes(), fmt::join(t.shape(), ","),
                                spec::DataType_Name(t.dtype())));
  }
  if (t.dtype() == spec::INT8 && (t.zero_point() < -128 || t.zero_point() > 127)) {
    return DataLoss(fmt::format("tensor '{}': int8 zero point {}", t.name(), t.zero_point()));
  }
  if (t.dram_offset() > image_bytes || t.size_bytes() > image_bytes - t.dram_offset()) {
    return DataLoss(
        fmt::format("tensor '{}' at DRAM offset {} ({} bytes) lies outside the "
                    "image's {} bytes",
                    t.name(), t.dram_offset(), t.size_bytes(), image_bytes));
  }
  return Status::Ok();
}

}  // namespace

Status CheckCpuOp(const spec::CpuOp& op, uint64_t image_bytes) {
  const cpu::KernelEntry* kernel = cpu::FindKernel(op.kernel());
  if (kernel == nullptr) {
    return DataLoss(
        fmt::format("CPU op '{}': this firmware has no kernel '{}'", op.name(), op.kernel()));
  }
  const std::string what = fmt::format("CPU op '{}' ({})", op.name(), op.kernel());
  NPU_TRY(spec::CpuOpWork(op).status());
  for (const auto* tensors : {&op.inputs(), &op.outputs()}) {
    for (const spec::TensorDesc& t : *tensors) {
      NPU_TRY(CheckTensor(t, image_bytes).WithContext(what));
    }
  }
  for (const spec::TensorDesc& t : op.outputs()) {
    if (t.dtype() != spec::INT8) {
      return DataLoss(fmt::format("{}: output '{}' is not int8", what, t.name()));
    }
  }
  return kernel->check(op).WithContext(what);
}

Status RunCpuOp(Bus& bus, const spec::CpuOp& op) {
  cpu::Call call{op, {}, {}};
  for (const spec::TensorDesc& t : op.inputs()) {
    cpu::Operand& in = call.inputs.emplace_back();
    in.desc = &t;
    if (!in.present()) continue;
    in.bytes.resize(t.size_bytes());
    if (!bus.ReadBlock(spec::kDramBase + t.dram_offset(), in.bytes.data(), in.bytes.size())) {
      return Internal(fmt::format("CPU op '{}': bus error reading '{}'", op.name(), t.name()));
    }
  }
  for (const spec::TensorDesc& t : op.outputs()) call.outputs.emplace_back(t.size_bytes());
  const std::string what = fmt::format("CPU op '{}' ({})", op.name(), op.kernel());
  NPU_TRY(cpu::FindKernel(op.kernel())->run(call).WithContext(what));
  for (int i = 0; i < op.outputs_size(); ++i) {
    NPU_CHECK(call.outputs[i].size() == op.outputs(i).size_bytes());
  }
  NPU_ASSIGN_OR_RETURN(const std::vector<spec::CpuWorkItem> work, spec::CpuOpWork(op));
  bus.Compute(work);
  for (int i = 0; i < op.outputs_size(); ++i) {
    const spec::TensorDesc& t = op.outputs(i);
    if (!bus.WriteBlock(spec::kDramBase + t.dram_offset(),
                        reinterpret_cast<const uint8_t*>(call.outputs[i].data()),
                        call.outputs[i].size())) {
      return Internal(fmt::format("{}: bus error writing '{}'", what, t.name()));
    }
  }
  return Status::Ok();
}

}  // namespace npu::fw
