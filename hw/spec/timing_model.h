// Per-unit timing formulas, in cycles. Pure functions of the config shared by the SystemC units
// (which add only the waits between units that the simulation resolves) and the compiler's cost
// model. docs/architecture.md ("Timing") states them; tests pin each one down.
#pragma once

#include <cstdint>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/npu_config.pb.h"
#include "hw/spec/unit_accesses.h"

namespace npu::spec {

constexpr uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
// The last of the ceil(total / size) chunks `total` splits into: total - (chunks - 1) * size.
constexpr uint64_t LastChunk(uint64_t total, uint64_t size) {
  return total == 0 ? 0 : total - (CeilDiv(total, size) - 1) * size;
}

// The NPU clock's period, rounded to whole picoseconds: the platform's clock and the DRAM
// controller's cycle <-> DRAM-clock conversion both use it.
constexpr uint64_t NpuClockPeriodPs(uint32_t clock_mhz) {
  return (1'000'000 + clock_mhz / 2) / clock_mhz;
}

// Folds of the R x C systolic array streaming `stream` (T) vectors each. mac.fold_pipelining
// says how a fold overlaps the next (docs/timing-fidelity.md draws the PEs; hw/rtl builds them
// and measures these formulas):
//   DOUBLE_BUFFERED: the next fold's stationary operand shifts in (R cycles) behind a shadow
//     register while this fold streams: a fold slot is max(T, R) cycles.
//   SINGLE_BUFFERED: no shadow register: the shift chain cannot move until the last row has
//     taken its operand (R - 1 cycles into the fold), then shifts R cycles: max(T, 2R - 1).
//   NONE: nothing overlaps: each fold loads (R), streams (T) and drains (R + C - 2) on its own,
//     a slot of T + 2R + C - 2 (SCALE-Sim's fold).
// With the first two a chain of folds pays once the fill (R cycles to load the first stationary
// operand) and the drain (R + C - 2 cycles for the last fold's skewed stream to leave the array),
// FoldOverheadCycles, and its last fold streams T without waiting out its slot:
//   (folds - 1) * slot + T + 2R + C - 2.
// A CONV continuing the previous CONV's chain (FoldChain) pays no fill and drain, but first the
// rest of that CONV's last slot (slot - T: its own first operand loads then):
//   (previous slot - previous T) + (folds - 1) * slot + T.
uint64_t FoldSlotCycles(const NpuConfig& c, uint64_t stream);
uint64_t LastFoldCycles(const NpuConfig& c, uint64_t stream);  // T; the slot for NONE
uint64_t FoldOverheadCycles(const NpuConfig& c);  // 2R + C - 2; 0 for NONE (inside the slot)

// The folds of one CONV and their cost. With M = out_h*out_w, K = kernel_h*kernel_w*in_c
// (kernel_h*kernel_w for depthwise, whose columns each hold one channel; a group's
// kernel_h*kernel_w*in_c/G with G groups, each column fed its own group), N = out_c (ConvGemm):
// weight-stationary runs ceil(K/R)*ceil(N/C) folds streaming M input vectors each;
// output-stationary runs ceil(M/R)*ceil(N/C) folds streaming K each.
struct ConvGemmShape {
  uint64_t m, n, k;
};
ConvGemmShape ConvGemm(const ConvArgs& conv);
// INT4 weights (weights_int4) with mac.int4_weight_rate = 2: each PE takes two reduction
// indices per cycle, so weight-stationary folds cover 2R of K (ceil(K / 2R) K-chunks) and
// output-stationary folds stream ceil(K / 2) steps; fill and drain are the array's, unchanged.
uint64_t ReductionRate(const NpuConfig& c, const ConvArgs& conv);      // 1, or the int4 rate
uint64_t FoldReductionRows(const NpuConfig& c, const ConvArgs& conv);  // WS: K per fold, R x rate
uint64_t ConvFolds(const NpuConfig& c, const ConvArgs& conv);
// FP16 (fp16): each PE takes mac.fp16_mac_cycles cycles per MAC, so every streamed vector (WS) or
// reduction step (OS) occupies the array that many cycles: T is M or K times it.
uint64_t ConvStepCycles(const NpuConfig& c, const ConvArgs& conv);  // 1, or the FP16 MAC's
// Weight-stationary CONVs: the row groups a fold whose K-chunk has `chunk_rows` rows uses,
// min(mac.row_groups, FoldReductionRows / chunk_rows), at least 1 (1 for output-stationary
// arrays). A depthwise fold's chunk is its kernel's taps, grouped only when the whole kernel fits
// one fold (its groups share their windows' columns, which a chunk of taps would not). So a CONV
// whose K fits one fold is grouped when K fits half of it, and a longer one's last K-chunk is
// when that remainder does (K = 40 on 32 rows: a chunk of 32, then one of 8 in 3 groups). With
// G > 1 each step takes G output pixels: a depthwise fold G adjacent pixels of one output row
// (out_h x ceil(out_w / G) steps, sharing their windows' columns), another CONV any G pixels
// (ceil(M / G) steps).
uint64_t FoldRowGroups(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_rows);
uint64_t RowGroups(const NpuConfig& c, const ConvArgs& conv);  // its first fold's
// Weight-stationary CONVs but depthwise ones: the column groups a fold whose column chunk has
// `chunk_cols` columns uses. The C columns are mac.col_groups = H groups of C / H, each with an
// input injection point at its first column; a copy of the fold's weights starts at every
// ceil(chunk_cols / (C / H))-th point, so floor(H / ceil(chunk_cols x H / C)) copies (at least
// 1), each taking another output pixel per step: 2 for a fold of 16 of 32 columns with H = 2.
uint64_t FoldColGroups(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_cols);
// The rows of the CONV's last K-chunk (weight-stationary; K for output-stationary), and the
// columns of its last column chunk.
uint64_t LastChunkRows(const NpuConfig& c, const ConvArgs& conv);
uint64_t LastChunkCols(const NpuConfig& c, const ConvArgs& conv);
// T of a fold whose K-chunk has `chunk_rows` rows and whose column chunk has `chunk_cols`
// columns (weight-stationary), or of any fold (output-stationary): M / (its row groups x its
// column groups), or K, steps, times ConvStepCycles.
uint64_t FoldStream(const NpuConfig& c, const ConvArgs& conv, uint64_t chunk_rows,
                    uint64_t chunk_cols);
uint64_t ConvStream(const NpuConfig& c, const ConvArgs& conv);  // T of its first fold
uint64_t LastFoldStream(const NpuConfig& c, const ConvArgs& conv);  // T of its last fold
// `chained_after`: the CONV whose fold chain `conv` continues (FoldChain), if any; its last
// fold's T (LastFoldStream) is the one `conv` overlaps.
// The array's folds alone, each fold's slot of its own T (operand_stream.h's FoldClass; the
// formula above when every fold streams alike): what hw/rtl measures.
uint64_t ConvArrayCycles(const NpuConfig& c, const ConvArgs& conv,
                         const ConvArgs* chained_after = nullptr);
// The CONV's cycles with its operands streaming from SRAM (operand_stream.h): the same, but no
// fold lasts less than its feeder reads need of the banks (FoldSramCycles): a fold's slot is
// max(slot, reads), the last fold's max(T, reads). Equal to ConvArrayCycles whenever the banks
// keep up.
uint64_t ConvComputeCycles(const NpuConfig& c, const ConvArgs& conv,
                           const ConvArgs* chained_after = nullptr);
uint64_t ConvMacs(const ConvArgs& conv);  // M*N*K, padding positions included

// Which CONV's fold chain a CONV continues: the CONV before it on the array, if the new one
// accumulates into the very accumulator tile that one wrote (same acc_addr, out_h, out_w,
// out_c), starts the cycle that one ends (the array never idled, so its first stationary operand
// loaded during that CONV's last fold slot), and the pipelining overlaps folds (not NONE).
// Output-stationary also needs the same K: a shorter stream would finish its sums while the
// previous fold's still occupy the drain chain. The SystemC MAC array and both compiler replays
// keep one each.
class FoldChain {
 public:
  // The CONV whose chain `conv`, starting at `start_cycle`, continues, or nullptr. Valid until
  // the next Ended().
  const ConvArgs* Predecessor(const NpuConfig& c, const ConvArgs& conv, uint64_t start_cycle) const;
  // `conv` ran and ends at `end_cycle`.
  void Ended(const ConvArgs& conv, uint64_t end_cycle);

