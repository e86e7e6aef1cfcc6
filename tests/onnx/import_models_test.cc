// Import of the torch-exported models in tests/onnx/data: structure, normalised attributes,
// constants, layouts and the shapes of inputs and outputs.
#include <gtest/gtest.h>

#include <algorithm>

#include "compiler/ir/printer.h"
#include "compiler/ir/verifier.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

using ir::Layout;
using ir::OpKind;

ir::Graph ImportOrDie(const std::string& file, const ImportOptions& options = {}) {
  StatusOr<ir::Graph> g = ImportOnnxFile(onnx_test::DataPath(file), options);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : ir::Graph();
}

std::vector<OpKind> Kinds(const ir::Graph& g) {
  std::vector<OpKind> kinds;
  for (const ir::Node* n : g.nodes()) kinds.push_back(n->kind());
  return kinds;
}

const ir::Node* OnlyNode(const ir::Graph& g, OpKind kind) {
  std::vector<ir::Node*> nodes = g.NodesOfKind(kind);
  EXPECT_EQ(nodes.size(), 1u) << ir::OpName(kind);
  return nodes.empty() ? nullptr : nodes[0];
}

TEST(OnnxImportModels, EveryCommittedModelImportsAndVerifies) {
  const std::vector<onnx_test::ManifestEntry> entries = onnx_test::ReadManifest();
  ASSERT_EQ(entries.size(), 17u);  // 5 models x opsets 11, 13, 17 + QDQ at 13, 17
  for (const onnx_test::ManifestEntry& e : entries) {
    SCOPED_TRACE(e.model);
    ir::Graph g = ImportOrDie(e.model);
    EXPECT_TRUE(ir::Verify(g, {.require_types = false}).ok());
    ASSERT_EQ(g.inputs().size(), 1u);
    ASSERT_EQ(g.outputs().size(), 1u);
    EXPECT_EQ(g.outputs()[0]->dtype(), ir::DType::kFloat32);
    EXPECT_EQ(g.outputs()[0]->shape().size(), 2u);  // every model ends in a [N, classes] output
  }
}

