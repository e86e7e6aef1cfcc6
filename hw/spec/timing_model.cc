// The timing formulas of timing_model.h.
#include "hw/spec/timing_model.h"

#include <algorithm>
#include <deque>

#include "hw/spec/operand_stream.h"
#include "hw/spec/semantics.h"
#include "hw/spec/sram_words.h"
#include "hw/spec/unit_accesses.h"

namespace npu::spec {

uint64_t FoldSlotCycles(const NpuConfig& c, uint64_t stream) {
  const uint64_t rows = c.mac().rows(), cols = c.mac().cols();
  switch (c.mac().fold_pipelining()) {
    case SINGLE_BUFFERED:
      return std::max(stream, 2 * rows - 1);
    case NONE:
      return stream + 2 * rows + cols - 2;
    default:  // DOUBLE_BUFFERED (Validate() admits no other value)
      return std::max(stream, rows);
  }
}

uint64_t LastFoldCycles(const NpuConfig& c, uint64_t stream) {
  return c.mac().fold_pipelining() == NONE ? FoldSlotCycles(c, stream) : stream;
}

uint64_t FoldOverheadCycles(const NpuConfig& c) {
  if (c.mac().fold_pipelining() == NONE) return 0;
  return 2 * uint64_t{c.mac().rows()} + c.mac().cols() - 2;
}

namespace {

// What a CONV's chain of folds pays besides its folds' slots: fill and drain when it starts a
// chain, else the rest of the slot of the last fold of `chained_after`, whose chain it continues.
uint64_t ChainEntryCycles(const NpuConfig& c, const ConvArgs* chained_after) {
  if (chained_after == nullptr) return FoldOverheadCycles(c);
  const uint64_t before = LastFoldStream(c, *chained_after);
  return FoldSlotCycles(c, before) - LastFoldCycles(c, before);
}

}  // namespace

ConvGemmShape ConvGemm(const ConvArgs& conv) {
  return {uint64_t{conv.out_h} * conv.out_w, conv.out_c, ConvWeightRowValues(conv)};
}

uint64_t ReductionRate(const NpuConfig& c, const ConvArgs& conv) {
  return conv.weights_int4 ? std::max<uint64_t>(1, c.mac().int4_weight_rate()) : 1;
}

uint64_t FoldReductionRows(const NpuConfig& c, const ConvArgs& conv) {
  return uint64_t{c.mac().rows()} * ReductionRate(c, conv);
}

uint64_t ConvFolds(const NpuConfig& c, const ConvArgs& conv) {
  const ConvGemmShape g = ConvGemm(conv);
  const uint64_t cols = c.mac().cols();
  if (c.mac().dataflow() == WEIGHT_STATIONARY) {
    return CeilDiv(g.k, FoldReductionRows(c, conv)) * CeilDiv(g.n, cols);
  }
  return CeilDiv(g.m, c.mac().rows()) * CeilDiv(g.n, cols);
}

uint64_t ConvStepCycles(const NpuConfig& c, const ConvArgs& conv) {
  return conv.fp16 ? std::max<uint64_t>(1, c.mac().fp16_mac_cycles()) : 1;
}

uint64_t FoldRowGroups(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_rows) {
  if (c.mac().dataflow() != WEIGHT_STATIONARY) return 1;
  const uint64_t rows = conv.depthwise ? uint64_t{conv.kernel_h} * conv.kernel_w : chunk_rows;
  const uint64_t fit = rows == 0 ? 1 : FoldReductionRows(c, conv) / rows;
  return std::max<uint64_t>(1, std::min<uint64_t>(c.mac().row_groups(), fit));
}

uint64_t RowGroups(const NpuConfig& c, const ConvArgs& conv) {
  return FoldRowGroups(c, conv, std::min(ConvGemm(conv).k, FoldReductionRows(c, conv)));
}

uint64_t FoldColGroups(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_cols) {
  if (c.mac().dataflow() != WEIGHT_STATIONARY || conv.depthwise || chunk_cols == 0) return 1;
  const uint64_t groups = std::max<uint32_t>(1, c.mac().col_groups());
  return std::max<uint64_t>(1, groups / CeilDiv(chunk_cols * groups, c.mac().cols()));
}

uint64_t LastChunkRows(const NpuConfig& c, const ConvArgs& conv) {
  const uint64_t k = ConvGemm(conv).k;
  return c.mac().dataflow() == WEIGHT_STATIONARY ? LastChunk(k, FoldReductionRows(c, conv)) : k;
}

uint64_t LastChunkCols(const NpuConfig& c, const ConvArgs& conv) {
  return LastChunk(ConvGemm(conv).n, c.mac().cols());
}

uint64_t FoldStream(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_rows,
                    uint64_t chunk_cols) {
  const ConvGemmShape g = ConvGemm(conv);
  const uint64_t groups =
      FoldRowGroups(c, conv, chunk_rows) * FoldColGroups(c, conv, chunk_cols);
  const uint64_t steps = c.mac().dataflow() != WEIGHT_STATIONARY
                             ? CeilDiv(g.k, ReductionRate(c, conv))
                         : groups == 1    ? g.m
                         : conv.depthwise ? uint64_t{conv.out_h} * CeilDiv(conv.out_w, groups)
                                          : CeilDiv(g.m, groups);
  return steps * ConvStepCycles(c, conv);
}

uint64_t ConvStream(const NpuConfig& c, const ConvArgs& conv) {
  const ConvGemmShape g = ConvGemm(conv);
  return FoldStream(c, conv, std::min(g.k, FoldReductionRows(c, conv)),
                    std::min<uint64_t>(g.n, c.mac().cols()));
}

uint64_t LastFoldStream(const NpuConfig& c, const ConvArgs& conv) {
  return FoldStream(c, conv, LastChunkRows(c, conv), LastChunkCols(c, conv));
}

namespace {

// The folds' slots of `conv` (FoldClass.stream each), a fold lasting at least its reads'
// FoldSramCycles when `with_reads`; the last fold streams its T without waiting out its slot.
uint64_t ConvFoldBodyCycles(const NpuConfig& c, const ConvArgs& conv, bool with_reads) {
  uint64_t cycles = 0;
  ForEachFoldClass(c, conv, [&](const FoldClass& f) {
    const uint64_t reads = with_reads ? FoldSramCycles(c, f.reads) : 0;
    cycles += f.last ? std::max(LastFoldCycles(c, f.stream), reads)
                     : f.count * std::max(FoldSlotCycles(c, f.stream), reads);
  });
  return cycles;
}

}  // namespace

uint64_t ConvArrayCycles(const NpuConfig& c, const ConvArgs& conv, const ConvArgs* chained_after) {
  const ConvGemmShape g = ConvGemm(conv);
  if (g.m == 0 || g.n == 0 || g.k == 0) return 0;
  return ChainEntryCycles(c, chained_after) + ConvFoldBodyCycles(c, conv, false);
}

uint64_t ConvComputeCycles(const NpuConfig& c, const ConvArgs& conv,
                           const ConvArgs* chained_after) {
  const ConvGemmShape g = ConvGemm(conv);
  if (g.m == 0 || g.n == 0 || g.k == 0) return 0;
  return ChainEntryCycles(c, chained_after) + ConvFoldBodyCycles(c, conv, true);
}

uint64_t ConvMacs(const ConvArgs& conv) {
  const ConvGemmShape g = ConvGemm(conv);
  return g.m * g.n * g.k;
}

const ConvArgs* FoldChain::Predecessor(const NpuConfig& c, const ConvArgs& conv,
                                       uint64_t start_cycle) const {
  const bool continues =
      any_ && conv.accumulate && c.mac().fold_pipelining() != NONE && start_cycle == last_end_ &&
      conv.acc_addr == last_.acc_addr && conv.out_h == last_.out_h && conv.out_w == last_.out_w &&
      conv.out_c == last_.out_c &&
      (c.mac().dataflow() == WEIGHT_STATIONARY || ConvStream(c, conv) == ConvStream(c, last_));
  return continues ? &last_ : nullptr;
}

void FoldChain::Ended(const ConvArgs& conv, uint64_t end_cycle) {
  any_ = true;
  last_ = conv;
  last_end_ = end_cycle;
}

uint64_t ActComputeCycles(const NpuConfig& c, uint64_t elements) {
  return c.act().pipeline_cycles() + CeilDiv(elements, c.act().lanes());
}

namespace {

// A mean of sums takes one sum an element; the other modes every tap of the window (an
// accumulating sum's prior sums start the adder instead of zero).
uint64_t PoolTapsPerElement(const PoolArgs& p) {
  if (static_cast<PoolMode>(p.mode) == PoolMode::kMeanOfSums) return 1;
  return uint64_t{p.kernel_h} * p.kernel_w;
}
uint64_t PoolLaneOps(const PoolArgs& p) {
  return uint64_t{p.out_h} * p.out_w * p.channels * PoolTapsPerElement(p);
}
// A b broadcast per channel or as a scalar is held in the lanes' per-channel registers (ACT's
// records'), so only a streams through them.
uint64_t EltwiseLaneOps(const EltwiseArgs& e) {
  const auto b = static_cast<Broadcast>(e.broadcast);
  const bool b_held = b == Broadcast::kChannel || b == Broadcast::kScalar;
  return (b_held ? 1 : 2) * uint64_t{e.count};
}
uint64_t LutLaneOps(const LutArgs& l) { return l.count; }
uint64_t ResizeLaneOps(const ResizeArgs& r) {
  const uint64_t elements = uint64_t{r.out_w} * r.channels;
  if (r.row_blends == 0) return kResizeTapsPerElement * r.out_h * elements;
  // Held rows: two taps a held row's element when blended, two per output element after.
  return 2 * (uint64_t{r.row_blends} + r.out_h) * elements;
}
uint64_t DwConvLaneOps(const DwConvArgs& d) { return uint64_t{d.out_h} * d.out_w * d.channels; }
uint64_t LnormLaneOps(const LnormArgs& l) { return 2 * uint64_t{l.pixels} * l.channels; }

}  // namespace

uint64_t VectorLaneOps(const Instruction& insn) {
  if (const auto* act = std::get_if<ActArgs>(&insn.args)) return ActAccEntries(*act);
  if (const auto* pool = std::get_if<PoolArgs>(&insn.args)) return PoolLaneOps(*pool);
  if (const auto* lut = std::get_if<LutArgs>(&insn.args)) return LutLaneOps(*lut);
  if (const auto* r = std::get_if<ResizeArgs>(&insn.args)) return ResizeLaneOps(*r);
  if (const auto* d = std::get_if<DwConvArgs>(&insn.args)) return DwConvLaneOps(*d);
  if (const auto* l = std::get_if<LnormArgs>(&insn.args)) return LnormLaneOps(*l);
  if (const auto* e = std::get_if<EltwiseArgs>(&insn.args)) return EltwiseLaneOps(*e);
  return 0;
}

namespace {

bool IsFp16(const Instruction& insn) {
  if (const auto* act = std::get_if<ActArgs>(&insn.args)) return act->fp16;
  if (const auto* pool = std::get_if<PoolArgs>(&insn.args)) return pool->fp16;
  if (const auto* e = std::get_if<EltwiseArgs>(&insn.args)) return e->fp16;  // also int8_out
  if (const auto* l = std::get_if<LutArgs>(&insn.args)) return l->fp16_out;
  return false;
}

}  // namespace

uint64_t DwConvPasses(const NpuConfig& c, const DwConvArgs& dw) {
  const uint64_t taps = std::max<uint32_t>(1, c.act().depthwise_taps());
  return CeilDiv(uint64_t{dw.kernel_h} * dw.kernel_w, taps);
}

uint64_t PoolPasses(const NpuConfig& c, const PoolArgs& p) {
  const uint64_t window = PoolTapsPerElement(p);
  const uint32_t taps = c.act().depthwise_taps();
  const auto mode = static_cast<PoolMode>(p.mode);
  const bool sums = mode == PoolMode::kAverage || mode == PoolMode::kSum;
  const bool on_taps = taps > 0 && !p.fp16 && sums;
  return on_taps ? CeilDiv(window, taps) : window;
}

uint64_t LnormDividerCycles(const NpuConfig& c, const LnormArgs& l) {
  return kLnormRootCycles +
         CeilDiv(uint64_t{l.pixels} * l.channels, std::max<uint32_t>(1, c.act().norm_dividers()));
}

uint64_t VectorLaneCycles(const NpuConfig& c, const Instruction& insn) {
  if (const auto* dw = std::get_if<DwConvArgs>(&insn.args)) {
    return VectorLaneOps(insn) * DwConvPasses(c, *dw);
  }
  if (const auto* l = std::get_if<LnormArgs>(&insn.args)) {  // the statistics pass, then
    return uint64_t{l->pixels} * l->channels + LnormDividerCycles(c, *l) * c.act().lanes();
  }
  const uint64_t per_element =
      IsFp16(insn) ? std::max<uint32_t>(1, c.act().fp16_element_cycles()) : 1;
  if (const auto* pool = std::get_if<PoolArgs>(&insn.args)) {
    return uint64_t{pool->out_h} * pool->out_w * pool->channels * PoolPasses(c, *pool) *
           per_element;
  }
  return VectorLaneOps(insn) * per_element;
}

uint64_t DramDataCycles(const NpuConfig& c, uint64_t bytes) {
  return CeilDiv(bytes, c.dram().bytes_per_cycle());
}

uint64_t DramTransferCycles(const NpuConfig& c, uint64_t bytes) {
  return c.dram().latency_cycles() + DramDataCycles(c, bytes);
}

uint64_t SramAccessCycles(const NpuConfig& c, uint64_t addr, uint64_t bytes) {
  return SramIdealCycles(c, addr, bytes);
}

uint64_t SramIdealCycles(const NpuConfig& c, const SramAccess& a) {
  return CeilDiv(SramWords(a, c.sram().bank_width_bytes()), c.sram().banks());
}

uint64_t SramIdealCycles(const NpuConfig& c, uint64_t addr, uint64_t run_bytes, uint64_t count,
                         uint64_t stride) {
  return SramIdealCycles(c, SramAccess{addr, run_bytes, count, stride});
}

uint64_t DmaBytes(const DmaArgs& dma) { return uint64_t{dma.run_bytes} * dma.n1 * dma.n2; }

std::vector<Burst> SplitIntoBursts(const NpuConfig& c, const DmaArgs& dma) {
  const uint32_t burst = c.dma().burst_bytes();
  std::vector<Burst> bursts;
  for (uint32_t i2 = 0; i2 < dma.n2; ++i2) {
    for (uint32_t i1 = 0; i1 < dma.n1; ++i1) {
      uint32_t dram = dma.dram_offset + i2 * dma.dram_stride2 + i1 * dma.dram_stride1;
      uint32_t sram = dma.sram_addr + i2 * dma.sram_stride2 + i1 * dma.sram_stride1;
      uint32_t left = dma.run_bytes;
      while (left > 0) {
        const uint32_t n = std::min(left, burst - dram % burst);
        bursts.push_back({dram, sram, n, dma.sram_elem_stride});
        dram += n;
        sram += n * static_cast<uint32_t>(ElementStep(dma.sram_elem_stride));
        left -= n;
      }
    }
  }
  return bursts;
}

SramAccess BurstSramAccess(const Burst& b, Opcode direction) {
  const bool load = direction == Opcode::kLoad;
  return {b.sram_addr, b.bytes, 1, 0, load, load ? b.sram_elem_stride : 0};
}

uint64_t DmaIdealCycles(const NpuConfig& c, Opcode direction, const std::vector<Burst>& bursts) {
  const uint64_t latency = c.dram().latency_cycles();
  const size_t outstanding = c.dma().outstanding_bursts();
  std::deque<uint64_t> in_flight;  // completion times, oldest first
  uint64_t now = 0, bus_free = 0, end = 0;
  for (const Burst& b : bursts) {
    if (in_flight.size() == outstanding) {  // wait for the oldest burst to retire
      now = std::max(now, in_flight.front());
      in_flight.pop_front();
    }
    const uint64_t sram = SramIdealCycles(c, BurstSramAccess(b, direction));
    const uint64_t request = direction == Opcode::kStore ? now + sram : now;
    const uint64_t data_end = std::max(request + latency, bus_free) + DramDataCycles(c, b.bytes);
    bus_free = data_end;
    // A load's slot frees when its data arrives; the SRAM write that follows is posted.
    in_flight.push_back(data_end);
    end = std::max(end, direction == Opcode::kLoad ? data_end + sram : data_end);
  }
  return end;
}

uint64_t UnitSramIdealCycles(const NpuConfig& c, const Instruction& insn) {
  uint64_t cycles = 0;
  for (const SramAccess& a : UnitSramAccesses(insn)) {
    cycles += SramIdealCycles(c, a);
  }
  return cycles;
}

uint64_t IdealCycles(const NpuConfig& c, const Instruction& insn, const ConvArgs* chained_after) {
  if (const auto* dma = std::get_if<DmaArgs>(&insn.args)) {
    return DmaIdealCycles(c, insn.opcode, SplitIntoBursts(c, *dma));
  }
  if (const auto* conv = std::get_if<ConvArgs>(&insn.args)) {
    return ConvComputeCycles(c, *conv, chained_after);
  }
  return std::max(ActComputeCycles(c, VectorLaneCycles(c, insn)), UnitSramIdealCycles(c, insn));
}

}  // namespace npu::spec
