// Copy layers that shuffle channels: their checks, whole-pixel tilings, and an emission that
// moves exactly the permutation's bytes between channel slices, in DRAM or SRAM or one of each,
// executed here by the ISA's own description of LOAD, STORE and LUT (docs/isa.md), not by the
// simulator's code.
#include "compiler/layer/copy_layer.h"

#include <gtest/gtest.h>

#include <vector>

#include "compiler/schedule/eltwise_emitter.h"
#include "compiler/tiling/eltwise_tiling.h"
#include "hw/spec/config.h"

namespace npu::compiler {
namespace {

void ExpectError(const Status& s, const std::string& needle) {
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(needle), std::string::npos) << s.message();
}

// DRAM and SRAM as ints, so an untouched byte (-1) shows.
struct Memory {
  std::vector<int> dram = std::vector<int>(4096, -1), sram = std::vector<int>(4096, -1);
  int loads = 0, stores = 0, luts = 0;

  // Byte k of run (i2, i1) is at dram_offset + i2*dram_stride2 + i1*dram_stride1 + k in DRAM and
  // sram_addr + i2*sram_stride2 + i1*sram_stride1 + k*max(sram_elem_stride, 1) in SRAM.
  void Run(const spec::Instruction& insn) {
    if (const auto* l = std::get_if<spec::LutArgs>(&insn.args)) {
      ASSERT_TRUE(l->bypass && l->channels > 0);
      ++luts;
      std::vector<int> in(l->count);  // read before written
      for (uint64_t i = 0; i < l->count; ++i) {
        in[i] = sram.at(l->in_addr + i / l->channels * l->in_pixel_stride + i % l->channels);
      }
      for (uint64_t i = 0; i < l->count; ++i) {
        sram.at(l->out_addr + i / l->channels * l->out_pixel_stride +
                i % l->channels * l->out_elem_stride) = in[i];
      }
      return;
    }
    const auto& d = std::get<spec::DmaArgs>(insn.args);
    const bool load = insn.opcode == spec::Opcode::kLoad;
    (load ? loads : stores) += 1;
    const uint64_t step = d.sram_elem_stride > 1 ? d.sram_elem_stride : 1;
    for (uint64_t i2 = 0; i2 < d.n2; ++i2) {
      for (uint64_t i1 = 0; i1 < d.n1; ++i1) {
        for (uint64_t k = 0; k < d.run_bytes; ++k) {
          int& at_dram = dram.at(d.dram_offset + i2 * d.dram_stride2 + i1 * d.dram_stride1 + k);
          int& at_sram =
              sram.at(d.sram_addr + i2 * d.sram_stride2 + i1 * d.sram_stride1 + k * step);
          (load ? at_sram : at_dram) = load ? at_dram : at_sram;
        }
      }
    }
  }
};

TEST(CopyLayer, AShufflesGroupDividesItsChannelsAndFitsTheElementStride) {
  EXPECT_TRUE(CheckCopyLayer({"s", 2, 3, 12, 4}).ok());
  ExpectError(CheckCopyLayer({"s", 2, 3, 12, 5}), "layer 's': group 5 must divide the 12");
  ExpectError(CheckCopyLayer({"s", 2, 3, 12, 0}), "group 0");
  ExpectError(CheckCopyLayer({"s", 1, 1, 512, 256}), "at most 255");
}

TEST(CopyLayer, AShufflesChunksAreWholePixels) {
  const CopyLayer shuffle{"s", 1, 6, 10, 2};
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<VectorChoice<CopyTiling>> c = ChooseCopyTiling(config, shuffle, {}, 64);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->tiling.chunk % 10, 0u);
  EXPECT_LE(c->plan.sram_bytes, 64u);
  // 19 bytes hold no two slots of a pixel; a plain copy would cut it in parts.
  ExpectError(ChooseCopyTiling(config, shuffle, {}, 19).status(), "no tiling fits: one pixel");
  EXPECT_TRUE(ChooseCopyTiling(config, CopyLayer{"c", 1, 6, 10}, {}, 19).ok());
}

TEST(CopyLayer, AShuffleMovesExactlyThePermutationsBytesBetweenChannelSlices) {
  // 3x5 pixels of 12 channels in 3 groups, from channels [4, 16) of a 20-channel tensor at 0 to
  // channels [2, 14) of a 16-channel tensor at 2000, in chunks a 100-byte budget allows.
  const CopyLayer shuffle{"s", 3, 5, 12, 3};
  const TensorPlace in{false, 0, 20, 4}, out{false, 2000, 16, 2};
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<VectorChoice<CopyTiling>> c = ChooseCopyTiling(config, shuffle, {}, 100);
  ASSERT_TRUE(c.ok()) << c.status().message();
  Memory m;
  for (uint64_t p = 0; p < 15; ++p) {
    for (uint64_t ch = 0; ch < 20; ++ch) m.dram[p * 20 + ch] = int(p * 100 + ch);
  }
  const std::vector<int> source(m.dram.begin(), m.dram.begin() + 2000);
  for (const spec::Instruction& insn : EmitCopy(shuffle, c->tiling, c->plan, {in, out})) {
    m.Run(insn);
  }
  EXPECT_GT(m.loads, 1);  // several chunks
  EXPECT_EQ(m.loads, m.stores);
  EXPECT_EQ(std::vector<int>(m.dram.begin(), m.dram.begin() + 2000), source);  // input intact
  for (uint64_t p = 0; p < 15; ++p) {
    for (uint64_t ch = 0; ch < 16; ++ch) {
      const int got = m.dram[2000 + p * 16 + ch];
      if (ch < 2 || ch >= 14) {
        EXPECT_EQ(got, -1) << "pixel " << p << " channel " << ch << " is outside the slice";
        continue;
      }
      const uint64_t j = (ch - 2) / 3, i = (ch - 2) % 3;  // y[j*3 + i] = x[i*4 + j]
      EXPECT_EQ(got, int(p * 100 + 4 + i * 4 + j)) << "pixel " << p << " channel " << ch;
    }
  }
}

