// Instruction encoding: round trips, field limits, reserved bits, and docs/isa.md kept true.
#include "hw/spec/isa.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

namespace npu::spec {
namespace {

// One opcode per layout (STORE is LOAD's).
constexpr Opcode kLayouts[] = {Opcode::kLoad,    Opcode::kConv, Opcode::kAct,   Opcode::kPool,
                               Opcode::kEltwise, Opcode::kLut,  Opcode::kResize, Opcode::kDwConv,
                               Opcode::kLnorm};

Instruction RandomInstruction(std::mt19937& rng) {
  auto bits = [&](int w) { return static_cast<uint32_t>(rng() & ((uint64_t{1} << w) - 1)); };
  auto sbits = [&](int w) {
    return static_cast<int32_t>(int64_t{bits(w)} - (int64_t{1} << (w - 1)));
  };
  const Opcode op = static_cast<Opcode>(1 + rng() % 10);
  Instruction insn{op, 0, 0, DmaArgs{}};
  const uint8_t others = uint8_t(0xF & ~(1u << static_cast<int>(QueueOf(op))));
  insn.wait_mask = uint8_t(bits(4) & others);
  insn.signal_mask = uint8_t(bits(4) & others);
  if (op == Opcode::kLoad || op == Opcode::kStore) {
    insn.args = DmaArgs{bits(32), bits(24), bits(16), bits(16), bits(16),
                        bits(32), bits(32), bits(24), bits(24), op == Opcode::kLoad ? bits(8) : 0};
  } else if (op == Opcode::kConv) {
    insn.args = ConvArgs{bits(24),     bits(12),     bits(12),     bits(16), bits(8),  bits(8),
                         sbits(8),     bits(4),      bits(4),      bits(4),  bits(4),  bits(4),
                         bits(4),      bits(12),     bits(12),     bits(16), bits(24), bits(20),
                         bits(1) != 0, bits(1) != 0, bits(1) != 0, sbits(8), sbits(8)};
  } else if (op == Opcode::kPool) {
    insn.args =
        PoolArgs{bits(24), bits(12), bits(12),  bits(16), bits(4),  bits(4),  bits(8), bits(8),
                 bits(4),  bits(4),  bits(12),  bits(12), bits(24), bits(16), bits(2), bits(1) != 0,
                 sbits(8), sbits(8), sbits(32), bits(6),  sbits(8), sbits(8), bits(1) != 0,
                 bits(1) != 0};
  } else if (op == Opcode::kEltwise) {
    insn.args = EltwiseArgs{bits(24), bits(24), bits(24), bits(24),     bits(2),      bits(2),
                            bits(16), sbits(8), sbits(8), sbits(8),     sbits(32),    sbits(16),
                            bits(6),  sbits(8), sbits(8), bits(1) != 0, bits(1) != 0, bits(1) != 0};
  } else if (op == Opcode::kLut) {
    insn.args = LutArgs{bits(24), bits(24), bits(24), bits(24), bits(1) != 0,
                        bits(16), bits(16), bits(16), bits(8),  bits(1) != 0};
  } else if (op == Opcode::kResize) {
    insn.args = ResizeArgs{bits(24), bits(16), bits(16), bits(16), bits(16), bits(16),
                           bits(16), bits(24), bits(16), bits(24), bits(24), sbits(8)};
  } else if (op == Opcode::kDwConv) {
    insn.args = DwConvArgs{bits(24), bits(12), bits(12), bits(12), bits(4),      bits(4),
                           sbits(8), bits(4),  bits(4),  bits(3),  bits(3),      bits(3),
                           bits(3),  bits(12), bits(12), bits(24), bits(24),     bits(24),
                           bits(12), sbits(8), sbits(8), sbits(8), bits(1) != 0, bits(11)};
  } else if (op == Opcode::kLnorm) {
    insn.args = LnormArgs{bits(24), bits(24), bits(24), bits(24), bits(16),
                          sbits(8), sbits(8), bits(32), sbits(8), sbits(8)};
  } else {
    insn.args = ActArgs{bits(20), bits(20), bits(16), bits(24), bits(24),    bits(16),
                        sbits(8), sbits(8), sbits(8), bits(24), bits(1) != 0};
  }
  return insn;
}

TEST(Isa, RandomInstructionsRoundTrip) {
  std::mt19937 rng(7);
  for (int i = 0; i < 5000; ++i) {
    const Instruction insn = RandomInstruction(rng);
    StatusOr<InsnWord> word = Encode(insn);
    ASSERT_TRUE(word.ok()) << word.status().message();
    StatusOr<Instruction> back = Decode(word->data());
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_EQ(*back, insn) << Disassemble(insn);
  }
}

std::string KeyOf(const Instruction& insn) {
  std::string key;
  AppendKey(insn, key);
  return key;
}

TEST(Isa, AppendKeyIsEqualForEqualInstructionsOnly) {
  std::mt19937 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const Instruction insn = RandomInstruction(rng);
    const InsnWord word = *Encode(insn);
    EXPECT_EQ(KeyOf(insn), KeyOf(*Decode(word.data())));
    // Every instruction one bit away (that decodes) has another key.
    for (int bit = 0; bit < int(kInsnBytes) * 8; ++bit) {
      InsnWord other = word;
      other[bit / 8] ^= uint8_t(1u << (bit % 8));
      const StatusOr<Instruction> changed = Decode(other.data());
      if (changed.ok()) {
        EXPECT_NE(KeyOf(*changed), KeyOf(insn)) << Disassemble(*changed);
      }
    }
  }
}

TEST(Isa, FieldOverflowIsRefusedNamingTheField) {
  ConvArgs conv;
  conv.kernel_h = 16;
  const StatusOr<InsnWord> w = Encode({Opcode::kConv, 0, 0, conv});
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("kernel_h = 16 does not fit in 4 bits"), std::string::npos);
  ActArgs act;
  act.clamp_min = -129;
  EXPECT_NE(Encode({Opcode::kAct, 0, 0, act}).status().message().find("clamp_min"),
            std::string::npos);
}

