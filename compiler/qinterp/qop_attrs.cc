// Attribute readers for the quantised ops: presence, type and range of every value.
#include "compiler/qinterp/qop_attrs.h"

#include <fmt/format.h>

#include <limits>
#include <variant>

#include "compiler/interp/op_util.h"
#include "compiler/ir/op_kind.h"
#include "hw/spec/arith.h"

namespace npu::compiler::qinterp {
namespace {

Status Bad(const ir::Node& node, const std::string& what) {
  return InvalidArgument(
      fmt::format("node '{}' ({}): {}", node.name(), ir::OpName(node.kind()), what));
}

// The int attribute `name`, required, in [lo, hi].
StatusOr<int64_t> RequireInt(const ir::Node& node, const std::string& name, int64_t lo,
                             int64_t hi) {
  const auto& values = node.attrs().values();
  auto it = values.find(name);
  if (it == values.end()) return Bad(node, fmt::format("attribute '{}' is missing", name));
  const int64_t* v = std::get_if<int64_t>(&it->second);
  if (v == nullptr) return Bad(node, fmt::format("attribute '{}' must be an int", name));
  if (*v < lo || *v > hi) {
    return Bad(node, fmt::format("attribute {}={} is outside [{}, {}]", name, *v, lo, hi));
  }
  return *v;
}

// The ints attribute `name`, required, with `size` entries (any if negative) each in [lo, hi].
StatusOr<std::vector<int64_t>> RequireInts(const ir::Node& node, const std::string& name,
                                           int64_t size, int64_t lo, int64_t hi) {
  const auto& values = node.attrs().values();
  auto it = values.find(name);
  if (it == values.end()) return Bad(node, fmt::format("attribute '{}' is missing", name));
  const auto* v = std::get_if<std::vector<int64_t>>(&it->second);
  if (v == nullptr) return Bad(node, fmt::format("attribute '{}' must be a list of ints", name));
  if (size >= 0 && static_cast<int64_t>(v->size()) != size) {
    return Bad(node,
               fmt::format("attribute '{}' has {} values, expected {}", name, v->size(), size));
  }
  for (size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i] < lo || (*v)[i] > hi) {
      return Bad(node,
                 fmt::format("attribute {}[{}]={} is outside [{}, {}]", name, i, (*v)[i], lo, hi));
    }
  }
  return *v;
}

std::vector<int32_t> ToInt32(const std::vector<int64_t>& v) {
  return std::vector<int32_t>(v.begin(), v.end());
}

constexpr int64_t kMaxWindow = interp::kMaxWindowValue;  // kernel, stride, pad and dilation

}  // namespace

int64_t QWindow::OutH(int64_t in_h) const {
  return (in_h + pad_t + pad_b - ((kh - 1) * dh + 1)) / sh + 1;
}
int64_t QWindow::OutW(int64_t in_w) const {
  return (in_w + pad_l + pad_r - ((kw - 1) * dw + 1)) / sw + 1;
}

StatusOr<QWindow> ReadWindow(const ir::Node& node, bool has_dilations) {
  QWindow w;
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> k,
                       RequireInts(node, "kernel_shape", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s,
                       RequireInts(node, "strides", 2, 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> p, RequireInts(node, "pads", 4, 0, kMaxWindow));
  w.kh = k[0], w.kw = k[1], w.sh = s[0], w.sw = s[1];
  w.pad_t = p[0], w.pad_l = p[1], w.pad_b = p[2], w.pad_r = p[3];
  if (has_dilations) {
    NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> d,
                         RequireInts(node, "dilations", 2, 1, kMaxWindow));
    w.dh = d[0], w.dw = d[1];
  }
  return w;
}

StatusOr<QClamp> ReadClamp(const ir::Node& node) {
  NPU_ASSIGN_OR_RETURN(const int64_t lo, RequireInt(node, "clamp_min", -128, 127));
  NPU_ASSIGN_OR_RETURN(const int64_t hi, RequireInt(node, "clamp_max", -128, 127));
  if (lo > hi) return Bad(node, fmt::format("clamp_min {} > clamp_max {}", lo, hi));
  return QClamp{static_cast<int32_t>(lo), static_cast<int32_t>(hi)};
}

