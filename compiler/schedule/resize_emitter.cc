// RESIZE emission and its taps constant.
//
// 1. With taps_once, LOAD the whole taps constant into the taps slot.
// Per band (outer) and column block, with their input windows:
// 2. without taps_once, LOAD the band's row taps and the block's column taps into the next taps
//    slot;
// per channel block:
// 3. LOAD the input window (its rows, columns, the channel block) into the next input slot,
//    unless the input is on chip (then RESIZE reads the rows in place, the pixel stride skipping
//    the other channels);
// 4. RESIZE into the next output slot, or straight into the on-chip output;
// 5. STORE the slot to the NHWC output.
#include "compiler/schedule/resize_emitter.h"

#include "compiler/schedule/dma_lowering.h"
#include "hw/spec/status.h"

namespace npu::compiler {
namespace {

constexpr uint64_t kTap = spec::kResizeTapBytes;

void Dma(std::vector<spec::Instruction>& out, spec::Opcode opcode, const StridedCopy& copy) {
  for (const spec::DmaArgs& d : LowerCopy(copy)) out.push_back({opcode, 0, 0, d});
}

// Taps [out.begin, out.begin + out.size) of `taps`, relative to `window`, into the table at byte
// `table` of `bytes` (tap o at entry o).
void PutTaps(std::vector<uint8_t>& bytes, uint64_t table, const std::vector<spec::ResizeTap>& taps,
             Span1D out, Span1D window) {
  const std::span<uint8_t> entries = std::span(bytes).subspan(table);
  for (uint32_t o = out.begin; o < out.begin + out.size; ++o) {
    spec::WriteResizeTap(entries, o,
                         {taps[o].i0 - window.begin, taps[o].i1 - window.begin, taps[o].w1});
  }
}

// Where a spatial tile's row and column taps are in SRAM.
struct TileTaps {
  uint64_t rows = 0, cols = 0;
};

// Step 2 (or the place in the once-loaded taps): the taps of band `band` and block `block`, the
// s-th spatial tile.
TileTaps LoadTaps(const ResizeLayer& l, const ResizeTiling& t, const VectorPlan& plan,
                  const ResizeOperands& ops, Span1D band, Span1D block, uint64_t s,
                  std::vector<spec::Instruction>& out) {
  const uint64_t rows_at = band.begin * kTap, cols_at = (uint64_t{l.out_h} + block.begin) * kTap;
  if (t.taps_once) return {plan.table.base + rows_at, plan.table.base + cols_at};
  const uint64_t slot = plan.table.Addr(static_cast<uint32_t>(s % plan.table.slots));
  const TileTaps taps{slot, slot + uint64_t{t.tile_oh} * kTap};
  Dma(out, spec::Opcode::kLoad, ContiguousCopy(ops.taps + rows_at, taps.rows, band.size * kTap));
  Dma(out, spec::Opcode::kLoad, ContiguousCopy(ops.taps + cols_at, taps.cols, block.size * kTap));
  return taps;
}

// A band's held rows (ResizeArgs::row_blends) where they take fewer lane operations than
// blending each element's four neighbours: 2 (blends + rows) < 4 rows; 0 otherwise (a band of
// one or two rows, or of rows each reading new source rows).
uint32_t HeldRowBlends(const ResizeLayer& l, Span1D band) {
  const uint32_t blends =
      spec::ResizeRowBlends(std::span(l.row_taps).subspan(band.begin, band.size));
  return blends + band.size < 2 * band.size ? blends : 0;
}

// Steps 3-5 for one tile: output rows `band`, columns `block`, channels `ch`; the k-th tile.
void ResizeTile(const ResizeLayer& l, const ResizeTiling& t, const VectorPlan& plan,
                const ResizeOperands& ops, Span1D band, Span1D block, Span1D ch,
                const TileTaps& taps, uint64_t k, std::vector<spec::Instruction>& out) {
  const Span1D rows = ResizeRows(l, band), cols = ResizeColumns(l, t, block);
  spec::ResizeArgs r;
  const uint64_t window = ops.input.At(rows.begin, cols.begin, ch.begin, l.in_w);
  if (t.input_on_chip) {
    r.in_addr = static_cast<uint32_t>(window);
    r.in_pixel_stride = ops.input.channels;
  } else {
    r.in_addr = static_cast<uint32_t>(plan.a.Addr(k % plan.a.slots));
    r.in_pixel_stride = ch.size;
    Dma(out, spec::Opcode::kLoad,
        HwcBlockCopy(window, r.in_addr, rows.size, cols.size, ch.size, l.in_w, ops.input.channels));
  }
  r.in_h = rows.size, r.in_w = cols.size, r.channels = ch.size;
  r.out_h = band.size, r.out_w = block.size;
  const uint64_t first = ops.output.At(band.begin, block.begin, ch.begin, l.out_w);
  r.out_addr = static_cast<uint32_t>(t.output_on_chip ? first : plan.out.Addr(k % plan.out.slots));
  r.out_pixel_stride = t.output_on_chip ? ops.output.channels : ch.size;
  r.row_taps_addr = static_cast<uint32_t>(taps.rows);
  r.col_taps_addr = static_cast<uint32_t>(taps.cols);
  r.zero_point = l.zero_point;
  r.row_blends = HeldRowBlends(l, band);
  out.push_back({spec::Opcode::kResize, 0, 0, r});
  if (t.output_on_chip) return;
  Dma(out, spec::Opcode::kStore,
      HwcBlockCopy(first, r.out_addr, band.size, block.size, ch.size, l.out_w,
                   ops.output.channels));
}

}  // namespace

uint64_t ResizeTapsBytes(const ResizeLayer& l) { return (uint64_t{l.out_h} + l.out_w) * kTap; }

std::vector<uint8_t> PackResizeTaps(const ResizeLayer& l, const ResizeTiling& t) {
  std::vector<uint8_t> bytes(ResizeTapsBytes(l));
  const Axis bands{l.out_h, t.tile_oh}, blocks{l.out_w, t.tile_ow};
  for (uint32_t b = 0; b < bands.count(); ++b) {
    PutTaps(bytes, 0, l.row_taps, bands.At(b), ResizeRows(l, bands.At(b)));
  }
  for (uint32_t j = 0; j < blocks.count(); ++j) {
    PutTaps(bytes, uint64_t{l.out_h} * kTap, l.col_taps, blocks.At(j),
            ResizeColumns(l, t, blocks.At(j)));
  }
  return bytes;
}

std::vector<spec::Instruction> EmitResize(const ResizeLayer& l, const ResizeTiling& t,
                                          const VectorPlan& plan, const ResizeOperands& ops) {
  // A channel slice of a wider tensor (concatenation by placement) is read and written through
  // DMA, never in place on chip.
  NPU_CHECK((ops.input.channel_offset == 0 || !t.input_on_chip) &&
            (ops.output.channel_offset == 0 || !t.output_on_chip));
  NPU_CHECK(t.tile_ow >= l.out_w || (!t.input_on_chip && !t.output_on_chip));
  std::vector<spec::Instruction> out;
  if (t.taps_once) {
    Dma(out, spec::Opcode::kLoad, ContiguousCopy(ops.taps, plan.table.base, ResizeTapsBytes(l)));
  }
  const Axis bands{l.out_h, t.tile_oh}, blocks{l.out_w, t.tile_ow}, chans{l.channels, t.tile_c};
  uint64_t k = 0, s = 0;
  for (uint32_t b = 0; b < bands.count(); ++b) {
    for (uint32_t j = 0; j < blocks.count(); ++j, ++s) {
      const TileTaps taps = LoadTaps(l, t, plan, ops, bands.At(b), blocks.At(j), s, out);
      for (uint32_t c = 0; c < chans.count(); ++c) {
        ResizeTile(l, t, plan, ops, bands.At(b), blocks.At(j), chans.At(c), taps, k++, out);
      }
    }
  }
  return out;
}

}  // namespace npu::compiler
