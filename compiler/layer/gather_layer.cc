// GatherOf, its transpose and slice forms, and CheckGatherLayer.
#include "compiler/layer/gather_layer.h"

#include <fmt/format.h>

#include <algorithm>

namespace npu::compiler {
namespace {

// The dense strides of `shape`, bytes.
std::vector<uint64_t> DenseStrides(const std::vector<uint64_t>& shape) {
  std::vector<uint64_t> stride(shape.size(), 1);
  for (size_t d = shape.size() - 1; d-- > 0;) stride[d] = stride[d + 1] * shape[d + 1];
  return stride;
}

}  // namespace

uint64_t GatherLayer::Elements() const {
  uint64_t n = 1;
  for (uint64_t d : dims) n *= d;
  return n;
}

std::optional<GatherLayer> GatherOf(const std::string& name, const std::vector<GatherDim>& dims,
                                    uint64_t in_offset) {
  GatherLayer g{name, {}, {}, in_offset};
  for (const GatherDim& d : dims) {
    if (d.count == 1) continue;
    if (!g.dims.empty() && g.in_strides.back() == d.stride * d.count) {
      g.dims.back() *= d.count;  // contiguous in the input too: one dim
      g.in_strides.back() = d.stride;
      continue;
    }
    g.dims.push_back(d.count);
    g.in_strides.push_back(d.stride);
  }
  if (g.dims.empty()) {
    g.dims = {1};
    g.in_strides = {1};
  }
  if (g.in_strides.back() != 1) return std::nullopt;  // single bytes
  if (g.dims.back() > kMaxGatherRun) {
    uint64_t cut = kMaxGatherRun;
    while (cut >= 64 && g.dims.back() % cut != 0) --cut;
    if (cut < 64) return std::nullopt;
    g.dims.back() /= cut;
    g.in_strides.back() = cut;
    g.dims.push_back(cut);
    g.in_strides.push_back(1);
  }
  while (g.dims.size() < 2) {
    g.dims.insert(g.dims.begin(), 1);
    g.in_strides.insert(g.in_strides.begin(), 0);
  }
  return g;
}

std::optional<GatherLayer> TransposeOf(const std::string& name, const std::vector<uint64_t>& shape,
                                       const std::vector<int64_t>& perm) {
  if (perm.size() != shape.size() || shape.empty()) return std::nullopt;
  const std::vector<uint64_t> stride = DenseStrides(shape);
  std::vector<GatherDim> dims;
  for (int64_t p : perm) {
    if (p < 0 || size_t(p) >= shape.size()) return std::nullopt;
    dims.push_back({shape[p], stride[p]});
  }
  return GatherOf(name, dims, 0);
}

std::optional<GatherLayer> SliceOf(const std::string& name, const std::vector<uint64_t>& shape,
                                   const std::vector<int64_t>& starts,
                                   const std::vector<int64_t>& steps,
                                   const std::vector<uint64_t>& out_shape) {
  const size_t rank = shape.size();
  if (rank == 0 || starts.size() != rank || steps.size() != rank || out_shape.size() != rank) {
    return std::nullopt;
  }
  const std::vector<uint64_t> stride = DenseStrides(shape);
  std::vector<GatherDim> dims;
  uint64_t offset = 0;
  for (size_t d = 0; d < rank; ++d) {
    if (steps[d] <= 0 || starts[d] < 0) return std::nullopt;  // reversed: not a gather of runs
    offset += uint64_t(starts[d]) * stride[d];
    dims.push_back({out_shape[d], stride[d] * uint64_t(steps[d])});
  }
  return GatherOf(name, dims, offset);
}

bool KeepsMemoryOrder(const std::vector<uint64_t>& shape, const std::vector<int64_t>& perm) {
  std::vector<int64_t> moved;  // the dims of more than one, in output order
  for (int64_t p : perm) {
    if (p < 0 || size_t(p) >= shape.size()) return false;
    if (shape[p] != 1) moved.push_back(p);
  }
  return std::is_sorted(moved.begin(), moved.end());
}

Status CheckGatherLayer(const GatherLayer& l) {
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
