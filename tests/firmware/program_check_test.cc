// The firmware's trust boundary (firmware/program_check.h, spec::OpenProgram): a table of
// corruptions of a valid binary, each refused with a message naming the field, its value or the
// limit; and the valid programs themselves accepted.
#include "firmware/program_check.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <functional>

#include "hw/spec/binary.h"
#include "hw/spec/config.h"
#include "hw/spec/cpu_ops.h"
#include "tests/firmware/loader_test_programs.h"

namespace npu {
namespace {

using testing::FirstOf;
using testing::InstructionAt;
using testing::ReplaceInstruction;

const spec::NpuConfig& Config() {
  static const spec::NpuConfig config = spec::DefaultConfig();
  return config;
}

const spec::Program& Valid() {
  static const spec::Program program = testing::LayerWithCpuOp(Config());
  return program;
}

spec::CpuOp& CpuOp(spec::Program& p) { return *p.mutable_steps(p.steps_size() - 1)->mutable_cpu(); }

// Edits the first instruction with `opcode`.
template <class Args>
std::function<void(spec::Program&)> EditFirst(spec::Opcode opcode,
                                              std::function<void(Args&)> edit) {
  return [=](spec::Program& p) {
    const size_t i = FirstOf(p, opcode);
    spec::Instruction insn = InstructionAt(p, i);
    edit(std::get<Args>(insn.args));
    ReplaceInstruction(p, i, insn);
  };
}

struct Corruption {
  const char* name;
  std::function<void(spec::Program&)> corrupt;
  std::string reason;  // a part of the message naming the field and the limit
};

std::vector<Corruption> Corruptions() {
  const uint64_t sram = Config().sram().size_bytes();
  return {
      {"image larger than DRAM", [](spec::Program& p) { p.set_dram_bytes(0xFFFFFFFF); },
       "bytes of DRAM; the board has"},
      {"instructions not whole words",
       [](spec::Program& p) { p.mutable_instructions()->push_back('\0'); },
       "is not a whole number of 32-byte words"},
      {"segment outside the image",
       [](spec::Program& p) { p.mutable_constants(0)->set_dram_offset(p.dram_bytes() - 1); },
       "lies outside the image's"},
      {"segment over the instructions",
       [](spec::Program& p) { p.mutable_constants(0)->set_dram_offset(p.instruction_offset()); },
       "overlaps the instruction section"},
      {"input outside the image",
       [](spec::Program& p) { p.mutable_inputs(0)->set_dram_offset(0xFFFFFF00); },
       "input 'input' at DRAM offset 4294967040"},
      {"absurd tensor size",
       [](spec::Program& p) {
         p.mutable_outputs(0)->clear_shape();
         for (int i = 0; i < 4; ++i) p.mutable_outputs(0)->add_shape(0xFFFFFFFF);
       },
       "elements but the tensor has"},
      {"no steps", [](spec::Program& p) { p.clear_steps(); }, "no steps to run"},
      {"step beyond the instructions",
       [](spec::Program& p) { p.mutable_steps(0)->mutable_npu()->set_instruction_count(1 << 30); },
       "outside the program's"},
      {"layer info beyond the instructions",
       [](spec::Program& p) { p.mutable_layers(0)->set_first_instruction(1 << 30); },
       "instructions [1073741824, +"},
      {"interleaved layer listing an instruction twice",
       [](spec::Program& p) {
         spec::LayerInfo* l = p.mutable_layers(0);
         l->add_instructions(l->first_instruction());
         l->add_instructions(l->first_instruction());
         l->set_instruction_count(2);
       },
       "its 2 interleaved instruction indices are not 2 ascending"},
      {"unknown opcode", [](spec::Program& p) { (*p.mutable_instructions())[0] = char(0x7F); },
       "instruction 0: unknown opcode 127"},
      {"reserved bits set", [](spec::Program& p) { (*p.mutable_instructions())[31] = char(0x80); },
       "reserved bits"},
      {"instruction address outside SRAM",
       EditFirst<spec::DmaArgs>(spec::Opcode::kLoad,
                                [=](spec::DmaArgs& d) { d.sram_addr = uint32_t(sram - 8); }),
       fmt::format("sram_addr {:#x}", sram - 8)},
      {"DMA outside the image",
       EditFirst<spec::DmaArgs>(spec::Opcode::kLoad,
                                [](spec::DmaArgs& d) { d.dram_offset = 0xFFFF0000; }),
       "past the end of the image's DRAM"},
      {"STORE into the instructions",
       EditFirst<spec::DmaArgs>(spec::Opcode::kStore, [](spec::DmaArgs& d) { d.dram_offset = 0; }),
       "writes into the instruction section"},
      {"accumulator outside the buffer",
       EditFirst<spec::ConvArgs>(spec::Opcode::kConv,
                                 [](spec::ConvArgs& c) { c.acc_addr = (1 << 20) - 1; }),
       "past the end of the accumulator buffer"},
      {"field out of range",
       EditFirst<spec::ConvArgs>(spec::Opcode::kConv, [](spec::ConvArgs& c) { c.stride_h = 0; }),
       "zero stride"},
      {"a wait no instruction signals",
       [](spec::Program& p) {
         spec::Instruction insn = InstructionAt(p, 0);
         insn.wait_mask = 1 << int(spec::Queue::kStore);
         ReplaceInstruction(p, 0, insn);
       },
       "waits for a token from the store queue that no earlier instruction"},
      {"CPU op kernel unknown", [](spec::Program& p) { CpuOp(p).set_kernel("rm -rf"); },
       "has no kernel 'rm -rf'"},
      {"CPU op reading outside DRAM",
       [](spec::Program& p) { CpuOp(p).mutable_inputs(0)->set_dram_offset(0xFFFFFF00); },
       "lies outside the image's"},
      {"CPU op writing over the instructions",
       [](spec::Program& p) { CpuOp(p).mutable_outputs(0)->set_dram_offset(0); },
       "overlaps the instruction section"},
      {"CPU op attribute of the wrong size",
       [](spec::Program& p) { CpuOp(p).mutable_attrs(0)->mutable_ints()->RemoveLast(); },
       "attribute 'table' has 255 values, expected 256"},
      {"CPU op output of another size",
       [](spec::Program& p) {
         spec::TensorDesc& out = *CpuOp(p).mutable_outputs(0);
         out.set_shape(out.shape_size() - 1, out.shape(out.shape_size() - 1) - 1);
         out.set_size_bytes(uint32_t(spec::Elements(out)));
       },
       "the kernel needs [1,56,56,64]"},
  };
}

TEST(ProgramCheck, AcceptsTheValidProgram) {
  const Status s = fw::CheckProgram(Valid(), fw::LimitsOf(Config()));
  EXPECT_TRUE(s.ok()) << s.message();
}

TEST(ProgramCheck, RefusesEveryCorruptionNamingTheField) {
  for (const Corruption& c : Corruptions()) {
    SCOPED_TRACE(c.name);
    spec::Program p = Valid();
    c.corrupt(p);
    // Sealed and opened again, as a file would be.
    const StatusOr<spec::Program> opened = spec::OpenProgram(spec::SealProgram(p));
    ASSERT_TRUE(opened.ok()) << opened.status().message();
    const Status s = fw::CheckProgram(*opened, fw::LimitsOf(Config()));
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find(c.reason), std::string::npos) << s.message();
  }
}

TEST(ProgramCheck, RefusesDamagedEnvelopes) {
  const std::string sealed = spec::SealProgram(Valid());
  spec::BinaryEnvelope envelope;
  ASSERT_TRUE(envelope.ParseFromString(sealed));
  const auto with = [&](auto edit) {
    spec::BinaryEnvelope e = envelope;
    edit(e);
    return spec::OpenProgram(e.SerializeAsString()).status();
  };
  const std::vector<std::pair<Status, const char*>> cases = {
      {spec::OpenProgram(sealed.substr(0, sealed.size() / 2)).status(), "not an NPU binary"},
      {with([](auto& e) { e.set_magic("npu-binarz"); }), "not an NPU binary"},
      {with([](auto& e) { e.set_format_version(2); }), "format version 2 is not supported"},
      {with([](auto& e) { e.set_checksum(e.checksum() ^ 1); }), "checksum mismatch"},
      {with([](auto& e) { e.mutable_program()->back() ^= 1; }), "checksum mismatch"},
  };
  for (const auto& [status, reason] : cases) {
    EXPECT_NE(status.message().find(reason), std::string::npos) << status.message();
  }
}

TEST(ProgramCheck, RecordedConfigMustMatchTheFingerprint) {
  spec::Program p = Valid();
  StatusOr<spec::NpuConfig> recorded = spec::RecordedArchitecture(p);
  ASSERT_TRUE(recorded.ok()) << recorded.status().message();
  EXPECT_EQ(spec::Fingerprint(*recorded), spec::Fingerprint(Config()));
  p.mutable_arch_config()->mutable_mac()->set_rows(7);
  EXPECT_NE(spec::RecordedArchitecture(p).status().message().find("file damaged or edited"),
            std::string::npos);
  p.clear_arch_config();
  EXPECT_NE(spec::RecordedArchitecture(p).status().message().find("give it with --config"),
            std::string::npos);
}

}  // namespace
}  // namespace npu
