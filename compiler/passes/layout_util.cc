// Node- and tensor-level pieces of the layout conversion.
#include "compiler/passes/layout_util.h"

#include <algorithm>

#include "compiler/interp/host_tensor.h"
#include "compiler/interp/op_semantics.h"
#include "compiler/passes/rewrite_util.h"

namespace npu::compiler::passes {
namespace {

// Runs a Transpose with `perm` on a constant (reusing the interpreter's kernel).
interp::HostTensor TransposeConstant(const ir::Tensor& c, const ir::Shape& shape,
                                     const std::vector<int64_t>& perm) {
  ir::Graph scratch("transpose");
  ir::Attributes attrs;
  attrs.Set("perm", perm);
  ir::Node* n = scratch.AddNode(ir::OpKind::kTranspose, "t", {nullptr}, {"y"}, attrs);
  interp::TensorRef in = interp::TensorRef::Of(c);
  in.shape = shape;
  const interp::TensorRef inputs[] = {in};
  interp::HostTensor out = interp::HostTensor::Zeros(interp::InferOutputTypes(*n, inputs)->at(0));
  NPU_CHECK(interp::RunKernel(*n, inputs, std::span<interp::HostTensor>(&out, 1)).ok());
  return out;
}

bool AllOnes(const ir::Shape& s) {
  for (int64_t d : s) {
    if (d != 1) return false;
  }
  return true;
}

}  // namespace

Role RoleOf(ir::OpKind kind) {
  if (ir::IsElementwise(kind)) return Role::kElementwise;
  switch (kind) {
    case ir::OpKind::kConv:
    case ir::OpKind::kFusedConv:
    case ir::OpKind::kConvTranspose:
    case ir::OpKind::kBatchNormalization:
    case ir::OpKind::kMaxPool:
    case ir::OpKind::kAveragePool:
    case ir::OpKind::kGlobalAveragePool:
    case ir::OpKind::kChannelShuffle:
      return Role::kLayoutAware;
    case ir::OpKind::kIdentity:
      return Role::kElementwise;
    case ir::OpKind::kConcat:
    case ir::OpKind::kSplit:
      return Role::kConcat;
    case ir::OpKind::kPad:
      return Role::kPad;
    case ir::OpKind::kSlice:
      return Role::kSlice;
    case ir::OpKind::kReduceMean:
    case ir::OpKind::kReduceSum:
    case ir::OpKind::kReduceMax:
      return Role::kReduce;
    case ir::OpKind::kResize:
      return Role::kResize;
    default:
      return Role::kKeep;
  }
}

bool IsActivation4D(const ir::Tensor* t) {
  return t != nullptr && !t->is_constant() && t->shape().size() == 4 &&
         t->dtype() == ir::DType::kFloat32;
}

bool IsNCHWActivation(const ir::Tensor* t) {
  return IsActivation4D(t) && t->layout() != ir::Layout::kNHWC;
}

int64_t NHWCAxis(int64_t nchw_axis) {
  constexpr int64_t kMap[] = {0, 3, 1, 2};
  return nchw_axis >= 0 && nchw_axis < 4 ? kMap[nchw_axis] : nchw_axis;
}

ir::Tensor* PermutedConstant(ir::Graph& g, const ir::Tensor& c) {
  if (AllOnes(c.shape())) return const_cast<ir::Tensor*>(&c);
  ir::Shape padded = c.shape();
  padded.insert(padded.begin(), 4 - padded.size(), 1);
  return AddConstant(g, c.name() + "_nhwc", TransposeConstant(c, padded, kToNHWC));
}

ir::Tensor* PermutedPads(ir::Graph& g, const ir::Tensor& pads) {
  const std::span<const int64_t> p = pads.data<int64_t>();
  std::vector<int64_t> out(8);
  for (int i = 0; i < 4; ++i) {
    out[i] = p[kToNHWC[i]];
    out[i + 4] = p[kToNHWC[i] + 4];
  }
  return g.AddConstant(g.UniqueName(pads.name() + "_nhwc"), {8}, out);
}

ir::Tensor* PermutedPerAxis(ir::Graph& g, const ir::Tensor& values) {
  const std::string name = g.UniqueName(values.name() + "_nhwc");
  if (values.dtype() == ir::DType::kFloat32) {
    const std::span<const float> v = values.data<float>();
    return g.AddConstant<float>(name, {4}, {v[0], v[2], v[3], v[1]});
  }
  const std::span<const int64_t> v = values.data<int64_t>();
  return g.AddConstant<int64_t>(name, {4}, {v[0], v[2], v[3], v[1]});
}

std::vector<int64_t> NHWCAxes(const std::vector<int64_t>& nchw_axes) {
  std::vector<int64_t> out;
  for (int64_t a : nchw_axes) out.push_back(NHWCAxis(a < 0 ? a + 4 : a));
  return out;
}

bool ReductionKeepsOrder(const std::vector<int64_t>& axes) {
  bool kept[4] = {true, true, true, true};
  for (int64_t a : axes) {
    if (a >= -4 && a < 4) kept[a < 0 ? a + 4 : a] = false;
  }
  // NHWC puts C after H and W: the orders agree unless C stays along with H or W.
  return !(kept[1] && (kept[2] || kept[3]));
}

bool ReadsSameOrder(const ir::Node& reader, const ir::Tensor& t) {
  const ir::Shape& s = t.shape();  // still NCHW
  if (s[1] != 1 && s[2] * s[3] != 1) return false;
  if (reader.kind() == ir::OpKind::kFlatten) {  // [N, C*H*W] either way for axis 0, 1 or 4
    const int64_t axis = reader.attrs().GetInt("axis", 1);
    return axis == 0 || axis == 1 || axis == 4 || axis == -3 || axis == -4;
  }
  if (reader.kind() != ir::OpKind::kReshape) return false;
  // Reshape's 0 entries copy input dims, which differ between the orders past dim 0.
  const ir::Tensor* shape = reader.input(1);
  if (shape == nullptr || !shape->is_constant() || shape->dtype() != ir::DType::kInt64) {
    return false;
  }
  const std::span<const int64_t> v = shape->data<int64_t>();
  for (size_t i = 1; i < v.size(); ++i) {
    if (v[i] == 0 && reader.attrs().GetInt("allowzero", 0) == 0) return false;
  }
  return true;
}

bool PermuteGemmWeights(ir::Graph& g, const ir::Node& flatten, const ir::Tensor& t) {
  // 1. Only [N,C,H,W] -> [N, C*H*W] read by Gemm(A = flatten output, transA = 0, const B).
  const ir::Tensor* flat = flatten.output(0);
  const ir::Shape& s = t.shape();
  const bool flattens =
      (flatten.kind() == ir::OpKind::kFlatten || flatten.kind() == ir::OpKind::kReshape) &&
      flat->shape() == ir::Shape{s[0], s[1] * s[2] * s[3]};
  if (!flattens || flat->users().empty() || g.IsGraphOutput(flat)) return false;
  for (const ir::Node* u : flat->users()) {
    if (u->kind() != ir::OpKind::kGemm || u->input(0) != flat || u->input(1) == flat ||
        u->attrs().GetInt("transA", 0) != 0 || !FloatConstant(u->input(1))) {
      return false;
    }
  }
  // 2. Row k_nhwc = (h*W + w)*C + c of the new B is row k_nchw = (c*H + h)*W + w of the old one
  //    (columns if transB). Each row (transB: each output's row of K) is permuted whole, in
  //    memory order: with the loop over outputs innermost, striding 100 KB per access through
  //    vgg11's 4096 x 25088 classifier, `npu_compile vgg11.op17.onnx --no-tuning` took 10.9 s
  //    (median of 3, quantised model cached; this 2-vCPU VM), now 8.7 s.
  const int64_t c_count = t.shape()[1], hw_count = t.shape()[2] * t.shape()[3];
  const auto k_nchw = [&](int64_t k_nhwc) {
    return (k_nhwc % c_count) * hw_count + k_nhwc / c_count;
  };
  for (ir::Node* u : std::vector<ir::Node*>(flat->users())) {
    const ir::Tensor* b = u->input(1);
    const bool trans_b = u->attrs().GetInt("transB", 0) != 0;
    const std::vector<float> old = *FloatConstant(b);
    std::vector<float> permuted(old.size());
    const int64_t rows = b->shape()[0], cols = b->shape()[1];
    if (trans_b) {
      for (int64_t j = 0; j < rows; ++j) {
        for (int64_t k = 0; k < cols; ++k) permuted[j * cols + k] = old[j * cols + k_nchw(k)];
      }
    } else {
      for (int64_t k = 0; k < rows; ++k) {
        std::copy_n(old.begin() + k_nchw(k) * cols, cols, permuted.begin() + k * cols);
      }
    }
    g.SetNodeInput(u, 1, g.AddConstant(g.UniqueName(b->name() + "_nhwc"), b->shape(), permuted));
  }
  return true;
}

int64_t ComposeTransposes(ir::Graph& g) {
  int64_t merged = 0;
  for (ir::Node* outer : g.NodesOfKind(ir::OpKind::kTranspose)) {
    const ir::Node* inner = outer->input(0) ? outer->input(0)->producer() : nullptr;
    if (inner == nullptr || inner->kind() != ir::OpKind::kTranspose) continue;
    const std::vector<int64_t> p = inner->attrs().GetInts("perm"),
                               q = outer->attrs().GetInts("perm");
    const int64_t rank = static_cast<int64_t>(inner->input(0)->shape().size());
    if (static_cast<int64_t>(p.size()) != rank || p.size() != q.size()) continue;  // defaults
    // Y = X.transpose(p), Z = Y.transpose(q): Z.shape[i] = X.shape[p[q[i]]].
    std::vector<int64_t> composed(q.size());
    bool identity = true;
    for (size_t i = 0; i < q.size(); ++i) {
      composed[i] = p[q[i]];
      identity = identity && composed[i] == static_cast<int64_t>(i);
    }
    if (identity) {
      if (!CanReplace(g, *outer, inner->input(0))) continue;
      ReplaceNode(g, outer, inner->input(0));
    } else {
      g.SetNodeInput(outer, 0, inner->input(0));
      outer->attrs().Set("perm", composed);
    }
    ++merged;
  }
  for (ir::Node* t : g.NodesOfKind(ir::OpKind::kTranspose)) {  // inner ones left unread
    if (t->output(0)->users().empty() && !g.IsGraphOutput(t->output(0))) g.EraseNode(t);
  }
  return merged;
}

}  // namespace npu::compiler::passes
