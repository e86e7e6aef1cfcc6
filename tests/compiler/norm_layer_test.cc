// The layer normalisation layer: its checks, its tiling (chunks of whole pixels, the records
// loaded once) and its instructions.
#include "compiler/layer/norm_layer.h"

#include <gtest/gtest.h>

#include "compiler/schedule/eltwise_emitter.h"
#include "compiler/tiling/eltwise_tiling.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

void ExpectError(const Status& s, const std::string& needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

NormLayer Layer(uint32_t h, uint32_t w, uint32_t c) {
  NormLayer l;
  l.name = "ln";
  l.h = h, l.w = w, l.c = c;
  l.channels.assign(c, {3, -40, 1 << 30, 40});
  l.in_zero_point = 2, l.out_zero_point = -1, l.eps_term = 77;
  return l;
}

TEST(NormLayer, RecordsPerChannelWithinLnormsFields) {
  EXPECT_TRUE(CheckNormLayer(Layer(2, 3, 8)).ok());
  NormLayer l = Layer(2, 3, 8);
  l.channels.pop_back();
  ExpectError(CheckNormLayer(l), "layer 'ln': 7 channel records for 8 channels");
  l = Layer(2, 3, 8);
  l.channels[5].gamma = 128;
  ExpectError(CheckNormLayer(l), "channel 5: gamma 128");
  l = Layer(2, 3, 8);
  l.channels[1].shift = 0;
  ExpectError(CheckNormLayer(l), "channel 1");
  ExpectError(CheckNormLayer(Layer(1, 1, 70000)), "70000 channels; LNORM normalises at most 65535");
  l = Layer(2, 3, 8);
  l.out_zero_point = 200;
  ExpectError(CheckNormLayer(l), "outside int8");
  // The records LNORM reads: the channel's constants back.
  const std::vector<uint8_t> records = Layer(1, 1, 8).ParamRecords();
  ASSERT_EQ(records.size(), 8 * spec::kLnormParamBytes);
  EXPECT_EQ(spec::ReadLnormParams(records, 7).beta, -40);
  EXPECT_EQ(spec::ReadLnormParams(records, 7).gamma, 3);
}

TEST(NormLayer, ChunksAreWholePixelsAfterTheRecords) {
  const NormLayer l = Layer(4, 5, 24);
  const spec::NpuConfig config = spec::DefaultConfig();
  // 24 records (384 B) and two slots of a row (120 B each) fit 1 KiB.
  StatusOr<VectorChoice<NormTiling>> c = ChooseNormTiling(config, l, {}, 1024);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->tiling.chunk % l.c, 0u);
  EXPECT_LE(c->plan.sram_bytes, 1024u);
  const std::vector<spec::Instruction> insns =
      EmitNorm(l, c->tiling, c->plan, {{false, 0, 24}, {false, 4096, 24}, 8192});
  ASSERT_FALSE(insns.empty());
  EXPECT_EQ(insns.front().opcode, spec::Opcode::kLoad);  // the records first
  uint64_t pixels = 0;
  for (const spec::Instruction& insn : insns) {
    if (const auto* n = std::get_if<spec::LnormArgs>(&insn.args)) {
      EXPECT_EQ(n->channels, 24u);
      EXPECT_EQ(n->param_addr, c->plan.table.base);
      EXPECT_EQ(n->eps_term, 77u);
      pixels += n->pixels;
    }
  }
  EXPECT_EQ(pixels, 20u);
  // Records and one slot of one pixel need more than 400 bytes: LNORM never cuts a pixel.
  ExpectError(ChooseNormTiling(config, l, {}, 400).status(), "layer 'ln': no tiling fits: one pixel");
}

}  // namespace
}  // namespace npu::compiler
