// Encoding, decoding and disassembly of instruction words. One field list per opcode drives all
// three, so they cannot disagree.
#include "hw/spec/isa.h"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>
#include <utility>

namespace npu::spec {
namespace {

constexpr int kHeaderBits = 16;  // opcode:8, wait_mask:4, signal_mask:4

// Calls f(name, member, width, is_signed) for each payload field, in bit order after the header.
template <class Args, class F>
void ForEachField(Args& a, F&& f) {
  using T = std::remove_const_t<Args>;
  if constexpr (std::is_same_v<T, DmaArgs>) {
    f("dram_offset", a.dram_offset, 32, false);
    f("sram_addr", a.sram_addr, 24, false);
    f("run_bytes", a.run_bytes, 16, false);
    f("n1", a.n1, 16, false);
    f("n2", a.n2, 16, false);
    f("dram_stride1", a.dram_stride1, 32, false);
    f("dram_stride2", a.dram_stride2, 32, false);
    f("sram_stride1", a.sram_stride1, 24, false);
    f("sram_stride2", a.sram_stride2, 24, false);
  } else if constexpr (std::is_same_v<T, ConvArgs>) {
    f("in_addr", a.in_addr, 24, false);
    f("in_h", a.in_h, 12, false);
    f("in_w", a.in_w, 12, false);
    f("in_c", a.in_c, 16, false);
    f("pad_top", a.pad_top, 8, false);
    f("pad_left", a.pad_left, 8, false);
    f("pad_value", a.pad_value, 8, true);
    f("kernel_h", a.kernel_h, 4, false);
    f("kernel_w", a.kernel_w, 4, false);
    f("stride_h", a.stride_h, 4, false);
    f("stride_w", a.stride_w, 4, false);
    f("dilation_h", a.dilation_h, 4, false);
    f("dilation_w", a.dilation_w, 4, false);
    f("out_h", a.out_h, 12, false);
    f("out_w", a.out_w, 12, false);
    f("out_c", a.out_c, 16, false);
    f("wt_addr", a.wt_addr, 24, false);
    f("acc_addr", a.acc_addr, 20, false);
    f("accumulate", a.accumulate, 1, false);
    f("depthwise", a.depthwise, 1, false);
  } else if constexpr (std::is_same_v<T, PoolArgs>) {
    f("in_addr", a.in_addr, 24, false);
    f("in_h", a.in_h, 12, false);
    f("in_w", a.in_w, 12, false);
    f("channels", a.channels, 16, false);
    f("pad_top", a.pad_top, 4, false);
    f("pad_left", a.pad_left, 4, false);
    f("kernel_h", a.kernel_h, 8, false);
    f("kernel_w", a.kernel_w, 8, false);
    f("stride_h", a.stride_h, 4, false);
    f("stride_w", a.stride_w, 4, false);
    f("out_h", a.out_h, 12, false);
    f("out_w", a.out_w, 12, false);
    f("out_addr", a.out_addr, 24, false);
    f("out_pixel_stride", a.out_pixel_stride, 16, false);
    f("mode", a.mode, 2, false);
    f("count_include_pad", a.count_include_pad, 1, false);
    f("in_zero_point", a.in_zero_point, 8, true);
    f("out_zero_point", a.out_zero_point, 8, true);
    f("multiplier", a.multiplier, 32, true);
    f("shift", a.shift, 6, false);
    f("clamp_min", a.clamp_min, 8, true);
    f("clamp_max", a.clamp_max, 8, true);
  } else if constexpr (std::is_same_v<T, AddArgs>) {
    f("a_addr", a.a_addr, 24, false);
    f("b_addr", a.b_addr, 24, false);
    f("out_addr", a.out_addr, 24, false);
    f("count", a.count, 24, false);
    f("a_zero_point", a.a_zero_point, 8, true);
    f("b_zero_point", a.b_zero_point, 8, true);
    f("out_zero_point", a.out_zero_point, 8, true);
    f("a_multiplier", a.a_multiplier, 16, true);
    f("b_multiplier", a.b_multiplier, 16, true);
    f("shift", a.shift, 6, false);
    f("clamp_min", a.clamp_min, 8, true);
    f("clamp_max", a.clamp_max, 8, true);
  } else {
    static_assert(std::is_same_v<T, ActArgs>);
    f("acc_addr", a.acc_addr, 20, false);
    f("pixels", a.pixels, 20, false);
    f("channels", a.channels, 16, false);
    f("param_addr", a.param_addr, 24, false);
    f("out_addr", a.out_addr, 24, false);
    f("out_pixel_stride", a.out_pixel_stride, 16, false);
    f("out_zero_point", a.out_zero_point, 8, true);
    f("clamp_min", a.clamp_min, 8, true);
    f("clamp_max", a.clamp_max, 8, true);
  }
}

void PutBits(InsnWord& w, int offset, int width, uint64_t value) {
  for (int i = 0; i < width; ++i) {
    const int bit = offset + i;
    if ((value >> i) & 1) w[bit / 8] |= uint8_t(1u << (bit % 8));
  }
}

uint64_t GetBits(const uint8_t* w, int offset, int width) {
  uint64_t value = 0;
  for (int i = 0; i < width; ++i) {
    const int bit = offset + i;
    value |= uint64_t((w[bit / 8] >> (bit % 8)) & 1) << i;
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
    case Opcode::kAdd:
      return 4;
  }
  return 0;
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
    case Opcode::kAdd:
      return "add";
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
    case Opcode::kAdd:
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
  return w;
}

StatusOr<Instruction> Decode(const uint8_t* word) {
  Instruction insn;
  const uint64_t opcode = GetBits(word, 0, 8);
  if (opcode < 1 || opcode > 6) {
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
    case Opcode::kAdd:
      insn.args = DecodeArgs<AddArgs>(word, &end_bit);
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
  return insn;
}

std::vector<FieldInfo> FieldLayout(Opcode opcode) {
  static const DmaArgs kNoDma;
  static const ConvArgs kNoConv;
  static const ActArgs kNoAct;
  static const PoolArgs kNoPool;
  static const AddArgs kNoAdd;
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
    case Opcode::kAdd:
      ForEachField(kNoAdd, add);
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
