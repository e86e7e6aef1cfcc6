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
constexpr Opcode kLayouts[] = {Opcode::kLoad, Opcode::kConv,    Opcode::kAct,
                               Opcode::kPool, Opcode::kEltwise, Opcode::kLut};

Instruction RandomInstruction(std::mt19937& rng) {
  auto bits = [&](int w) { return static_cast<uint32_t>(rng() & ((uint64_t{1} << w) - 1)); };
  auto sbits = [&](int w) {
    return static_cast<int32_t>(int64_t{bits(w)} - (int64_t{1} << (w - 1)));
  };
  const Opcode op = static_cast<Opcode>(1 + rng() % 7);
  Instruction insn{op, 0, 0, DmaArgs{}};
  const uint8_t others = uint8_t(0xF & ~(1u << static_cast<int>(QueueOf(op))));
  insn.wait_mask = uint8_t(bits(4) & others);
  insn.signal_mask = uint8_t(bits(4) & others);
  if (op == Opcode::kLoad || op == Opcode::kStore) {
    insn.args = DmaArgs{bits(32), bits(24), bits(16), bits(16), bits(16),
                        bits(32), bits(32), bits(24), bits(24), op == Opcode::kLoad ? bits(8) : 0};
  } else if (op == Opcode::kConv) {
    insn.args =
        ConvArgs{bits(24), bits(12), bits(12), bits(16), bits(8),      bits(8),     sbits(8),
                 bits(4),  bits(4),  bits(4),  bits(4),  bits(4),      bits(4),     bits(12),
                 bits(12), bits(16), bits(24), bits(20), bits(1) != 0, bits(1) != 0};
  } else if (op == Opcode::kPool) {
    insn.args =
        PoolArgs{bits(24), bits(12), bits(12),  bits(16), bits(4),  bits(4),  bits(8), bits(8),
                 bits(4),  bits(4),  bits(12),  bits(12), bits(24), bits(16), bits(2), bits(1) != 0,
                 sbits(8), sbits(8), sbits(32), bits(6),  sbits(8), sbits(8)};
  } else if (op == Opcode::kEltwise) {
    insn.args =
        EltwiseArgs{bits(24), bits(24), bits(24),  bits(24),  bits(2), bits(2),  bits(16), sbits(8),
                    sbits(8), sbits(8), sbits(32), sbits(16), bits(6), sbits(8), sbits(8)};
  } else if (op == Opcode::kLut) {
    insn.args = LutArgs{bits(24), bits(24), bits(24), bits(24)};
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
}

TEST(Isa, NewInstructionsDecodeAndDisassemble) {
  LutArgs l{1, 2, 3, 4};
  StatusOr<InsnWord> w = Encode({Opcode::kLut, 0, 0, l});
  ASSERT_TRUE(w.ok());
  EXPECT_EQ((*w)[0], 7);
  StatusOr<Instruction> back = Decode(w->data());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->queue(), Queue::kVector);
  EXPECT_EQ(Disassemble(*back), "lut wait=- signal=- in_addr=1 out_addr=2 table_addr=3 count=4");
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
  unknown[0] = 8;
  EXPECT_NE(Decode(unknown.data()).status().message().find("unknown opcode 8"), std::string::npos);
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
  w[0] = 9;
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
