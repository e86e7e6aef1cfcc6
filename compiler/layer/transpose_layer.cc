// TransposeOf and CheckTransposeLayer.
#include "compiler/layer/transpose_layer.h"

#include <fmt/format.h>

#include <algorithm>

namespace npu::compiler {

uint64_t TransposeLayer::Elements() const {
  uint64_t n = 1;
  for (uint64_t d : dims) n *= d;
  return n;
}

std::optional<TransposeLayer> TransposeOf(const std::string& name,
                                          const std::vector<uint64_t>& shape,
                                          const std::vector<int64_t>& perm) {
  if (perm.size() != shape.size() || shape.empty()) return std::nullopt;
  std::vector<uint64_t> stride(shape.size(), 1);  // the input's dense strides
  for (size_t d = shape.size() - 1; d-- > 0;) stride[d] = stride[d + 1] * shape[d + 1];
  TransposeLayer t{name, {}, {}};
  for (int64_t p : perm) {
    if (p < 0 || size_t(p) >= shape.size()) return std::nullopt;
    if (shape[p] == 1) continue;
    if (!t.dims.empty() && t.in_strides.back() == stride[p] * shape[p]) {
      t.dims.back() *= shape[p];  // contiguous in the input too: one dim
      t.in_strides.back() = stride[p];
      continue;
    }
    t.dims.push_back(shape[p]);
    t.in_strides.push_back(stride[p]);
  }
  if (t.dims.empty()) t = {name, {1}, {1}};
  if (t.in_strides.back() != 1) return std::nullopt;  // the innermost axis moves
  if (t.dims.back() > kMaxTransposeRun) {
    uint64_t cut = kMaxTransposeRun;
    while (cut >= 64 && t.dims.back() % cut != 0) --cut;
    if (cut < 64) return std::nullopt;
    t.dims.back() /= cut;
    t.in_strides.back() = cut;
    t.dims.push_back(cut);
    t.in_strides.push_back(1);
  }
  while (t.dims.size() < 2) {
    t.dims.insert(t.dims.begin(), 1);
    t.in_strides.insert(t.in_strides.begin(), 0);
  }
  return t;
}

bool KeepsMemoryOrder(const std::vector<uint64_t>& shape, const std::vector<int64_t>& perm) {
  std::vector<int64_t> moved;  // the dims of more than one, in output order
  for (int64_t p : perm) {
    if (p < 0 || size_t(p) >= shape.size()) return false;
    if (shape[p] != 1) moved.push_back(p);
  }
  return std::is_sorted(moved.begin(), moved.end());
}

Status CheckTransposeLayer(const TransposeLayer& l) {
  Status status = Status::Ok();
  if (l.dims.size() < 2 || l.in_strides.size() != l.dims.size()) {
    status =
        InvalidArgument(fmt::format("{} dims and {} input strides: at least two of each, alike",
                                    l.dims.size(), l.in_strides.size()));
  } else if (l.in_strides.back() != 1) {
    status = InvalidArgument("the innermost dim must be contiguous in the input");
  } else {
    for (uint64_t d : l.dims) {
      if (d == 0) status = InvalidArgument("every dim must be at least 1");
    }
  }
  return status.WithContext(fmt::format("layer '{}'", l.DisplayName()));
}

}  // namespace npu::compiler
