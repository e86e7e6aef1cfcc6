// Transpose (perm, default reversed) and Pad (constant mode: X, pads[2 * rank][, value]).
// Transpose's output layout follows the activation permutations the layout pass inserts:
// NCHW with perm [0,2,3,1] is NHWC, NHWC with [0,3,1,2] is NCHW; anything else has none.
#include <cstring>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

const std::vector<int64_t> kToNHWC = {0, 2, 3, 1};
const std::vector<int64_t> kToNCHW = {0, 3, 1, 2};

StatusOr<std::vector<int64_t>> Perm(const ir::Node& node, int64_t rank) {
  std::vector<int64_t> perm = node.attrs().GetInts("perm");
  if (perm.empty()) {
    for (int64_t d = rank - 1; d >= 0; --d) perm.push_back(d);
  }
  std::vector<bool> seen(rank, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= rank || seen[p] || static_cast<int64_t>(perm.size()) != rank) {
      return InvalidArgument(
          fmt::format("perm {} is not a permutation of {} axes", ir::ShapeText(perm), rank));
    }
    seen[p] = true;
  }
  return perm;
}

StatusOr<std::vector<int64_t>> Pads(Inputs in) {
  NPU_TRY(ExpectValue(in, 1, "pads"));
  std::vector<int64_t> pads = IntValues(in[1]);
  if (static_cast<int64_t>(pads.size()) != 2 * in[0].rank()) {
    return InvalidArgument(
        fmt::format("pads has {} values, expected {}", pads.size(), 2 * in[0].rank()));
  }
  for (int64_t p : pads) {
    if (p < 0) return Unimplemented("negative pads (cropping)");
  }
  return pads;
}

}  // namespace

StatusOr<Types> TransposeRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 1, 1));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, Perm(node, in[0].rank()));
  ir::Shape shape;
  for (int64_t p : perm) shape.push_back(in[0].shape[p]);
  ir::Layout layout = ir::Layout::kNone;
  if (in[0].rank() == 4 && ActLayout(in[0]) == ir::Layout::kNCHW && perm == kToNHWC) {
    layout = ir::Layout::kNHWC;
  } else if (in[0].layout == ir::Layout::kNHWC && perm == kToNCHW) {
    layout = ir::Layout::kNCHW;
  }
  return Types{{in[0].dtype, std::move(shape), layout}};
}

Status TransposeKernel(const ir::Node& node, Inputs in, Outputs out) {
  // Walk the output in order with an odometer; the input offset moves by the permuted strides.
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> perm, Perm(node, in[0].rank()));
  const int64_t rank = in[0].rank();
  std::vector<int64_t> in_strides(rank, 1), strides(rank);
  for (int64_t d = rank - 2; d >= 0; --d) in_strides[d] = in_strides[d + 1] * in[0].shape[d + 1];
  for (int64_t d = 0; d < rank; ++d) strides[d] = in_strides[perm[d]];
  const ir::Shape& shape = out[0].shape;
  const size_t elem = ir::DTypeBytes(in[0].dtype);
  const int64_t n = out[0].num_elements();
  std::vector<int64_t> index(rank, 0);
  int64_t src = 0;
  for (int64_t o = 0; o < n; ++o) {
    std::memcpy(out[0].data.data() + o * elem, in[0].data + src * elem, elem);
    for (int64_t d = rank - 1; d >= 0; --d) {
      src += strides[d];
      if (++index[d] < shape[d]) break;
      src -= strides[d] * shape[d];
      index[d] = 0;
    }
  }
  return Status::Ok();
}

StatusOr<Types> PadRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  const std::string mode = node.attrs().GetString("mode", "constant");
  if (mode != "constant") return Unimplemented(fmt::format("pad mode \"{}\"", mode));
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, Pads(in));
  ir::Shape shape = in[0].shape;
  for (int64_t d = 0; d < in[0].rank(); ++d) shape[d] += pads[d] + pads[d + in[0].rank()];
  const ir::Layout layout = in[0].layout;
  return Types{{in[0].dtype, std::move(shape), layout}};
}

Status PadKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const std::vector<int64_t> pads, Pads(in));
  if (in[0].dtype != ir::DType::kFloat32) return Unimplemented("Pad of non-f32 tensors");
  float value = 0;
  if (in.size() == 3 && in[2].present()) {
    if (in[2].dtype != ir::DType::kFloat32 || in[2].num_elements() != 1) {
      return InvalidArgument("the pad value must be one f32");
    }
    value = in[2].values<float>()[0];
  }
  const std::span<float> y = out[0].values<float>();
  std::fill(y.begin(), y.end(), value);
  // Copy rows of the last dimension into place, walking the input's outer index with an odometer.
  const int64_t rank = in[0].rank();
  if (in[0].num_elements() == 0) return Status::Ok();
  const int64_t last = rank == 0 ? 1 : in[0].shape[rank - 1];
  std::vector<int64_t> out_strides(rank, 1), index(rank, 0);
  for (int64_t d = rank - 2; d >= 0; --d) out_strides[d] = out_strides[d + 1] * out[0].shape[d + 1];
  const float* x = in[0].values<float>().data();
  for (int64_t src = 0; src < in[0].num_elements(); src += last) {
    int64_t dst = 0;
    for (int64_t d = 0; d < rank; ++d) dst += (index[d] + pads[d]) * out_strides[d];
    std::memcpy(y.data() + dst, x + src, sizeof(float) * last);
    for (int64_t d = rank - 2; d >= 0; --d) {
      if (++index[d] < in[0].shape[d]) break;
      index[d] = 0;
    }
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