TEST(OnnxImportModels, SmallCnnStructure) {
  ir::Graph g = ImportOrDie("small_cnn.op13.onnx");
  // The exporter folded the first two BatchNorms into their convs; the one after the add stays.
  EXPECT_EQ(Kinds(g),
            (std::vector<OpKind>{OpKind::kConv, OpKind::kRelu, OpKind::kMaxPool, OpKind::kConv,
                                 OpKind::kRelu, OpKind::kConv, OpKind::kAdd,
                                 OpKind::kBatchNormalization, OpKind::kRelu, OpKind::kPad,
                                 OpKind::kAveragePool, OpKind::kFlatten, OpKind::kGemm}));
  const ir::Tensor* x = g.inputs()[0];
  EXPECT_EQ(x->shape(), (ir::Shape{1, 3, 16, 16}));
  EXPECT_EQ(x->layout(), Layout::kNCHW);
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 10}));

  const ir::Node* conv3 = g.FindTensor("/conv3/Conv_output_0")->producer();
  EXPECT_EQ(conv3->attrs().GetInts("pads"), (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(conv3->attrs().GetInts("strides"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(conv3->attrs().GetInt("group", 0), 1);
  const ir::Tensor* w = conv3->input(1);
  EXPECT_TRUE(w->is_constant());
  EXPECT_EQ(w->shape(), (ir::Shape{8, 8, 3, 3}));
  EXPECT_EQ(w->layout(), Layout::kNone);
  EXPECT_EQ(w->data<float>().size(), 8u * 8 * 3 * 3);

  const ir::Node* bn = OnlyNode(g, OpKind::kBatchNormalization);
  EXPECT_FLOAT_EQ(bn->attrs().GetFloat("epsilon", 0), 1e-5f);
  EXPECT_FALSE(bn->attrs().Has("momentum"));  // training only: dropped
  for (size_t i = 1; i < 5; ++i) EXPECT_TRUE(bn->input(i)->is_constant());

  // 4-D activations are NCHW up to Flatten; after it, and for constants, no layout.
  for (const ir::Node* n : g.nodes()) {
    const bool before_flatten = n->kind() != OpKind::kFlatten && n->kind() != OpKind::kGemm;
    EXPECT_EQ(n->output(0)->layout(), before_flatten ? Layout::kNCHW : Layout::kNone) << n->name();
  }
  const ir::Node* pad = OnlyNode(g, OpKind::kPad);
  EXPECT_EQ(pad->attrs().GetString("mode", ""), "constant");
  EXPECT_EQ(pad->input(1)->dtype(), ir::DType::kInt64);  // pads stay an input (a constant)
}

TEST(OnnxImportModels, DepthwiseSeparableClipBecomesAttributes) {
  ir::Graph g = ImportOrDie("dw_separable.op11.onnx");
  std::vector<ir::Node*> clips = g.NodesOfKind(OpKind::kClip);
  ASSERT_EQ(clips.size(), 3u);
  for (const ir::Node* clip : clips) {
    EXPECT_EQ(clip->num_inputs(), 1u);
    EXPECT_EQ(clip->attrs().GetFloat("min", -1), 0.0f);
    EXPECT_EQ(clip->attrs().GetFloat("max", -1), 6.0f);
  }
  // The bounds' Constant tensors are gone: only weights and biases remain.
  for (const ir::Tensor* t : g.tensors()) {
    EXPECT_FALSE(t->is_constant() && t->shape().empty()) << t->name();
  }
  std::vector<ir::Node*> convs = g.NodesOfKind(OpKind::kConv);
  ASSERT_EQ(convs.size(), 3u);
  EXPECT_EQ(convs[1]->attrs().GetInt("group", 0), 8);  // depthwise
  EXPECT_EQ(convs[1]->attrs().GetInts("strides"), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(convs[1]->input(1)->shape(), (ir::Shape{8, 1, 3, 3}));
  EXPECT_EQ(OnlyNode(g, OpKind::kGlobalAveragePool)->output(0)->layout(), Layout::kNCHW);
}

TEST(OnnxImportModels, MlpKeepsGemmMatMulAndSoftmaxOverTheLastAxis) {
  for (const char* file : {"mlp.op11.onnx", "mlp.op13.onnx", "mlp.op17.onnx"}) {
    SCOPED_TRACE(file);
    ir::Graph g = ImportOrDie(file);
    EXPECT_EQ(Kinds(g), (std::vector<OpKind>{OpKind::kGemm, OpKind::kRelu, OpKind::kMatMul,
                                             OpKind::kAdd, OpKind::kSub, OpKind::kMul, OpKind::kDiv,
                                             OpKind::kGemm, OpKind::kSoftmax}));
    const ir::Node* gemm = g.nodes()[0];
    EXPECT_EQ(gemm->attrs().GetInt("transB", 0), 1);
    EXPECT_EQ(gemm->attrs().GetInt("transA", -1), 0);
    EXPECT_EQ(gemm->attrs().GetFloat("alpha", 0), 1.0f);
    // Opset 11 says axis=1 of a rank-2 input, 13+ says -1: both the last axis.
    const int64_t axis = OnlyNode(g, OpKind::kSoftmax)->attrs().GetInt("axis", 0);
    EXPECT_EQ(axis, std::string(file) == "mlp.op11.onnx" ? 1 : -1);
    for (const ir::Tensor* t : g.tensors()) EXPECT_EQ(t->layout(), Layout::kNone) << t->name();
  }
}

TEST(OnnxImportModels, ViewChainKeepsShapeGatherConcatAsNodesOverConstants) {
  ir::Graph g = ImportOrDie("view_chain.op11.onnx");
  const ir::Node* gather = OnlyNode(g, OpKind::kGather);
  EXPECT_EQ(gather->input(0)->producer()->kind(), OpKind::kShape);
  EXPECT_TRUE(gather->input(1)->is_constant());
  EXPECT_EQ(gather->input(1)->dtype(), ir::DType::kInt64);
  EXPECT_EQ(gather->input(1)->data<int64_t>()[0], 0);
  const ir::Node* reshape = OnlyNode(g, OpKind::kReshape);
  const ir::Node* concat = reshape->input(1)->producer();
  ASSERT_EQ(concat->kind(), OpKind::kConcat);
  EXPECT_EQ(concat->input(0)->producer()->kind(), OpKind::kUnsqueeze);
  EXPECT_EQ(concat->input(0)->producer()->attrs().GetInts("axes"), (std::vector<int64_t>{0}));
  EXPECT_TRUE(concat->input(1)->is_constant());
  EXPECT_EQ(concat->input(1)->data<int64_t>()[0], -1);
  // The symbolic batch became 1; Transpose leaves NCHW, so its output has no layout.
  EXPECT_EQ(g.inputs()[0]->shape(), (ir::Shape{1, 3, 8, 8}));
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 6}));
  EXPECT_EQ(OnlyNode(g, OpKind::kTranspose)->output(0)->layout(), Layout::kNone);
  EXPECT_EQ(g.NodesOfKind(OpKind::kConcat)[0]->output(0)->layout(), Layout::kNCHW);
}

// One line per node: op, attributes and input kinds, without tensor names (the exporter numbers
// its Constant nodes differently at each opset).
std::string Structure(const ir::Graph& g) {
  std::string text;
  for (const ir::Node* n : g.nodes()) {
    text += std::string(ir::OpName(n->kind()));
    for (const auto& [name, value] : n->attrs().values()) {
      text += " " + name + "=" + ir::AttrText(value);
    }
    for (const ir::Tensor* in : n->inputs()) text += in->is_constant() ? " const" : " value";
    text += "\n";
  }
  return text;
}

TEST(OnnxImportModels, OpsetVariantsOfAModelImportToTheSameGraph) {
  // Clip bounds and Squeeze/Unsqueeze axes are inputs at 13+, attributes at 11; opset 14+ adds
  // BatchNormalization training_mode and Reshape allowzero: normalised, all three agree.
  for (const char* model : {"small_cnn", "dw_separable", "dynamic_batch"}) {
    SCOPED_TRACE(model);
    const std::string base = model;
    const std::string op11 = ir::PrintGraph(ImportOrDie(base + ".op11.onnx"));
    EXPECT_EQ(ir::PrintGraph(ImportOrDie(base + ".op13.onnx")), op11);
    EXPECT_EQ(ir::PrintGraph(ImportOrDie(base + ".op17.onnx")), op11);
  }
  const std::string op11 = Structure(ImportOrDie("view_chain.op11.onnx"));
  EXPECT_EQ(Structure(ImportOrDie("view_chain.op13.onnx")), op11);
  EXPECT_EQ(Structure(ImportOrDie("view_chain.op17.onnx")), op11);
}

TEST(OnnxImportModels, QdqModelImportsQuantizeDequantizePairs) {
  for (const char* file : {"qdq_cnn.op13.onnx", "qdq_cnn.op17.onnx"}) {
    SCOPED_TRACE(file);
    ir::Graph g = ImportOrDie(file);
    std::vector<ir::Node*> q = g.NodesOfKind(OpKind::kQuantizeLinear);
    std::vector<ir::Node*> dq = g.NodesOfKind(OpKind::kDequantizeLinear);
    ASSERT_EQ(q.size(), 3u);
    ASSERT_EQ(dq.size(), 3u);
    // Input activations: uint8 zero point, per tensor, NCHW.
    EXPECT_EQ(q[0]->input(2)->dtype(), ir::DType::kUInt8);
    EXPECT_EQ(q[0]->output(0)->layout(), Layout::kNCHW);
    // Conv weight: int8, per output channel (axis 0), a constant path with no layout.
    EXPECT_EQ(q[1]->input(0)->shape(), (ir::Shape{4, 3, 3, 3}));
    EXPECT_EQ(q[1]->input(1)->shape(), (ir::Shape{4}));
    EXPECT_EQ(q[1]->input(2)->dtype(), ir::DType::kInt8);
    EXPECT_EQ(q[1]->attrs().GetInt("axis", -1), 0);
    EXPECT_EQ(dq[1]->output(0)->layout(), Layout::kNone);
    EXPECT_EQ(OnlyNode(g, OpKind::kConv)->input(1), dq[1]->output(0));
  }
}

}  // namespace
}  // namespace npu::compiler
