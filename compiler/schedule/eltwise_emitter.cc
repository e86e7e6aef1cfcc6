// ELTWISE and LUT emission.
//
// ELTWISE: 1. LOAD b once into its slot if it is broadcast per channel or as a scalar and in
// DRAM. Then per chunk of elements: 2. LOAD the a chunk if a is in DRAM; 3. the b values the
// chunk reads (per chunk when b is not loaded once): a chunk of whole pixels uses the layer's
// broadcast, part of one pixel reads b[channel...] without broadcast (per channel) or b[pixel] as
// a scalar (per pixel); 4. ELTWISE into a's slot (an on-chip a: an output slot; an on-chip
// output: in place); 5. STORE unless the output is on chip.
// LUT: LOAD the table once; per chunk: LOAD the input chunk if in DRAM, LUT, STORE. LNORM
// likewise, its records for the table, its chunks whole pixels.
// Copy: per chunk, LOAD into a slot and STORE from it; a shuffle's LOAD (whole pixels) scatters
// each group's channels into their shuffled places. An on-chip side is read or written by LUTs
// with bypass (pixels strided, a shuffle's one a group scattering it) instead: an on-chip input
// into the slot before the STORE, or an on-chip output from the slot after the LOAD, or from
// input to output when both are on chip. A dense, unshuffled on-chip input is STOREd straight
// from where it is (StoresStraight).
// Gather: per chunk of output rows, LOADs gathering them from the input, one STORE.
#include "compiler/schedule/eltwise_emitter.h"

#include <algorithm>

#include "compiler/schedule/dma_lowering.h"

