// Attention's matrix products of two activations on the MAC array, from float graphs through
// the pipeline and the quantiser, bit-exact on every sweep config (float_graph.h): one head,
// several, multi-query attention broadcasting one key and value over the heads, and the slices,
// reshapes and transposes around the products read and written through instead of run (and run
// on the CPU where another reader needs them, or where a view cannot be read); the control
// core's matmul kernel kept covered.
#include <gtest/gtest.h>

#include "compiler/passes/pipeline.h"
#include "compiler/quantize/quantize.h"
#include "tests/network/float_graph.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

using ir::OpKind;

// Three heads of 4 features over 6 tokens (q, k, v reshaped and transposed per head), and a
// multi-query attention whose one key and one value serve every head (the products broadcast b
// over the heads); the heads transposed back and projected.
TEST(Attention, MultiHeadAndMultiQueryAttentionOnTheMacArray) {
  FloatBuilder b("heads");
  ir::Tensor* x = b.Input({1, 6, 12});
  auto project = [&](ir::Tensor* in, int64_t k, int64_t n) {
    return b.Op(OpKind::kAdd, {b.Op(OpKind::kMatMul, {in, b.Const({k, n}, 0.3f)}), b.Const({n})});
  };
  auto perm = [&](ir::Tensor* t, std::vector<int64_t> p) {
    return b.Op(OpKind::kTranspose, {t}, Attr("perm", std::move(p)));
  };
  auto heads = [&](ir::Tensor* t) {  // [1,6,12] -> [1,3,6,4]
    return perm(b.Op(OpKind::kReshape, {t, b.Ints({1, 6, 3, 4})}), {0, 2, 1, 3});
  };
  ir::Tensor *q = heads(project(x, 12, 12)), *k = heads(project(x, 12, 12));
  ir::Tensor* v = heads(project(x, 12, 12));
  ir::Tensor* att =
      b.Op(OpKind::kDiv, {b.Op(OpKind::kMatMul, {q, perm(k, {0, 1, 3, 2})}), b.Scalar(2.0f)});
  att = b.Op(OpKind::kSoftmax, {att}, Attr("axis", int64_t{-1}));
  ir::Tensor* o = b.Op(OpKind::kMatMul, {att, v});  // [1,3,6,4]
  // Multi-query: one key [1,1,4,6] and one value [1,1,6,4] for the three heads of q.
  ir::Tensor* k1 =
      b.Op(OpKind::kReshape, {perm(project(x, 12, 4), {0, 2, 1}), b.Ints({1, 1, 4, 6})});
  ir::Tensor* v1 = b.Op(OpKind::kReshape, {project(x, 12, 4), b.Ints({1, 1, 6, 4})});
  ir::Tensor* att1 =
      b.Op(OpKind::kSoftmax, {b.Op(OpKind::kMatMul, {q, k1})}, Attr("axis", int64_t{-1}));
  o = b.Op(OpKind::kAdd, {o, b.Op(OpKind::kMatMul, {att1, v1})});
  ir::Tensor* y = b.Op(OpKind::kReshape, {perm(o, {0, 2, 1, 3}), b.Ints({1, 6, 12})});
  const CompiledModel c = Check(b.Finish(project(y, 12, 5)), 0.98);
  EXPECT_EQ(NpuLayers(c, "matmul"), 4);
  // The heads' transposes, k's second one and the shared key's transpose and reshape are read
  // through; the heads' transpose back after the sum (an add reads it) runs, as a DMA gather.
  EXPECT_EQ(NpuLayers(c, "transpose"), 1);
  EXPECT_EQ(CpuLayers(c, "transpose"), 0);
}