// Encodes `insn` expecting the error to name `what`.
void ExpectOverflow(const Instruction& insn, const std::string& what) {
  const StatusOr<InsnWord> w = Encode(insn);
  ASSERT_FALSE(w.ok()) << what;
  EXPECT_NE(w.status().message().find(what), std::string::npos) << w.status().message();
}

TEST(Isa, NewFieldsOverflowNamingTheField) {
  EltwiseArgs e;
  e.op = 4;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "eltwise: field op = 4 does not fit in 2 bits");
  e = {}, e.broadcast = 4;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "broadcast = 4 does not fit in 2 bits");
  e = {}, e.channels = 65536;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "channels = 65536 does not fit in 16 bits");
  e = {}, e.b_multiplier = 32768;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "b_multiplier = 32768 does not fit in 16 signed");
  e = {}, e.b_multiplier = -32769;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "b_multiplier = -32769");
  e = {}, e.a_multiplier = INT32_MIN;  // the full 32-bit range fits
  EXPECT_TRUE(Encode({Opcode::kEltwise, 0, 0, e}).ok());
  e = {}, e.count = 1u << 24;
  ExpectOverflow({Opcode::kEltwise, 0, 0, e}, "count = 16777216 does not fit in 24 bits");
  LutArgs l;
  l.table_addr = 1u << 24;
  ExpectOverflow({Opcode::kLut, 0, 0, l}, "lut: field table_addr = 16777216");
  l = {}, l.count = 1u << 24;
  ExpectOverflow({Opcode::kLut, 0, 0, l}, "count = 16777216 does not fit in 24 bits");
  ActArgs a;
  a.table_addr = 1u << 24;
  ExpectOverflow({Opcode::kAct, 0, 0, a}, "act: field table_addr = 16777216");
  ConvArgs c;
  c.in_zero_point = 128;
  ExpectOverflow({Opcode::kConv, 0, 0, c}, "conv: field in_zero_point = 128 does not fit");
  c = {}, c.wt_zero_point = -129;
  ExpectOverflow({Opcode::kConv, 0, 0, c}, "wt_zero_point = -129 does not fit in 8 signed");
  c = {}, c.in_zero_point = -128, c.wt_zero_point = 127;  // the full int8 range fits
  EXPECT_TRUE(Encode({Opcode::kConv, 0, 0, c}).ok());
}

