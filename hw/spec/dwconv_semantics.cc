// DWCONV's semantics, defined as the depthwise CONV and the ACT it fuses (isa.h): the vector
// unit's depthwise datapath gives the bytes the MAC array and ACT would.
#include <fmt/format.h>

#include "hw/spec/semantics.h"

namespace npu::spec {

namespace {

// The fields DWCONV shares with the CONV and the ACT it fuses, each pair once: f(DWCONV's field,
// the CONV's or ACT's). `channels` is the CONV's in_c (and its out_c and the ACT's channels:
// DwConvAsConv, DwConvAsAct), the ACT's pixels out_h * out_w.
template <class Dw, class Conv, class Act, class F>
void SharedFields(Dw& dw, Conv& c, Act& a, F f) {
  f(dw.in_addr, c.in_addr);
  f(dw.in_h, c.in_h), f(dw.in_w, c.in_w), f(dw.channels, c.in_c);
  f(dw.pad_top, c.pad_top), f(dw.pad_left, c.pad_left), f(dw.pad_value, c.pad_value);
  f(dw.kernel_h, c.kernel_h), f(dw.kernel_w, c.kernel_w);
  f(dw.stride_h, c.stride_h), f(dw.stride_w, c.stride_w);
  f(dw.dilation_h, c.dilation_h), f(dw.dilation_w, c.dilation_w);
  f(dw.out_h, c.out_h), f(dw.out_w, c.out_w);
  f(dw.wt_addr, c.wt_addr);
  f(dw.param_addr, a.param_addr);
  f(dw.out_addr, a.out_addr);
  f(dw.out_pixel_stride, a.out_pixel_stride);
  f(dw.out_zero_point, a.out_zero_point);
  f(dw.clamp_min, a.clamp_min), f(dw.clamp_max, a.clamp_max);
}

}  // namespace

ConvArgs DwConvAsConv(const DwConvArgs& dw) {
  ConvArgs c;
  ActArgs unused;
  SharedFields(dw, c, unused, [](const auto& from, auto& to) { to = from; });
  c.out_c = dw.channels;
  c.depthwise = true;
  return c;
}

ActArgs DwConvAsAct(const DwConvArgs& dw) {
  ConvArgs unused;
  ActArgs a;
  SharedFields(dw, unused, a, [](const auto& from, auto& to) { to = from; });
  a.pixels = dw.out_h * dw.out_w;
  a.channels = dw.channels;
  a.use_table = dw.use_table;
  a.table_addr = dw.use_table ? uint32_t(DwConvTableAddr(dw.param_addr, dw.channels)) : 0;
  return a;
}

DwConvArgs DwConvOf(const ConvArgs& c, const ActArgs& a) {
  DwConvArgs dw;
  SharedFields(dw, c, a, [](auto& to, const auto& from) { to = from; });
  dw.use_table = a.use_table;
  return dw;
}

uint64_t DwConvTableAddr(uint64_t param_addr, uint64_t channels) {
  return param_addr + channels * kActParamBytes;
}

uint64_t DwConvInPixelStride(const DwConvArgs& dw) {
  return dw.in_pixel_stride == 0 ? dw.channels : dw.in_pixel_stride;
}
uint64_t DwConvInputSpan(const DwConvArgs& dw) {
  const uint64_t pixels = uint64_t{dw.in_h} * dw.in_w;
  return pixels == 0 ? 0 : (pixels - 1) * DwConvInPixelStride(dw) + dw.channels;
}
uint64_t DwConvWeightBytes(const DwConvArgs& dw) { return ConvWeightBytes(DwConvAsConv(dw)); }
uint64_t DwConvParamBytes(const DwConvArgs& dw) {
  return ActParamBytes(DwConvAsAct(dw)) + (dw.use_table ? kLutEntries : 0);
}
uint64_t DwConvOutputSpan(const DwConvArgs& dw) { return ActOutputSpan(DwConvAsAct(dw)); }

std::string CheckDwConv(const DwConvArgs& dw) {
  if (std::string bad = CheckConv(DwConvAsConv(dw)); !bad.empty()) return bad;
  if (uint64_t{dw.in_h} * dw.in_w > 1 && DwConvInPixelStride(dw) < dw.channels) {
    return fmt::format("in_pixel_stride {} < channels {}: pixels would overlap", dw.in_pixel_stride,
                       dw.channels);
  }
  return CheckAct(DwConvAsAct(dw));
}

regs::ErrorCode ComputeDwConv(const DwConvArgs& dw, std::span<const int8_t> input,
                              std::span<const int8_t> weights, std::span<const uint8_t> params,
                              std::vector<int8_t>& out) {
  const ConvArgs conv = DwConvAsConv(dw);
  std::vector<int32_t> acc(ConvAccEntries(conv));
  ComputeConv(conv, input, weights, acc);
  const ActArgs act = DwConvAsAct(dw);
  const uint64_t records = ActParamBytes(act);
  std::span<const int8_t> table;
  if (dw.use_table) {
    table = {reinterpret_cast<const int8_t*>(params.data()) + records, kLutEntries};
  }
  return ComputeAct(act, acc, params.first(records), table, out);
}

}  // namespace npu::spec
