// The SRAM access lists of unit instructions.
#include "hw/spec/unit_accesses.h"

#include "hw/spec/fp16.h"
#include "hw/spec/layer_norm.h"
#include "hw/spec/resize.h"
#include "hw/spec/semantics.h"

namespace npu::spec {
namespace {

SramAccess Read(uint64_t addr, uint64_t bytes) { return {addr, bytes, 1, 0, false}; }
SramAccess Write(uint64_t addr, uint64_t bytes) { return {addr, bytes, 1, 0, true}; }

// `pixels` of `channels` bytes, `stride` apart: one run per pixel, unless the pixels are dense
// (one run). The output of ACT, POOL and RESIZE; RESIZE's input.
SramAccess Pixels(uint64_t addr, uint64_t pixels, uint64_t channels, uint64_t stride, bool write) {
  if (pixels <= 1 || stride == channels) return {addr, pixels * channels, 1, 0, write};
  return {addr, channels, pixels, stride, write};
}

// The same for elements of `element_bytes`, channels and stride counting elements.
SramAccess PixelWrite(uint64_t addr, uint64_t pixels, uint64_t channels, uint64_t stride,
                      uint64_t element_bytes, bool write = true) {
  return Pixels(addr, pixels, channels * element_bytes, stride * element_bytes, write);
}

// A POOL's output region: written, or read first by an accumulating sum (`write` false).
SramAccess PoolOutput(const PoolArgs& p, bool write) {
  return PixelWrite(p.out_addr, uint64_t{p.out_h} * p.out_w, p.channels, p.out_pixel_stride,
                    PoolOutElementBytes(p), write);
}

}  // namespace

std::vector<SramAccess> ConvOperandRegions(const ConvArgs& conv) {
  return {Read(conv.wt_addr, ConvWeightBytes(conv)), Read(conv.in_addr, ConvInputBytes(conv))};
}

std::vector<SramAccess> UnitSramAccesses(const Instruction& insn) {
  if (const auto* a = std::get_if<ActArgs>(&insn.args)) {
    std::vector<SramAccess> list = {Read(a->param_addr, ActParamBytes(*a))};
    if (a->use_table) list.push_back(Read(a->table_addr, kLutEntries));
    list.push_back(PixelWrite(a->out_addr, a->pixels, a->channels, a->out_pixel_stride,
                              ElementBytes(a->fp16)));
    return list;
  }
  if (const auto* p = std::get_if<PoolArgs>(&insn.args)) {
    std::vector<SramAccess> list = {Read(p->in_addr, PoolInputBytes(*p))};
    if (p->accumulate) list.push_back(PoolOutput(*p, false));
    list.push_back(PoolOutput(*p, true));
    return list;
  }
  if (const auto* e = std::get_if<EltwiseArgs>(&insn.args)) {
    return {Read(e->a_addr, EltwiseBytes(*e)), Read(e->b_addr, EltwiseBBytes(*e)),
            Write(e->out_addr, EltwiseOutBytes(*e))};
  }
  if (const auto* l = std::get_if<LutArgs>(&insn.args)) {
    std::vector<SramAccess> list;
    if (!l->bypass) list.push_back(Read(l->table_addr, LutTableBytes(*l)));
    if (l->channels == 0) {
      list.push_back(Read(l->in_addr, l->count));
      list.push_back(Write(l->out_addr, LutOutputBytes(*l)));
      return list;
    }
    const uint64_t pixels = LutPixels(*l);
    list.push_back(Pixels(l->in_addr, pixels, l->channels, l->in_pixel_stride, false));
    if (l->out_elem_stride <= 1) {
      list.push_back(Pixels(l->out_addr, pixels, l->channels, l->out_pixel_stride, true));
    } else {
      list.push_back({l->out_addr, l->channels, pixels, l->out_pixel_stride, true,
                      l->out_elem_stride});
    }
    return list;
  }
  if (const auto* d = std::get_if<DwConvArgs>(&insn.args)) {
    return {Read(d->param_addr, DwConvParamBytes(*d)), Read(d->wt_addr, DwConvWeightBytes(*d)),
            Pixels(d->in_addr, uint64_t{d->in_h} * d->in_w, d->channels, DwConvInPixelStride(*d),
                   false),
            PixelWrite(d->out_addr, uint64_t{d->out_h} * d->out_w, d->channels,
                       d->out_pixel_stride, 1)};
  }
  if (const auto* n = std::get_if<LnormArgs>(&insn.args)) {
    return {Read(n->param_addr, LnormParamBytes(*n)), Read(n->in_addr, LnormBytes(*n)),
            Write(n->out_addr, LnormBytes(*n))};
  }
  if (const auto* r = std::get_if<ResizeArgs>(&insn.args)) {
    return {
        Read(r->row_taps_addr, ResizeRowTapBytes(*r)),
        Read(r->col_taps_addr, ResizeColTapBytes(*r)),
        Pixels(r->in_addr, uint64_t{r->in_h} * r->in_w, r->channels, r->in_pixel_stride, false),
        PixelWrite(r->out_addr, uint64_t{r->out_h} * r->out_w, r->channels, r->out_pixel_stride,
                   1)};
  }
  return {};
}

}  // namespace npu::spec