 private:
  bool any_ = false;
  ConvArgs last_;
  uint64_t last_end_ = 0;
};

// Vector unit: pipeline latency plus one element per lane per cycle.
uint64_t ActComputeCycles(const NpuConfig& c, uint64_t elements);
// The lane cycles of a vector instruction: VectorLaneOps, times act.fp16_element_cycles for an
// fp16 one (ELTWISE with int8_out too) and a LUT with fp16_out, times DwConvPasses for a DWCONV;
// a POOL's output elements times PoolPasses (times the fp16 element cycles for an fp16 one);
// an LNORM's elements once (the statistics pass) plus lanes x LnormDividerCycles (the square
// root and the normalise pass), so it takes pipeline + ceil(elements / lanes) +
// kLnormRootCycles + ceil(elements / act.norm_dividers).
uint64_t VectorLaneCycles(const NpuConfig& c, const Instruction& insn);
// LNORM's square root: a 32-stage pipeline (32 result bits of a 64-bit radicand). Only the first
// pixel's is waited for: the later pixels' roots overlap their neighbours' passes (the
// statistics of pixel p + 1 and the normalise pass of pixel p - 1 while pixel p's is taken, a
// row buffer holding the pixels in flight).
inline constexpr uint64_t kLnormRootCycles = 32;
// LNORM's wait for its first square root, then its normalise pass: each element's RoundDiv on
// one of act.norm_dividers pipelined dividers, one element a divider a cycle; the lanes
// requantise behind them.
uint64_t LnormDividerCycles(const NpuConfig& c, const LnormArgs& lnorm);
// DWCONV: each lane multiplies act.depthwise_taps taps of its output element's window a cycle
// (and requantises the sum in the same pipeline, as ACT does), so an element takes
// ceil(kernel_h*kernel_w / depthwise_taps) passes: 1 for a 3x3 kernel on 9 taps, 3 for a 5x5.
uint64_t DwConvPasses(const NpuConfig& c, const DwConvArgs& dw);
// POOL: an int8 average pool sums its windows on the same tap datapath (each tap's multiplier fed
// a weight of 1, its adder tree summing act.depthwise_taps taps a lane a cycle), so an output
// element takes ceil(kernel_h*kernel_w / depthwise_taps) passes: a squeeze-excitation block's
// global pool over 56 x 56 pixels 349 instead of 3,136. Without the datapath, and for max and
// fp16 pools (the tree adds; it neither compares nor takes FP16), kernel_h*kernel_w: a tap a
// cycle. A sum pool sums its windows as an average does (its accumulated sums, if any, start
// the adder); a mean of sums takes one pass, one sum an element. VectorLaneCycles is the output
// elements times these passes.
uint64_t PoolPasses(const NpuConfig& c, const PoolArgs& pool);
inline constexpr uint64_t kResizeTapsPerElement = 4;
// The elements the vector unit's lanes process: an ACT one per accumulator entry; POOL
// kernel_h*kernel_w taps per output element; ELTWISE two inputs per element, one when b is
// broadcast per channel or as a scalar (held in the lanes' per-channel registers); LUT one;
// RESIZE kResizeTapsPerElement taps per output element (whether a tap's weight is 0, as in
// nearest, does not matter), or with held rows (ResizeArgs::row_blends) two per element of each
// source row it blends and two per output element; DWCONV one per output element (its passes:
// VectorLaneCycles); LNORM two per element (statistics, requantisation); 0 for other
// instructions. The vector unit's time (ActComputeCycles of it) and its energy (energy_model.h)
// both follow from it.
uint64_t VectorLaneOps(const Instruction& insn);

// DRAM: `bytes` occupy the data bus for ceil(bytes / bytes_per_cycle) cycles, after
// latency_cycles from the request (reads and writes alike).
uint64_t DramDataCycles(const NpuConfig& c, uint64_t bytes);
uint64_t DramTransferCycles(const NpuConfig& c, uint64_t bytes);

// SRAM: an access of [addr, addr+bytes) touches consecutive bank_width-byte words, spread
// round-robin over the banks; each bank delivers one word per cycle.
uint64_t SramAccessCycles(const NpuConfig& c, uint64_t addr, uint64_t bytes);

// The SRAM's own cycles for an access if no bank were busy: ceil(words touched / banks), the
// words being sram_words.h's (a scattered run's: those holding one of its bytes). Bank conflicts
// (including runs landing in the same banks) come on top, as the SRAM model resolves them.
uint64_t SramIdealCycles(const NpuConfig& c, const SramAccess& access);
// The same for `count` contiguous runs of `run_bytes`, `stride` apart.
uint64_t SramIdealCycles(const NpuConfig& c, uint64_t addr, uint64_t run_bytes, uint64_t count = 1,
                         uint64_t stride = 0);

// A DMA descriptor as the channel issues it: runs split so no burst crosses a
// burst_bytes-aligned DRAM boundary. A scattered LOAD's burst keeps its run's sram_elem_stride:
// its bytes land that far apart from sram_addr.
struct Burst {
  uint32_t dram_offset;
  uint32_t sram_addr;
  uint32_t bytes;
  uint32_t sram_elem_stride = 0;
};
std::vector<Burst> SplitIntoBursts(const NpuConfig& c, const DmaArgs& dma);
uint64_t DmaBytes(const DmaArgs& dma);

// The one SRAM access a burst makes: a LOAD writes its bytes (scattered by its element stride),
// a STORE reads them.
SramAccess BurstSramAccess(const Burst& burst, Opcode direction);

// A channel running `bursts` alone on an idle DRAM and SRAM, keeping up to outstanding_bursts in
// flight. LOAD: a burst's slot frees when its data arrives, and the data is written to SRAM then
// (posted). STORE: a burst is read from SRAM when issued, then written to DRAM; its slot frees
// when DRAM completes the write. A burst's SRAM access (BurstSramAccess) costs its
// SramIdealCycles: a scattered burst occupies more bank words than a dense one. SRAM accesses
// are assumed conflict-free here.
uint64_t DmaIdealCycles(const NpuConfig& c, Opcode direction, const std::vector<Burst>& bursts);

// The SRAM's own cycles for a unit instruction's accesses (unit_accesses.h) made back to back:
// the sum of SramIdealCycles over them. 0 for LOAD/STORE and CONV (whose operands stream: its
// SRAM cycles are inside ConvComputeCycles).
uint64_t UnitSramIdealCycles(const NpuConfig& c, const Instruction& insn);

// One instruction alone on an idle NPU: what the unit takes without waiting for tokens, busy
// banks or other DRAM traffic. CONV: ConvComputeCycles, its folds continuing `chained_after`'s
// chain if given (FoldChain); ACT, POOL, ELTWISE, LUT, RESIZE: max(vector cycles,
// UnitSramIdealCycles); LOAD/STORE: DmaIdealCycles.
uint64_t IdealCycles(const NpuConfig& c, const Instruction& insn,
                     const ConvArgs* chained_after = nullptr);

}  // namespace npu::spec
