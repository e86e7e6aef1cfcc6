// The RTL reference of the MAC array: runs the testbench's CONV instructions (weight- or
// output-stationary, any mac.fold_pipelining) on a ROWS x COLS npu_systolic_array, accumulating
// into the accumulator buffer, and reports when each fold's stream leaves the array.
//
// 1. Generator: walks each CONV's folds (WS: ceil(K/R) K-chunks inside ceil(N/C) N-chunks; OS:
//    ceil(M/R) pixel chunks inside the N-chunks) and decides whether the next CONV continues the
//    chain (hw/spec FoldChain: accumulates into the same tile, pipelining not NONE, and for OS the
//    same K) or must wait for the array to drain.
// 2. WS loader: shifts a fold's weights down the column chains (R cycles, bottom row first). It
//    starts DOUBLE_BUFFERED: when the previous fold starts streaming (the shadow holds that
//    one); SINGLE_BUFFERED: when the previous fold's first vector reached the last row (R - 1
//    cycles later: the chain is free); NONE or a new chain: when the array is drained.
// 3. Streamer: streams T vectors per fold. WS: once the fold is loaded and the previous fold's
//    vectors are out. OS: once the drain chain will be free when this fold finishes (DOUBLE:
//    R cycles of shifting per fold; SINGLE: from the first row's capture R - 1 cycles plus R of
//    shifting) or, for NONE or a new chain, when the array is drained.
// 4. Skew: row r sees the stream r cycles late, column c c cycles late (weights, loads, drains).
//    Depthwise (K = the taps, N = the channels): each PE takes its own operand (its column's
//    channel) from a per-PE input path instead of the row's operand passed from the left.
// 5. Writer: the bottom row's sums (WS) or the drain chain's output (OS) go into the accumulator
//    (overwritten by the first K-chunk of a CONV that does not accumulate, else added).
module npu_conv_engine
  import npu_rtl_pkg::*;