// PyTorch's multi-head attention: q, k, v split into heads by reshape and transpose, q scaled
// (a lookup table), k transposed again, the heads transposed back and merged. The products read
// and write through every transpose; the table runs before q's; none runs. A head transpose also
// read by an add runs for the add (a DMA gather), and the product still reads through it.
TEST(Attention, HeadTransposesAreReadAndWrittenThroughNotRun) {
  for (bool also_added : {false, true}) {
    SCOPED_TRACE(also_added ? "v's transpose also added" : "only the products");
    FloatBuilder b("mha");
    ir::Tensor* x = b.Input({1, 7, 12});
    auto perm = [&](ir::Tensor* t, std::vector<int64_t> p) {
      return b.Op(OpKind::kTranspose, {t}, Attr("perm", std::move(p)));
    };
    auto heads = [&](ir::Tensor* t) {  // [1,7,12] -> [1,3,7,4]
      t = b.Op(OpKind::kMatMul, {t, b.Const({12, 12}, 0.3f)});
      return perm(b.Op(OpKind::kReshape, {t, b.Ints({1, 7, 3, 4})}), {0, 2, 1, 3});
    };
    ir::Tensor *q = heads(x), *k = heads(x), *v = heads(x);
    q = b.Op(OpKind::kDiv, {q, b.Scalar(2.0f)});
    ir::Tensor* att = b.Op(OpKind::kMatMul, {q, perm(k, {0, 1, 3, 2})});
    att = b.Op(OpKind::kSoftmax, {att}, Attr("axis", int64_t{-1}));
    ir::Tensor* o = b.Op(OpKind::kMatMul, {att, v});
    if (also_added) o = b.Op(OpKind::kAdd, {o, v});
    o = b.Op(OpKind::kReshape, {perm(o, {0, 2, 1, 3}), b.Ints({1, 7, 12})});
    const CompiledModel c = Check(b.Finish(b.Op(OpKind::kMatMul, {o, b.Const({12, 5})})), 0.98);
    EXPECT_EQ(NpuLayers(c, "matmul"), 2);
    EXPECT_EQ(NpuLayers(c, "transpose"), also_added ? 2 : 0);  // v's, and the one after the add
    EXPECT_EQ(CpuLayers(c, "transpose"), 0);
    int notes = 0;
    for (const ModelLayer& l : c.layers) {
      notes += l.note.find("which the matrix products read through") != std::string::npos ||
               l.note.find("writes through transpose") != std::string::npos;
    }
    EXPECT_EQ(notes, also_added ? 1 : 2);
  }
}

// PyTorch's nn.MultiheadAttention: one projection to 3E split by three slices into q, k and v,
// each reshaped to heads and transposed. The products read all of it through; nothing but the
// softmax runs on the CPU. A slice another layer also reads runs for it, and only for it (a
// channel slice the add reads dense: a DMA copy).
TEST(Attention, QkvSlicedOffOneProjectionAreReadThrough) {
  for (bool k_also_added : {false, true}) {
    SCOPED_TRACE(k_also_added ? "k's slice also added" : "only the products");
    FloatBuilder b("in_proj");
    ir::Tensor* x = b.Input({1, 5, 12});
    ir::Tensor* qkv = b.Op(OpKind::kMatMul, {x, b.Const({12, 36}, 0.3f)});
    auto part = [&](int64_t i) {
      return b.Op(OpKind::kSlice,
                  {qkv, b.Ints({12 * i}), b.Ints({12 * i + 12}), b.Ints({2}), b.Ints({1})});
    };
    auto heads = [&](ir::Tensor* t) {  // [1,5,12] -> [1,2,5,6]
      return b.Op(OpKind::kTranspose, {b.Op(OpKind::kReshape, {t, b.Ints({1, 5, 2, 6})})},
                  Attr("perm", std::vector<int64_t>{0, 2, 1, 3}));
    };
    ir::Tensor *q = heads(part(0)), *k = part(1), *v = heads(part(2));
    ir::Tensor* kt =
        b.Op(OpKind::kTranspose, {heads(k)}, Attr("perm", std::vector<int64_t>{0, 1, 3, 2}));
    ir::Tensor* att =
        b.Op(OpKind::kSoftmax, {b.Op(OpKind::kMatMul, {q, kt})}, Attr("axis", int64_t{-1}));
    ir::Tensor* o = b.Op(OpKind::kTranspose, {b.Op(OpKind::kMatMul, {att, v})},
                         Attr("perm", std::vector<int64_t>{0, 2, 1, 3}));
    o = b.Op(OpKind::kReshape, {o, b.Ints({1, 5, 12})});
    if (k_also_added) o = b.Op(OpKind::kAdd, {o, k});
    const CompiledModel c = Check(b.Finish(o), 0.98);
    EXPECT_EQ(NpuLayers(c, "matmul"), 2);
    EXPECT_EQ(NpuLayers(c, "copy"), k_also_added ? 1 : 0);
    EXPECT_EQ(CpuLayers(c, "slice"), 0);
    EXPECT_EQ(CpuLayers(c, "transpose"), 0);
    int cpu = 0;
    for (const ModelLayer& l : c.layers) cpu += l.on_cpu;
    EXPECT_EQ(cpu, 1);  // the softmax
  }
}

