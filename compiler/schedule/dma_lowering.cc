// DMA descriptor lowering.
#include "compiler/schedule/dma_lowering.h"

#include <algorithm>

#include "hw/spec/sram_words.h"
#include "hw/spec/status.h"

namespace npu::compiler {
namespace {

// Folds dimension 1 into the run when it is contiguous on both sides (in SRAM: the next run
// starts one element step after this one's last byte), and drops unit dimensions, so the
// innermost run is as long as the layout allows.
StridedCopy Merge(StridedCopy c) {
  const uint64_t step = spec::ElementStep(c.sram_elem_stride);
  for (int pass = 0; pass < 2; ++pass) {
    if (c.n1 == 1 || (c.dram_stride1 == c.run_bytes && c.sram_stride1 == c.run_bytes * step)) {
      c.run_bytes *= c.n1;
      c.n1 = c.n2;
      c.dram_stride1 = c.dram_stride2;
      c.sram_stride1 = c.sram_stride2;
      c.n2 = 1;
      c.dram_stride2 = c.sram_stride2 = 0;
    }
  }
  if (c.n1 == 1) c.dram_stride1 = c.sram_stride1 = 0;
  return c;
}

spec::DmaArgs Descriptor(const StridedCopy& c) {
  return {static_cast<uint32_t>(c.dram_offset),  static_cast<uint32_t>(c.sram_addr),
          static_cast<uint32_t>(c.run_bytes),    static_cast<uint32_t>(c.n1),
          static_cast<uint32_t>(c.n2),           static_cast<uint32_t>(c.dram_stride1),
          static_cast<uint32_t>(c.dram_stride2), static_cast<uint32_t>(c.sram_stride1),
          static_cast<uint32_t>(c.sram_stride2), static_cast<uint32_t>(c.sram_elem_stride)};
}

// run_bytes fits; chunks n1 and n2 to at most kMaxCount each.
void EmitChunked(const StridedCopy& c, std::vector<spec::DmaArgs>& out) {
  for (uint64_t i2 = 0; i2 < c.n2; i2 += kMaxCount) {
    for (uint64_t i1 = 0; i1 < c.n1; i1 += kMaxCount) {
      StridedCopy part = c;
      part.dram_offset += i2 * c.dram_stride2 + i1 * c.dram_stride1;
      part.sram_addr += i2 * c.sram_stride2 + i1 * c.sram_stride1;
      part.n1 = std::min(kMaxCount, c.n1 - i1);
      part.n2 = std::min(kMaxCount, c.n2 - i2);
      if (part.n2 == 1) part.dram_stride2 = part.sram_stride2 = 0;
      out.push_back(Descriptor(part));
    }
  }
}

// One run of 64 KiB or more (its bytes `elem_stride` apart in SRAM): equal pieces (a multiple
// of 64 bytes dividing the run, as large as possible) in one descriptor, else 32 KiB pieces plus
// a remainder.
void EmitLongRun(uint64_t dram, uint64_t sram, uint64_t bytes, uint64_t elem_stride,
                 std::vector<spec::DmaArgs>& out) {
  uint64_t piece = 0;
  for (uint64_t p = kMaxRunBytes / 64 * 64; p >= 4096 && piece == 0; p -= 64) {
    if (bytes % p == 0) piece = p;
  }
  if (piece == 0) piece = 32768;
  const uint64_t count = bytes / piece, rest = bytes % piece;
  const uint64_t sram_piece = piece * spec::ElementStep(elem_stride);
  EmitChunked({dram, sram, piece, count, 1, piece, 0, sram_piece, 0, elem_stride}, out);
  if (rest > 0) {
    const StridedCopy tail{dram + count * piece, sram + count * sram_piece, rest, 1, 1, 0, 0, 0, 0,
                           elem_stride};
    EmitChunked(Merge(tail), out);
  }
}

}  // namespace

StridedCopy ContiguousCopy(uint64_t dram_offset, uint64_t sram_addr, uint64_t bytes) {
  return {dram_offset, sram_addr, bytes};
}

StridedCopy HwcBlockCopy(uint64_t dram_offset, uint64_t sram_addr, uint64_t rows, uint64_t cols,
                         uint64_t channels, uint64_t tensor_w, uint64_t tensor_c, uint64_t row_step,
                         uint64_t col_step) {
  StridedCopy copy{dram_offset, sram_addr, channels, cols, rows};
  copy.dram_stride1 = col_step * tensor_c;
  copy.dram_stride2 = row_step * tensor_w * tensor_c;
  copy.sram_stride1 = channels;
  copy.sram_stride2 = cols * channels;
  return copy;
}

StridedCopy ElementsCopy(const TensorPlace& place, uint64_t c, uint64_t offset, uint64_t count,
                         uint64_t sram_addr) {
  const uint64_t pixel = offset / c, channel = offset % c, e = place.element_bytes;
  const uint64_t first = place.At(0, pixel, channel, 0);
  if (place.channels == c || channel + count <= c) {
    return ContiguousCopy(first, sram_addr, count * e);
  }
  NPU_CHECK(channel == 0 && count % c == 0);
  return {first, sram_addr, c * e, count / c, 1, place.PixelBytes(), 0, c * e, 0};
}

StridedCopy ShuffledPixelsCopy(const TensorPlace& place, const CopyLayer& l, uint64_t pixel,
                               uint64_t pixels, uint64_t sram_addr) {
  NPU_CHECK(l.group > 0 && l.c % l.group == 0);
  const uint64_t first =
      place.addr + pixel * place.channels + place.channel_offset + l.group_offset;
  return {first,          sram_addr,       l.PerGroup(), pixels, l.group,
          place.channels, l.GroupStride(), l.c,          1,      l.group};
}

std::vector<spec::DmaArgs> LowerCopy(const StridedCopy& copy) {
  std::vector<spec::DmaArgs> out;
  if (copy.run_bytes == 0 || copy.n1 == 0 || copy.n2 == 0) return out;
  const StridedCopy c = Merge(copy);
  if (c.run_bytes <= kMaxRunBytes) {
    EmitChunked(c, out);
    return out;
  }
  for (uint64_t i2 = 0; i2 < c.n2; ++i2) {  // long runs that are not contiguous: one by one
    for (uint64_t i1 = 0; i1 < c.n1; ++i1) {
      EmitLongRun(c.dram_offset + i2 * c.dram_stride2 + i1 * c.dram_stride1,
                  c.sram_addr + i2 * c.sram_stride2 + i1 * c.sram_stride1, c.run_bytes,
                  c.sram_elem_stride, out);
    }
  }
  return out;
}

}  // namespace npu::compiler
