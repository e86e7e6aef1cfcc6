// Malformed and unsupported models: each gives a clear error naming what is at fault, never a
// crash; an unsupported model gets one error listing every unsupported node.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "compiler/onnx/onnx_export.h"
#include "compiler/onnx/onnx_import.h"
#include "tests/onnx/model_builder.h"
#include "tests/onnx/test_data.h"

namespace npu::compiler {
namespace {

using onnx_test::ConvReluModel;
using onnx_test::ModelBuilder;

// The error message of importing `bytes`, which must fail with `kind`.
std::string ImportError(const std::string& bytes, ErrorKind kind = ErrorKind::kInvalidArgument) {
  StatusOr<ir::Graph> g = ImportOnnxBytes(bytes);
  EXPECT_FALSE(g.ok());
  if (g.ok()) return "";
  EXPECT_EQ(g.status().kind(), kind) << g.status().message();
  return g.status().message();
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

TEST(OnnxImportErrors, TruncatedFileFailsAtEveryCut) {
  const std::string bytes = ReadFile(onnx_test::DataPath("small_cnn.op13.onnx"));
  ASSERT_GT(bytes.size(), 1000u);
  for (size_t cut = 1; cut < 16; ++cut) {
    StatusOr<ir::Graph> g = ImportOnnxBytes(bytes.substr(0, bytes.size() * cut / 16));
    ASSERT_FALSE(g.ok()) << "cut " << cut;
    EXPECT_FALSE(g.status().message().empty());
  }
  EXPECT_HAS(ImportError(bytes.substr(0, bytes.size() / 2)), "do not parse as an ONNX ModelProto");
}

TEST(OnnxImportErrors, RandomCorruptionNeverCrashes) {
  // Flipped bytes that still parse reach every check with odd values (zero strides, huge dims,
  // wrong attribute types): each import must end in a graph or a Status, and a graph must export.
  for (const char* file : {"small_cnn.op13.onnx", "view_chain.op11.onnx", "qdq_cnn.op17.onnx"}) {
    const std::string original = ReadFile(onnx_test::DataPath(file));
    std::mt19937 rng(42);
    int imported = 0;
    for (int trial = 0; trial < 600; ++trial) {
      std::string bytes = original;
      const int flips = 1 + trial % 4;
      for (int f = 0; f < flips; ++f) {
        bytes[rng() % bytes.size()] = static_cast<char>(rng() % 256);
      }
      StatusOr<ir::Graph> g = ImportOnnxBytes(bytes);
      if (!g.ok()) {
        EXPECT_FALSE(g.status().message().empty());
        continue;
      }
      ++imported;
      (void)ExportOnnx(*g).ok();
    }
    EXPECT_GT(imported, 0) << file;  // corruption inside weights still imports
  }
}

TEST(OnnxImportErrors, NotAProtobuf) {
  EXPECT_HAS(ImportError("\x89PNG\r\n\x1a\n this is not an ONNX model"), "do not parse");
  EXPECT_HAS(ImportError(""), "hold no ONNX graph");
  EXPECT_HAS(ImportError("\x08\x07"), "hold no ONNX graph");  // a valid protobuf: ir_version=7
}

TEST(OnnxImportErrors, MissingFileIsNotFound) {
  StatusOr<ir::Graph> g = ImportOnnxFile("/nonexistent/model.onnx");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().kind(), ErrorKind::kNotFound);
  EXPECT_HAS(g.status().message(), "/nonexistent/model.onnx");
}

TEST(OnnxImportErrors, CycleNamesItsNodes) {
  ModelBuilder m;
  m.Input("x", {"1", "4"});
  m.Node("Add", {"x", "b"}, {"a"}, "first");
  m.Node("Relu", {"a"}, {"b"}, "second");
  m.Node("Relu", {"a"}, {"y"}, "last");
  m.Output("y");
  const std::string e = ImportError(m.Bytes());
  EXPECT_HAS(e, "cycle");
  EXPECT_HAS(e, "'first'");
  EXPECT_HAS(e, "'second'");
}

TEST(OnnxImportErrors, NodesOutOfOrderAreSorted) {
  ModelBuilder m;
  m.Input("x", {"1", "4"});
  m.Node("Relu", {"a"}, {"y"}, "second");
  m.Node("Relu", {"x"}, {"a"}, "first");
  m.Output("y");
  StatusOr<ir::Graph> g = ImportOnnxBytes(m.Bytes());
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->nodes()[0]->name(), "first");
}

TEST(OnnxImportErrors, MissingInitializerNamesNodeAndTensor) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_initializer()->RemoveLast();  // the bias "b"
  EXPECT_HAS(ImportError(m.Bytes()),
             "node 'conv' (Conv) input 2 reads 'b', which no node, initializer or graph input "
             "defines");
}

