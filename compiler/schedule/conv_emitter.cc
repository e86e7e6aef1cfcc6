// Instruction emission for a tiled convolution.
//
// Per step (spatial tile sp, output-channel tile oc, input-channel tile ic), in stream order:
//   1. LOAD the input tile (clipped to the tensor; the halo rows/cols are part of it) unless
//      its slot still holds it, then the weight tile (one contiguous packed block) likewise,
//      then on the first ic step the oc tile's ACT parameters.
//   2. CONV into the group's accumulator tile, accumulating after the first ic tile. Padding
//      is exact: CONV's pad_value is the input zero point, which the folded bias cancels.
//   3. On the last ic step: ACT the accumulator tile into an SRAM output slot, then STORE it
//      to its place in the NHWC output.
#include "compiler/schedule/conv_emitter.h"

#include "compiler/schedule/dma_lowering.h"
#include "compiler/schedule/step_plan.h"
#include "compiler/tiling/tile_grid.h"

namespace npu::compiler {
namespace {

class Emitter {
 public:
  Emitter(const ConvLayer& layer, const ConvTiling& tiling, const SramPlan& plan,
          const DramPlacement& dram)
      : layer_(layer),
        grid_(layer, tiling),
        plan_(plan),
        dram_(dram),
        weight_offsets_(grid_.WeightTileOffsets()) {}

  std::vector<spec::Instruction> Run(const ConvTiling& tiling) {
    ForEachStep(grid_, tiling, plan_, [&](const ConvStep& step) { Step(step); });
    return std::move(out_);
  }

 private:
  void Step(const ConvStep& s) {
    const InputRegion in = grid_.Input(s.sp, s.ic);
    if (s.input.load) LoadInput(in, plan_.inputs.Addr(s.input.slot));
    if (s.weights.load) {
      const uint64_t index = uint64_t{s.oc} * grid_.ic().count() + s.ic;
      Dma(spec::Opcode::kLoad,
          ContiguousCopy(dram_.weights + weight_offsets_[index], plan_.weights.Addr(s.weights.slot),
                         grid_.WeightTileBytes(s.oc, s.ic)));
    }
    if (s.params.load) {
      const Span1D oc = grid_.oc().At(s.oc);
      Dma(spec::Opcode::kLoad,
          ContiguousCopy(dram_.params + uint64_t{oc.begin} * spec::kActParamBytes,
                         plan_.params.Addr(s.params.slot),
                         uint64_t{oc.size} * spec::kActParamBytes));
    }
    Conv(s, in);
    if (s.last_ic) ActAndStore(s);
  }

  void LoadInput(const InputRegion& in, uint64_t sram_addr) {
    const ConvLayer& l = layer_;
    const uint64_t first =
        (uint64_t{in.rows.begin} * l.in_w + in.cols.begin) * l.in_c + in.channels.begin;
    Dma(spec::Opcode::kLoad, HwcBlockCopy(dram_.input + first, sram_addr, in.rows.size,
                                          in.cols.size, in.channels.size, l.in_w, l.in_c));
  }

  void Conv(const ConvStep& s, const InputRegion& in) {
    const ConvLayer& l = layer_;
    spec::ConvArgs c;
    c.in_addr = static_cast<uint32_t>(plan_.inputs.Addr(s.input.slot));
    c.in_h = in.rows.size;
    c.in_w = in.cols.size;
    c.in_c = in.channels.size;
    c.pad_top = in.rows.pad_before;
    c.pad_left = in.cols.pad_before;
    c.pad_value = l.input_zero_point;
    c.kernel_h = l.kernel_h;
    c.kernel_w = l.kernel_w;
    c.stride_h = l.stride_h;
    c.stride_w = l.stride_w;
    c.dilation_h = l.dilation_h;
    c.dilation_w = l.dilation_w;
    c.out_h = grid_.Rows(s.sp).size;
    c.out_w = grid_.Cols(s.sp).size;
    c.out_c = grid_.oc().At(s.oc).size;
    c.wt_addr = static_cast<uint32_t>(plan_.weights.Addr(s.weights.slot));
    c.acc_addr = static_cast<uint32_t>(plan_.acc.Addr(s.acc_slot));
    c.accumulate = !s.first_ic;
    out_.push_back({spec::Opcode::kConv, 0, 0, c});
  }

  void ActAndStore(const ConvStep& s) {
    const ConvLayer& l = layer_;
    const Span1D rows = grid_.Rows(s.sp), cols = grid_.Cols(s.sp), oc = grid_.oc().At(s.oc);
    spec::ActArgs a;
    a.acc_addr = static_cast<uint32_t>(plan_.acc.Addr(s.acc_slot));
    a.pixels = rows.size * cols.size;
    a.channels = oc.size;
    a.param_addr = static_cast<uint32_t>(plan_.params.Addr(s.params.slot));
    a.out_addr = static_cast<uint32_t>(plan_.outputs.Addr(s.out_slot));
    a.out_pixel_stride = oc.size;
    a.out_zero_point = l.output_zero_point;
    a.clamp_min = l.clamp_min;
    a.clamp_max = l.clamp_max;
    out_.push_back({spec::Opcode::kAct, 0, 0, a});
    const uint64_t out_w = l.OutW();
    const uint64_t first = (uint64_t{rows.begin} * out_w + cols.begin) * l.out_c + oc.begin;
    Dma(spec::Opcode::kStore, HwcBlockCopy(dram_.output + first, a.out_addr, rows.size, cols.size,
                                           oc.size, out_w, l.out_c));
  }

  void Dma(spec::Opcode opcode, const StridedCopy& copy) {
    for (const spec::DmaArgs& d : LowerCopy(copy)) out_.push_back({opcode, 0, 0, d});
  }

  const ConvLayer& layer_;
  TileGrid grid_;
  const SramPlan& plan_;
  DramPlacement dram_;
  std::vector<uint64_t> weight_offsets_;
  std::vector<spec::Instruction> out_;
};

}  // namespace

std::vector<spec::Instruction> EmitConv(const ConvLayer& layer, const ConvTiling& tiling,
                                        const SramPlan& plan, const DramPlacement& dram) {
  return Emitter(layer, tiling, plan, dram).Run(tiling);
}

}  // namespace npu::compiler