// The matrix-product fields sit after depthwise, in the bits that were reserved (an old CONV
// word, with them zero, decodes to the same instruction), and disassemble by name.
TEST(Isa, ConvZeroPointsAndWeightsKn) {
  ConvArgs c;
  c.in_h = c.in_w = c.in_c = c.out_h = c.out_w = c.out_c = 1;
  c.weights_kn = true;
  c.in_zero_point = -3;
  c.wt_zero_point = 5;
  StatusOr<InsnWord> w = Encode({Opcode::kConv, 0, 0, c});
  ASSERT_TRUE(w.ok());
  // Bit 214 (byte 26, bit 6); in_zero_point -3 = 0xFD at bits 215..222; wt_zero_point 5 at
  // 223..230.
  EXPECT_EQ((*w)[26] >> 6 & 1, 1);
  EXPECT_EQ(((*w)[26] >> 7 | (*w)[27] << 1) & 0xFF, 0xFD);
  EXPECT_EQ(((*w)[27] >> 7 | (*w)[28] << 1) & 0xFF, 5);
  EXPECT_EQ((*w)[28] >> 7, 0);  // reserved from bit 231 on
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<ConvArgs>(back->args), c);
  EXPECT_NE(Disassemble(*back).find("weights_kn=1 in_zero_point=-3 wt_zero_point=5"),
            std::string::npos)
      << Disassemble(*back);
}

TEST(Isa, NewInstructionsDecodeAndDisassemble) {
  LutArgs l{1, 2, 3, 4};
  StatusOr<InsnWord> w = Encode({Opcode::kLut, 0, 0, l});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)[0], 7);
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->queue(), Queue::kVector);
  EXPECT_EQ(Disassemble(*back),
            "lut wait=- signal=- in_addr=1 out_addr=2 table_addr=3 count=4 fp16_out=0 "
            "channels=0 in_pixel_stride=0 out_pixel_stride=0 out_elem_stride=0 bypass=0");
  EltwiseArgs e;
  e.op = uint32_t(EltwiseOp::kMin), e.broadcast = uint32_t(Broadcast::kPixel);
  e.a_multiplier = -(1 << 30), e.b_multiplier = -5, e.clamp_min = -7;
  w = Encode({Opcode::kEltwise, 1, 8, e});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)[0], 6);
  back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<EltwiseArgs>(back->args), e);
  EXPECT_NE(Disassemble(*back).find("eltwise wait=L signal=S a_addr=0"), std::string::npos);
  InsnWord unknown{};
  unknown[0] = 11;
  EXPECT_NE(Decode(unknown.data()).status().message().find("unknown opcode 11"), std::string::npos);
}

