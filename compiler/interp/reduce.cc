// ReduceMean, ReduceSum, ReduceMax over `axes` (attribute, or input 1 as ReduceSum has from
// opset 13; negative axes count from the end; none: every axis, or with noop_with_empty_axes=1
// no reduction at all), keeping the reduced dims as size 1 when keepdims=1 (the default).
// Sums accumulate in double so that long rows keep their digits.
#include <algorithm>
#include <limits>
#include <set>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

struct Reduction {
  std::vector<bool> reduced;  // per input dim
  ir::Shape out;
};

StatusOr<Reduction> ResolveReduction(const ir::Node& node, Inputs in) {
  std::vector<int64_t> axes = node.attrs().GetInts("axes");
  if (in.size() > 1 && in[1].present()) {
    NPU_TRY(ExpectValue(in, 1, "axes"));
    axes = IntValues(in[1]);
  }
  const int64_t rank = in[0].rank();
  const bool keep = node.attrs().GetInt("keepdims", 1) != 0;
  const bool noop = axes.empty() && node.attrs().GetInt("noop_with_empty_axes", 0) != 0;
  Reduction r{std::vector<bool>(rank, axes.empty() && !noop), {}};
  for (int64_t a : axes) {
    NPU_ASSIGN_OR_RETURN(const int64_t axis, NormalizeAxis(a, rank));
    if (r.reduced[axis]) return InvalidArgument(fmt::format("axis {} repeats", a));
    r.reduced[axis] = true;
  }
  for (int64_t d = 0; d < rank; ++d) {
    if (!r.reduced[d]) {
      r.out.push_back(in[0].shape[d]);
    } else if (keep) {
      r.out.push_back(1);
    }
  }
  return r;
}

}  // namespace

StatusOr<Types> ReduceRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 2));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_ASSIGN_OR_RETURN(Reduction r, ResolveReduction(node, in));
  const ir::Layout layout = r.out.size() == in[0].shape.size() ? in[0].layout : ir::Layout::kNone;
  return Types{{ir::DType::kFloat32, std::move(r.out), layout}};
}

// 1. Walk the input with an odometer; each element's output offset drops the reduced dims.
// 2. Mean divides by the number of elements reduced into each output.
Status ReduceKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const Reduction r, ResolveReduction(node, in));
  const ir::Shape& shape = in[0].shape;
  const int64_t rank = in[0].rank();
  std::vector<int64_t> out_stride(rank, 0);
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    if (r.reduced[d]) continue;
    out_stride[d] = stride;
    stride *= shape[d];
  }
  const bool max = node.kind() == ir::OpKind::kReduceMax;
  std::vector<double> acc(out[0].num_elements(),
                          max ? -std::numeric_limits<double>::infinity() : 0.0);
  const std::span<const float> x = in[0].values<float>();
  std::vector<int64_t> index(rank, 0);
  int64_t o = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    acc[o] = max ? std::max(acc[o], double(x[i])) : acc[o] + x[i];
    for (int64_t d = rank - 1; d >= 0; --d) {
      o += out_stride[d];
      if (++index[d] < shape[d]) break;
      o -= out_stride[d] * shape[d];
      index[d] = 0;
    }
  }
  const double count = acc.empty() ? 1.0 : double(x.size()) / double(acc.size());
  const std::span<float> y = out[0].values<float>();
  for (size_t i = 0; i < acc.size(); ++i) {
    y[i] = static_cast<float>(node.kind() == ir::OpKind::kReduceMean ? acc[i] / count : acc[i]);
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
