// What CONV, ACT, POOL, ELTWISE and LUT compute, as pure functions over their operands: the
// functional half of the ISA contract (docs/isa.md; RESIZE: resize.h). The SystemC units call these
// and add timing; the compiler's tests call them to execute instruction streams without SystemC.
// The integer reference in compiler/reference is written independently, so the end-to-end checks
// catch a bug here too.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "hw/spec/isa.h"
#include "hw/spec/regs.h"

namespace npu::spec {

// Operand sizes, for fetching them: input region, weight block, accumulator tile. Sizes named
// bytes count 2 per element for an fp16 instruction (fp16.h, ElementBytes).
uint64_t ConvInputBytes(const ConvArgs& conv);
uint64_t ConvWeightRowValues(const ConvArgs& conv);  // K (depthwise: the taps; grouped: a group's)
uint64_t ConvWeightBytes(const ConvArgs& conv);     // out_c rows, int4 rows packed
uint64_t ConvAccEntries(const ConvArgs& conv);
uint64_t ActAccEntries(const ActArgs& act);
uint64_t ActParamBytes(const ActArgs& act);
// Bytes from out_addr to the last output byte: (pixels - 1) * out_pixel_stride + channels.
uint64_t ActOutputSpan(const ActArgs& act);

// A sum pool's sums, a mean-of-sums pool's input: int32 (isa.h, PoolMode).
inline constexpr uint64_t kPoolSumBytes = 4;
// Element i of int32 elements held as little-endian bytes (a sum pool's sums).
int32_t ReadInt32Le(std::span<const int8_t> bytes, uint64_t i);
void WriteInt32Le(std::span<int8_t> bytes, uint64_t i, int32_t value);
uint64_t PoolInElementBytes(const PoolArgs& pool);   // 1, 2 (fp16) or 4 (mean of sums)
uint64_t PoolOutElementBytes(const PoolArgs& pool);  // 1, 2 (fp16) or 4 (sum)
uint64_t PoolInputBytes(const PoolArgs& pool);
uint64_t PoolOutputBytes(const PoolArgs& pool);  // dense: out pixels * channels elements
uint64_t PoolOutputSpan(const PoolArgs& pool);   // ((out pixels - 1) * stride + channels) elements

// The b values ELTWISE reads: count (none), channels (channel), count / channels (pixel), 1
// (scalar); 0 for a broadcast whose channels is 0. Their bytes (2 each with fp16), and the b
// value element i reads.
uint64_t EltwiseBValues(const EltwiseArgs& eltwise);
uint64_t EltwiseBBytes(const EltwiseArgs& eltwise);
uint64_t EltwiseBIndex(const EltwiseArgs& eltwise, uint64_t i);
// The bytes of a: count elements. Of the output: count elements, 1 byte each with int8_out.
uint64_t EltwiseBytes(const EltwiseArgs& eltwise);
uint64_t EltwiseOutBytes(const EltwiseArgs& eltwise);
// S of int8_out: the 32 bits of a_multiplier read as FP32 (the reciprocal of the output's scale).
float EltwiseInt8OutScale(const EltwiseArgs& eltwise);
// LUT's table (kLutEntries elements; none with bypass) and output (count elements): 2 bytes an
// element with fp16_out, else 1. Its input is count bytes. The spans are from in_addr and
// out_addr to one past the last byte read or written (LutArgs' pixels).
uint64_t LutTableBytes(const LutArgs& lut);
uint64_t LutOutputBytes(const LutArgs& lut);
uint64_t LutInputSpan(const LutArgs& lut);
uint64_t LutOutputSpan(const LutArgs& lut);
uint64_t LutPixels(const LutArgs& lut);  // count / channels, 1 without channels

// Field sanity that the encoding cannot express (zero kernel, stride, dimension...; CONV's
// weights_kn with a kernel other than 1x1 or with depthwise). Empty string when valid, else what
// is wrong.
std::string CheckConv(const ConvArgs& conv);
std::string CheckAct(const ActArgs& act);
std::string CheckPool(const PoolArgs& pool);
// ELTWISE: count 0, shift outside 1..62, channels 0 or not dividing count when b is broadcast
// per channel or pixel, a b_multiplier with mul; fp16_relu or int8_out without fp16, int8_out
// with an a_multiplier that is not a finite FP32 value above 0. LUT: count 0; strides without
// channels; with channels: count not a multiple, fp16_out, an input pixel stride below channels,
// out_elem_stride 0, an output pixel stride its own pixel's bytes overlap; bypass with fp16_out.
std::string CheckEltwise(const EltwiseArgs& eltwise);
std::string CheckLut(const LutArgs& lut);

// acc[(oh*out_w + ow)*out_c + n] = (accumulate ? acc : 0) + sum over kh, kw, c of
//   (in(oh*stride_h + kh*dilation_h - pad_top, ow*stride_w + kw*dilation_w - pad_left, c)
//    - in_zero_point) * (w[((n*kernel_h + kh)*kernel_w + kw)*in_c + c] - wt_zero_point),
// where in(y, x, c) is input[(y*in_w + x)*in_c + c] inside the region and pad_value outside;
// with weights_kn (1x1) the weight is w[c*out_c + n]. Depthwise: the sum is over kh, kw only, of
// (in(..., n) - in_zero_point) * (w[(n*kernel_h + kh)*kernel_w + kw] - wt_zero_point). Groups G:
// the sum is over group g = n / (out_c / G)'s channels c = g*cg + i, i < cg = in_c / G, with
// weight w[((n*kernel_h + kh)*kernel_w + kw)*cg + i]. Sums are
// int32 and wrap modulo 2^32 (the compiler keeps them from overflowing).
// `conv` must pass CheckConv.
void ComputeConv(const ConvArgs& conv, std::span<const int8_t> input,
                 std::span<const int8_t> weights, std::span<int32_t> acc);

// One per-channel record of the ACT parameter block, little-endian int32 bias, multiplier, shift.
struct ActParams {
  int32_t bias;
  int32_t multiplier;
  int32_t shift;
};
ActParams ReadActParams(std::span<const uint8_t> block, uint32_t channel);
void WriteActParams(std::span<uint8_t> block, uint32_t channel, const ActParams& params);

// Dense [pixels][channels] int8 result of ACT; `table` (kLutEntries, read only with use_table)
// maps every result. Fails (kBadParameter) on a shift outside 1..62.
regs::ErrorCode ComputeAct(const ActArgs& act, std::span<const int32_t> acc,
                           std::span<const uint8_t> params, std::span<const int8_t> table,
                           std::vector<int8_t>& out);

// Dense [out_h*out_w][channels] result of POOL (the unit writes it with out_pixel_stride): int8,
// FP16 or (sum) int32 elements, little-endian. `prior` is the sums an accumulating sum adds to,
// dense as the output (PoolOutputBytes); unread otherwise.
void ComputePool(const PoolArgs& pool, std::span<const int8_t> input, std::vector<int8_t>& out);
void ComputePool(const PoolArgs& pool, std::span<const int8_t> input,
                 std::span<const int8_t> prior, std::vector<int8_t>& out);

// round(sum / count), halves towards +infinity: floor((2*sum + count) / (2*count)).
int64_t RoundDiv(int64_t sum, int64_t count);

// A mean (an average pool's, a ReduceMean's) before the output zero point and the clamp:
// RoundingShift(RoundDiv(sum * multiplier, count), shift), the mean rescaled with one rounding
// at the output's scale (rounding the mean to the input's scale first, as the ISA did before,
// lost 2.3 dB of SNR at resnet18's global pool), saturated to int32. count >= 1; shift in
// [1, 62].
int64_t RescaledMean(int64_t sum, int64_t count, int32_t multiplier, int shift);

// A ReduceMean's (`mean`) or ReduceSum's value before the output zero point and the clamp: the
// RescaledMean of `sum` over `count`, or `sum` saturated to int32 and rescaled with ApplyScale.
// The integer reference and the control core's kernel both compute it here.
int64_t RescaledReduction(int64_t sum, int64_t count, bool mean, int32_t multiplier, int shift);

// `a` holds EltwiseBytes(eltwise), `b` EltwiseBBytes(eltwise); `out` becomes
// EltwiseOutBytes(eltwise). `eltwise` must pass CheckEltwise.
void ComputeEltwise(const EltwiseArgs& eltwise, std::span<const int8_t> a,
                    std::span<const int8_t> b, std::vector<int8_t>& out);

// `in` holds count values (dense, pixels back to back), `table` LutTableBytes(lut); `out` becomes
// LutOutputBytes(lut), dense: the unit scatters it by the output strides (unit_accesses.h).
void ComputeLut(const LutArgs& lut, std::span<const int8_t> in, std::span<const int8_t> table,
                std::vector<int8_t>& out);

// DWCONV is a depthwise CONV (zero points 0, accumulating nothing) followed by an ACT, with its
// table after the records when use_table: the two it stands for, and their operand sizes. The
// CONV's accumulator tile is the unit's own, dense [out pixels][channels] from entry 0.
ConvArgs DwConvAsConv(const DwConvArgs& dw);
ActArgs DwConvAsAct(const DwConvArgs& dw);
// The other way: the DWCONV of a depthwise CONV (zero points 0) and the ACT draining its tile
// (the accumulator addresses aside). An ACT with a table gives use_table: its table must then
// lie right after its records (table_addr = DwConvTableAddr).
DwConvArgs DwConvOf(const ConvArgs& conv, const ActArgs& act);
uint64_t DwConvInPixelStride(const DwConvArgs& dw);  // in_pixel_stride, or channels for 0
uint64_t DwConvInputSpan(const DwConvArgs& dw);      // the SRAM its input pixels lie in
uint64_t DwConvWeightBytes(const DwConvArgs& dw);  // channels * kernel_h * kernel_w
uint64_t DwConvParamBytes(const DwConvArgs& dw);   // channels ACT records, then any table
uint64_t DwConvTableAddr(uint64_t param_addr, uint64_t channels);  // right after the records
uint64_t DwConvOutputSpan(const DwConvArgs& dw);   // as ACT's
// CheckConv and CheckAct of the two, and an in_pixel_stride that would overlap pixels.
std::string CheckDwConv(const DwConvArgs& dw);
// `input` holds the input's pixels dense (in_h * in_w * channels bytes; the unit gathers them by
// in_pixel_stride). Dense [out pixels][channels] int8 result (the unit writes it with
// out_pixel_stride): ComputeConv then ComputeAct. Fails (kBadParameter) on a requantisation shift
// outside 1..62.
regs::ErrorCode ComputeDwConv(const DwConvArgs& dw, std::span<const int8_t> input,
                              std::span<const int8_t> weights, std::span<const uint8_t> params,
                              std::vector<int8_t>& out);

}  // namespace npu::spec
