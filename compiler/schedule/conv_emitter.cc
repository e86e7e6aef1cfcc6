// Instruction emission for a tiled convolution, batch by batch (ConvLayer::batches, each with
// its own operands: ConvOperands::batches).
//
// First, if the layer has a table, LOAD it into its slot (once: every ACT reads it there; not on
// the depthwise datapath, below).
// Per step (spatial tile sp, output-channel tile oc, input-channel tile ic), in stream order:
//   1. LOAD the input tile (clipped to the tensor; the halo rows/cols are part of it) unless
//      its slot still holds it or the input is on chip (then CONV reads the tensor in place),
//      then the weight tile (one contiguous packed block, or for activation weights the
//      ic-tile x oc-tile block of b: ic runs of oc bytes, one per row, or oc runs of ic bytes if
//      b is transposed) likewise, then on the first ic step the oc tile's ACT parameters; none
//      of these two if held constants are reused (an earlier strip LOADed them).
//   2. CONV into the group's accumulator tile, accumulating after the first ic tile. Padding
//      is exact: CONV's pad_value is the input zero point, which the folded bias cancels. With
//      activation weights CONV reads the block as [ic][oc] (weights_kn; [oc][ic] if b is
//      transposed) and subtracts both zero points (nothing is folded).
//   3. On the last ic step: ACT the accumulator tile (through the table, if any) into an SRAM
//      output slot and STORE it to its place in the NHWC output, or ACT straight into the on-chip
//      output tensor.
// On the vector unit's depthwise datapath (ConvTiling::on_vector) steps 2 and 3's ACT are one
// DWCONV from the same input, weight and parameter slots to the same output; its table, if any,
// is LOADed into each parameter slot right after the records (spec::DwConvTableAddr), not into
// a slot of its own.
#include "compiler/schedule/conv_emitter.h"

#include "compiler/schedule/dma_lowering.h"
#include "compiler/schedule/step_plan.h"
#include "compiler/tiling/tile_grid.h"
#include "hw/spec/semantics.h"

namespace npu::compiler {
namespace {

class Emitter {
 public:
  Emitter(const ConvLayer& layer, const ConvTiling& tiling, const SramPlan& plan,
          const ConvOperands& operands)
      : layer_(layer),
        tiling_(tiling),
        grid_(layer, tiling),
        plan_(plan),
        ops_(operands),
        weight_offsets_(grid_.WeightTileOffsets()),
        batches_(operands.batches.empty() ? ConsecutiveBatches(layer) : operands.batches) {}

  std::vector<spec::Instruction> Run() {
    // An on-chip input's pixel stride is the tiling's (ConvTiling::input_pixel_stride: only
    // DWCONV reads a channel block of wider pixels) and the place's, which the DMA and DWCONV
    // read: they must agree.
    NPU_CHECK(!tiling_.input_on_chip ||
              ops_.input.channels == (tiling_.input_pixel_stride != 0 ? tiling_.input_pixel_stride
                                                                      : layer_.in_c));
    if (!layer_.table.empty() && ops_.load_table && !TableInParamSlots(layer_, tiling_)) {
      Dma(spec::Opcode::kLoad,
          ContiguousCopy(ops_.table, plan_.table.base, uint64_t{spec::kLutEntries}));
    }
    ForEachStep(grid_, tiling_, plan_, batches_, [&](const ConvStep& step) { Step(step); });
    return std::move(out_);
  }

 private:
  // The batch's own operands.
  TensorPlace Input(const ConvStep& s) const {
    return Offset(ops_.input, batches_[s.batch].input_offset);
  }
  TensorPlace Output(const ConvStep& s) const {
    return Offset(ops_.output, batches_[s.batch].output_offset);
  }

  void Step(const ConvStep& s) {
    const InputRegion in = grid_.Input(s.sp, s.oc, s.ic);
    uint64_t in_addr = 0;
    if (tiling_.input_on_chip) {
      in_addr = Input(s).At(in.rows.begin, 0, 0, layer_.in_w);
    } else {
      in_addr = plan_.inputs.Addr(s.input.slot);
      if (s.input.load) LoadInput(Input(s), in, in_addr);
    }
    // A later strip's held weights and records are where the first strip LOADed them.
    const bool reuses = tiling_.held == HeldConstants::kReuses;
    if (s.weights.load && !reuses) LoadWeights(s);
    if (s.params.load && !reuses) LoadParams(s);
    if (tiling_.on_vector) {
      DwConvAndStore(s, in, in_addr);
      return;
    }
    Conv(s, in, in_addr);
    if (s.last_ic) ActAndStore(s);
  }