// Channels [4, 10) of a 2-group shuffle of a 3x5 plane of 16 channels (groups 8 apart: input
// channels 2..4 and 10..12) into channels [1, 7) of an 8-channel tensor, with each operand in DRAM
// or SRAM: LOADs and STOREs move the DRAM sides, LUTs with bypass the SRAM sides (one a group
// from an on-chip input), and the bytes are the window's wherever they are.
TEST(CopyLayer, AShuffleWindowMovesTheSameBytesFromAndToEitherMemory) {
  CopyLayer window{"w", 3, 5, 6, 2};
  window.group_stride = 8, window.group_offset = 2;
  ASSERT_TRUE(CheckCopyLayer(window).ok());
  const spec::NpuConfig config = spec::DefaultConfig();
  for (const bool in_sram : {false, true}) {
    for (const bool out_sram : {false, true}) {
      const TensorPlace in{in_sram, in_sram ? 1000u : 0u, 16, 0};
      const TensorPlace out{out_sram, 2000, 8, 1};
      StatusOr<VectorChoice<CopyTiling>> c =
          ChooseCopyTiling(config, window, CopyTiling{1, in_sram, out_sram}, 100);
      ASSERT_TRUE(c.ok()) << c.status().message();
      EXPECT_EQ(c->tiling.chunk % 6, 0u);  // whole pixels
      if (in_sram && out_sram) {
        EXPECT_EQ(c->plan.sram_bytes, 0u);  // no slot between them
      }
      Memory m;
      std::vector<int>& from = in_sram ? m.sram : m.dram;
      for (uint64_t p = 0; p < 15; ++p) {
        for (uint64_t ch = 0; ch < 16; ++ch) from[in.addr + p * 16 + ch] = int(p * 100 + ch);
      }
      for (const spec::Instruction& insn : EmitCopy(window, c->tiling, c->plan, {in, out})) {
        m.Run(insn);
      }
      EXPECT_EQ(m.loads, in_sram ? 0 : m.stores + (out_sram ? m.luts : 0));
      EXPECT_EQ(m.luts > 0, in_sram || out_sram);
      const std::vector<int>& to = out_sram ? m.sram : m.dram;
      for (uint64_t p = 0; p < 15; ++p) {
        for (uint64_t ch = 0; ch < 8; ++ch) {
          const int got = to[out.addr + p * 8 + ch];
          if (ch < 1 || ch >= 7) {
            EXPECT_EQ(got, -1) << "pixel " << p << " channel " << ch << " is outside the slice";
            continue;
          }
          const uint64_t j = (ch - 1) / 2, i = (ch - 1) % 2;  // y[j*2 + i] = x[i*8 + 2 + j]
          EXPECT_EQ(got, int(p * 100 + i * 8 + 2 + j))
              << in_sram << out_sram << " pixel " << p << " channel " << ch;
        }
      }
    }
  }
}

// A plain copy of a dense on-chip input into channels [3, 9) of a 12-channel tensor in DRAM (a
// channel group's output into its slice of a concatenation): its STOREs read the input where it
// is, with no LUT moving it into a slot first, and write exactly the slice. A strided on-chip
// input still goes through the slot.
TEST(CopyLayer, ADenseOnChipInputIsStoredStraightIntoItsSlice) {
  const CopyLayer copy{"c", 4, 5, 6};
  const spec::NpuConfig config = spec::DefaultConfig();
  StatusOr<VectorChoice<CopyTiling>> c =
      ChooseCopyTiling(config, copy, CopyTiling{1, true, false}, 60);
  ASSERT_TRUE(c.ok()) << c.status().message();
  for (const uint32_t in_channels : {6u, 8u}) {
    SCOPED_TRACE(in_channels);
    const TensorPlace in{true, 1000, in_channels, 0}, out{false, 0, 12, 3};
    Memory m;
    for (uint64_t p = 0; p < 20; ++p) {
      for (uint64_t ch = 0; ch < in_channels; ++ch)
        m.sram[in.addr + p * in_channels + ch] = int(p * 100 + ch);
    }
    for (const spec::Instruction& insn : EmitCopy(copy, c->tiling, c->plan, {in, out})) {
      m.Run(insn);
    }
    EXPECT_EQ(m.loads, 0);
    EXPECT_GT(m.stores, 1);  // several chunks
    EXPECT_EQ(m.luts, in_channels == 6 ? 0 : m.stores);
    for (uint64_t p = 0; p < 20; ++p) {
      for (uint64_t ch = 0; ch < 12; ++ch) {
        const int got = m.dram[p * 12 + ch];
        EXPECT_EQ(got, ch < 3 || ch >= 9 ? -1 : int(p * 100 + ch - 3))
            << "pixel " << p << " channel " << ch;
      }
    }
  }
}

}  // namespace
}  // namespace npu::compiler
