// Layer lists: the committed SCALE-Sim topology and GEMM list build the graphs and MAC counts
// SCALE-Sim gives them; every malformed file is refused with its file, line and field.
#include "workloads/models/layer_list.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "compiler/ir/fingerprint.h"
#include "compiler/passes/graph_stats.h"
#include "workloads/models/layer_list_csv.h"

namespace npu::workloads {
namespace {

namespace ir = compiler::ir;

std::string Topology(const std::string& file) {
  return std::string(NPU_SOURCE_DIR) + "/workloads/topologies/" + file;
}

ir::Graph Build(const std::string& path) {
  StatusOr<ir::Graph> g = BuildLayerList(path);
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : ir::Graph();
}

TEST(LayerList, RecognisesCsvPaths) {
  EXPECT_TRUE(IsLayerListPath("a/b.csv"));
  EXPECT_FALSE(IsLayerListPath(".csv"));
  EXPECT_FALSE(IsLayerListPath("resnet18"));
  EXPECT_FALSE(IsLayerListPath("model.onnx"));
}

TEST(LayerList, TopologyRowsAreIndependentConvs) {
  const ir::Graph g = Build(Topology("resnet18_convs.csv"));
  EXPECT_EQ(g.name(), "resnet18_convs");
  ASSERT_EQ(g.inputs().size(), 12u);
  ASSERT_EQ(g.outputs().size(), 12u);
  // conv1: 230x230x3, 7x7 stride 2, no padding -> 112x112x64.
  EXPECT_EQ(g.inputs()[0]->name(), "conv1.input");
  EXPECT_EQ(g.inputs()[0]->shape(), (ir::Shape{1, 3, 230, 230}));
  EXPECT_EQ(g.outputs()[0]->name(), "conv1");
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 64, 112, 112}));
  EXPECT_EQ(g.outputs()[11]->shape(), (ir::Shape{1, 1000, 1, 1}));
  EXPECT_EQ(compiler::passes::CountOps(g).at("conv"), 12);
  // The sum of ofmap pixels x filter taps x channels x filters, as SCALE-Sim counts.
  EXPECT_EQ(compiler::passes::CountMacs(g), 773'623'808);
}

TEST(LayerList, GemmRowsAreMatMulsByConstantWeights) {
  const ir::Graph g = Build(Topology("bert_base_gemms.csv"));
  ASSERT_EQ(g.outputs().size(), 6u);
  EXPECT_EQ(g.inputs()[0]->shape(), (ir::Shape{1, 128, 768}));    // A [M, K]
  EXPECT_EQ(g.outputs()[0]->shape(), (ir::Shape{1, 128, 2304}));  // C [M, N]
  const ir::Node* qkv = g.outputs()[0]->producer();
  EXPECT_EQ(qkv->kind(), ir::OpKind::kMatMul);
  EXPECT_EQ(qkv->name(), "qkv_proj");
  EXPECT_EQ(qkv->input(1)->shape(), (ir::Shape{768, 2304}));  // B [K, N]
  EXPECT_EQ(compiler::passes::CountMacs(g), 908'066'816);     // sum of M x N x K
}

TEST(LayerList, WeightsAreSeeded) {
  EXPECT_EQ(ir::GraphFingerprint(Build(Topology("bert_base_gemms.csv"))),
            ir::GraphFingerprint(Build(Topology("bert_base_gemms.csv"))));
}

TEST(LayerList, TrailingCommaCaseSpacesAndBlankLinesAreFree) {
  const std::string text =
      "layer name,ifmap height,IFMAP WIDTH,  Filter Height ,Filter Width,Channels,Num Filter,"
      "Strides\r\n\r\n  a , 8,9,3,2,4,5,2\r\nb,4,4,1,1,1,1,1,\n\n";
  StatusOr<std::vector<LayerRow>> rows = ParseLayerList(text, "t.csv");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].name, "a");
  EXPECT_EQ((*rows)[0].line, 3);
  const ConvRow& a = std::get<ConvRow>((*rows)[0].shape);
  EXPECT_EQ(a.OfmapH(), 3);  // (8 - 3) / 2 + 1
  EXPECT_EQ(a.OfmapW(), 4);  // (9 - 2) / 2 + 1
  EXPECT_EQ(LayerMacs((*rows)[0]), 3 * 4 * 3 * 2 * 4 * 5);
}

TEST(LayerList, GemmHeaderMayNameTheLayerColumnLikeSCALESim) {
  StatusOr<std::vector<LayerRow>> rows =
      ParseLayerList("Layer name,M,N,K,\nL0,196,192,384,\n", "g");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  EXPECT_EQ(LayerMacs((*rows)[0]), 196 * 192 * 384);
}

constexpr char kConvHeader[] =
    "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
    "Strides,\n";

std::string Conv(const std::string& rows) { return kConvHeader + rows; }