namespace npu::compiler {
namespace {

void Dma(std::vector<spec::Instruction>& out, spec::Opcode opcode, const StridedCopy& copy) {
  for (const spec::DmaArgs& d : LowerCopy(copy)) out.push_back({opcode, 0, 0, d});
}

// A chunk's operand in SRAM: in place if on chip, else LOADed into slot k % slots.
uint64_t Operand(std::vector<spec::Instruction>& out, const TensorPlace& place, bool on_chip,
                 const SlotBuffer& slots, uint64_t k, uint64_t offset, uint64_t bytes) {
  if (on_chip) return place.addr + offset;
  const uint64_t slot = slots.Addr(static_cast<uint32_t>(k % slots.slots));
  Dma(out, spec::Opcode::kLoad, ContiguousCopy(place.addr + offset, slot, bytes));
  return slot;
}

// How a chunk reads b: from which b value, how many, with which broadcast mode.
struct BRead {
  uint64_t index = 0, bytes = 0;
  spec::Broadcast mode = spec::Broadcast::kNone;
};

BRead BReadOf(const EltwiseLayer& l, const ElementChunk& chunk) {
  const uint64_t c = l.c;
  const bool whole = chunk.offset % c == 0 && chunk.count % c == 0;
  switch (l.broadcast) {
    case spec::Broadcast::kNone:
      return {chunk.offset, chunk.count, spec::Broadcast::kNone};
    case spec::Broadcast::kChannel:
      if (whole) return {0, c, spec::Broadcast::kChannel};
      return {chunk.offset % c, chunk.count, spec::Broadcast::kNone};
    case spec::Broadcast::kPixel:
      if (whole) return {chunk.offset / c, chunk.count / c, spec::Broadcast::kPixel};
      return {chunk.offset / c, 1, spec::Broadcast::kScalar};
    case spec::Broadcast::kScalar:
      return {0, 1, spec::Broadcast::kScalar};
  }
  return {};
}

spec::EltwiseArgs EltwiseFields(const EltwiseLayer& l) {
  spec::EltwiseArgs e;
  e.op = static_cast<uint32_t>(l.op);
  e.a_zero_point = l.a_zero_point;
  e.b_zero_point = l.b_zero_point;
  e.out_zero_point = l.output_zero_point;
  e.a_multiplier = l.a_multiplier;
  e.b_multiplier = l.b_multiplier;
  e.shift = static_cast<uint32_t>(l.shift);
  e.clamp_min = l.clamp_min;
  e.clamp_max = l.clamp_max;
  e.fp16 = l.fp16;
  e.fp16_relu = l.fp16_relu;
  e.int8_out = l.int8_out;
  return e;
}

// The input offset of line `line` of a gather (one step of every dim but the last two).
uint64_t LineOffset(const GatherLayer& t, uint64_t line) {
  uint64_t offset = t.in_offset;
  for (size_t d = t.dims.size() - 2; d-- > 0;) {
    offset += line % t.dims[d] * t.in_strides[d];
    line /= t.dims[d];
  }
  return offset;
}

// LOADs of output rows [begin, end) of gather `t` from the input at `input` into dense SRAM at
// `sram`: whole lines of one segment of the third-innermost dim per descriptor, parts of a line
// alone.
void GatherRows(const GatherLayer& t, uint64_t input, uint64_t sram, uint64_t begin, uint64_t end,
                std::vector<spec::Instruction>& out) {
  const size_t k = t.dims.size();
  const uint64_t run = t.dims[k - 1], per_line = t.dims[k - 2];
  const uint64_t segment = k >= 3 ? t.dims[k - 3] : 1, stride2 = k >= 3 ? t.in_strides[k - 3] : 0;
  for (uint64_t r = begin; r < end;) {
    const uint64_t line = r / per_line, first = r % per_line;
    StridedCopy c{input + LineOffset(t, line) + first * t.in_strides[k - 2],
                  sram + (r - begin) * run, run};
    c.dram_stride1 = t.in_strides[k - 2];
    c.sram_stride1 = run;
    if (first == 0 && end - r >= per_line) {
      c.n1 = per_line;
      c.n2 = std::min((end - r) / per_line, segment - line % segment);
      c.dram_stride2 = stride2;
      c.sram_stride2 = per_line * run;
    } else {
      c.n1 = std::min(per_line - first, end - r);
    }
    Dma(out, spec::Opcode::kLoad, c);
    r += c.n1 * c.n2;
  }
}

}  // namespace

std::vector<spec::Instruction> EmitEltwise(const EltwiseLayer& l, const EltwiseTiling& t,
                                           const VectorPlan& plan, const EltwiseOperands& ops) {
  std::vector<spec::Instruction> out;
  // Chunks count elements; addresses and DMA sizes are bytes (x2 for FP16; the output's 1 with
  // int8_out).
  const uint64_t eb = l.ElementBytes(), ob = l.OutputElementBytes();
  const bool b_once = BLoadedOnce(l) && !t.b_on_chip;
  if (b_once) {
    Dma(out, spec::Opcode::kLoad, ContiguousCopy(ops.b.addr, plan.b.base, l.BElements() * eb));
  }
  const std::vector<ElementChunk> chunks = Chunks(l.Elements(), t.chunk, ChunkPixel(l));
  for (uint64_t k = 0; k < chunks.size(); ++k) {
    const auto [offset, n] = chunks[k];
    spec::EltwiseArgs e = EltwiseFields(l);
    e.a_addr =
        static_cast<uint32_t>(Operand(out, ops.a, t.a_on_chip, plan.a, k, offset * eb, n * eb));
    const BRead b = BReadOf(l, chunks[k]);
    e.b_addr = static_cast<uint32_t>(
        b_once ? plan.b.base + b.index * eb
               : Operand(out, ops.b, t.b_on_chip, plan.b, k, b.index * eb, b.bytes * eb));
    e.broadcast = static_cast<uint32_t>(b.mode);
    const bool per_pixel = b.mode == spec::Broadcast::kChannel || b.mode == spec::Broadcast::kPixel;
    e.channels = per_pixel ? l.c : 0;
    e.out_addr = static_cast<uint32_t>(t.output_on_chip ? ops.output.addr + offset * ob
                                       : t.a_on_chip ? plan.out.Addr(uint32_t(k % plan.out.slots))
                                                     : e.a_addr);
    e.count = static_cast<uint32_t>(n);
    out.push_back({spec::Opcode::kEltwise, 0, 0, e});
    if (!t.output_on_chip) {
      Dma(out, spec::Opcode::kStore,
          ContiguousCopy(ops.output.addr + offset * ob, e.out_addr, n * ob));
    }
  }
  return out;
}

namespace {

// A one-input layer's chunks (LUT, LNORM): its constant block LOADed once into plan.table, then
// per chunk the input LOADed unless on chip, the instruction `make(in_addr, out_addr, chunk)`
// writing over the input's slot (an on-chip input: an output slot; an on-chip output: in place),
// and the STORE unless the output is on chip.
template <class Make>
std::vector<spec::Instruction> EmitOneInput(const std::vector<ElementChunk>& chunks,
                                            bool input_on_chip, bool output_on_chip,
                                            uint64_t out_element_bytes, const VectorPlan& plan,
                                            const TensorPlace& input, const TensorPlace& output,
                                            uint64_t constant, uint64_t constant_bytes,
                                            Make make) {
  std::vector<spec::Instruction> out;
  Dma(out, spec::Opcode::kLoad, ContiguousCopy(constant, plan.table.base, constant_bytes));
  const uint64_t ob = out_element_bytes;  // the input is int8 either way
  for (uint64_t k = 0; k < chunks.size(); ++k) {
    const auto [offset, n] = chunks[k];
    const uint64_t in = Operand(out, input, input_on_chip, plan.a, k, offset, n);
    const uint64_t result = output_on_chip  ? output.addr + offset * ob
                            : input_on_chip ? plan.out.Addr(uint32_t(k % plan.out.slots))
                                            : in;
    out.push_back(make(uint32_t(in), uint32_t(result), chunks[k]));
    if (!output_on_chip) {
      Dma(out, spec::Opcode::kStore, ContiguousCopy(output.addr + offset * ob, result, n * ob));
    }
  }
  return out;
}

}  // namespace

std::vector<spec::Instruction> EmitLut(const LutLayer& l, const LutTiling& t,
                                       const VectorPlan& plan, const LutOperands& ops) {
  return EmitOneInput(Chunks(l.Elements(), t.chunk), t.input_on_chip, t.output_on_chip,
                      l.OutputElementBytes(), plan, ops.input, ops.output, ops.table,
                      l.TableBytes(), [&](uint32_t in, uint32_t result, const ElementChunk& c) {
                        spec::LutArgs a;
                        a.in_addr = in;
                        a.table_addr = static_cast<uint32_t>(plan.table.base);
                        a.out_addr = result;
                        a.count = static_cast<uint32_t>(c.count);
                        a.fp16_out = l.fp16_out;
                        return spec::Instruction{spec::Opcode::kLut, 0, 0, a};
                      });
}

std::vector<spec::Instruction> EmitNorm(const NormLayer& l, const NormTiling& t,
                                        const VectorPlan& plan, const NormOperands& ops) {
  return EmitOneInput(Chunks(l.Elements(), t.chunk), t.input_on_chip, t.output_on_chip, 1, plan,
                      ops.input, ops.output, ops.params, l.ParamBytes(),
                      [&](uint32_t in, uint32_t result, const ElementChunk& c) {
                        spec::LnormArgs a;
                        a.in_addr = in;
                        a.out_addr = result;
                        a.param_addr = static_cast<uint32_t>(plan.table.base);
                        a.pixels = static_cast<uint32_t>(c.count / l.c);
                        a.channels = l.c;
                        a.in_zero_point = l.in_zero_point;
                        a.out_zero_point = l.out_zero_point;
                        a.eps_term = l.eps_term;
                        a.clamp_min = l.clamp_min, a.clamp_max = l.clamp_max;
                        return spec::Instruction{spec::Opcode::kLnorm, 0, 0, a};
                      });
}

namespace {

// LUTs with bypass moving pixels [pixel, pixel + pixels) of `l`'s input at `from` (in SRAM) to
// `to`, pixels `to_stride` apart: one per group, scattering it `group` bytes apart.
void MovePixels(const CopyLayer& l, const TensorPlace& from, uint64_t pixel, uint64_t pixels,
                uint64_t to, uint64_t to_stride, std::vector<spec::Instruction>& out) {
  for (uint32_t i = 0; i < l.group; ++i) {
    spec::LutArgs a;
    a.bypass = true;
    a.in_addr = static_cast<uint32_t>(from.addr + pixel * from.channels + from.channel_offset +
                                      uint64_t{i} * l.GroupStride() + l.group_offset);
    a.out_addr = static_cast<uint32_t>(to + i);
    a.count = static_cast<uint32_t>(pixels * l.PerGroup());
    a.channels = l.PerGroup();
    a.in_pixel_stride = from.channels;
    a.out_pixel_stride = static_cast<uint32_t>(to_stride);
    a.out_elem_stride = l.group;
    out.push_back({spec::Opcode::kLut, 0, 0, a});
  }
}

// Whether a copy's on-chip input is dense and unshuffled, so that its STOREs read it where it is
// rather than from a slot the vector unit first moves it into (LUTs with bypass): a channel
// group's depthwise output copied into its slice of a concatenation in DRAM (channel_groups.h)
// took the vector unit its depthwise convolutions run on.
bool StoresStraight(const CopyLayer& l, const TensorPlace& input) {
  return !l.Shuffles() && input.channels == l.c && input.channel_offset == 0;
}

}  // namespace

std::vector<spec::Instruction> EmitCopy(const CopyLayer& l, const CopyTiling& t,
                                        const VectorPlan& plan, const CopyOperands& ops) {
  NPU_CHECK(ops.input.in_sram == t.input_on_chip && ops.output.in_sram == t.output_on_chip);
  std::vector<spec::Instruction> out;
  const CopyLayer plain{l.name, l.h, l.w, l.c};  // the slot's dense pixels, already shuffled
  const std::vector<ElementChunk> chunks = Chunks(l.Elements(), t.chunk, l.c);
  for (uint64_t k = 0; k < chunks.size(); ++k) {
    const auto [offset, n] = chunks[k];
    const uint64_t pixel = offset / l.c, pixels = n / l.c;
    if (t.input_on_chip && t.output_on_chip) {
      MovePixels(l, ops.input, pixel, pixels, ops.output.At(0, pixel, 0, 0),
                 ops.output.channels, out);
      continue;
    }
    if (t.input_on_chip && StoresStraight(l, ops.input)) {
      const uint64_t from = ops.input.addr + offset * ops.input.element_bytes;
      Dma(out, spec::Opcode::kStore, ElementsCopy(ops.output, l.c, offset, n, from));
      continue;
    }
    const uint64_t slot = plan.a.Addr(static_cast<uint32_t>(k % plan.a.slots));
    if (t.input_on_chip) {
      MovePixels(l, ops.input, pixel, pixels, slot, l.c, out);
    } else if (l.Shuffles()) {
      NPU_CHECK(offset % l.c == 0 && n % l.c == 0);  // a shuffle's chunks are whole pixels
      Dma(out, spec::Opcode::kLoad, ShuffledPixelsCopy(ops.input, l, pixel, pixels, slot));
    } else {
      Dma(out, spec::Opcode::kLoad, ElementsCopy(ops.input, l.c, offset, n, slot));
    }
    if (t.output_on_chip) {
      MovePixels(plain, TensorPlace{true, slot, l.c, 0}, 0, pixels, ops.output.At(0, pixel, 0, 0),
                 ops.output.channels, out);
    } else {
      Dma(out, spec::Opcode::kStore, ElementsCopy(ops.output, l.c, offset, n, slot));
    }
  }
  return out;
}

std::vector<spec::Instruction> EmitGather(const GatherLayer& l, const GatherTiling& t,
                                          const VectorPlan& plan, const GatherOperands& ops) {
  NPU_CHECK(ops.input.channel_offset == 0 && ops.output.channel_offset == 0);  // dense
  std::vector<spec::Instruction> out;
  const uint64_t run = l.dims.back(), rows = l.Elements() / run;
  uint64_t k = 0;
  for (uint64_t begin = 0; begin < rows; begin += t.chunk, ++k) {
    const uint64_t end = std::min(rows, begin + t.chunk);
    const uint64_t slot = plan.a.Addr(static_cast<uint32_t>(k % plan.a.slots));
    GatherRows(l, ops.input.addr, slot, begin, end, out);
    Dma(out, spec::Opcode::kStore,
        ContiguousCopy(ops.output.addr + begin * run, slot, (end - begin) * run));
  }
  return out;
}

}  // namespace npu::compiler
