// Encoding, decoding and disassembly of instruction words. One field list per opcode drives all
// three, so they cannot disagree.
#include "hw/spec/isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "hw/spec/isa_fields.h"

namespace npu::spec {
namespace {

// A byte at a time, not a bit (a field spans at most five bytes): every binary encodes each of
// its instructions, and the loader decodes them.
void PutBits(InsnWord& w, int offset, int width, uint64_t value) {
  for (int done = 0; done < width;) {
    const int bit = offset + done, shift = bit % 8, take = std::min(8 - shift, width - done);
    const uint64_t part = (value >> done) & ((uint64_t{1} << take) - 1);
    w[bit / 8] |= uint8_t(part << shift);
    done += take;
  }
}

uint64_t GetBits(const uint8_t* w, int offset, int width) {
  uint64_t value = 0;
  for (int done = 0; done < width;) {
    const int bit = offset + done, shift = bit % 8, take = std::min(8 - shift, width - done);
    value |= uint64_t((w[bit / 8] >> shift) & ((1u << take) - 1)) << done;
    done += take;
  }
  return value;
}

bool Fits(int64_t v, int width, bool is_signed) {
  if (is_signed) return v >= -(int64_t{1} << (width - 1)) && v < (int64_t{1} << (width - 1));
  return v >= 0 && v < (int64_t{1} << width);
}

template <class Args>
Status EncodeArgs(const Args& args, InsnWord& w) {
  int offset = kHeaderBits;
  Status status;
  ForEachField(args, [&](std::string_view name, const auto& member, int width, bool is_signed) {
    const int64_t v = static_cast<int64_t>(member);
    if (status.ok() && !Fits(v, width, is_signed)) {
      status = ResourceExhausted(fmt::format("field {} = {} does not fit in {}{} bits", name, v,
                                             width, is_signed ? " signed" : ""));
    }
    PutBits(w, offset, width, static_cast<uint64_t>(v) & ((uint64_t{1} << width) - 1));
    offset += width;
  });
  return status;
}

template <class Args>
Args DecodeArgs(const uint8_t* w, int* end_bit) {
  Args args;
  int offset = kHeaderBits;
  ForEachField(args, [&](std::string_view, auto& member, int width, bool is_signed) {
    uint64_t raw = GetBits(w, offset, width);
    int64_t v = static_cast<int64_t>(raw);
    if (is_signed && (raw >> (width - 1)) & 1) v -= int64_t{1} << width;
    member = static_cast<std::remove_reference_t<decltype(member)>>(v);
    offset += width;
  });
  *end_bit = offset;
  return args;
}

// Which alternative of Instruction::args an opcode takes.
size_t ArgsIndex(Opcode opcode) {
  switch (opcode) {
    case Opcode::kLoad:
    case Opcode::kStore:
      return 0;
    case Opcode::kConv:
      return 1;
    case Opcode::kAct:
      return 2;
    case Opcode::kPool:
      return 3;
    case Opcode::kEltwise:
      return 4;
    case Opcode::kLut:
      return 5;
    case Opcode::kResize:
      return 6;
    case Opcode::kDwConv:
      return 7;
    case Opcode::kLnorm:
      return 8;
  }
  return 0;
}

// A STORE reads its runs dense from SRAM: the scatter field is LOAD's alone.
Status CheckNoStoreGather(const Instruction& insn) {
  const auto* dma = std::get_if<DmaArgs>(&insn.args);
  if (insn.opcode != Opcode::kStore || dma == nullptr || dma->sram_elem_stride == 0) {
    return Status::Ok();
  }
  return InvalidArgument(fmt::format(
      "store: sram_elem_stride = {} must be 0 (a store has no gather)", dma->sram_elem_stride));
}

std::string MaskText(uint8_t mask) {
  static constexpr char kLetters[] = "LCVS";
  std::string text;
  for (int q = 0; q < kNumQueues; ++q) {
    if (mask & (1u << q)) text += kLetters[q];
  }
  return text.empty() ? "-" : text;
}

}  // namespace

std::string_view QueueName(Queue queue) {
  switch (queue) {
    case Queue::kLoad:
      return "load";
    case Queue::kCompute:
      return "compute";
    case Queue::kVector:
      return "vector";
    case Queue::kStore:
      return "store";
  }
  return "?";
}

std::string_view OpcodeName(Opcode opcode) {
  switch (opcode) {
    case Opcode::kLoad:
      return "load";
    case Opcode::kStore:
      return "store";
    case Opcode::kConv:
      return "conv";
    case Opcode::kAct:
      return "act";
    case Opcode::kPool:
      return "pool";
    case Opcode::kEltwise:
      return "eltwise";
    case Opcode::kLut:
      return "lut";
    case Opcode::kResize:
      return "resize";
    case Opcode::kDwConv:
      return "dwconv";
    case Opcode::kLnorm:
      return "lnorm";
  }
  return "?";
}

Queue QueueOf(Opcode opcode) {
  switch (opcode) {
    case Opcode::kLoad:
      return Queue::kLoad;
    case Opcode::kConv:
      return Queue::kCompute;
    case Opcode::kAct:
    case Opcode::kPool:
    case Opcode::kEltwise:
    case Opcode::kLut:
    case Opcode::kResize:
    case Opcode::kDwConv:
    case Opcode::kLnorm:
      return Queue::kVector;
    case Opcode::kStore:
      return Queue::kStore;
  }
  return Queue::kLoad;
}

StatusOr<InsnWord> Encode(const Instruction& insn) {
  const uint8_t own = uint8_t(1u << static_cast<int>(insn.queue()));
  if ((insn.wait_mask | insn.signal_mask) & (~0xFu | own)) {
    return InvalidArgument(
        fmt::format("{}: token masks wait={} signal={} must name only the other "
                    "three queues",
                    OpcodeName(insn.opcode), MaskText(insn.wait_mask), MaskText(insn.signal_mask)));
  }
  if (insn.args.index() != ArgsIndex(insn.opcode)) {
    return InvalidArgument(fmt::format("{0}: arguments are not {0}'s", OpcodeName(insn.opcode)));
  }
  InsnWord w{};
  PutBits(w, 0, 8, static_cast<uint8_t>(insn.opcode));
  PutBits(w, 8, 4, insn.wait_mask);
  PutBits(w, 12, 4, insn.signal_mask);
  const Status status =
      std::visit([&](const auto& args) { return EncodeArgs(args, w); }, insn.args);
  if (!status.ok()) return status.WithContext(std::string(OpcodeName(insn.opcode)));
  NPU_TRY(CheckNoStoreGather(insn));
  return w;
}

void AppendKey(const Instruction& insn, std::string& key) {
  const auto append = [&key](const auto& value) {
    key.append(reinterpret_cast<const char*>(&value), sizeof(value));
  };
  append(insn.opcode);
  append(insn.wait_mask);
  append(insn.signal_mask);
  append(insn.args.index());  // which fields follow
  std::visit(
      [&](const auto& args) {
        ForEachField(args, [&](auto, const auto& member, int, bool) { append(member); });
      },
      insn.args);
}

StatusOr<Instruction> Decode(const uint8_t* word) {
  Instruction insn;
  const uint64_t opcode = GetBits(word, 0, 8);
  if (opcode < 1 || opcode > static_cast<uint64_t>(Opcode::kLnorm)) {
    return InvalidArgument(fmt::format("unknown opcode {}", opcode));
  }
  insn.opcode = static_cast<Opcode>(opcode);
  insn.wait_mask = static_cast<uint8_t>(GetBits(word, 8, 4));
  insn.signal_mask = static_cast<uint8_t>(GetBits(word, 12, 4));
  int end_bit = kHeaderBits;
  switch (insn.opcode) {
    case Opcode::kLoad:
    case Opcode::kStore:
      insn.args = DecodeArgs<DmaArgs>(word, &end_bit);
      break;
    case Opcode::kConv:
      insn.args = DecodeArgs<ConvArgs>(word, &end_bit);
      break;
    case Opcode::kAct:
      insn.args = DecodeArgs<ActArgs>(word, &end_bit);
      break;
    case Opcode::kPool:
      insn.args = DecodeArgs<PoolArgs>(word, &end_bit);
      break;
    case Opcode::kEltwise:
      insn.args = DecodeArgs<EltwiseArgs>(word, &end_bit);
      break;
    case Opcode::kLut:
      insn.args = DecodeArgs<LutArgs>(word, &end_bit);
      break;
    case Opcode::kResize:
      insn.args = DecodeArgs<ResizeArgs>(word, &end_bit);
      break;
    case Opcode::kDwConv:
      insn.args = DecodeArgs<DwConvArgs>(word, &end_bit);
      break;
    case Opcode::kLnorm:
      insn.args = DecodeArgs<LnormArgs>(word, &end_bit);
      break;
  }
  bool reserved_clear = true;
  for (int bit = end_bit; bit < kInsnBytes * 8; bit += 32) {
    reserved_clear &= GetBits(word, bit, std::min(32, kInsnBytes * 8 - bit)) == 0;
  }
  if (!reserved_clear) {
    return InvalidArgument(
        fmt::format("{}: reserved bits {}..255 are not zero", OpcodeName(insn.opcode), end_bit));
  }
  const uint8_t own = uint8_t(1u << static_cast<int>(insn.queue()));
  if ((insn.wait_mask | insn.signal_mask) & own) {
    return InvalidArgument(
        fmt::format("{}: token mask names its own queue", OpcodeName(insn.opcode)));
  }
  NPU_TRY(CheckNoStoreGather(insn));
  return insn;
}

std::vector<FieldInfo> FieldLayout(Opcode opcode) {
  static const DmaArgs kNoDma;
  static const ConvArgs kNoConv;
  static const ActArgs kNoAct;
  static const PoolArgs kNoPool;
  static const EltwiseArgs kNoEltwise;
  static const LutArgs kNoLut;
  static const ResizeArgs kNoResize;
  static const DwConvArgs kNoDwConv;
  static const LnormArgs kNoLnorm;
  std::vector<FieldInfo> fields = {
      {"opcode", 0, 8, false}, {"wait_mask", 8, 4, false}, {"signal_mask", 12, 4, false}};
  int offset = kHeaderBits;
  auto add = [&](std::string_view name, const auto&, int width, bool is_signed) {
    fields.push_back({name, offset, width, is_signed});
    offset += width;
  };
  switch (opcode) {
    case Opcode::kLoad:
    case Opcode::kStore:
      ForEachField(kNoDma, add);
      break;
    case Opcode::kConv:
      ForEachField(kNoConv, add);
      break;
    case Opcode::kAct:
      ForEachField(kNoAct, add);
      break;
    case Opcode::kPool:
      ForEachField(kNoPool, add);
      break;
    case Opcode::kEltwise:
      ForEachField(kNoEltwise, add);
      break;
    case Opcode::kLut:
      ForEachField(kNoLut, add);
      break;
    case Opcode::kResize:
      ForEachField(kNoResize, add);
      break;
    case Opcode::kDwConv:
      ForEachField(kNoDwConv, add);
      break;
    case Opcode::kLnorm:
      ForEachField(kNoLnorm, add);
      break;
  }
  return fields;
}

std::string Disassemble(const Instruction& insn) {
  std::string text = fmt::format("{} wait={} signal={}", OpcodeName(insn.opcode),
                                 MaskText(insn.wait_mask), MaskText(insn.signal_mask));
  std::visit(
      [&](const auto& args) {
        ForEachField(args, [&](std::string_view name, const auto& member, int, bool) {
          text += fmt::format(" {}={}", name, static_cast<int64_t>(member));
        });
      },
      insn.args);
  return text;
}

}  // namespace npu::spec
