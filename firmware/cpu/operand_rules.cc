// The operand-check helpers.
#include "firmware/cpu/operand_rules.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>

#include "hw/spec/arith.h"
#include "hw/spec/cpu_ops.h"

namespace npu::fw::cpu {

Status ExpectOperands(const spec::CpuOp& op, int inputs,
                      std::initializer_list<spec::DataType> types) {
  if (op.inputs_size() != inputs || op.outputs_size() != 1) {
    return DataLoss(fmt::format("{} inputs and {} outputs, the kernel takes {} and 1",
                                op.inputs_size(), op.outputs_size(), inputs));
  }
  for (int i = 0; i < inputs; ++i) {
    const spec::DataType want = i < int(types.size()) ? types.begin()[i] : spec::INT8;
    const spec::TensorDesc& t = op.inputs(i);
    if (t.dtype() != want) {  // an absent input is DTYPE_UNSPECIFIED: refused here too
      return DataLoss(fmt::format("input {} '{}' is {}, the kernel takes {}", i, t.name(),
                                  spec::DataType_Name(t.dtype()), spec::DataType_Name(want)));
    }
  }
  return Status::Ok();
}

StatusOr<int64_t> IntAttr(const spec::CpuOp& op, std::string_view name,
                          std::optional<int64_t> fallback, int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  if (a == nullptr && !fallback) return DataLoss(fmt::format("attribute '{}' is missing", name));
  if (a != nullptr && a->ints_size() != 1) {
    return DataLoss(fmt::format("attribute '{}' has {} values, expected 1", name, a->ints_size()));
  }
  const int64_t v = a != nullptr ? a->ints(0) : *fallback;
  if (v < lo || v > hi) {
    return DataLoss(fmt::format("attribute {}={}{} is outside [{}, {}]", name, v,
                                a == nullptr ? " (its default)" : "", lo, hi));
  }
  return v;
}

StatusOr<std::vector<int64_t>> IntsAttr(const spec::CpuOp& op, std::string_view name, int64_t count,
                                        int64_t lo, int64_t hi) {
  const spec::CpuAttr* a = spec::FindCpuAttr(op, name);
  if (a == nullptr) return DataLoss(fmt::format("attribute '{}' is missing", name));
  if (count >= 0 && a->ints_size() != count) {
    return DataLoss(
        fmt::format("attribute '{}' has {} values, expected {}", name, a->ints_size(), count));
  }
  for (int i = 0; i < a->ints_size(); ++i) {
    if (a->ints(i) < lo || a->ints(i) > hi) {
      return DataLoss(
          fmt::format("attribute {}[{}]={} is outside [{}, {}]", name, i, a->ints(i), lo, hi));
    }
  }
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

Status ExpectClamp(const spec::CpuOp& op) {
  NPU_ASSIGN_OR_RETURN(const int64_t lo, IntAttr(op, "clamp_min", -128, -128, 127));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, IntAttr(op, "clamp_max", 127, -128, 127));
  if (lo > hi) return DataLoss(fmt::format("clamp_min {} > clamp_max {}", lo, hi));
  return Status::Ok();
}

Status ExpectScale(const spec::CpuOp& op) {
  NPU_TRY(IntAttr(op, "multiplier", kRequired, 1, INT32_MAX).status());
  NPU_TRY(IntAttr(op, "shift", kRequired, spec::kMinShift, spec::kMaxShift).status());
  return ExpectClamp(op);
}

Status ExpectRequantisation(const spec::CpuOp& op, int64_t channels) {
  NPU_TRY(IntsAttr(op, "multiplier", channels, 1, INT32_MAX).status());
  NPU_TRY(IntsAttr(op, "shift", channels, spec::kMinShift, spec::kMaxShift).status());
  return ExpectClamp(op);
}

Status ExpectShape(const spec::TensorDesc& t, const Dims& want) {
  if (DimsOf(t) == want) return Status::Ok();
  return DataLoss(fmt::format("'{}' has shape [{}], the kernel needs [{}]", t.name(),
                              fmt::join(DimsOf(t), ","), fmt::join(want, ",")));
}

Status Expect4D(const spec::TensorDesc& t) {
  if (t.shape_size() == 4 && t.shape(0) == 1) return Status::Ok();
  return DataLoss(
      fmt::format("'{}' must be 4-D of batch 1, is [{}]", t.name(), fmt::join(DimsOf(t), ",")));
}

StatusOr<Window> ReadWindow(const spec::CpuOp& op, bool dilations) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k,
                       IntsAttr(op, "kernel_shape", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s, IntsAttr(op, "strides", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> p, IntsAttr(op, "pads", 4, 0, kMaxWindow));
  Window w{.kh = k[0], .kw = k[1], .sh = s[0], .sw = s[1]};
  w.top = p[0], w.left = p[1], w.bottom = p[2], w.right = p[3];
  if (dilations) {
    NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> d, IntsAttr(op, "dilations", 2, 1, kMaxWindow));
    w.dh = d[0], w.dw = d[1];
  }
  return w;
}

StatusOr<Dims> WindowOutput(const Window& w, const Dims& x, int64_t channels) {
  // The quantised IR's output size (compiler/qinterp QWindow::OutH), dividing as it does, so that
  // the windows it accepts are accepted here.
  const int64_t oh = (x[1] + w.top + w.bottom - ((w.kh - 1) * w.dh + 1)) / w.sh + 1;
  const int64_t ow = (x[2] + w.left + w.right - ((w.kw - 1) * w.dw + 1)) / w.sw + 1;
  if (oh < 1 || ow < 1) {
    return DataLoss(fmt::format("a {}x{} window (dilation {}x{}) does not fit the input [{}]", w.kh,
                                w.kw, w.dh, w.dw, fmt::join(x, ",")));
  }
  return Dims{1, oh, ow, channels};
}

}  // namespace npu::fw::cpu
