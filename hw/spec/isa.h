// The instruction set: what the command processor fetches from DRAM and dispatches to the four
// queues. Fixed 32-byte words; docs/isa.md documents the semantics and the bit layout, and a test
// checks the layout tables there against FieldLayout().
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hw/spec/status.h"

namespace npu::spec {

inline constexpr int kInsnBytes = 32;
inline constexpr uint32_t kSramAddressSpace = 1u << 24;  // sram addresses are 24-bit
inline constexpr uint32_t kAccEntries = 1u << 20;        // accumulator addresses are 20-bit, int32

// Decoupled access/execute: each queue runs in order; queues synchronise only through tokens.
enum class Queue : uint8_t { kLoad = 0, kCompute = 1, kVector = 2, kStore = 3 };
inline constexpr int kNumQueues = 4;
std::string_view QueueName(Queue queue);

enum class Opcode : uint8_t {
  kLoad = 1,
  kStore = 2,
  kConv = 3,
  kAct = 4,
  kPool = 5,
  kEltwise = 6,
  kLut = 7,
  kResize = 8,
  kDwConv = 9,
  kLnorm = 10
};
std::string_view OpcodeName(Opcode opcode);
Queue QueueOf(Opcode opcode);

// LOAD (DRAM -> SRAM) and STORE (SRAM -> DRAM): a 3-D strided copy of n2 x n1 runs of
// run_bytes contiguous bytes. DRAM addresses are offsets from the DRAM_BASE register. A LOAD
// may scatter: byte k of a run lands in SRAM at the run's address + k*sram_elem_stride (0 or 1:
// dense); a STORE has no gather, its sram_elem_stride must be 0.
inline constexpr int kSramElemStrideBits = 8;
inline constexpr uint32_t kMaxSramElemStride = (1u << kSramElemStrideBits) - 1;
struct DmaArgs {
  uint32_t dram_offset = 0;
  uint32_t sram_addr = 0;
  uint32_t run_bytes = 0;
  uint32_t n1 = 1, n2 = 1;
  uint32_t dram_stride1 = 0, dram_stride2 = 0;
  uint32_t sram_stride1 = 0, sram_stride2 = 0;
  uint32_t sram_elem_stride = 0;
  bool operator==(const DmaArgs&) const = default;
};

// CONV: acc[out pixel][out channel] (+)= sum over kernel window and in_c of
// (input - in_zero_point) x (weight - wt_zero_point), 9-bit operands, int32 sums (modulo 2^32).
// Input is an HWC int8 region in SRAM, weights are [out_c][kernel_h][kernel_w][in_c] int8.
// Window positions outside the in_h x in_w region read pad_value. Depthwise: in_c == out_c and
// channel n sees only input channel n, weights [out_c][kernel_h][kernel_w]. weights_kn (1x1
// kernels only, not depthwise): weights are [in_c][out_c], one row of out_c per reduction index,
// the layout a row-major K x N activation has (a matrix product of two activations).
// weights_int4 (not with weights_kn): each row of the weight block (an output channel's K
// weights) is packed two per byte, ceil(K / 2) bytes, weight k in byte k / 2, the low nibble for
// even k, as 4-bit two's complement in [-8, 7] (hw/spec/int4.h); the MAC array takes
// mac.int4_weight_rate of them per PE per cycle.
// groups G (1: an ordinary convolution; not with depthwise or weights_kn): in_c and out_c
// are G groups of channels, output channel n sees only the in_c / G input channels of group
// n / (out_c / G), weights [out_c][kernel_h][kernel_w][in_c / G]. Depthwise is the case
// G = in_c = out_c with its own flag (the vector reads differ only in how many groups a column
// tile spans: hw/spec/operand_stream.cc).
// fp16 (not with weights_int4; zero points and pad_value 0): input and weights are FP16 (2 bytes
// an element, hw/spec/fp16.h), padding reads +0, and each accumulator entry is FP32: the exact
// sum of the products rounded once, added to the entry (accumulate) in FP32. Sizes count
// elements; addresses are bytes.
struct ConvArgs {
  uint32_t in_addr = 0;
  uint32_t in_h = 0, in_w = 0, in_c = 0;
  uint32_t pad_top = 0, pad_left = 0;
  int32_t pad_value = 0;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t out_h = 0, out_w = 0, out_c = 0;
  uint32_t wt_addr = 0;
  uint32_t acc_addr = 0;
  bool accumulate = false;
  bool depthwise = false;
  bool weights_kn = false;
  int32_t in_zero_point = 0, wt_zero_point = 0;
  bool weights_int4 = false;
  bool fp16 = false;
  uint32_t groups = 1;
  bool operator==(const ConvArgs&) const = default;
};

// ACT: out[pixel][c] = clamp(zp + scale(acc[pixel][c] + bias[c]), clamp_min, clamp_max), with
// per-channel {int32 bias, int32 multiplier, int32 shift} records at param_addr (12 bytes each).
// With use_table, every output byte then goes through the 256-entry table at table_addr:
// out = table[out + 128].
// fp16 (not with use_table): out = clamp(FP16(acc + bias), fp16_clamp_min, fp16_clamp_max) with
// acc and bias FP32 (the record's first word; multiplier and shift unused), the sum rounded to
// FP32 then to FP16, the bounds FP16; out_pixel_stride counts elements of 2 bytes.
struct ActArgs {
  uint32_t acc_addr = 0;
  uint32_t pixels = 0, channels = 0;
  uint32_t param_addr = 0;
  uint32_t out_addr = 0;
  uint32_t out_pixel_stride = 0;
  int32_t out_zero_point = 0;
  int32_t clamp_min = -128, clamp_max = 127;
  uint32_t table_addr = 0;
  bool use_table = false;
  bool fp16 = false;
  uint32_t fp16_clamp_min = 0xFC00, fp16_clamp_max = 0x7C00;  // -inf, +inf
  bool operator==(const ActArgs&) const = default;
};

inline constexpr uint32_t kActParamBytes = 12;
// A lookup table (LUT, ACT's optional table): int8 entry k is the output for input k - 128.
inline constexpr uint32_t kLutEntries = 256;

// POOL (vector unit): max or average over kernel windows of an HWC int8 region in SRAM; taps
// outside the region are padding. Max: out = clamp(max of the taps inside). Average:
// out = clamp(out_zero_point + RescaledMean(sum of (x - in_zero_point) inside, count,
// multiplier, shift)) (semantics.h: one rounding, at the output's scale) with count =
// kernel_h*kernel_w, or the taps inside if !count_include_pad.
// fp16: FP16 elements; max: the largest tap inside (NaN if any is; -inf if none); average: the
// taps inside summed in FP32 in window order, divided by count in FP32, rounded to FP16 (+0 if
// count is 0). Zero points, multiplier, shift and clamps are unused.
// Sum and mean of sums split an average over several instructions (a global pool over row strips
// that are never in SRAM together), with the same one rounding as average's. Sum: the average's
// int32 window sums, written as int32 (4 bytes little-endian an element, stride counting
// elements), with `accumulate` plus the sums already at the output (read, then overwritten);
// saturated to int32. Mean of sums: int32 sums in (in_h x in_w x channels, dense), out =
// clamp(out_zero_point + RescaledMean(sum, kernel_h*kernel_w, multiplier, shift)) per element:
// the kernel is the window the sums are of. Neither with fp16; accumulate only with sum.
enum class PoolMode : uint8_t { kMax = 0, kAverage = 1, kSum = 2, kMeanOfSums = 3 };
struct PoolArgs {
  uint32_t in_addr = 0;
  uint32_t in_h = 0, in_w = 0, channels = 0;
  uint32_t pad_top = 0, pad_left = 0;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t out_h = 0, out_w = 0;
  uint32_t out_addr = 0;
  uint32_t out_pixel_stride = 0;
  uint32_t mode = 0;  // PoolMode
  bool count_include_pad = false;
  int32_t in_zero_point = 0, out_zero_point = 0;
  int32_t multiplier = 0;
  uint32_t shift = 1;
  int32_t clamp_min = -128, clamp_max = 127;
  bool fp16 = false;
  bool accumulate = false;  // sum: add to the int32 sums at the output
  bool operator==(const PoolArgs&) const = default;
};

// ELTWISE (vector unit): out[i] = clamp(out_zero_point + f(A, B)) for i < count, int8 in SRAM,
// with A = a[i] - a_zero_point and B = b[j] - b_zero_point, j by `broadcast`: i (none),
// i % channels (channel: b is one value per channel), i / channels (pixel: one per pixel), 0
// (scalar). With R = 2^(shift-1), 64-bit arithmetic and arithmetic shifts, f is
//   add: (A*a_multiplier + B*b_multiplier + R) >> shift   (a negative b_multiplier subtracts)
//   mul: ApplyScale(A*B, a_multiplier, shift)              (b_multiplier must be 0)
//   max: (max(A*a_multiplier, B*b_multiplier) + R) >> shift, min likewise.
// Reads a and b before writing, so out may be a (in place).
// fp16: FP16 elements, out = f(a, b) rounded once to FP16 (fp16.h: AddFp16, MulFp16, MaxFp16,
// MinFp16), then with fp16_relu a result below 0 becomes +0. Zero points, multipliers, shift and
// clamps are unused.
// int8_out (only with fp16): that FP16 result r is quantised to an int8 output (1 byte an
// element; a and b stay FP16): out = clamp(out_zero_point + QuantizeFp16(r, S)) in 64 bits, S the
// 32 bits of a_multiplier read as FP32 (the reciprocal of the output's scale; finite, above 0).
// max with b = a (broadcast none) is the pure conversion FP16 -> int8.
enum class EltwiseOp : uint8_t { kAdd = 0, kMul = 1, kMax = 2, kMin = 3 };
enum class Broadcast : uint8_t { kNone = 0, kChannel = 1, kPixel = 2, kScalar = 3 };
struct EltwiseArgs {
  uint32_t a_addr = 0, b_addr = 0, out_addr = 0;
  uint32_t count = 0;
  uint32_t op = 0;         // EltwiseOp
  uint32_t broadcast = 0;  // Broadcast
  uint32_t channels = 0;   // for broadcast channel and pixel
  int32_t a_zero_point = 0, b_zero_point = 0, out_zero_point = 0;
  int32_t a_multiplier = 0, b_multiplier = 0;
  uint32_t shift = 1;
  int32_t clamp_min = -128, clamp_max = 127;
  bool fp16 = false, fp16_relu = false, int8_out = false;
  bool operator==(const EltwiseArgs&) const = default;
};

// LUT (vector unit): out[i] = table[in[i] + 128] for i < count, int8 in SRAM, the table being
// kLutEntries int8 entries at table_addr. Reads its whole input before writing (out may overlap
// in, e.g. out = in).
// fp16_out: the table is kLutEntries FP16 entries (2 bytes each) and out is FP16 (2 bytes an
// element); the input stays int8. An int8 -> FP16 conversion: entry k = DequantizeToFp16(k - 128
// - zero_point, scale).
// Pixels (channels above 0, int8 only): element i is channel c = i % channels of pixel
// p = i / channels, read at in_addr + p*in_pixel_stride + c and written at
// out_addr + p*out_pixel_stride + c*out_elem_stride: a channel slice of a wider tensor in, a
// channel slice out, or every out_elem_stride-th byte (one group of a channel shuffle).
// bypass: out = in, the table is not read (a copy).
struct LutArgs {
  uint32_t in_addr = 0, out_addr = 0, table_addr = 0;
  uint32_t count = 0;
  bool fp16_out = false;
  uint32_t channels = 0, in_pixel_stride = 0, out_pixel_stride = 0, out_elem_stride = 0;
  bool bypass = false;
  bool operator==(const LutArgs&) const = default;
};

// RESIZE (vector unit): separable bilinear or nearest resampling of an HWC int8 region
// (hw/spec/resize.h). Input pixel (y, x) of the in_h x in_w region is the `channels` bytes at
// in_addr + (y*in_w + x)*in_pixel_stride (a stride above channels reads a channel block of a wider
// tensor). Output row oy reads row tap oy at row_taps_addr, output column ox column tap ox at
// col_taps_addr (kResizeTapBytes each: indices into the region and the second's weight), and
// out[(oy*out_w + ox)*out_pixel_stride + c] blends the four neighbours with ResizeBlend.
struct ResizeArgs {
  uint32_t in_addr = 0;
  uint32_t in_h = 0, in_w = 0, channels = 0;
  uint32_t in_pixel_stride = 0;
  uint32_t out_h = 0, out_w = 0;
  uint32_t out_addr = 0;
  uint32_t out_pixel_stride = 0;
  uint32_t row_taps_addr = 0, col_taps_addr = 0;
  int32_t zero_point = 0;  // of the input and the output (resampling keeps the quantisation)
  // Held rows (resize.h, ResizeRowBlends): 0, every output element blends its four neighbours
  // (kResizeTapsPerElement taps); else the lanes hold the horizontal blends of two source rows
  // while consecutive output rows read them, and this is how many source rows the instruction
  // blends, as its row taps make it (the unit faults on any other count).
  uint32_t row_blends = 0;
  bool operator==(const ResizeArgs&) const = default;
};

// DWCONV (vector unit, on its depthwise multipliers: act.depthwise_taps > 0, else the unit
// faults): a depthwise convolution and its ACT in one pass, without the MAC array or the
// accumulator buffer. For output pixel p = (oh, ow) of out_h x out_w and channel c < channels,
//   acc = sum over kh, kw of in(oh*stride_h + kh*dilation_h - pad_top,
//                               ow*stride_w + kw*dilation_w - pad_left, c)
//                            * w[(c*kernel_h + kh)*kernel_w + kw]      (int32)
// with in(y, x, c) = input[(y*in_w + x)*in_pixel_stride + c] inside the in_h x in_w region
// (in_pixel_stride 0: channels, dense pixels; above channels: a channel block of a wider tensor,
// such as a prefix of a concatenation kept on chip) and pad_value outside, and
// out[out_addr + p*out_pixel_stride + c] is ACT's result for acc with channel c's record at
// param_addr. With use_table that ACT maps every result through the kLutEntries-byte
// table that follows the records, at param_addr + channels*kActParamBytes (the encoding has no
// room for a table address; the requantisation pipeline applies it as ACT's does, in the same
// pass). Exactly a depthwise CONV with zero points 0 followed by that ACT (semantics.h builds
// both from it), so either unit gives the same bytes.
struct DwConvArgs {
  uint32_t in_addr = 0;
  uint32_t in_h = 0, in_w = 0, channels = 0;
  uint32_t pad_top = 0, pad_left = 0;
  int32_t pad_value = 0;
  uint32_t kernel_h = 1, kernel_w = 1;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t dilation_h = 1, dilation_w = 1;
  uint32_t out_h = 0, out_w = 0;
  uint32_t wt_addr = 0, param_addr = 0;
  uint32_t out_addr = 0;
  uint32_t out_pixel_stride = 0;
  int32_t out_zero_point = 0;
  int32_t clamp_min = -128, clamp_max = 127;
  bool use_table = false;
  uint32_t in_pixel_stride = 0;  // 0: channels (dense pixels)
  bool operator==(const DwConvArgs&) const = default;
};

// LNORM (vector unit, on its normaliser: act.norm_dividers > 0, else the unit faults): layer
// normalisation of `pixels` rows of `channels` int8 values, exactly docs/quantized-ir.md's
// layer_normalization (spec::LayerNormRows). Row p is the `channels` bytes at in_addr +
// p*channels; with X = x - in_zero_point, S1 = sum X, S2 = sum X^2 over the row and sd =
// ISqrt(channels*S2 - S1^2 + eps_term), element c becomes
//   q = RoundDiv((channels*X - S1) * 4096, sd)   (0 if sd = 0; saturated to int32)
//   out[out_addr + p*channels + c] = Requantize(Sat32(q * gamma), beta, multiplier, shift,
//                                               out_zero_point, clamp)
// with channel c's kLnormParamBytes record at param_addr: little-endian int32 beta, multiplier,
// shift (act's record) and gamma (int8 in an int32). Reads a row before writing it, so out may be
// in (in place).
inline constexpr uint32_t kLnormParamBytes = 16;
struct LnormArgs {
  uint32_t in_addr = 0, out_addr = 0, param_addr = 0;
  uint32_t pixels = 0, channels = 0;
  int32_t in_zero_point = 0, out_zero_point = 0;
  uint32_t eps_term = 0;
  int32_t clamp_min = -128, clamp_max = 127;
  bool operator==(const LnormArgs&) const = default;
};

struct Instruction {
  Opcode opcode = Opcode::kLoad;
  uint8_t wait_mask = 0;    // bit q: take one token given by queue q before starting
  uint8_t signal_mask = 0;  // bit q: give queue q one token after completing
  std::variant<DmaArgs, ConvArgs, ActArgs, PoolArgs, EltwiseArgs, LutArgs, ResizeArgs, DwConvArgs,
               LnormArgs>
      args;

  Queue queue() const { return QueueOf(opcode); }
  bool operator==(const Instruction&) const = default;
};

using InsnWord = std::array<uint8_t, kInsnBytes>;

// Fails, naming the field, if a value does not fit its bit field, a token mask names the
// instruction's own queue or a STORE has a sram_elem_stride.
StatusOr<InsnWord> Encode(const Instruction& insn);
// Fails on an unknown opcode, a non-zero reserved bit or a STORE with a sram_elem_stride.
StatusOr<Instruction> Decode(const uint8_t* word);

// Appends to `key` the opcode, the token masks and every field of `insn` in its member's own
// bytes: equal appended bytes for equal instructions and only for them, several times faster than
// Encode (no bit packing, no range checks), for keying a memory of instruction streams.
void AppendKey(const Instruction& insn, std::string& key);

// The bit layout, for docs/isa.md and its test.
struct FieldInfo {
  std::string_view name;
  int offset;
  int width;
  bool is_signed;
};
std::vector<FieldInfo> FieldLayout(Opcode opcode);

// One-line disassembly, e.g. "conv wait=L signal=V in=0x0 ...".
std::string Disassemble(const Instruction& insn);

}  // namespace npu::spec