#(
    parameter int ROWS = 8,
    parameter int COLS = 8
) (
    input logic clk,
    input logic rst,
    input logic start,  // run instructions 0 .. npu_insn_count() - 1
    input logic df_os_in,  // 0: weight-stationary, 1: output-stationary; sampled during reset
    input logic [1:0] pipe_in,  // FoldPipelining; sampled during reset
    output logic busy
);
  // The modes as registers: no combinational path from the pins (Verilator then re-evaluates
  // the datapath's logic only on the clock).
  logic df_os;
  logic [1:0] pipe;
  always_ff @(posedge clk) begin
    if (rst) begin
      df_os <= df_os_in;
      pipe <= pipe_in;
    end
  end
  localparam int kDepth = ROWS + COLS;
  localparam int kTags = 1 << kTagBits;
  localparam int kSlots = 1 << kSlotBits;

  longint cycle;

  // Instruction cache (slot = index mod kSlots) and fold table (by tag).
  int ic[kSlots][F_NUM_FIELDS];
  int ic_k[kSlots], ic_m[kSlots];
  logic [kSlotBits-1:0] fd_slot[kTags];
  int fd_a0[kTags], fd_n0[kTags], fd_t[kTags], fd_idx[kTags];
  logic fd_ow[kTags], fd_last[kTags], fd_dw[kTags];

  `include "npu_conv_feeder.svh"

  // 1. Generator.
  logic g_valid, g_cont;
  int g_idx, g_a, g_n, g_na, g_nn;
  logic [kTagBits-1:0] next_tag;
  logic [kSlotBits-1:0] g_slot;
  logic consume;

  // Loads instruction `idx` into the cache; `cont`: whether it continues the previous one's chain.
  task automatic Fetch(int idx, logic have_prev);
    int f[F_NUM_FIELDS];
    logic [kSlotBits-1:0] slot = kSlotBits'(idx);
    int k, m;
    for (int i = 0; i < F_NUM_FIELDS; ++i) f[i] = npu_insn_field(idx, i);
    k = f[F_KERNEL_H] * f[F_KERNEL_W] *
        (f[F_DEPTHWISE] != 0 ? 1 : f[F_GROUPS] > 1 ? f[F_IN_C] / f[F_GROUPS] : f[F_IN_C]);
    m = f[F_OUT_H] * f[F_OUT_W];
    g_cont <= have_prev && pipe != kNone && f[F_ACCUMULATE] != 0 &&
        f[F_ACC_ADDR] == ic[g_slot][F_ACC_ADDR] && f[F_OUT_H] == ic[g_slot][F_OUT_H] &&
        f[F_OUT_W] == ic[g_slot][F_OUT_W] && f[F_OUT_C] == ic[g_slot][F_OUT_C] &&
        (!df_os || k == ic_k[g_slot]);
    // Blocking: Verilator 5.006 cannot delay array writes in a loop; no fold reads the slot yet.
    for (int i = 0; i < F_NUM_FIELDS; ++i) ic[slot][i] = f[i];
    ic_k[slot] = k;
    ic_m[slot] = m;
    g_valid <= 1;
    g_idx <= idx;
    g_slot <= slot;
    g_a <= 0;
    g_n <= 0;
    g_na <= (df_os ? (m + ROWS - 1) / ROWS : (k + ROWS - 1) / ROWS);
    g_nn <= (f[F_OUT_C] + COLS - 1) / COLS;
  endtask

  // 2, 3. Loader and streamer state.
  typedef enum logic [1:0] {
    kIdle,
    kShift,
    kFull
  } ld_state_t;
  ld_state_t ld_state;
  int ld_j;
  logic [kTagBits-1:0] ld_tag;
  logic st_on;
  int st_s, st_t, since, in_flight;
  logic [kTagBits-1:0] st_tag;
  logic begun, done_pulse;

  logic drained;
  logic ld_go, ld_active, ld_done_now, take;
  int ld_j_now, slot_cycles;
  logic [kTagBits-1:0] ld_tag_now, take_tag;
  always_comb begin
    drained = in_flight == 0 && !st_on && ld_state == kIdle;
    ld_go = 0;
    if (!df_os && g_valid && ld_state == kIdle) begin
      if (!g_cont) ld_go = drained;
      else if (pipe == kDoubleBuffered) ld_go = 1;
      else ld_go = since >= ROWS - 1;
    end
    ld_active = ld_state == kShift || ld_go;
    ld_j_now = ld_state == kShift ? ld_j : 0;
    ld_tag_now = ld_state == kShift ? ld_tag : next_tag;
    ld_done_now = ld_active && ld_j_now == ROWS - 1;
    // OS: the drain chain's occupancy per fold (see 3.).
    slot_cycles = pipe == kSingleBuffered ? 2 * ROWS - 1 : ROWS;
    if (!df_os) begin
      take = (ld_state == kFull || ld_done_now) && (!st_on || st_s == st_t - 1);
      take_tag = ld_state == kFull ? ld_tag : ld_tag_now;
    end else begin
      take = g_valid && (!st_on || st_s == st_t - 1) &&
          (g_cont ? since >= slot_cycles - 1 : (drained || (in_flight == 1 && done_pulse)));
      take_tag = next_tag;
    end
    consume = df_os ? take : ld_go;
  end

  // 4. Skewed stream and load records.
  stream_t hist[kDepth];  // hist[d]: the stream d cycles ago (d >= 1)
  stream_t head, dl[kDepth];  // dl[d]: the stream d cycles ago, dl[0] = head
  typedef struct packed {
    logic active, last;
    logic [kTagBits-1:0] tag;
    logic [15:0] j;
  } load_t;
  load_t ld_hist[COLS];
  always_comb begin
    head = '0;
    if (st_on) begin
      head.v = 1;
      head.f = st_s == 0;
      head.l = st_s == st_t - 1;
      head.tag = st_tag;
      head.s = kIdxBits'(st_s);
    end
    dl[0] = head;
    for (int d = 1; d < kDepth; ++d) dl[d] = hist[d];
  end

  // Array inputs.
  logic signed [8:0] x_row[ROWS], w_top[COLS], x_dw[ROWS][COLS];
  logic dw_sel[ROWS][COLS], dw_live;
  stream_t row_meta[ROWS];
  logic w_shift[COLS], w_last[COLS], d_latch[COLS], d_shift[COLS];
  logic signed [31:0] bottom_sum[COLS], bottom_out[COLS];
  logic dr_busy[COLS], dr_start[COLS];
  int dr_cnt[COLS];
  logic [kTagBits-1:0] dr_tag[COLS];

  always_comb begin
    for (int r = 0; r < ROWS; ++r) begin
      row_meta[r] = dl[r];
      x_row[r] = RowOperand(row_meta[r], r);
    end
    for (int c = 0; c < COLS; ++c) begin
      stream_t cm = dl[c];
      load_t lm = c == 0 ? load_t'{ld_active, ld_done_now, ld_tag_now, 16'(ld_j_now)} :
          ld_hist[c];
      if (df_os) begin
        w_top[c] = ColumnOperand(cm.v, fd_slot[cm.tag], int'(cm.s), fd_n0[cm.tag] + c);
        w_shift[c] = 0;
        w_last[c] = 0;
      end else begin
        // A load starting this cycle has no fold table entry yet: the generator holds its fold.
        if (c == 0 && ld_go) begin
          w_top[c] = ColumnOperand(1, g_slot, g_a * ROWS + ROWS - 1, g_n * COLS);
        end else begin
          w_top[c] = ColumnOperand(lm.active, fd_slot[lm.tag],
                                   fd_a0[lm.tag] + ROWS - 1 - int'(lm.j), fd_n0[lm.tag] + c);
        end
        w_shift[c] = lm.active;
        w_last[c] = lm.last;
      end
      dr_start[c] = df_os && (pipe == kNone ? dl[kDepth-2].v && dl[kDepth-2].l
                                            : dl[ROWS-1+c].v && dl[ROWS-1+c].l);
      d_latch[c] = dr_start[c] && pipe == kDoubleBuffered;
      d_shift[c] = df_os && dr_busy[c];
    end
  end
  // Depthwise folds: PE (r, c) sees the vector that entered r + c cycles ago and takes its own
  // operand (its tap or pixel, its column's channel) from the per-PE input path.
  always_comb begin
    dw_live = 0;
    for (int d = 0; d < kDepth - 1; ++d) dw_live |= dl[d].v && fd_dw[dl[d].tag];
    for (int r = 0; r < ROWS; ++r) begin
      for (int c = 0; c < COLS; ++c) begin
        dw_sel[r][c] = dw_live && dl[r+c].v && fd_dw[dl[r+c].tag];
        x_dw[r][c] = dw_sel[r][c] ? DepthwiseOperand(dl[r+c], r, c) : 9'sd0;
      end
    end
  end
  // A fold's stream passes the last column's write slot.
  assign done_pulse = df_os ? dr_busy[COLS-1] && dr_cnt[COLS-1] == ROWS - 1
                            : dl[kDepth-2].v && dl[kDepth-2].l;

  npu_systolic_array #(
      .ROWS(ROWS),
      .COLS(COLS)
  ) array (
      .clk,
      .df_os,
      .pipe,
      .x_row,
      .row_meta,
      .x_dw,
      .dw_sel,
      .w_top,
      .w_shift,
      .w_last,
      .d_latch,
      .d_shift,
      .bottom_sum,
      .bottom_out
  );

  // 5. Writer: one accumulator entry per column per cycle.
  task automatic Write(logic [kTagBits-1:0] tag, int m, int n, int value);
    int slot = int'(fd_slot[tag]);
    int entry;
    if (m >= ic_m[slot] || n >= ic[slot][F_OUT_C]) return;
    entry = ic[slot][F_ACC_ADDR] + m * ic[slot][F_OUT_C] + n;
    npu_acc_write(entry, fd_ow[tag] ? value : npu_acc_read(entry) + value);
  endtask

  always_ff @(posedge clk) begin
    if (rst) begin
      cycle <= 0;
      g_valid <= 0;
      ld_state <= kIdle;
      st_on <= 0;
      since <= 0;
      in_flight <= 0;
      next_tag <= 0;
      begun <= 0;
    end else begin
      cycle <= cycle + 1;
      if (start && npu_insn_count() > 0) Fetch(0, 0);
      // Generator: hand the fold out, step to the next.
      if (consume) begin
        fd_slot[next_tag] <= g_slot;
        fd_a0[next_tag] <= g_a * ROWS;
        fd_n0[next_tag] <= g_n * COLS;
        fd_t[next_tag] <= df_os ? ic_k[g_slot] : ic_m[g_slot];
        fd_ow[next_tag] <= ic[g_slot][F_ACCUMULATE] == 0 && (df_os || g_a == 0);
        fd_last[next_tag] <= g_a == g_na - 1 && g_n == g_nn - 1;
        fd_idx[next_tag] <= g_idx;
        fd_dw[next_tag] <= ic[g_slot][F_DEPTHWISE] != 0 || ic[g_slot][F_GROUPS] > 1;
        next_tag <= next_tag + 1;
        if (!begun) begin
          begun <= 1;
          npu_begin(df_os ? cycle + 1 : cycle);
        end
        if (g_a < g_na - 1) begin
          g_a <= g_a + 1;
          g_cont <= pipe != kNone;
        end else if (g_n < g_nn - 1) begin
          g_a <= 0;
          g_n <= g_n + 1;
          g_cont <= pipe != kNone;
        end else if (g_idx + 1 < npu_insn_count()) begin
          Fetch(g_idx + 1, 1);
        end else begin
          g_valid <= 0;
        end
      end
      // Loader.
      if (ld_active) begin
        ld_tag <= ld_tag_now;
        ld_j <= ld_j_now + 1;
        ld_state <= kShift;
        if (ld_done_now) ld_state <= take ? kIdle : kFull;
      end else if (ld_state == kFull && take) begin
        ld_state <= kIdle;
      end
      // Streamer.
      since <= since + 1;
      if (take) begin
        st_on <= 1;
        st_s <= 0;
        st_tag <= take_tag;
        // WS: a fold loaded in one cycle (R = 1) has no table entry yet.
        st_t <= df_os ? ic_k[g_slot] : (ld_state == kIdle ? ic_m[g_slot] : fd_t[take_tag]);
        since <= 0;
      end else if (st_on) begin
        st_s <= st_s + 1;
        if (st_s == st_t - 1) st_on <= 0;
      end
      in_flight <= in_flight + (take ? 1 : 0) - (done_pulse ? 1 : 0);
      if (done_pulse) begin
        logic [kTagBits-1:0] t = df_os ? dr_tag[COLS-1] : dl[kDepth-2].tag;
        npu_fold_done(fd_idx[t], fd_last[t] ? 1 : 0, cycle);
      end
    end
  end

  // 4, 5 per stage and column (Verilator 5.006 cannot delay array writes inside loops).
  always_ff @(posedge clk) begin
    hist[1] <= rst ? '0 : head;
    ld_hist[1] <= rst ? '0 : load_t'{ld_active, ld_done_now, ld_tag_now, 16'(ld_j_now)};
  end
  for (genvar d = 2; d < kDepth; ++d) begin : g_hist
    always_ff @(posedge clk) hist[d] <= rst ? '0 : hist[d-1];
  end
  for (genvar c = 2; c < COLS; ++c) begin : g_ld_hist
    always_ff @(posedge clk) ld_hist[c] <= rst ? '0 : ld_hist[c-1];
  end
  for (genvar c = 0; c < COLS; ++c) begin : g_writer
    always_ff @(posedge clk) begin
      if (rst) begin
        dr_busy[c] <= 0;
      end else if (!df_os) begin
        if (dl[ROWS-1+c].v) begin
          Write(dl[ROWS-1+c].tag, int'(dl[ROWS-1+c].s), fd_n0[dl[ROWS-1+c].tag] + c,
                bottom_sum[c]);
        end
      end else begin
        if (dr_busy[c]) begin
          Write(dr_tag[c], fd_a0[dr_tag[c]] + ROWS - 1 - dr_cnt[c], fd_n0[dr_tag[c]] + c,
                bottom_out[c]);
          dr_cnt[c] <= dr_cnt[c] + 1;
          if (dr_cnt[c] == ROWS - 1) dr_busy[c] <= 0;
        end
        if (dr_start[c]) begin
          dr_busy[c] <= 1;
          dr_cnt[c] <= 0;
          dr_tag[c] <= pipe == kNone ? dl[kDepth-2].tag : dl[ROWS-1+c].tag;
        end
      end
    end
  end

  assign busy = g_valid || ld_state != kIdle || st_on || in_flight != 0;
endmodule