TEST(LayerList, MalformedFilesNameFileLineAndField) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "t.csv: empty file, no header"},
      {"\n  \n", "t.csv: empty file, no header"},
      {Conv(""), "t.csv: no layers: the header (line 1) is the only line"},
      {"name,height\nx,1\n", "t.csv:1: unknown header 'name,height'"},
      {"Layer,X,Y,Z,\n", "t.csv:1: unknown header"},
      {"Layer name, IFMAP Height, IFMAP Width, Filter Heigt,\n",
       "t.csv:1: header: column 4 is 'Filter Heigt', expected 'Filter Height'"},
      {"Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter\n",
       "t.csv:1: header: missing column 8 'Strides'"},
      {"Layer, M, N, K, Batch,\n", "t.csv:1: header: unexpected column 5 'Batch'"},
      {Conv("a,8,8,3,3,4,4,\n"), "t.csv:2: 7 fields, expected 8"},
      {Conv("a,8,8,3,3,4,4,\n"), "missing column 8 'Strides'"},
      {Conv("a,8,8,3,3,4,4,1,1,\n"), "t.csv:2: 9 fields, expected 8"},
      {Conv("a,8,abc,3,3,4,4,1,\n"), "t.csv:2: field 3 (IFMAP Width): 'abc' is not an integer"},
      {Conv("a,8,8,3.5,3,4,4,1,\n"), "field 4 (Filter Height): '3.5' is not an integer"},
      {Conv("a,8,8,3,3,,4,1,\n"), "field 6 (Channels): '' is not an integer"},
      {Conv("a,8,8,3,3,0,4,1,\n"), "field 6 (Channels): 0 must be positive"},
      {Conv("a,8,8,3,3,4,-2,1,\n"), "field 7 (Num Filter): -2 must be positive"},
      {Conv("a,8,8,3,3,4,4,0,\n"), "t.csv:2: field 8 (Strides): 0 must be positive"},
      {Conv("a,99999999999999999999,8,3,3,4,4,1,\n"),
       "field 2 (IFMAP Height): '99999999999999999999' does not fit a 64-bit integer"},
      {Conv("a,65537,8,3,3,4,4,1,\n"), "field 2 (IFMAP Height): 65537 is above the limit of 65536"},
      {Conv("a,5,8,7,3,4,4,1,\n"),
       "t.csv:2: field 4 (Filter Height): 7 is larger than the IFMAP Height 5 (no padding)"},
      {Conv("a,8,2,3,3,4,4,1,\n"), "field 5 (Filter Width): 3 is larger than the IFMAP Width 2"},
      {Conv("a,3,3,3,3,8192,2,1,\n"),
       "t.csv:2: field 6 (Channels): 8192 channels x 3x3 filter sums 73728 int8 products per "
       "output; an int32 accumulator holds at most 65535"},
      {"Layer,M,N,K,\ng,1,1,65536,\n", "t.csv:2: field 4 (K): K = 65536 sums 65536 int8 products"},
      {Conv("a,8,8,3,3,4,4,1,\nb,8,8,3,3,4,4,1,\na,8,8,3,3,4,4,1,\n"),
       "t.csv:4: field 1 (Layer name): duplicate layer name 'a' (first on line 2)"},
      {Conv("../x,8,8,3,3,4,4,1,\n"),
       "t.csv:2: field 1 (Layer name): layer name '../x': only letters, digits, '_' and '-' are "
       "allowed, not '.'"},
      {Conv("a/b,8,8,3,3,4,4,1,\n"), "not '/'"},
      {Conv(",8,8,3,3,4,4,1,\n"), "field 1 (Layer name): the layer name is empty"},
      {Conv(std::string(129, 'n') + ",8,8,3,3,4,4,1,\n"), "has 129 characters; the limit is 128"},
      // 65535 channels x 32768 filters, twice: each fits, the list does not.
      {Conv("a,1,1,1,1,65535,32768,1,\nb,1,1,1,1,65535,32768,1,\n"),
       "t.csv:3: layer 'b': the list's inputs, weights and outputs reach 4295163902 elements, "
       "above the limit of 4294967296"},
      {"Layer,M,N,K,\ng,65536,65536,65535,\n", "t.csv:2: layer 'g'"},
  };
  for (const auto& [text, error] : cases) {
    StatusOr<std::vector<LayerRow>> rows = ParseLayerList(text, "t.csv");
    ASSERT_FALSE(rows.ok()) << text;
    EXPECT_EQ(rows.status().kind(), ErrorKind::kInvalidArgument) << text;
    EXPECT_NE(rows.status().message().find(error), std::string::npos)
        << "for:\n"
        << text << "\ngot: " << rows.status().message() << "\nexpected: " << error;
  }
}

TEST(LayerList, UnreadableFilesAreRefusedByName) {
  StatusOr<ir::Graph> missing = BuildLayerList("/nonexistent/list.csv");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot open layer list '/nonexistent/list.csv'"),
            std::string::npos)
      << missing.status().message();
  const std::string dir = testing::TempDir() + "/dir.csv";
  std::filesystem::create_directories(dir);
  StatusOr<ir::Graph> directory = BuildLayerList(dir);
  ASSERT_FALSE(directory.ok());
  EXPECT_NE(directory.status().message().find("is a directory, not a file"), std::string::npos)
      << directory.status().message();
}

}  // namespace
}  // namespace npu::workloads
