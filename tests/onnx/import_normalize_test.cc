// What import normalises, on hand-built models: defaults written out, auto_pad resolved, inputs
// that are IR attributes folded, Constant nodes turned into constants, layouts.
#include <gtest/gtest.h>

#include "compiler/ir/printer.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/model_builder.h"

namespace npu::compiler {
namespace {

using ir::OpKind;
using onnx_test::ModelBuilder;

ir::Graph ImportOrDie(const ModelBuilder& m, const ImportOptions& options = {}) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes(), options);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(g).value() : ir::Graph();
}

// x[1,3,8,8] -> Conv(w[2,3,3,3]) with `configure` applied to the conv -> y.
template <class F>
ir::Attributes ConvAttrs(F configure) {
  ModelBuilder m;
  m.Input("x", {"1", "3", "8", "8"});
  m.Initializer("w", {2, 3, 3, 3}, std::vector<float>(54, 1.f));
  onnx_test::NodeRef conv = m.Node("Conv", {"x", "w"}, {"y"}, "conv");
  configure(conv);
  m.Output("y");
  ir::Graph g = ImportOrDie(m);
  return g.nodes().empty() ? ir::Attributes() : g.nodes()[0]->attrs();
}

TEST(OnnxImportNormalize, ConvDefaultsAreWrittenOut) {
  const ir::Attributes a = ConvAttrs([](onnx_test::NodeRef&) {});
  EXPECT_EQ(a.GetInts("kernel_shape"), (std::vector<int64_t>{3, 3}));  // from the weight
  EXPECT_EQ(a.GetInts("strides"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(a.GetInts("dilations"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(a.GetInts("pads"), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_EQ(a.GetInt("group", 0), 1);
}

TEST(OnnxImportNormalize, AutoPadBecomesExplicitPads) {
  auto pads = [](const std::string& mode, int64_t stride) {
    const ir::Attributes a = ConvAttrs([&](onnx_test::NodeRef& n) {
      n.String("auto_pad", mode).Ints("strides", {stride, stride});
    });
    EXPECT_FALSE(a.Has("auto_pad"));
    return a.GetInts("pads");
  };
  using P = std::vector<int64_t>;
  EXPECT_EQ(pads("SAME_UPPER", 1), (P{1, 1, 1, 1}));
  EXPECT_EQ(pads("SAME_LOWER", 1), (P{1, 1, 1, 1}));
  // 8 -> 4 with stride 2 and kernel 3 needs (4-1)*2+3-8 = 1: at the end (UPPER) or start.
  EXPECT_EQ(pads("SAME_UPPER", 2), (P{0, 0, 1, 1}));
  EXPECT_EQ(pads("SAME_LOWER", 2), (P{1, 1, 0, 0}));
  EXPECT_EQ(pads("VALID", 2), (P{0, 0, 0, 0}));
  EXPECT_EQ(pads("NOTSET", 1), (P{0, 0, 0, 0}));
}

TEST(OnnxImportNormalize, PoolAndGemmDefaults) {
  ModelBuilder m;
  m.Input("x", {"1", "2", "4", "4"});
  m.Node("MaxPool", {"x"}, {"p"}, "max").Ints("kernel_shape", {2, 2});
  m.Node("AveragePool", {"p"}, {"a"}, "avg").Ints("kernel_shape", {2, 2});
  m.Node("Flatten", {"a"}, {"f"}, "flat");
  m.Initializer("w", {2, 3}, std::vector<float>(6, 1.f));
  m.Node("Gemm", {"f", "w"}, {"y"}, "gemm");
  m.Output("y");
  ir::Graph g = ImportOrDie(m);
  ASSERT_EQ(g.nodes().size(), 4u);
  EXPECT_EQ(ir::PrintGraph(g),
            "graph test\n"
            "  input  %x: f32[1,2,4,4] NCHW\n"
            "  const  %w: f32[2,3]\n"
            "  %p: ?[] NCHW = max_pool(%x) {ceil_mode=0, dilations=[1,1], kernel_shape=[2,2], "
            "pads=[0,0,0,0], strides=[1,1]}  # max\n"
            "  %a: ?[] NCHW = average_pool(%p) {ceil_mode=0, count_include_pad=0, "
            "kernel_shape=[2,2], pads=[0,0,0,0], strides=[1,1]}  # avg\n"
            "  %f: ?[] = flatten(%a) {axis=1}  # flat\n"
            "  %y: f32[] = gemm(%f, %w) {alpha=1, beta=1, transA=0, transB=0}  # gemm\n"
            "  output %y\n");
}

TEST(OnnxImportNormalize, ClipBoundsBecomeAttributes) {
  for (int64_t opset : {11, 13}) {
    ModelBuilder m(opset);
    m.Input("x", {"1", "4"});
    m.Initializer("lo", {}, {-1.5f});
    m.Node("Constant", {}, {"hi"}).Tensor("value", onnx_test::FloatTensor({}, {6.f}));
    m.Node("Clip", {"x", "lo", "hi"}, {"a"}, "both");
    m.Node("Clip", {"a", "", "hi"}, {"b"}, "max_only");
    m.Node("Clip", {"b"}, {"y"}, "none");
    m.Output("y");
    ir::Graph g = ImportOrDie(m);
    ASSERT_EQ(g.nodes().size(), 3u);
    EXPECT_EQ(ir::PrintGraph(g),
              "graph test\n"
              "  input  %x: f32[1,4]\n"
              "  %a: ?[] = clip(%x) {max=6, min=-1.5}  # both\n"
              "  %b: ?[] = clip(%a) {max=6}  # max_only\n"
              "  %y: f32[] = clip(%b)  # none\n"
              "  output %y\n");  // the bounds' constants are gone
  }
}

TEST(OnnxImportNormalize, SqueezeAxesAttributeAtOpset11EqualsInputAt13) {
  auto build = [](int64_t opset) {
    ModelBuilder m(opset);
    m.Input("x", {"1", "4"});
    if (opset >= 13) {
      m.InitializerI64("axes", {1}, {1});
      m.Node("Unsqueeze", {"x", "axes"}, {"u"}, "unsqueeze");
      m.Node("Squeeze", {"u", "axes"}, {"y"}, "squeeze");
    } else {
      m.Node("Unsqueeze", {"x"}, {"u"}, "unsqueeze").Ints("axes", {1});
      m.Node("Squeeze", {"u"}, {"y"}, "squeeze").Ints("axes", {1});
    }
    m.Output("y", {"1", "4"});
    return ir::PrintGraph(ImportOrDie(m));
  };
  EXPECT_EQ(build(13), build(11));
  EXPECT_NE(build(13).find("unsqueeze(%x) {axes=[1]}"), std::string::npos) << build(13);
}

TEST(OnnxImportNormalize, ConstantNodesBecomeConstantTensors) {
  ModelBuilder m;
  m.Input("x", {"3"});
  m.Node("Constant", {}, {"f"}).proto()->add_attribute()->CopyFrom([] {
    ::onnx::AttributeProto a;
    a.set_name("value_floats");
    a.set_type(::onnx::AttributeProto::FLOATS);
    for (float v : {1.f, 2.f, 3.f}) a.add_floats(v);
    return a;
  }());
  m.Node("Constant", {}, {"i"}).Int("value_int", 7);
  m.Node("Add", {"x", "f"}, {"y"});
  m.Node("Shape", {"i"}, {"s"});
  m.Output("y");
  m.Output("s");
  ir::Graph g = ImportOrDie(m);
  EXPECT_EQ(g.nodes().size(), 2u);  // no Constant nodes
  const ir::Tensor* f = g.FindTensor("f");
  ASSERT_TRUE(f->is_constant());
  EXPECT_EQ(f->shape(), (ir::Shape{3}));
  EXPECT_EQ(f->data<float>()[2], 3.f);
  const ir::Tensor* i = g.FindTensor("i");
  EXPECT_EQ(i->dtype(), ir::DType::kInt64);
  EXPECT_TRUE(i->shape().empty());
  EXPECT_EQ(i->data<int64_t>()[0], 7);
}

TEST(OnnxImportNormalize, TypedDataFieldsAndOldStyleInitializerInputs) {
  ModelBuilder m;
  m.Input("x", {"2"});
  m.Input("k", {"2"});  // an initializer also listed as an input: it stays a constant
  ::onnx::TensorProto* k = m.graph().add_initializer();
  k->set_name("k");
  k->set_data_type(::onnx::TensorProto::FLOAT);
  k->add_dims(2);
  k->add_float_data(0.5f);
  k->add_float_data(-2.f);
  ::onnx::TensorProto* q = m.graph().add_initializer();
  q->set_name("q");
  q->set_data_type(::onnx::TensorProto::INT8);
  q->add_dims(2);
  q->add_int32_data(-128);
  q->add_int32_data(127);
  m.Node("Mul", {"x", "k"}, {"y"});
  m.Node("Identity", {"q"}, {"z"});
  m.Output("y");
  m.Output("z");
  ir::Graph g = ImportOrDie(m);
  ASSERT_EQ(g.inputs().size(), 1u);
  EXPECT_EQ(g.FindTensor("k")->data<float>()[1], -2.f);
  EXPECT_EQ(g.FindTensor("q")->data<int8_t>()[0], -128);
  EXPECT_EQ(g.nodes()[1]->kind(), OpKind::kIdentity);
}

TEST(OnnxImportNormalize, BatchNormDropsTrainingAttributesAndUnnamedNodesGetNames) {
  ModelBuilder m(17);
  m.Input("x", {"1", "2", "4", "4"});
  for (const char* name : {"s", "b", "mean", "var"}) m.Initializer(name, {2}, {1.f, 1.f});
  m.Node("BatchNormalization", {"x", "s", "b", "mean", "var"}, {"y"})
      .Float("momentum", 0.9f)
      .Int("training_mode", 0);
  m.Output("y");
  ir::Graph g = ImportOrDie(m);
  const ir::Node* bn = g.nodes()[0];
  EXPECT_EQ(bn->name(), "BatchNormalization_0");
  EXPECT_EQ(bn->attrs().values().size(), 1u);
  EXPECT_FLOAT_EQ(bn->attrs().GetFloat("epsilon", 0), 1e-5f);
}

TEST(OnnxImportNormalize, TransposeDefaultPermAndLayoutsAfterReshape) {
  ModelBuilder m;
  m.Input("x", {"1", "2", "3", "4"});
  m.Node("Transpose", {"x"}, {"t"}, "t");
  m.InitializerI64("shape", {4}, {1, 4, 3, 2});
  m.Node("Reshape", {"t", "shape"}, {"r"}, "r");
  m.Initializer("k", {1}, {2.f});
  m.Node("Add", {"r", "k"}, {"a"}, "a");
  m.Node("Add", {"x", "k"}, {"y"}, "y");
  m.Output("a");
  m.Output("y");
  ir::Graph g = ImportOrDie(m);
  EXPECT_EQ(g.nodes()[0]->attrs().GetInts("perm"), (std::vector<int64_t>{3, 2, 1, 0}));
  EXPECT_EQ(g.FindTensor("r")->layout(), ir::Layout::kNone);
  EXPECT_EQ(g.FindTensor("a")->layout(), ir::Layout::kNone);  // reads a reshaped tensor
  EXPECT_EQ(g.FindTensor("y")->layout(), ir::Layout::kNCHW);  // reads the NCHW input
}

TEST(OnnxImportNormalize, InferenceDropoutIsAnIdentity) {
  for (int64_t opset : {11, 13}) {
    ModelBuilder m(opset);
    m.Input("x", {"1", "4"});
    if (opset >= 12) {
      m.Initializer("ratio", {}, {0.5f});
      m.Node("Dropout", {"x", "ratio"}, {"y"}, "drop").Int("seed", 3);
    } else {
      m.Node("Dropout", {"x"}, {"y"}, "drop").Float("ratio", 0.5f);
    }
    m.Output("y");
    EXPECT_EQ(ir::PrintGraph(ImportOrDie(m)),
              "graph test\n"
              "  input  %x: f32[1,4]\n"
              "  %y: f32[] = identity(%x)  # drop\n"
              "  output %y\n");
  }
}

TEST(OnnxImportNormalize, AnNhwcInputTransposedToNchwIsNotNchw) {
  ModelBuilder m;  // the tf2onnx pattern
  m.Input("image", {"1", "8", "8", "3"});
  m.Node("Transpose", {"image"}, {"t"}, "to_nchw").Ints("perm", {0, 3, 1, 2});
  m.Initializer("w", {2, 3, 1, 1}, std::vector<float>(6, 1.f));
  m.Node("Conv", {"t", "w"}, {"y"}, "conv");
  m.Output("y");
  ir::Graph g = ImportOrDie(m);
  EXPECT_EQ(g.inputs()[0]->layout(), ir::Layout::kNone);
  EXPECT_EQ(g.FindTensor("t")->layout(), ir::Layout::kNone);
  EXPECT_EQ(g.FindTensor("y")->layout(), ir::Layout::kNCHW);
}

TEST(OnnxImportNormalize, QLinearOpsImport) {
  ModelBuilder m;
  m.Input("x", {"1", "2", "4", "4"}, ::onnx::TensorProto::UINT8);
  m.Initializer("s", {}, {0.1f});
  ::onnx::TensorProto* zp = m.graph().add_initializer();
  zp->set_name("zp");
  zp->set_data_type(::onnx::TensorProto::UINT8);
  zp->set_raw_data(std::string(1, '\x80'));
  ::onnx::TensorProto* w = m.graph().add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::INT8);
  for (int64_t d : {3, 2, 1, 1}) w->add_dims(d);
  w->set_raw_data(std::string(6, '\x01'));
  ::onnx::TensorProto* wzp = m.graph().add_initializer();
  wzp->set_name("wzp");
  wzp->set_data_type(::onnx::TensorProto::INT8);
  wzp->set_raw_data(std::string(1, '\0'));
  m.Node("QLinearConv", {"x", "s", "zp", "w", "s", "wzp", "s", "zp"}, {"y"}, "qconv");
  m.Output("y", {"1", "3", "4", "4"}, ::onnx::TensorProto::UINT8);
  ir::Graph g = ImportOrDie(m);
  const ir::Node* qconv = g.nodes()[0];
  EXPECT_EQ(qconv->kind(), OpKind::kQLinearConv);
  EXPECT_EQ(qconv->num_inputs(), 8u);
  EXPECT_EQ(qconv->attrs().GetInts("kernel_shape"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(qconv->output(0)->dtype(), ir::DType::kUInt8);
  EXPECT_EQ(qconv->output(0)->layout(), ir::Layout::kNCHW);
}

}  // namespace
}  // namespace npu::compiler