// A slice running backwards (v's tokens reversed) cannot be read through: it runs on the CPU.
TEST(Attention, ABackwardsSliceBeforeAProductRunsOnTheCpu) {
  FloatBuilder b("reversed");
  ir::Tensor* x = b.Input({1, 6, 8});
  ir::Tensor* v = b.Op(OpKind::kSlice, {b.Op(OpKind::kMatMul, {x, b.Const({8, 8}, 0.3f)}),
                                        b.Ints({-1}), b.Ints({-100}), b.Ints({1}), b.Ints({-1})});
  ir::Tensor* att =
      b.Op(OpKind::kSoftmax,
           {b.Op(OpKind::kMatMul,
                 {x, b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 2, 1}))})},
           Attr("axis", int64_t{-1}));
  const CompiledModel c = Check(b.Finish(b.Op(OpKind::kMatMul, {att, v})), 0.98);
  EXPECT_EQ(NpuLayers(c, "matmul"), 2);
  EXPECT_EQ(CpuLayers(c, "slice"), 1);
}

// The control core's matmul kernel stays covered: the attention with its products forced there.
TEST(Attention, AttentionProductsForcedOnTheControlCore) {
  FloatBuilder b("cpu_matmul");
  ir::Tensor* x = b.Op(OpKind::kReshape, {b.Input({1, 10, 6}), b.Ints({1, 2, 5, 6})});
  ir::Tensor* kt = b.Op(OpKind::kTranspose, {x}, Attr("perm", std::vector<int64_t>{0, 1, 3, 2}));
  ir::Tensor* att =
      b.Op(OpKind::kSoftmax, {b.Op(OpKind::kMatMul, {x, kt})}, Attr("axis", int64_t{-1}));
  ir::Graph f = b.Finish(b.Op(OpKind::kMatMul, {att, x}));
  passes::PassContext ctx;
  ASSERT_TRUE(passes::RunPipeline(f, {}, ctx).ok());
  quantize::CalibrationSet calib;
  calib.samples.push_back(Sample(f, 100));
  StatusOr<ir::Graph> q = quantize::Quantize(f, calib);
  ASSERT_TRUE(q.ok()) << q.status().message();
  CompileOptions options;
  options.cpu_ops = {"matmul"};
  for (const NamedConfig& c : SweepConfigs()) {
    SCOPED_TRACE(c.name);
    const CompiledModel m = ExpectBitExact(*q, c.config, 1, options);
    EXPECT_EQ(NpuLayers(m, "matmul"), 0);
    int on_cpu = 0;
    for (const ModelLayer& l : m.layers) on_cpu += l.on_cpu && l.op == "matmul";
    EXPECT_EQ(on_cpu, 2);
  }
}

}  // namespace
}  // namespace npu::compiler::testing
