// The operand feeder of npu_conv_engine (included into it: it reads the engine's instruction
// cache `ic` and fold table `fd_*`): walks an implicit im2col of the CONV's input region in SRAM
// and the weight block, and returns 9-bit operands with the zero points subtracted. A window tap
// outside the region reads pad_value. Rows past K and columns past N get 0, so they add nothing.
// Depthwise and grouped folds take one operand per PE (DepthwiseOperand): a column per channel,
// or per output channel of a group fed its group's input channels.

// Input operand of output pixel m, reduction index k (k = (kh*kernel_w + kw)*in_c + ci).
function automatic logic signed [8:0] InputOperand(int slot, int m, int k);
  int in_c = ic[slot][F_IN_C], kernel_w = ic[slot][F_KERNEL_W], out_w = ic[slot][F_OUT_W];
  int ci = k % in_c, tap = k / in_c;
  int kh = tap / kernel_w, kw = tap % kernel_w, oh = m / out_w, ow = m % out_w;
  int y = oh * ic[slot][F_STRIDE_H] + kh * ic[slot][F_DIL_H] - ic[slot][F_PAD_TOP];
  int x = ow * ic[slot][F_STRIDE_W] + kw * ic[slot][F_DIL_W] - ic[slot][F_PAD_LEFT];
  int value;
  if (y < 0 || x < 0 || y >= ic[slot][F_IN_H] || x >= ic[slot][F_IN_W]) begin
    value = ic[slot][F_PAD_VALUE];
  end else begin
    value = npu_sram_byte(ic[slot][F_IN_ADDR] + (y * ic[slot][F_IN_W] + x) * in_c + ci);
  end
  return 9'(value - ic[slot][F_IN_ZP]);
endfunction

// Weight operand of reduction index k, output channel n: [out_c][K], or [K][out_c] (weights_kn).
function automatic logic signed [8:0] WeightOperand(int slot, int k, int n);
  int addr = ic[slot][F_WEIGHTS_KN] != 0 ? k * ic[slot][F_OUT_C] + n : n * ic_k[slot] + k;
  return 9'(npu_sram_byte(ic[slot][F_WT_ADDR] + addr) - ic[slot][F_WT_ZP]);
endfunction

// Row r's operand for the vector `meta`: WS streams pixels (k fixed by the row), OS streams the
// reduction (the row's pixel fixed).
function automatic logic signed [8:0] RowOperand(stream_t meta, int r);
  int slot = int'(fd_slot[meta.tag]);
  int m = df_os ? fd_a0[meta.tag] + r : int'(meta.s);
  int k = df_os ? int'(meta.s) : fd_a0[meta.tag] + r;
  if (!meta.v || m >= ic_m[slot] || k >= ic_k[slot]) return 9'sd0;
  return InputOperand(slot, m, k);
endfunction

// A column's weight: reduction index k, output channel n of the instruction in `slot`.
function automatic logic signed [8:0] ColumnOperand(logic valid, logic [kSlotBits-1:0] slot, int k,
                                                    int n);
  if (!valid || k >= ic_k[slot] || n >= ic[slot][F_OUT_C]) return 9'sd0;
  return WeightOperand(int'(slot), k, n);
endfunction

// A depthwise or grouped fold's operand at PE (r, c): the vector's pixel and reduction index k
// (WS: the row is k; OS: the row is the pixel), k = tap * cg + i over the cg input channels of
// the column's group (depthwise: cg = 1, a group per channel), as InputOperand indexes them.
function automatic logic signed [8:0] DepthwiseOperand(stream_t meta, int r, int c);
  int slot = int'(fd_slot[meta.tag]);
  int in_c = ic[slot][F_IN_C];
  int groups = ic[slot][F_DEPTHWISE] != 0 ? in_c : ic[slot][F_GROUPS];
  int cg = in_c / groups, ng = ic[slot][F_OUT_C] / groups;
  int m = df_os ? fd_a0[meta.tag] + r : int'(meta.s);
  int k = df_os ? int'(meta.s) : fd_a0[meta.tag] + r;
  int n = fd_n0[meta.tag] + c;
  if (m >= ic_m[slot] || k >= ic_k[slot] || n >= ic[slot][F_OUT_C]) return 9'sd0;
  return InputOperand(slot, m, (k / cg) * in_c + (n / ng) * cg + k % cg);
endfunction
