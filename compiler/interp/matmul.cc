// Gemm (A, B[, C]; alpha beta transA transB; C broadcast to [M, N]) and MatMul (numpy matmul:
// 1-D operands promoted, batch dimensions broadcast), on Eigen.
#include <Eigen/Core>

#include "compiler/interp/ops.h"

namespace npu::compiler::interp {
namespace {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMatrixMap = Eigen::Map<const RowMatrix>;
using MatrixMap = Eigen::Map<RowMatrix>;

// MatMul's operands as batches of matrices: shapes promoted to >= 2-D, batch dims broadcast.
struct MatMulDims {
  ir::Shape a, b, batch, out;  // a, b: promoted and left-padded with 1s to the batch rank + 2
  int64_t m = 0, k = 0, n = 0;
};

StatusOr<MatMulDims> ResolveMatMul(const ir::Shape& sa, const ir::Shape& sb) {
  if (sa.empty() || sb.empty()) return InvalidArgument("operands must have rank >= 1");
  MatMulDims d;
  d.a = sa.size() == 1 ? ir::Shape{1, sa[0]} : sa;
  d.b = sb.size() == 1 ? ir::Shape{sb[0], 1} : sb;
  d.m = d.a[d.a.size() - 2], d.k = d.a.back(), d.n = d.b.back();
  if (d.b[d.b.size() - 2] != d.k) {
    return InvalidArgument(
        fmt::format("inner dimensions of {} and {} differ", ir::ShapeText(sa), ir::ShapeText(sb)));
  }
  const size_t batch_rank = std::max(d.a.size(), d.b.size()) - 2;
  d.a.insert(d.a.begin(), batch_rank + 2 - d.a.size(), 1);
  d.b.insert(d.b.begin(), batch_rank + 2 - d.b.size(), 1);
  for (size_t i = 0; i < batch_rank; ++i) {
    if (d.a[i] != d.b[i] && d.a[i] != 1 && d.b[i] != 1) {
      return InvalidArgument(fmt::format("batch dimensions of {} and {} do not broadcast",
                                         ir::ShapeText(sa), ir::ShapeText(sb)));
    }
    d.batch.push_back(std::max(d.a[i], d.b[i]));
  }
  d.out = d.batch;
  if (sa.size() > 1) d.out.push_back(d.m);
  if (sb.size() > 1) d.out.push_back(d.n);
  return d;
}

// Matrix index within `shape`'s batch dims for the broadcast batch index `linear`.
int64_t BatchOffset(const ir::Shape& shape, const ir::Shape& batch, int64_t linear) {
  int64_t offset = 0, stride = 1;
  for (int64_t i = static_cast<int64_t>(batch.size()) - 1; i >= 0; --i) {
    const int64_t idx = linear % batch[i];
    linear /= batch[i];
    if (shape[i] != 1) offset += idx * stride;
    stride *= shape[i];
  }
  return offset;
}

}  // namespace

StatusOr<Types> GemmRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 3));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  NPU_TRY(ExpectRank(in, 0, 2));
  NPU_TRY(ExpectRank(in, 1, 2));
  const bool ta = node.attrs().GetInt("transA", 0) != 0, tb = node.attrs().GetInt("transB", 0) != 0;
  const int64_t m = in[0].shape[ta ? 1 : 0], k = in[0].shape[ta ? 0 : 1];
  const int64_t kb = in[1].shape[tb ? 1 : 0], n = in[1].shape[tb ? 0 : 1];
  if (k != kb) {
    return InvalidArgument(fmt::format("A {} (transA={}) and B {} (transB={}) disagree on K",
                                       ir::ShapeText(in[0].shape), ta, ir::ShapeText(in[1].shape),
                                       tb));
  }
  if (in.size() == 3 && in[2].present()) {
    NPU_TRY(ExpectDType(in, 2, ir::DType::kFloat32));
    const ir::Shape& c = in[2].shape;
    const bool ok = c.size() <= 2 && (c.empty() || c.back() == 1 || c.back() == n) &&
                    (c.size() < 2 || c[0] == 1 || c[0] == m);
    if (!ok) {
      return InvalidArgument(
          fmt::format("C {} does not broadcast to [{},{}]", ir::ShapeText(c), m, n));
    }
  }
  return Types{{ir::DType::kFloat32, {m, n}, ir::Layout::kNone}};
}

