// The bit layout of each instruction's payload: one field list per argument type, which drives
// encoding, decoding, disassembly and FieldLayout (isa.cc), so they cannot disagree.
// docs/isa.md's bit tables are checked against it. Internal to hw/spec.
#pragma once

#include <type_traits>

#include "hw/spec/isa.h"

namespace npu::spec {

inline constexpr int kHeaderBits = 16;  // opcode:8, wait_mask:4, signal_mask:4

// The payload fields of each argument type, in bit order after the header:
// f(name, member, width, is_signed). `A` is the type, const or not.
template <class A, class F>
void DmaFields(A& a, F& f) {
  f("dram_offset", a.dram_offset, 32, false);
  f("sram_addr", a.sram_addr, 24, false);
  f("run_bytes", a.run_bytes, 16, false);
  f("n1", a.n1, 16, false);
  f("n2", a.n2, 16, false);
  f("dram_stride1", a.dram_stride1, 32, false);
  f("dram_stride2", a.dram_stride2, 32, false);
  f("sram_stride1", a.sram_stride1, 24, false);
  f("sram_stride2", a.sram_stride2, 24, false);
  f("sram_elem_stride", a.sram_elem_stride, kSramElemStrideBits, false);
}

template <class A, class F>
void ConvFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("in_h", a.in_h, 12, false);
  f("in_w", a.in_w, 12, false);
  f("in_c", a.in_c, 16, false);
  f("pad_top", a.pad_top, 8, false);
  f("pad_left", a.pad_left, 8, false);
  f("pad_value", a.pad_value, 8, true);
  f("kernel_h", a.kernel_h, 4, false);
  f("kernel_w", a.kernel_w, 4, false);
  f("stride_h", a.stride_h, 4, false);
  f("stride_w", a.stride_w, 4, false);
  f("dilation_h", a.dilation_h, 4, false);
  f("dilation_w", a.dilation_w, 4, false);
  f("out_h", a.out_h, 12, false);
  f("out_w", a.out_w, 12, false);
  f("out_c", a.out_c, 16, false);
  f("wt_addr", a.wt_addr, 24, false);
  f("acc_addr", a.acc_addr, 20, false);
  f("accumulate", a.accumulate, 1, false);
  f("depthwise", a.depthwise, 1, false);
  f("weights_kn", a.weights_kn, 1, false);
  f("in_zero_point", a.in_zero_point, 8, true);
  f("wt_zero_point", a.wt_zero_point, 8, true);
  f("weights_int4", a.weights_int4, 1, false);
  f("fp16", a.fp16, 1, false);
  f("groups", a.groups, 16, false);
}

template <class A, class F>
void ActFields(A& a, F& f) {
  f("acc_addr", a.acc_addr, 20, false);
  f("pixels", a.pixels, 20, false);
  f("channels", a.channels, 16, false);
  f("param_addr", a.param_addr, 24, false);
  f("out_addr", a.out_addr, 24, false);
  f("out_pixel_stride", a.out_pixel_stride, 16, false);
  f("out_zero_point", a.out_zero_point, 8, true);
  f("clamp_min", a.clamp_min, 8, true);
  f("clamp_max", a.clamp_max, 8, true);
  f("table_addr", a.table_addr, 24, false);
  f("use_table", a.use_table, 1, false);
  f("fp16", a.fp16, 1, false);
  f("fp16_clamp_min", a.fp16_clamp_min, 16, false);
  f("fp16_clamp_max", a.fp16_clamp_max, 16, false);
}

template <class A, class F>
void PoolFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("in_h", a.in_h, 12, false);
  f("in_w", a.in_w, 12, false);
  f("channels", a.channels, 16, false);
  f("pad_top", a.pad_top, 4, false);
  f("pad_left", a.pad_left, 4, false);
  f("kernel_h", a.kernel_h, 8, false);
  f("kernel_w", a.kernel_w, 8, false);
  f("stride_h", a.stride_h, 4, false);
  f("stride_w", a.stride_w, 4, false);
  f("out_h", a.out_h, 12, false);
  f("out_w", a.out_w, 12, false);
  f("out_addr", a.out_addr, 24, false);
  f("out_pixel_stride", a.out_pixel_stride, 16, false);
  f("mode", a.mode, 2, false);
  f("count_include_pad", a.count_include_pad, 1, false);
  f("in_zero_point", a.in_zero_point, 8, true);
  f("out_zero_point", a.out_zero_point, 8, true);
  f("multiplier", a.multiplier, 32, true);
  f("shift", a.shift, 6, false);
  f("clamp_min", a.clamp_min, 8, true);
  f("clamp_max", a.clamp_max, 8, true);
  f("fp16", a.fp16, 1, false);
  f("accumulate", a.accumulate, 1, false);
}