StatusOr<QRequant> ReadRequant(const ir::Node& node, int64_t out_channels) {
  QRequant r;
  NPU_ASSIGN_OR_RETURN(
      const std::vector<int64_t> m,
      RequireInts(node, "multiplier", out_channels, 1, std::numeric_limits<int32_t>::max()));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> s,
                       RequireInts(node, "shift", out_channels, spec::kMinShift, spec::kMaxShift));
  NPU_ASSIGN_OR_RETURN(r.clamp, ReadClamp(node));
  r.multiplier = ToInt32(m);
  r.shift = ToInt32(s);
  return r;
}

StatusOr<QConvAttrs> ReadConvAttrs(const ir::Node& node, int64_t out_channels) {
  QConvAttrs a;
  NPU_ASSIGN_OR_RETURN(a.window, ReadWindow(node, /*has_dilations=*/true));
  NPU_ASSIGN_OR_RETURN(a.group, RequireInt(node, "group", 1, kMaxWindow));
  NPU_ASSIGN_OR_RETURN(a.requant, ReadRequant(node, out_channels));
  return a;
}

StatusOr<QPoolAttrs> ReadPoolAttrs(const ir::Node& node) {
  QPoolAttrs a;
  if (node.kind() == ir::OpKind::kPoolMean) {  // the window its sums are of
    NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> w,
                         RequireInts(node, "window", 2, 1, kMaxWindow));
    a.window.kh = w[0], a.window.kw = w[1];
  } else if (node.kind() != ir::OpKind::kGlobalAveragePool) {
    NPU_ASSIGN_OR_RETURN(a.window, ReadWindow(node, /*has_dilations=*/false));
  }
  NPU_ASSIGN_OR_RETURN(a.clamp, ReadClamp(node));
  if (node.kind() == ir::OpKind::kMaxPool) return a;
  if (node.kind() == ir::OpKind::kAveragePool) {
    NPU_ASSIGN_OR_RETURN(const int64_t cip, RequireInt(node, "count_include_pad", 0, 1));
    a.count_include_pad = cip != 0;
  }
  NPU_ASSIGN_OR_RETURN(const int64_t m,
                       RequireInt(node, "multiplier", 1, std::numeric_limits<int32_t>::max()));
  NPU_ASSIGN_OR_RETURN(const int64_t s,
                       RequireInt(node, "shift", spec::kMinShift, spec::kMaxShift));
  a.multiplier = static_cast<int32_t>(m);
  a.shift = static_cast<int32_t>(s);
  return a;
}

StatusOr<QAddAttrs> ReadAddAttrs(const ir::Node& node) {
  QAddAttrs a;
  NPU_ASSIGN_OR_RETURN(const int64_t ma, RequireInt(node, "a_multiplier", -32768, 32767));
  NPU_ASSIGN_OR_RETURN(const int64_t mb, RequireInt(node, "b_multiplier", -32768, 32767));
  NPU_ASSIGN_OR_RETURN(const int64_t s,
                       RequireInt(node, "shift", spec::kMinShift, spec::kMaxShift));
  NPU_ASSIGN_OR_RETURN(a.clamp, ReadClamp(node));
  a.a_multiplier = static_cast<int32_t>(ma);
  a.b_multiplier = static_cast<int32_t>(mb);
  a.shift = static_cast<int32_t>(s);
  return a;
}

StatusOr<int64_t> ReadInt(const ir::Node& node, const std::string& name, int64_t lo, int64_t hi) {
  return RequireInt(node, name, lo, hi);
}

StatusOr<std::vector<int64_t>> ReadInts(const ir::Node& node, const std::string& name, int64_t size,
                                        int64_t lo, int64_t hi) {
  return RequireInts(node, name, size, lo, hi);
}

StatusOr<QScale> ReadScale(const ir::Node& node) {
  QScale a;
  NPU_ASSIGN_OR_RETURN(const int64_t m,
                       RequireInt(node, "multiplier", 1, std::numeric_limits<int32_t>::max()));
  NPU_ASSIGN_OR_RETURN(const int64_t s,
                       RequireInt(node, "shift", spec::kMinShift, spec::kMaxShift));
  NPU_ASSIGN_OR_RETURN(a.clamp, ReadClamp(node));
  a.multiplier = static_cast<int32_t>(m);
  a.shift = static_cast<int32_t>(s);
  return a;
}

}  // namespace npu::compiler::qinterp