  // The oc tile's ACT records; for a DWCONV with a table, the table right after them (one LOAD
  // when the tile's records end the layer's and the table follows them in DRAM, as
  // codegen/program_builder lays them out).
  void LoadParams(const ConvStep& s) {
    const Span1D oc = grid_.oc().At(s.oc);
    const uint64_t slot = plan_.params.Addr(s.params.slot);
    const uint64_t records = uint64_t{oc.size} * spec::kActParamBytes;
    const bool table = TableInParamSlots(layer_, tiling_);
    const bool contiguous = table && oc.begin + oc.size == layer_.out_c &&
                            ops_.table == ops_.params + uint64_t{layer_.out_c} * spec::kActParamBytes;
    Dma(spec::Opcode::kLoad,
        ContiguousCopy(ops_.params + uint64_t{oc.begin} * spec::kActParamBytes, slot,
                       contiguous ? ParamSlotBytes(layer_, tiling_, oc.size) : records));
    if (table && !contiguous) {
      Dma(spec::Opcode::kLoad,
          ContiguousCopy(ops_.table, slot + records, uint64_t{spec::kLutEntries}));
    }
  }

  void LoadInput(const TensorPlace& t, const InputRegion& in, uint64_t sram_addr) {
    Dma(spec::Opcode::kLoad,
        HwcBlockCopy(t.At(in.rows.begin, in.cols.begin, in.channels.begin, layer_.in_w), sram_addr,
                     in.rows.size, in.cols.size, in.channels.size * t.element_bytes, layer_.in_w,
                     t.PixelBytes(), in.rows.step, in.cols.step));
  }

  void LoadWeights(const ConvStep& s) {
    const uint64_t sram = plan_.weights.Addr(s.weights.slot);
    if (!layer_.activation_weights) {
      const uint64_t index = uint64_t{s.oc} * grid_.reductions() + s.ic;
      Dma(spec::Opcode::kLoad, ContiguousCopy(ops_.weights + weight_offsets_[index], sram,
                                              grid_.WeightTileBytes(s.oc, s.ic)));
      return;
    }
    // The batch's b: rows ic, columns oc, dense [ic][oc] in the slot; or, transposed (weights_nk),
    // rows oc, columns ic, dense [oc][ic].
    const Span1D ic = grid_.InputChannels(s.ic), oc = grid_.oc().At(s.oc);
    const TensorPlace b = Offset(ops_.b, batches_[s.batch].b_offset);
    const StridedCopy block = layer_.weights_nk
                                  ? HwcBlockCopy(b.At(0, oc.begin, ic.begin, layer_.out_c), sram, 1,
                                                 oc.size, ic.size, layer_.out_c, b.channels)
                                  : HwcBlockCopy(b.At(0, ic.begin, oc.begin, layer_.in_c), sram, 1,
                                                 ic.size, oc.size, layer_.in_c, b.channels);
    Dma(spec::Opcode::kLoad, block);
  }

  void Conv(const ConvStep& s, const InputRegion& in, uint64_t in_addr) {
    out_.push_back({spec::Opcode::kConv, 0, 0, TileConv(s, in, in_addr)});
  }

  // The step's CONV.
  spec::ConvArgs TileConv(const ConvStep& s, const InputRegion& in, uint64_t in_addr) const {
    const ConvLayer& l = layer_;
    spec::ConvArgs c;
    c.in_addr = static_cast<uint32_t>(in_addr);
    c.in_h = in.rows.size;
    c.in_w = in.cols.size;
    c.in_c = in.channels.size;
    c.pad_top = in.rows.pad_before;
    c.pad_left = in.cols.pad_before;
    c.pad_value = l.input_zero_point;  // 0 for FP16: padding reads +0
    // A kernel block's taps; a field CONV cannot encode does not matter for this CONV (one-tap
    // blocks for a large dilation, one output row or column for a large stride: tile_grid.h).
    const KernelBlock b = grid_.Block(s.ic);
    c.kernel_h = b.h;
    c.kernel_w = b.w;
    c.out_h = grid_.Rows(s.sp).size;
    c.out_w = grid_.Cols(s.sp).size;
    // A subsampled input holds only the pixels the windows read: stride 1.
    c.stride_h = c.out_h > 1 && in.rows.step == 1 ? l.stride_h : 1;
    c.stride_w = c.out_w > 1 && in.cols.step == 1 ? l.stride_w : 1;
    c.dilation_h = b.h > 1 ? l.dilation_h : 1;
    c.dilation_w = b.w > 1 ? l.dilation_w : 1;
    c.out_c = grid_.oc().At(s.oc).size;
    c.wt_addr = static_cast<uint32_t>(plan_.weights.Addr(s.weights.slot));
    c.acc_addr = static_cast<uint32_t>(plan_.acc.Addr(s.acc_slot));
    c.accumulate = !s.first_ic;
    c.depthwise = l.depthwise;
    c.groups = l.groups > 1 ? c.out_c / l.GroupOutputs() : 1;  // the oc tile's groups
    c.weights_kn = l.activation_weights && !l.weights_nk;
    c.weights_int4 = l.weights_int4;
    c.fp16 = l.fp16;
    c.in_zero_point = l.activation_weights ? l.input_zero_point : 0;
    c.wt_zero_point = l.weight_zero_point;
    return c;
  }