template <class A, class F>
void EltwiseFields(A& a, F& f) {
  f("a_addr", a.a_addr, 24, false);
  f("b_addr", a.b_addr, 24, false);
  f("out_addr", a.out_addr, 24, false);
  f("count", a.count, 24, false);
  f("op", a.op, 2, false);
  f("broadcast", a.broadcast, 2, false);
  f("channels", a.channels, 16, false);
  f("a_zero_point", a.a_zero_point, 8, true);
  f("b_zero_point", a.b_zero_point, 8, true);
  f("out_zero_point", a.out_zero_point, 8, true);
  f("a_multiplier", a.a_multiplier, 32, true);
  f("b_multiplier", a.b_multiplier, 16, true);
  f("shift", a.shift, 6, false);
  f("clamp_min", a.clamp_min, 8, true);
  f("clamp_max", a.clamp_max, 8, true);
  f("fp16", a.fp16, 1, false);
  f("fp16_relu", a.fp16_relu, 1, false);
  f("int8_out", a.int8_out, 1, false);
}

template <class A, class F>
void LutFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("out_addr", a.out_addr, 24, false);
  f("table_addr", a.table_addr, 24, false);
  f("count", a.count, 24, false);
  f("fp16_out", a.fp16_out, 1, false);
  f("channels", a.channels, 16, false);
  f("in_pixel_stride", a.in_pixel_stride, 16, false);
  f("out_pixel_stride", a.out_pixel_stride, 16, false);
  f("out_elem_stride", a.out_elem_stride, 8, false);
  f("bypass", a.bypass, 1, false);
}

template <class A, class F>
void ResizeFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("in_h", a.in_h, 16, false);
  f("in_w", a.in_w, 16, false);
  f("channels", a.channels, 16, false);
  f("in_pixel_stride", a.in_pixel_stride, 16, false);
  f("out_h", a.out_h, 16, false);
  f("out_w", a.out_w, 16, false);
  f("out_addr", a.out_addr, 24, false);
  f("out_pixel_stride", a.out_pixel_stride, 16, false);
  f("row_taps_addr", a.row_taps_addr, 24, false);
  f("col_taps_addr", a.col_taps_addr, 24, false);
  f("zero_point", a.zero_point, 8, true);
  f("row_blends", a.row_blends, 16, false);
}

template <class A, class F>
void DwConvFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("in_h", a.in_h, 12, false);
  f("in_w", a.in_w, 12, false);
  f("channels", a.channels, 12, false);
  f("pad_top", a.pad_top, 4, false);
  f("pad_left", a.pad_left, 4, false);
  f("pad_value", a.pad_value, 8, true);
  f("kernel_h", a.kernel_h, 4, false);
  f("kernel_w", a.kernel_w, 4, false);
  f("stride_h", a.stride_h, 3, false);
  f("stride_w", a.stride_w, 3, false);
  f("dilation_h", a.dilation_h, 3, false);
  f("dilation_w", a.dilation_w, 3, false);
  f("out_h", a.out_h, 12, false);
  f("out_w", a.out_w, 12, false);
  f("wt_addr", a.wt_addr, 24, false);
  f("param_addr", a.param_addr, 24, false);
  f("out_addr", a.out_addr, 24, false);
  f("out_pixel_stride", a.out_pixel_stride, 12, false);
  f("out_zero_point", a.out_zero_point, 8, true);
  f("clamp_min", a.clamp_min, 8, true);
  f("clamp_max", a.clamp_max, 8, true);
  f("use_table", a.use_table, 1, false);
  f("in_pixel_stride", a.in_pixel_stride, 11, false);
}
template <class A, class F>
void LnormFields(A& a, F& f) {
  f("in_addr", a.in_addr, 24, false);
  f("out_addr", a.out_addr, 24, false);
  f("param_addr", a.param_addr, 24, false);
  f("pixels", a.pixels, 24, false);
  f("channels", a.channels, 16, false);
  f("in_zero_point", a.in_zero_point, 8, true);
  f("out_zero_point", a.out_zero_point, 8, true);
  f("eps_term", a.eps_term, 32, false);
  f("clamp_min", a.clamp_min, 8, true);
  f("clamp_max", a.clamp_max, 8, true);
}
// Calls f(name, member, width, is_signed) for each payload field of `a`, in bit order.
template <class Args, class F>
void ForEachField(Args& a, F&& f) {
  using T = std::remove_const_t<Args>;
  if constexpr (std::is_same_v<T, DmaArgs>) {
    DmaFields(a, f);
  } else if constexpr (std::is_same_v<T, ConvArgs>) {
    ConvFields(a, f);
  } else if constexpr (std::is_same_v<T, ActArgs>) {
    ActFields(a, f);
  } else if constexpr (std::is_same_v<T, PoolArgs>) {
    PoolFields(a, f);
  } else if constexpr (std::is_same_v<T, EltwiseArgs>) {
    EltwiseFields(a, f);
  } else if constexpr (std::is_same_v<T, LutArgs>) {
    LutFields(a, f);
  } else if constexpr (std::is_same_v<T, ResizeArgs>) {
    ResizeFields(a, f);
  } else if constexpr (std::is_same_v<T, DwConvArgs>) {
    DwConvFields(a, f);
  } else {
    static_assert(std::is_same_v<T, LnormArgs>);
    LnormFields(a, f);
  }
}

}  // namespace npu::spec