TEST(OnnxImportErrors, WrongInputCountNamesNode) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_node(1)->add_input("c");
  EXPECT_HAS(ImportError(m.Bytes()), "node 'relu' (Relu) has 2 inputs; Relu at opset 13 takes 1");
  ModelBuilder conv = ConvReluModel();
  conv.graph().mutable_node(0)->mutable_input()->RemoveLast();
  conv.graph().mutable_node(0)->mutable_input()->RemoveLast();
  EXPECT_HAS(ImportError(conv.Bytes()),
             "node 'conv' (Conv) has 1 inputs; Conv at opset 13 takes 2 to 3");
}

TEST(OnnxImportErrors, RequiredInputLeftEmpty) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_node(0)->set_input(1, "");
  EXPECT_HAS(ImportError(m.Bytes()), "node 'conv' (Conv): required input 1 is empty");
}

TEST(OnnxImportErrors, ValueInfoShapeDisagreesWithInitializer) {
  ModelBuilder m = ConvReluModel();
  m.ValueInfo("w", {"4", "3", "5", "5"});
  EXPECT_HAS(ImportError(m.Bytes()), "constant 'w' has shape [4,3,3,3] but is declared [4,3,5,5]");
}

TEST(OnnxImportErrors, InitializerListedAsInputWithAnotherShape) {
  ModelBuilder m = ConvReluModel();
  m.Input("b", {"5"});  // older exporters list initializers as inputs; this one disagrees
  EXPECT_HAS(ImportError(m.Bytes()), "initializer 'b' has shape [4] but is declared [5]");
}

TEST(OnnxImportErrors, RawDataOfTheWrongSize) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_initializer(1)->set_raw_data(std::string(12, '\0'));
  EXPECT_HAS(ImportError(m.Bytes()),
             "initializer 'b' f32[4] needs 16 bytes of raw_data but has 12");
}

TEST(OnnxImportErrors, ExternalDataIsRefusedWithAHint) {
  ModelBuilder m = ConvReluModel();
  ::onnx::TensorProto* w = m.graph().mutable_initializer(0);
  w->clear_raw_data();
  w->set_data_location(::onnx::TensorProto::EXTERNAL);
  auto* location = w->add_external_data();
  location->set_key("location");
  location->set_value("weights.bin");
  const std::string e = ImportError(m.Bytes(), ErrorKind::kUnimplemented);
  EXPECT_HAS(e, "initializer 'w' keeps its data in an external file");
  EXPECT_HAS(e, "save_as_external_data=False");
}

TEST(OnnxImportErrors, ANameThatIsNotUtf8IsRefused) {
  // onnx.proto is proto2, which keeps any bytes in a string; the binary's proto3 strings must be
  // UTF-8, or the program would not load.
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_node(0)->set_name("conv\xff");
  EXPECT_HAS(ImportError(m.Bytes()), "is not UTF-8 text");
}

TEST(OnnxImportErrors, UnsupportedElementType) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_initializer(1)->set_data_type(::onnx::TensorProto::FLOAT16);
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented),
             "initializer 'b' has element type FLOAT16");
}

TEST(OnnxImportErrors, DuplicateWritersAndUndefinedOutputs) {
  ModelBuilder dup = ConvReluModel();
  dup.Node("Relu", {"x"}, {"c"}, "again");
  EXPECT_HAS(ImportError(dup.Bytes()),
             "'c' is written by both node 'conv' (Conv) and node "
             "'again' (Relu)");
  ModelBuilder undefined = ConvReluModel();
  undefined.Output("z");
  EXPECT_HAS(ImportError(undefined.Bytes()), "graph output 'z' is not defined");
}

TEST(OnnxImportErrors, UnknownOpIsUnsupported) {
  ModelBuilder m = ConvReluModel();
  m.graph().mutable_node(1)->set_op_type("Celu");
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented),
             "node 'relu' (op Celu, domain ai.onnx, opset 13): op not supported");
}

