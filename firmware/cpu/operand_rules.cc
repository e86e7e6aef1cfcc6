// The operand-check helpers.
#include "firmware/cpu/operand_rules.h"

#include <fmt/format.h>

#include <limits>

#include "hw/spec/arith.h"
#include "hw/spec/cpu_ops.h"

namespace npu::fw::cpu {
namespace {

std::string DimsText(const Dims& d) { return fmt::format("[{}]", fmt::join(d, ",")); }

}  // namespace

Status ExpectOperands(const spec::CpuOp& op, int count) {
  if (op.inputs_size() != count || op.outputs_size() != 1) {
    return DataLoss(fmt::format("{} inputs and {} outputs, the kernel takes {} and 1",
                                op.inputs_size(), op.outputs_size(), count));
  }
  for (int i = 0; i < count; ++i) {
    if (op.inputs(i).dtype() == spec::DTYPE_UNSPECIFIED) {
      return DataLoss(fmt::format("input {} is missing", i));
    }
  }
  return Status::Ok();
}

Status ExpectInputType(const spec::CpuOp& op, int index, spec::DataType dtype) {
  const spec::TensorDesc& t = op.inputs(index);
  if (t.dtype() != dtype) {
    return DataLoss(fmt::format("input {} '{}' is {}, the kernel takes {}", index, t.name(),
                                spec::DataType_Name(t.dtype()), spec::DataType_Name(dtype)));
  }
  return Status::Ok();
}

StatusOr<int64_t> IntAttr(const spec::CpuOp& op, std::string_view name, int64_t fallback,
                          int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  const int64_t v = a != nullptr && a->ints_size() == 1 ? a->ints(0) : fallback;
  if (v < lo || v > hi) {
    return DataLoss(fmt::format("attribute {} = {} outside {}..{}", name, v, lo, hi));
  }
  return v;
}

StatusOr<std::vector<int64_t>> IntsAttr(const spec::CpuOp& op, std::string_view name, int64_t count,
                                        int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  const int64_t have = a == nullptr ? 0 : a->ints_size();
  if (count >= 0 && have != count) {
    return DataLoss(
        fmt::format("attribute {} has {} values, the kernel needs {}", name, have, count));
  }
  std::vector<int64_t> values;
  for (int i = 0; i < have; ++i) {
    const int64_t v = a->ints(i);
    if (v < lo || v > hi) {
      return DataLoss(fmt::format("attribute {}[{}] = {} outside {}..{}", name, i, v, lo, hi));
    }
    values.push_back(v);
  }
  return values;
}

Status ExpectRequantisation(const spec::CpuOp& op, int64_t channels) {
  constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  NPU_TRY(IntsAttr(op, "multiplier", channels, kMin32, kMax32).status());
  return IntsAttr(op, "shift", channels, spec::kMinShift, spec::kMaxShift).status();
}

Status ExpectDims(std::string_view what, const Dims& got, const Dims& want) {
  if (got == want) return Status::Ok();
  return DataLoss(
      fmt::format("{} is {}, the kernel gives {}", what, DimsText(got), DimsText(want)));
}

Status ExpectSameElements(std::string_view what, const Dims& got, const Dims& want) {
  if (Count(got) == Count(want)) return Status::Ok();
  return DataLoss(fmt::format("{} {} does not hold the {} elements of {}", what, DimsText(got),
                              Count(want), DimsText(want)));
}

Status ExpectBroadcastable(std::string_view what, const Dims& in, const Dims& out) {
  bool fits = in.size() <= out.size();
  for (size_t d = 0; fits && d < in.size(); ++d) {
    const int64_t o = out[out.size() - in.size() + d];
    fits = in[d] == 1 || in[d] == o;
  }
  if (fits) return Status::Ok();
  return DataLoss(fmt::format("{} {} does not broadcast to {}", what, DimsText(in), DimsText(out)));
}

}  // namespace npu::fw::cpu