Status GemmKernel(const ir::Node& node, Inputs in, Outputs out) {
  const bool ta = node.attrs().GetInt("transA", 0) != 0, tb = node.attrs().GetInt("transB", 0) != 0;
  const float alpha = node.attrs().GetFloat("alpha", 1.0f),
              beta = node.attrs().GetFloat("beta", 1.0f);
  ConstMatrixMap a(in[0].values<float>().data(), in[0].shape[0], in[0].shape[1]);
  ConstMatrixMap b(in[1].values<float>().data(), in[1].shape[0], in[1].shape[1]);
  MatrixMap y(out[0].values<float>().data(), out[0].shape[0], out[0].shape[1]);
  // 1. y = op(A) * op(B), one GEMM call per transposition combination (no copies).
  if (ta && tb)
    y.noalias() = a.transpose() * b.transpose();
  else if (ta)
    y.noalias() = a.transpose() * b;
  else if (tb)
    y.noalias() = a * b.transpose();
  else
    y.noalias() = a * b;
  if (alpha != 1.0f) y *= alpha;
  // 2. + beta * C, broadcast over rows and/or columns.
  if (in.size() < 3 || !in[2].present() || beta == 0.0f) return Status::Ok();
  const ir::Shape& cs = in[2].shape;
  const float* c = in[2].values<float>().data();
  const int64_t c_rows = cs.size() == 2 ? cs[0] : 1, c_cols = cs.empty() ? 1 : cs.back();
  for (int64_t i = 0; i < y.rows(); ++i) {
    for (int64_t j = 0; j < y.cols(); ++j) {
      y(i, j) += beta * c[(c_rows == 1 ? 0 : i) * c_cols + (c_cols == 1 ? 0 : j)];
    }
  }
  return Status::Ok();
}

StatusOr<Types> MatMulRule(const ir::Node& node, Inputs in) {
  NPU_TRY(ExpectInputCount(in, 2, 2));
  NPU_TRY(ExpectDType(in, 0, ir::DType::kFloat32));
  NPU_TRY(ExpectDType(in, 1, ir::DType::kFloat32));
  NPU_ASSIGN_OR_RETURN(const MatMulDims d, ResolveMatMul(in[0].shape, in[1].shape));
  // A 2-D B maps A's last dim and keeps the others in place: the dims keep their meaning, so
  // the result keeps A's layout (ConvNeXt's per-pixel Linear on an NHWC-permuted tensor).
  const ir::Layout layout =
      in[1].rank() == 2 && d.out.size() == in[0].shape.size() ? in[0].layout : ir::Layout::kNone;
  return Types{{ir::DType::kFloat32, d.out, layout}};
}

Status MatMulKernel(const ir::Node& node, Inputs in, Outputs out) {
  NPU_ASSIGN_OR_RETURN(const MatMulDims d, ResolveMatMul(in[0].shape, in[1].shape));
  const int64_t batches = ir::NumElements(d.batch);
  for (int64_t i = 0; i < batches; ++i) {
    const float* a = in[0].values<float>().data() + BatchOffset(d.a, d.batch, i) * d.m * d.k;
    const float* b = in[1].values<float>().data() + BatchOffset(d.b, d.batch, i) * d.k * d.n;
    MatrixMap y(out[0].values<float>().data() + i * d.m * d.n, d.m, d.n);
    y.noalias() = ConstMatrixMap(a, d.m, d.k) * ConstMatrixMap(b, d.k, d.n);
  }
  return Status::Ok();
}

}  // namespace npu::compiler::interp
