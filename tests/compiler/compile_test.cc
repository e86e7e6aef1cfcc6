// The compiled Program: DRAM layout, tensors, segments, layer report, encoding round trip,
// listing, determinism and the errors the entry point returns.
#include "compiler/compile.h"

#include <algorithm>
#include <span>

#include <gtest/gtest.h>

#include "compiler/codegen/constants.h"
#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/semantics.h"
#include "workloads/synthetic_conv.h"

namespace npu::compiler {
namespace {

ConvLayer Layer() {
  workloads::SyntheticConvSpec s;
  s.name = "block1";
  s.in_h = 12, s.in_w = 10, s.in_c = 16, s.out_c = 24, s.kernel_h = s.kernel_w = 3;
  s.stride_h = s.stride_w = 2;
  workloads::SetSamePadding(s);
  s.input_zero_point = -3;
  StatusOr<ConvLayer> l = workloads::MakeSyntheticConv(s);
  EXPECT_TRUE(l.ok()) << l.status().message();
  return *l;
}

CompiledLayer Compile(const spec::NpuConfig& config, const ConvLayer& layer) {
  StatusOr<CompiledLayer> c = CompileConvLayerDetailed(config, layer);
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? *std::move(c) : CompiledLayer{};
}

TEST(Compile, DramRegionsAreAlignedDisjointAndInsideTheImage) {
  const spec::NpuConfig config = spec::DefaultConfig();
  const spec::Program p = Compile(config, Layer()).program;
  ASSERT_EQ(p.dram_layout_size(), 5);
  std::vector<std::pair<uint32_t, uint32_t>> ranges;
  for (const spec::DramRegion& r : p.dram_layout()) {
    EXPECT_EQ(r.offset() % 64, 0u) << r.name();
    EXPECT_LE(uint64_t{r.offset()} + r.size_bytes(), p.dram_bytes()) << r.name();
    ranges.emplace_back(r.offset(), r.offset() + r.size_bytes());
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) EXPECT_LE(ranges[i - 1].second, ranges[i].first);
  EXPECT_EQ(p.dram_layout(0).kind(), "instructions");
  EXPECT_EQ(p.dram_layout(0).offset(), p.instruction_offset());
  EXPECT_EQ(p.dram_layout(0).size_bytes(), p.instructions().size());
  EXPECT_LE(p.dram_bytes(), config.dram().size_bytes());
}

TEST(Compile, DescribesTensorsSegmentsAndTheLayer) {
  const spec::NpuConfig config = spec::DefaultConfig();
  const ConvLayer layer = Layer();
  const CompiledLayer c = Compile(config, layer);
  const spec::Program& p = c.program;
  EXPECT_EQ(p.arch_fingerprint(), spec::Fingerprint(config));
  EXPECT_EQ(p.arch_name(), "default");
  EXPECT_EQ(p.model_name(), "block1");
  ASSERT_EQ(p.inputs_size(), 1);
  const spec::TensorDesc& in = p.inputs(0);
  EXPECT_EQ(std::vector<uint32_t>(in.shape().begin(), in.shape().end()),
            (std::vector<uint32_t>{1, 12, 10, 16}));
  EXPECT_EQ(in.dtype(), spec::INT8);
  EXPECT_EQ(in.layout(), "NHWC");
  EXPECT_EQ(in.size_bytes(), 12u * 10 * 16);
  EXPECT_EQ(in.zero_point(), -3);
  EXPECT_FLOAT_EQ(in.scale(), layer.input_scale);
  const spec::TensorDesc& out = p.outputs(0);
  EXPECT_EQ(std::vector<uint32_t>(out.shape().begin(), out.shape().end()),
            (std::vector<uint32_t>{1, 6, 5, 24}));
  EXPECT_FLOAT_EQ(out.scale(), layer.output_scale);
  ASSERT_EQ(p.constants_size(), 2);
  EXPECT_EQ(p.constants(0).name(), "block1.weights");
  EXPECT_EQ(p.constants(0).data().size(), layer.weights.size());
  EXPECT_EQ(p.constants(1).data().size(), 24u * spec::kActParamBytes);
  ASSERT_EQ(p.layers_size(), 1);
  const spec::LayerInfo& info = p.layers(0);
  EXPECT_EQ(info.op(), "conv2d");
  EXPECT_EQ(info.macs(), 6u * 5 * 24 * 9 * 16);
  EXPECT_EQ(info.instruction_count(), c.instructions.size());
  EXPECT_EQ(info.predicted_cycles(), c.cost.cycles);
  EXPECT_GT(info.predicted_cycles(), 0u);
  EXPECT_EQ(info.predicted_dram_bytes(), c.cost.dram_bytes());
  EXPECT_EQ(info.tiling(), ToString(c.tiling));
  EXPECT_EQ(info.peak_sram_bytes(), c.sram.sram_bytes);
}

TEST(Compile, ParamsCarryTheFoldedBias) {
  const ConvLayer layer = Layer();
  const spec::Program p = Compile(spec::DefaultConfig(), layer).program;
  const auto& data = p.constants(1).data();
  const std::span<const uint8_t> block(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  for (uint32_t n = 0; n < layer.out_c; ++n) {
    const spec::ActParams params = spec::ReadActParams(block, n);
    EXPECT_EQ(params.bias, *FoldedBias(layer, n));
    EXPECT_EQ(params.multiplier, layer.multiplier[n]);
    EXPECT_EQ(params.shift, layer.shift[n]);
  }
  int64_t sum = 0;
  for (uint64_t i = 0; i < layer.ReductionSize(); ++i) sum += layer.weights[i];
  EXPECT_EQ(*FoldedBias(layer, 0), layer.bias[0] + 3 * sum);
}

TEST(Compile, EncodingRoundTripsAndListsOneLinePerInstruction) {
  const CompiledLayer c = Compile(spec::DefaultConfig(), Layer());
  const StatusOr<std::vector<spec::Instruction>> decoded = DecodeInstructions(c.program);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, c.instructions);
  const std::string listing = ListInstructions(c.instructions);
  EXPECT_EQ(static_cast<size_t>(std::count(listing.begin(), listing.end(), '\n')),
            c.instructions.size());
  EXPECT_NE(listing.find("conv wait="), std::string::npos);
  const StatusOr<spec::Program> reopened = spec::OpenProgram(spec::SealProgram(c.program));
  ASSERT_TRUE(reopened.ok());
  EXPECT_EQ(reopened->SerializeAsString(), c.program.SerializeAsString());
}

TEST(Compile, IsDeterministic) {
  const spec::NpuConfig config = spec::DefaultConfig();
  EXPECT_EQ(CompileConvLayer(config, Layer())->SerializeAsString(),
            CompileConvLayer(config, Layer())->SerializeAsString());
}

TEST(Compile, RejectsBadConfigLayerAndDram) {
  spec::NpuConfig bad = spec::DefaultConfig();
  bad.mutable_mac()->set_rows(0);
  EXPECT_FALSE(CompileConvLayer(bad, Layer()).ok());
  ConvLayer malformed = Layer();
  malformed.bias.pop_back();
  const auto layer_error = CompileConvLayer(spec::DefaultConfig(), malformed);
  ASSERT_FALSE(layer_error.ok());
  EXPECT_NE(layer_error.status().message().find("layer 'block1'"), std::string::npos);
  workloads::SyntheticConvSpec big;
  big.name = "big";
  big.in_h = 512, big.in_w = 512, big.in_c = 8, big.out_c = 8;
  const spec::NpuConfig small_dram = *spec::ResolveConfig("", {"dram.size_bytes=1048576"});
  const auto dram_error = CompileConvLayer(small_dram, *workloads::MakeSyntheticConv(big));
  ASSERT_FALSE(dram_error.ok());
  EXPECT_EQ(dram_error.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(dram_error.status().message().find("layer 'big': the DRAM image needs"),
            std::string::npos)
      << dram_error.status().message();
}

TEST(Compile, InstructionStreamTooLargeForDramIsAnError) {
  // A 512-byte SRAM cuts a 96x96x16 layer into so many tiles that their instructions alone
  // exceed a 1 MiB DRAM; the search says so instead of emitting them.
  const spec::NpuConfig config = *spec::ResolveConfig(
      "", {"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=128", "sram.banks=1",
           "sram.bank_width_bytes=16", "sram.size_bytes=512", "dram.size_bytes=1048576"});
  workloads::SyntheticConvSpec s;
  s.name = "many";
  s.in_h = 96, s.in_w = 96, s.in_c = 16, s.out_c = 16, s.kernel_h = s.kernel_w = 3;
  workloads::SetSamePadding(s);
  const auto result = CompileConvLayer(config, *workloads::MakeSyntheticConv(s));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().kind(), ErrorKind::kResourceExhausted);
  EXPECT_NE(result.status().message().find("layer 'many': every tiling that fits SRAM needs so "
                                           "many instructions"),
            std::string::npos)
      << result.status().message();
}

TEST(Compile, FoldedBiasOverflowIsAnError) {
  ConvLayer layer = Layer();
  layer.bias[5] = INT32_MAX - 10;
  layer.input_zero_point = -100;
  for (uint64_t i = 0; i < layer.ReductionSize(); ++i)
    layer.weights[5 * layer.ReductionSize() + i] = 100;
  const auto result = CompileConvLayer(spec::DefaultConfig(), layer);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("channel 5"), std::string::npos);
}

TEST(Compile, ForcedTilingIsUsedOrExplained) {
  CompileOptions options;
  options.tiling = ConvTiling{2, 5, 8, 16, LoopOrder::kChannelOuter};
  const StatusOr<CompiledLayer> c =
      CompileConvLayerDetailed(spec::DefaultConfig(), Layer(), options);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->tiling, *options.tiling);
  options.tiling->tile_oc = 0;
  const auto bad = CompileConvLayerDetailed(spec::DefaultConfig(), Layer(), options);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("layer 'block1': forced tiling: tile_oc = 0"),
            std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace npu::compiler
