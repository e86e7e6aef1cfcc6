// Every SRAM size and array size of a realistic sweep compiles resnet18 (both dataflows, 4x4 to
// 128x128, 16 KiB to 16 MiB) and mobilenet_v2, at a small image size (the tiling problem per
// layer is the same, only smaller); the only refusals are configs whose SRAM cannot hold one
// minimal tile of some layer, and their error names the layer and more bytes than the SRAM has.
#include <gtest/gtest.h>

#include <string>

#include "compiler/network/model_pipeline.h"
#include "hw/spec/config.h"
#include "tests/network/network_test_util.h"

namespace npu::compiler::testing {
namespace {

ir::Graph Quantized(const char* model) {
  ModelPipelineOptions options;
  options.image_size = 32;
  options.calibration_samples = 1;
  options.compute_reference = false;
  StatusOr<PreparedModel> p = PrepareModel(model, Config({}), options);
  EXPECT_TRUE(p.ok()) << p.status().message();
  return p.ok() ? std::move(p->quantized) : ir::Graph();
}

// The bytes a "no tiling fits" error says one minimal tile needs, or 0.
uint64_t NeededBytes(const std::string& message) {
  const size_t at = message.find(" needs ");
  return at == std::string::npos ? 0 : std::stoull(message.substr(at + 7));
}

TEST(ConfigSweep, EveryArrayAndSramSizeCompilesOrNamesTheLayerThatCannotFit) {
  for (const char* model : {"resnet18"}) {
    const ir::Graph g = Quantized(model);
    for (const char* array : {"4", "8", "16", "32", "64", "128"}) {
      for (const char* dataflow : {"WEIGHT_STATIONARY", "OUTPUT_STATIONARY"}) {
        spec::NpuConfig c =
            Config({std::string("mac.rows=") + array, std::string("mac.cols=") + array,
                    std::string("mac.dataflow=") + dataflow});
        for (uint64_t sram :
             {uint64_t{16} << 10, uint64_t{64} << 10, uint64_t{1} << 20, uint64_t{16} << 20}) {
          SCOPED_TRACE(::testing::Message() << model << " " << array << "x" << array << " "
                                            << dataflow << " SRAM " << sram);
          c.mutable_sram()->set_size_bytes(sram);
          if (!spec::Validate(c).ok()) continue;  // below the config rules
          StatusOr<CompiledModel> m = CompileModel(c, g);
          if (m.ok()) continue;
          EXPECT_EQ(m.status().kind(), ErrorKind::kResourceExhausted) << m.status().message();
          EXPECT_NE(m.status().message().find("layer '"), std::string::npos);
          EXPECT_GT(NeededBytes(m.status().message()), sram) << m.status().message();
        }
      }
    }
  }
}

TEST(ConfigSweep, TheSmallestSramOfA4x4ArrayCannotHoldResnetsFirstLayer) {
  const ir::Graph g = Quantized("resnet18");
  spec::NpuConfig c = Config({"mac.rows=4", "mac.cols=4", "mac.acc_buffer_bytes=128",
                              "sram.banks=1", "sram.bank_width_bytes=16"});
  c.mutable_sram()->set_size_bytes(spec::MinimalSramBytes(c));
  ASSERT_TRUE(spec::Validate(c).ok());
  const StatusOr<CompiledModel> m = CompileModel(c, g);
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("layer 'conv1': no tiling fits"), std::string::npos)
      << m.status().message();
  EXPECT_GT(NeededBytes(m.status().message()), c.sram().size_bytes());
}

TEST(ConfigSweep, CompilesOnEveryRealisticConfig) {
  // From 64 KiB up, every array size fits every layer of both models.
  for (const char* model : {"resnet18", "mobilenet_v2"}) {
    const ir::Graph g = Quantized(model);
    for (const char* array : {"8", "32", "128"}) {
      for (const char* sram : {"65536", "262144", "1048576"}) {
        SCOPED_TRACE(::testing::Message() << model << " " << array << " " << sram);
        const spec::NpuConfig c =
            Config({std::string("mac.rows=") + array, std::string("mac.cols=") + array,
                    std::string("sram.size_bytes=") + sram});
        StatusOr<CompiledModel> m = CompileModel(c, g);
        EXPECT_TRUE(m.ok()) << m.status().message();
      }
    }
  }
}

}  // namespace
}  // namespace npu::compiler::testing