TEST(Isa, DwConvEncodesDecodesAndDisassemblesOnTheVectorQueue) {
  DwConvArgs d{1,  2,  3,  4,  5,   6,   -7,  8,  9,   7,   5,   6,
               3,  14, 15, 16, 17,  18,  19,  -20, -21, 22, true, 2047};
  StatusOr<InsnWord> w = Encode({Opcode::kDwConv, 2, 8, d});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ((*w)[0], 9);
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->queue(), Queue::kVector);
  EXPECT_EQ(std::get<DwConvArgs>(back->args), d);
  EXPECT_EQ(Disassemble(*back),
            "dwconv wait=C signal=S in_addr=1 in_h=2 in_w=3 channels=4 pad_top=5 pad_left=6 "
            "pad_value=-7 kernel_h=8 kernel_w=9 stride_h=7 stride_w=5 dilation_h=6 "
            "dilation_w=3 out_h=14 out_w=15 wt_addr=16 param_addr=17 out_addr=18 "
            "out_pixel_stride=19 out_zero_point=-20 clamp_min=-21 clamp_max=22 use_table=1 "
            "in_pixel_stride=2047");
  d = {}, d.channels = 1u << 12;
  ExpectOverflow({Opcode::kDwConv, 0, 0, d},
                 "dwconv: field channels = 4096 does not fit in 12 bits");
  d = {}, d.stride_h = 8;
  ExpectOverflow({Opcode::kDwConv, 0, 0, d}, "dwconv: field stride_h = 8 does not fit in 3 bits");
  d = {}, d.in_pixel_stride = 2048;
  ExpectOverflow({Opcode::kDwConv, 0, 0, d},
                 "dwconv: field in_pixel_stride = 2048 does not fit in 11 bits");
}

TEST(Isa, LnormEncodesDecodesAndDisassemblesOnTheVectorQueue) {
  LnormArgs n{1, 2, 3, 4, 5, -6, 7, 0xFFFFFFFFu, -9, 10};
  StatusOr<InsnWord> w = Encode({Opcode::kLnorm, 1, 8, n});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ((*w)[0], 10);
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->queue(), Queue::kVector);
  EXPECT_EQ(std::get<LnormArgs>(back->args), n);
  EXPECT_EQ(Disassemble(*back),
            "lnorm wait=L signal=S in_addr=1 out_addr=2 param_addr=3 pixels=4 channels=5 "
            "in_zero_point=-6 out_zero_point=7 eps_term=4294967295 clamp_min=-9 clamp_max=10");
  n = {}, n.channels = 1u << 16;
  ExpectOverflow({Opcode::kLnorm, 0, 0, n}, "lnorm: field channels = 65536 does not fit in 16 bits");
}

TEST(Isa, ResizeEncodesDecodesAndDisassembles) {
  ResizeArgs r{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12, 13};
  StatusOr<InsnWord> w = Encode({Opcode::kResize, 1, 8, r});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ((*w)[0], 8);
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->queue(), Queue::kVector);
  EXPECT_EQ(std::get<ResizeArgs>(back->args), r);
  EXPECT_EQ(Disassemble(*back),
            "resize wait=L signal=S in_addr=1 in_h=2 in_w=3 channels=4 in_pixel_stride=5 out_h=6 "
            "out_w=7 out_addr=8 out_pixel_stride=9 row_taps_addr=10 col_taps_addr=11 "
            "zero_point=-12 row_blends=13");
  r = {}, r.out_h = 1u << 16;
  ExpectOverflow({Opcode::kResize, 0, 0, r}, "resize: field out_h = 65536 does not fit in 16 bits");
  r = {}, r.col_taps_addr = 1u << 24;
  ExpectOverflow({Opcode::kResize, 0, 0, r}, "col_taps_addr = 16777216 does not fit in 24 bits");
  r = {}, r.zero_point = 128;
  ExpectOverflow({Opcode::kResize, 0, 0, r}, "zero_point = 128 does not fit in 8 signed");
  r = {}, r.row_blends = 1u << 16;
  ExpectOverflow({Opcode::kResize, 0, 0, r}, "row_blends = 65536 does not fit in 16 bits");
  EXPECT_FALSE(Encode({Opcode::kResize, 0, 0, LutArgs{}}).ok());
}

TEST(Isa, ArgumentsMustMatchTheOpcode) {
  const StatusOr<InsnWord> w = Encode({Opcode::kPool, 0, 0, ActArgs{}});
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("pool: arguments are not pool's"), std::string::npos)
      << w.status().message();
  EXPECT_FALSE(Encode({Opcode::kStore, 0, 0, ConvArgs{}}).ok());
  EXPECT_TRUE(Encode({Opcode::kStore, 0, 0, DmaArgs{}}).ok());
}

