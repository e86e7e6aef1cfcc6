// ROWS x COLS grid of npu_pe: row r's operand enters at the left of PE (r, 0), column c's weight
// (or weight chain) at the top of PE (0, c); partial sums (WS) or finished sums (OS) leave at the
// bottom. Depthwise folds bypass the row operand: each PE takes x_dw, its own channel's operand
// (the per-PE input path docs/timing-fidelity.md describes). The caller skews the inputs (row r
// r cycles late, column c c cycles late) and drives each column's shift and drain controls
// already skewed.
module npu_systolic_array
  import npu_rtl_pkg::*;
#(
    parameter int ROWS = 8,
    parameter int COLS = 8
) (
    input logic clk,
    input logic df_os,
    input logic [1:0] pipe,
    input logic signed [8:0] x_row[ROWS],
    input stream_t row_meta[ROWS],
    input logic signed [8:0] x_dw[ROWS][COLS],  // depthwise: each PE's own operand
    input logic dw_sel[ROWS][COLS],  // the PE's vector belongs to a depthwise fold
    input logic signed [8:0] w_top[COLS],
    input logic w_shift[COLS],
    input logic w_last[COLS],
    input logic d_latch[COLS],
    input logic d_shift[COLS],
    output logic signed [31:0] bottom_sum[COLS],  // WS: the bottom PE's sum this cycle
    output logic signed [31:0] bottom_out[COLS]  // OS: the bottom of the drain chain
);
  logic signed [8:0] x[ROWS][COLS+1];
  logic v[ROWS][COLS+1], f[ROWS][COLS+1], l[ROWS][COLS+1];
  logic signed [8:0] w[ROWS+1][COLS];
  logic signed [31:0] p[ROWS+1][COLS];
  logic signed [31:0] sum[ROWS][COLS];

  for (genvar r = 0; r < ROWS; ++r) begin : g_row_in
    assign x[r][0] = x_row[r];
    assign v[r][0] = row_meta[r].v;
    assign f[r][0] = row_meta[r].f;
    assign l[r][0] = row_meta[r].l;
  end
  for (genvar c = 0; c < COLS; ++c) begin : g_col_in
    assign w[0][c] = w_top[c];
    assign p[0][c] = 32'sd0;
    assign bottom_sum[c] = sum[ROWS-1][c];
    assign bottom_out[c] = p[ROWS][c];
  end

  for (genvar r = 0; r < ROWS; ++r) begin : g_r
    for (genvar c = 0; c < COLS; ++c) begin : g_c
      npu_pe pe (
          .clk,
          .df_os,
          .pipe,
          .x_in(dw_sel[r][c] ? x_dw[r][c] : x[r][c]),
          .v_in(v[r][c]),
          .f_in(f[r][c]),
          .l_in(l[r][c]),
          .x_out(x[r][c+1]),
          .v_out(v[r][c+1]),
          .f_out(f[r][c+1]),
          .l_out(l[r][c+1]),
          .w_in(w[r][c]),
          .w_out(w[r+1][c]),
          .w_shift(w_shift[c]),
          .w_last(w_last[c]),
          .p_in(p[r][c]),
          .p_out(p[r+1][c]),
          .p_sum(sum[r][c]),
          .d_latch(d_latch[c]),
          .d_shift(d_shift[c])
      );
    end
  end
endmodule
