// Instruction footprints.
#include "hw/spec/footprint.h"

#include "hw/spec/layer_norm.h"
#include "hw/spec/resize.h"
#include "hw/spec/semantics.h"
#include "hw/spec/sram_words.h"

namespace npu::spec {

uint64_t DmaExtent(uint32_t run_bytes, uint32_t n1, uint32_t stride1, uint32_t n2,
                   uint32_t stride2) {
  if (run_bytes == 0 || n1 == 0 || n2 == 0) return 0;
  return uint64_t{n2 - 1} * stride2 + uint64_t{n1 - 1} * stride1 + run_bytes;
}

uint64_t DmaSramExtent(const DmaArgs& d) {
  if (d.run_bytes == 0 || d.n1 == 0 || d.n2 == 0) return 0;
  return uint64_t{d.n2 - 1} * d.sram_stride2 + uint64_t{d.n1 - 1} * d.sram_stride1 +
         RunSpan(d.run_bytes, d.sram_elem_stride);
}

std::vector<Footprint> Footprints(const Instruction& insn) {
  std::vector<Footprint> f;
  if (const auto* d = std::get_if<DmaArgs>(&insn.args)) {
    const uint64_t dram = DmaExtent(d->run_bytes, d->n1, d->dram_stride1, d->n2, d->dram_stride2);
    const uint64_t sram = DmaSramExtent(*d);
    const bool load = insn.opcode == Opcode::kLoad;
    f.push_back({Space::kDram, d->dram_offset, d->dram_offset + dram, !load, "dram_offset"});
    f.push_back({Space::kSram, d->sram_addr, d->sram_addr + sram, load, "sram_addr"});
  } else if (const auto* c = std::get_if<ConvArgs>(&insn.args)) {
    f.push_back({Space::kSram, c->in_addr, c->in_addr + ConvInputBytes(*c), false, "in_addr"});
    f.push_back({Space::kSram, c->wt_addr, c->wt_addr + ConvWeightBytes(*c), false, "wt_addr"});
    f.push_back({Space::kAcc, c->acc_addr, c->acc_addr + ConvAccEntries(*c), true, "acc_addr"});
    if (c->accumulate)
      f.push_back({Space::kAcc, c->acc_addr, c->acc_addr + ConvAccEntries(*c), false, "acc_addr"});
  } else if (const auto* a = std::get_if<ActArgs>(&insn.args)) {
    f.push_back({Space::kAcc, a->acc_addr, a->acc_addr + ActAccEntries(*a), false, "acc_addr"});
    f.push_back(
        {Space::kSram, a->param_addr, a->param_addr + ActParamBytes(*a), false, "param_addr"});
    if (a->use_table) {
      f.push_back({Space::kSram, a->table_addr, a->table_addr + uint64_t{kLutEntries}, false,
                   "table_addr"});
    }
    f.push_back({Space::kSram, a->out_addr, a->out_addr + ActOutputSpan(*a), true, "out_addr"});
  } else if (const auto* p = std::get_if<PoolArgs>(&insn.args)) {
    f.push_back({Space::kSram, p->in_addr, p->in_addr + PoolInputBytes(*p), false, "in_addr"});
    f.push_back({Space::kSram, p->out_addr, p->out_addr + PoolOutputSpan(*p), true, "out_addr"});
    if (p->accumulate) {
      f.push_back(
          {Space::kSram, p->out_addr, p->out_addr + PoolOutputSpan(*p), false, "out_addr"});
    }
  } else if (const auto* e = std::get_if<EltwiseArgs>(&insn.args)) {
    f.push_back({Space::kSram, e->a_addr, e->a_addr + EltwiseBytes(*e), false, "a_addr"});
    f.push_back({Space::kSram, e->b_addr, e->b_addr + EltwiseBBytes(*e), false, "b_addr"});
    f.push_back({Space::kSram, e->out_addr, e->out_addr + EltwiseOutBytes(*e), true, "out_addr"});
  } else if (const auto* l = std::get_if<LutArgs>(&insn.args)) {
    if (!l->bypass) {
      f.push_back(
          {Space::kSram, l->table_addr, l->table_addr + LutTableBytes(*l), false, "table_addr"});
    }
    f.push_back({Space::kSram, l->in_addr, l->in_addr + LutInputSpan(*l), false, "in_addr"});
    f.push_back({Space::kSram, l->out_addr, l->out_addr + LutOutputSpan(*l), true, "out_addr"});
  } else if (const auto* d = std::get_if<DwConvArgs>(&insn.args)) {
    f.push_back({Space::kSram, d->in_addr, d->in_addr + DwConvInputSpan(*d), false, "in_addr"});
    f.push_back({Space::kSram, d->wt_addr, d->wt_addr + DwConvWeightBytes(*d), false, "wt_addr"});
    f.push_back(
        {Space::kSram, d->param_addr, d->param_addr + DwConvParamBytes(*d), false, "param_addr"});
    f.push_back({Space::kSram, d->out_addr, d->out_addr + DwConvOutputSpan(*d), true, "out_addr"});
  } else if (const auto* n = std::get_if<LnormArgs>(&insn.args)) {
    f.push_back(
        {Space::kSram, n->param_addr, n->param_addr + LnormParamBytes(*n), false, "param_addr"});
    f.push_back({Space::kSram, n->in_addr, n->in_addr + LnormBytes(*n), false, "in_addr"});
    f.push_back({Space::kSram, n->out_addr, n->out_addr + LnormBytes(*n), true, "out_addr"});
  } else if (const auto* r = std::get_if<ResizeArgs>(&insn.args)) {
    f.push_back({Space::kSram, r->row_taps_addr, r->row_taps_addr + ResizeRowTapBytes(*r), false,
                 "row_taps_addr"});
    f.push_back({Space::kSram, r->col_taps_addr, r->col_taps_addr + ResizeColTapBytes(*r), false,
                 "col_taps_addr"});
    f.push_back({Space::kSram, r->in_addr, r->in_addr + ResizeInputSpan(*r), false, "in_addr"});
    f.push_back({Space::kSram, r->out_addr, r->out_addr + ResizeOutputSpan(*r), true, "out_addr"});
  }
  return f;
}

bool Conflicts(const std::vector<Footprint>& a, const std::vector<Footprint>& b) {
  for (const Footprint& x : a) {
    for (const Footprint& y : b) {
      if ((x.write || y.write) && Overlaps(x, y)) return true;
    }
  }
  return false;
}

}  // namespace npu::spec
