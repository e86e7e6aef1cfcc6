// POOL emission.
//
// POOL, per band of output rows (outer) and channel tile (inner):
//   1. LOAD the rows its windows read (whole width, the channel tile) into the next input slot,
//      unless the input is on chip (then POOL reads the dense tensor in place).
//   2. POOL into the next output slot, or straight into the on-chip output (pixel stride = the
//      tensor's channels); 3. STORE the slot to the NHWC output.
#include "compiler/schedule/vector_emitter.h"

#include <algorithm>

#include "compiler/schedule/dma_lowering.h"
#include "hw/spec/status.h"

namespace npu::compiler {
namespace {

void Dma(std::vector<spec::Instruction>& out, spec::Opcode opcode, const StridedCopy& copy) {
  for (const spec::DmaArgs& d : LowerCopy(copy)) out.push_back({opcode, 0, 0, d});
}

spec::PoolMode ModeOf(PoolKind kind) {
  switch (kind) {
    case PoolKind::kMax:
      return spec::PoolMode::kMax;
    case PoolKind::kSum:
      return spec::PoolMode::kSum;
    case PoolKind::kMeanOfSums:
      return spec::PoolMode::kMeanOfSums;
    case PoolKind::kAverage:
    case PoolKind::kGlobalAverage:
      break;
  }
  return spec::PoolMode::kAverage;
}

spec::PoolArgs PoolFields(const PoolLayer& l) {
  spec::PoolArgs p;
  p.in_w = l.in_w;
  p.pad_left = l.pad_left;
  p.kernel_h = l.kernel_h;
  p.kernel_w = l.kernel_w;
  p.stride_h = l.stride_h;
  p.stride_w = l.stride_w;
  p.out_w = l.out_w;
  p.mode = static_cast<uint32_t>(ModeOf(l.kind));
  p.accumulate = l.accumulate;
  p.count_include_pad = l.count_include_pad;
  p.in_zero_point = l.input_zero_point;
  p.out_zero_point = l.output_zero_point;
  p.multiplier = l.multiplier;
  p.shift = static_cast<uint32_t>(l.shift);
  p.clamp_min = l.clamp_min;
  p.clamp_max = l.clamp_max;
  p.fp16 = l.fp16;
  return p;
}

// One POOL tile: output rows `rows`, channels `ch`, the k-th tile (slot parity).
void PoolTile(const PoolLayer& l, const PoolTiling& t, const VectorPlan& plan,
              const PoolOperands& ops, Span1D rows, Span1D ch, uint64_t k,
              std::vector<spec::Instruction>& out) {
  const InputWindow window = PoolRows(l, rows);
  spec::PoolArgs p = PoolFields(l);
  if (t.input_on_chip) {
    p.in_addr = static_cast<uint32_t>(ops.input.At(window.begin, 0, 0, l.in_w));
  } else {
    p.in_addr = static_cast<uint32_t>(plan.a.Addr(k % plan.a.slots));
    Dma(out, spec::Opcode::kLoad,
        HwcBlockCopy(ops.input.At(window.begin, 0, ch.begin, l.in_w), p.in_addr, window.size,
                     l.in_w, ch.size * l.InElementBytes(), l.in_w, ops.input.PixelBytes()));
  }
  p.in_h = window.size;
  p.channels = ch.size;
  p.pad_top = window.pad_before;
  p.out_h = rows.size;
  const uint64_t first = ops.output.At(rows.begin, 0, ch.begin, l.out_w);
  p.out_addr = static_cast<uint32_t>(t.output_on_chip ? first : plan.out.Addr(k % plan.out.slots));
  p.out_pixel_stride = t.output_on_chip ? ops.output.channels : ch.size;
  const StridedCopy slot =
      HwcBlockCopy(first, p.out_addr, rows.size, l.out_w, ch.size * l.OutElementBytes(), l.out_w,
                   ops.output.PixelBytes());
  // An accumulating sum in DRAM: its slot first LOADs the sums it adds to.
  if (!t.output_on_chip && l.accumulate) Dma(out, spec::Opcode::kLoad, slot);
  out.push_back({spec::Opcode::kPool, 0, 0, p});
  if (t.output_on_chip) return;
  Dma(out, spec::Opcode::kStore, slot);
}

}  // namespace

std::vector<spec::Instruction> EmitPool(const PoolLayer& l, const PoolTiling& t,
                                        const VectorPlan& plan, const PoolOperands& ops) {
  // A channel slice of a wider tensor (concatenation by placement) is read through DMA, never in
  // place on chip (POOL reads dense pixels); it may be written in place (out_pixel_stride).
  NPU_CHECK(!t.input_on_chip || (ops.input.channel_offset == 0 && ops.input.channels == t.tile_c));
  const Axis bands{l.out_h, t.tile_oh}, channels{l.channels, t.tile_c};
  std::vector<spec::Instruction> out;
  uint64_t k = 0;
  for (uint32_t b = 0; b < bands.count(); ++b) {
    for (uint32_t c = 0; c < channels.count(); ++c) {
      PoolTile(l, t, plan, ops, bands.At(b), channels.At(c), k++, out);
    }
  }
  return out;
}

}  // namespace npu::compiler