TEST(Isa, TokenMaskNamingOwnQueueIsRefused) {
  EXPECT_FALSE(Encode({Opcode::kLoad, /*wait=*/1, 0, DmaArgs{}}).ok());
  EXPECT_FALSE(Encode({Opcode::kConv, 0, /*signal=*/2, ConvArgs{}}).ok());
  EXPECT_TRUE(Encode({Opcode::kConv, 1, 4, ConvArgs{}}).ok());
}

TEST(Isa, DecodeRefusesUnknownOpcodeAndReservedBits) {
  InsnWord w{};
  EXPECT_NE(Decode(w.data()).status().message().find("unknown opcode 0"), std::string::npos);
  w[0] = 11;
  EXPECT_FALSE(Decode(w.data()).ok());
  w[0] = 0xFF;
  EXPECT_FALSE(Decode(w.data()).ok());
  StatusOr<InsnWord> act = Encode({Opcode::kAct, 0, 0, ActArgs{}});
  ASSERT_TRUE(act.ok());
  (*act)[31] = 0x80;
  EXPECT_NE(Decode(act->data()).status().message().find("reserved bits"), std::string::npos);
}

TEST(Isa, OnlyALoadScatters) {
  DmaArgs d;
  d.run_bytes = 8, d.sram_elem_stride = 3;
  StatusOr<InsnWord> load = Encode({Opcode::kLoad, 0, 0, d});
  ASSERT_TRUE(load.ok()) << load.status().message();
  EXPECT_EQ((*load)[29], 3);  // bits 232..239
  StatusOr<Instruction> back = Decode(load->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(std::get<DmaArgs>(back->args).sram_elem_stride, 3u);
  EXPECT_NE(Disassemble(*back).find(" sram_elem_stride=3"), std::string::npos);
  // A store with the field set: the encoder refuses it, and the word with the opcode changed
  // does not decode.
  const StatusOr<InsnWord> store = Encode({Opcode::kStore, 0, 0, d});
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.status().message().find("store: sram_elem_stride = 3 must be 0"),
            std::string::npos)
      << store.status().message();
  InsnWord word = *load;
  word[0] = static_cast<uint8_t>(Opcode::kStore);
  EXPECT_NE(Decode(word.data()).status().message().find("a store has no gather"),
            std::string::npos);
  word[29] = 0;
  EXPECT_TRUE(Decode(word.data()).ok());
  d.sram_elem_stride = 256;
  ExpectOverflow({Opcode::kLoad, 0, 0, d}, "field sram_elem_stride = 256 does not fit in 8 bits");
  // Bits 240..255 stay reserved.
  (*load)[30] = 1;
  EXPECT_NE(Decode(load->data()).status().message().find("reserved bits 240..255"),
            std::string::npos);
}

TEST(Isa, LayoutsFitTheWord) {
  for (Opcode op : kLayouts) {
    const std::vector<FieldInfo> fields = FieldLayout(op);
    const FieldInfo& last = fields.back();
    EXPECT_LE(last.offset + last.width, kInsnBytes * 8) << OpcodeName(op);
  }
}

// Every field row of docs/isa.md's tables matches the encoder.
TEST(Isa, DocsTablesMatchTheEncoding) {
  std::ifstream in(std::string(NPU_SOURCE_DIR) + "/docs/isa.md");
  ASSERT_TRUE(in) << "docs/isa.md missing";
  std::stringstream doc;
  doc << in.rdbuf();
  for (Opcode op : kLayouts) {
    for (const FieldInfo& f : FieldLayout(op)) {
      const std::string row =
          fmt::format("| {} | {}..{} | {} |", f.name, f.offset, f.offset + f.width - 1,
                      f.is_signed ? "signed" : "unsigned");
      EXPECT_NE(doc.str().find(row), std::string::npos) << "docs/isa.md lacks the row: " << row;
    }
  }
}

}  // namespace
}  // namespace npu::spec