  // The tile's CONV and ACT (through the table after its records, if any) as one DWCONV
  // (ConvTiling::on_vector: one kernel block, int8), and the STORE.
  // An on-chip input that is a channel block of a wider tensor is read with its pixel stride.
  void DwConvAndStore(const ConvStep& s, const InputRegion& in, uint64_t in_addr) {
    spec::DwConvArgs dw = spec::DwConvOf(TileConv(s, in, in_addr), TileAct(s));
    if (tiling_.input_on_chip && Input(s).channels != in.channels.size) {
      dw.in_pixel_stride = Input(s).channels;
    }
    out_.push_back({spec::Opcode::kDwConv, 0, 0, dw});
    Store(s);
  }

  // STORE an output slot's tile to its place in the NHWC output (nothing for an on-chip output).
  void Store(const ConvStep& s) {
    if (tiling_.output_on_chip) return;
    const Span1D rows = grid_.Rows(s.sp), cols = grid_.Cols(s.sp), oc = grid_.oc().At(s.oc);
    const TensorPlace t = Output(s);
    const uint64_t out_w = layer_.OutW();
    Dma(spec::Opcode::kStore,
        HwcBlockCopy(t.At(rows.begin, cols.begin, oc.begin, out_w), plan_.outputs.Addr(s.out_slot),
                     rows.size, cols.size, oc.size * t.element_bytes, out_w, t.PixelBytes()));
  }

  void ActAndStore(const ConvStep& s) {
    out_.push_back({spec::Opcode::kAct, 0, 0, TileAct(s)});
    Store(s);
  }

  // The step's ACT of its accumulator tile.
  spec::ActArgs TileAct(const ConvStep& s) const {
    const ConvLayer& l = layer_;
    const Span1D rows = grid_.Rows(s.sp), cols = grid_.Cols(s.sp), oc = grid_.oc().At(s.oc);
    const TensorPlace t = Output(s);
    spec::ActArgs a;
    a.acc_addr = static_cast<uint32_t>(plan_.acc.Addr(s.acc_slot));
    a.pixels = rows.size * cols.size;
    a.channels = oc.size;
    a.param_addr = static_cast<uint32_t>(plan_.params.Addr(s.params.slot));
    // On chip: straight into the tensor, one pixel every `channels` bytes (whole rows, or one
    // row, so consecutive pixels of the tile are consecutive pixels of the tensor).
    a.out_addr = static_cast<uint32_t>(tiling_.output_on_chip
                                           ? t.At(rows.begin, cols.begin, oc.begin, l.OutW())
                                           : plan_.outputs.Addr(s.out_slot));
    a.out_pixel_stride = tiling_.output_on_chip ? t.channels : oc.size;
    a.out_zero_point = l.output_zero_point;
    a.clamp_min = l.clamp_min;
    a.clamp_max = l.clamp_max;
    a.use_table = !l.table.empty();
    const uint64_t table = TableInParamSlots(l, tiling_)
                               ? spec::DwConvTableAddr(a.param_addr, a.channels)
                               : plan_.table.base;
    a.table_addr = a.use_table ? static_cast<uint32_t>(table) : 0;
    if (l.fp16) {  // FP32 bias records, FP16 bounds (the layer's int8 fields are their defaults)
      a.fp16 = true;
      a.fp16_clamp_min = l.fp16_clamp_min, a.fp16_clamp_max = l.fp16_clamp_max;
    }
    return a;
  }

  void Dma(spec::Opcode opcode, const StridedCopy& copy) {
    for (const spec::DmaArgs& d : LowerCopy(copy)) out_.push_back({opcode, 0, 0, d});
  }

  const ConvLayer& layer_;
  const ConvTiling& tiling_;
  TileGrid grid_;
  const SramPlan& plan_;
  ConvOperands ops_;
  std::vector<uint64_t> weight_offsets_;
  std::vector<ConvBatch> batches_;
  std::vector<spec::Instruction> out_;
};

}  // namespace

std::vector<spec::Instruction> EmitConv(const ConvLayer& layer, const ConvTiling& tiling,
                                        const SramPlan& plan, const ConvOperands& operands) {
  return Emitter(layer, tiling, plan, operands).Run();
}

}  // namespace npu::compiler
