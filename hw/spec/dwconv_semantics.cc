// DWCONV's semantics, defined as the depthwise CONV and the ACT it fuses (isa.h): the vector
// unit's depthwise datapath gives the bytes the MAC array and ACT would.
#include "hw/spec/semantics.h"

namespace npu::spec {

ConvArgs DwConvAsConv(const DwConvArgs& dw) {
  ConvArgs c;
  c.in_addr = dw.in_addr;
  c.in_h = dw.in_h, c.in_w = dw.in_w, c.in_c = dw.channels;
  c.pad_top = dw.pad_top, c.pad_left = dw.pad_left, c.pad_value = dw.pad_value;
  c.kernel_h = dw.kernel_h, c.kernel_w = dw.kernel_w;
  c.stride_h = dw.stride_h, c.stride_w = dw.stride_w;
  c.dilation_h = dw.dilation_h, c.dilation_w = dw.dilation_w;
  c.out_h = dw.out_h, c.out_w = dw.out_w, c.out_c = dw.channels;
  c.wt_addr = dw.wt_addr;
  c.depthwise = true;
  return c;
}

ActArgs DwConvAsAct(const DwConvArgs& dw) {
  ActArgs a;
  a.pixels = dw.out_h * dw.out_w;
  a.channels = dw.channels;
  a.param_addr = dw.param_addr;
  a.out_addr = dw.out_addr;
  a.out_pixel_stride = dw.out_pixel_stride;
  a.out_zero_point = dw.out_zero_point;
  a.clamp_min = dw.clamp_min, a.clamp_max = dw.clamp_max;
  return a;
}

DwConvArgs DwConvOf(const ConvArgs& c, const ActArgs& a) {
  DwConvArgs dw;
  dw.in_addr = c.in_addr;
  dw.in_h = c.in_h, dw.in_w = c.in_w, dw.channels = c.in_c;
  dw.pad_top = c.pad_top, dw.pad_left = c.pad_left, dw.pad_value = c.pad_value;
  dw.kernel_h = c.kernel_h, dw.kernel_w = c.kernel_w;
  dw.stride_h = c.stride_h, dw.stride_w = c.stride_w;
  dw.dilation_h = c.dilation_h, dw.dilation_w = c.dilation_w;
  dw.out_h = c.out_h, dw.out_w = c.out_w;
  dw.wt_addr = c.wt_addr;
  dw.param_addr = a.param_addr;
  dw.out_addr = a.out_addr;
  dw.out_pixel_stride = a.out_pixel_stride;
  dw.out_zero_point = a.out_zero_point;
  dw.clamp_min = a.clamp_min, dw.clamp_max = a.clamp_max;
  return dw;
}

uint64_t DwConvInputBytes(const DwConvArgs& dw) { return ConvInputBytes(DwConvAsConv(dw)); }
uint64_t DwConvWeightBytes(const DwConvArgs& dw) { return ConvWeightBytes(DwConvAsConv(dw)); }
uint64_t DwConvParamBytes(const DwConvArgs& dw) { return ActParamBytes(DwConvAsAct(dw)); }
uint64_t DwConvOutputSpan(const DwConvArgs& dw) { return ActOutputSpan(DwConvAsAct(dw)); }

std::string CheckDwConv(const DwConvArgs& dw) {
  if (std::string bad = CheckConv(DwConvAsConv(dw)); !bad.empty()) return bad;
  return CheckAct(DwConvAsAct(dw));
}

regs::ErrorCode ComputeDwConv(const DwConvArgs& dw, std::span<const int8_t> input,
                              std::span<const int8_t> weights, std::span<const uint8_t> params,
                              std::vector<int8_t>& out) {
  const ConvArgs conv = DwConvAsConv(dw);
  std::vector<int32_t> acc(ConvAccEntries(conv));
  ComputeConv(conv, input, weights, acc);
  return ComputeAct(DwConvAsAct(dw), acc, params, {}, out);
}

}  // namespace npu::spec