TEST(OnnxImportErrors, EveryUnsupportedNodeIsListedInOneError) {
  ModelBuilder m(13);
  auto* ms = m.model().add_opset_import();
  ms->set_domain("com.microsoft");
  ms->set_version(1);
  m.Input("x", {"1", "3", "8", "8"});
  m.Node("Celu", {"x"}, {"a"}, "celu");
  m.Node("FusedConv", {"a"}, {"b"}, "fused").proto()->set_domain("com.microsoft");
  m.InitializerI64("pads", {8}, {0, 0, 1, 1, 0, 0, 1, 1});
  m.Node("Pad", {"b", "pads"}, {"c"}, "reflect").String("mode", "reflect");
  m.Node("Relu", {"c"}, {"d"}, "fine");
  m.Node("MaxPool", {"d"}, {"y", "indices"}, "with_indices").Ints("kernel_shape", {2, 2});
  m.Node("Conv", {"d", "d"}, {"z"}).Ints("kernel_shape", {3, 3, 3});  // unnamed, 3-D
  m.Input("training", {}, ::onnx::TensorProto::BOOL);
  m.Node("Dropout", {"d", "", "training"}, {"t"}, "dropout");
  m.Output("y");
  m.Output("z");
  m.Output("t");
  const std::string e = ImportError(m.Bytes(), ErrorKind::kUnimplemented);
  EXPECT_HAS(e, "graph 'test' has 6 unsupported nodes:");
  EXPECT_HAS(e, "node 'dropout' (op Dropout, domain ai.onnx, opset 13): a training_mode input");
  EXPECT_HAS(e, "node 'celu' (op Celu, domain ai.onnx, opset 13): op not supported");
  EXPECT_HAS(e, "node 'fused' (op FusedConv, domain com.microsoft, opset 1): only the default");
  EXPECT_HAS(e, "node 'reflect' (op Pad, domain ai.onnx, opset 13): mode 'reflect'");
  EXPECT_HAS(e, "node 'with_indices' (op MaxPool, domain ai.onnx, opset 13): only the first");
  EXPECT_HAS(e, "node 'Conv_5' (op Conv, domain ai.onnx, opset 13): 3-D kernel");
  EXPECT_EQ(e.find("'fine'"), std::string::npos);
}

TEST(OnnxImportErrors, ComputedClipBoundIsUnsupported) {
  ModelBuilder m;
  m.Input("x", {"1", "4"});
  m.Input("hi", {});
  m.Node("Clip", {"x", "", "hi"}, {"y"}, "clip");
  m.Output("y");
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented),
             "node 'clip' (op Clip, domain ai.onnx, opset 13): bound 'hi' is computed");
}

TEST(OnnxImportErrors, OpsetOutsideElevenToSeventeen) {
  for (int64_t opset : {9, 10, 18}) {
    const std::string e = ImportError(ConvReluModel(opset).Bytes(), ErrorKind::kUnimplemented);
    EXPECT_HAS(e, fmt::format("the model uses ONNX opset {}; supported: 11 to 17", opset));
  }
  ModelBuilder none = ConvReluModel();
  none.model().clear_opset_import();
  EXPECT_HAS(ImportError(none.Bytes()), "imports no opset of the default ONNX domain");
}

TEST(OnnxImportErrors, SoftmaxOfOpset11OverANonLastAxis) {
  ModelBuilder m(11);
  m.Input("x", {"2", "3", "4"});
  m.Node("Softmax", {"x"}, {"y"}, "softmax").Int("axis", 1);
  m.Output("y");
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented),
             "node 'softmax' (Softmax): Softmax of opset 11 over axis 1 of a rank-3 input");
}

TEST(OnnxImportErrors, SameAutoPadWithStridesNeedsTheInputSize) {
  ModelBuilder m;
  m.Input("x", {"1", "48"});
  m.InitializerI64("shape", {4}, {1, 3, 4, 4});
  m.Initializer("w", {2, 3, 3, 3}, std::vector<float>(54, 1.f));
  m.Node("Reshape", {"x", "shape"}, {"r"});
  m.Node("Conv", {"r", "w"}, {"y"}, "conv")
      .String("auto_pad", "SAME_UPPER")
      .Ints("strides", {2, 2});
  m.Output("y");
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented),
             "node 'conv' (Conv): auto_pad SAME_UPPER with strides [2,2] needs the input's "
             "spatial size");
}

TEST(OnnxImportErrors, ConstantWithASparseValueIsUnsupported) {
  ModelBuilder m;
  m.Input("x", {"1", "4"});
  m.Node("Constant", {}, {"k"}, "k").proto()->add_attribute()->set_name("sparse_value");
  m.Node("Add", {"x", "k"}, {"y"});
  m.Output("y");
  EXPECT_HAS(ImportError(m.Bytes(), ErrorKind::kUnimplemented), "Constant 'sparse_value'");
}

}  // namespace
}  // namespace npu::compiler
