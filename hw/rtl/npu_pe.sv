// One processing element of the systolic array: a 9-bit x 9-bit multiply-accumulate with the
// registers of the configured fold pipelining (docs/timing-fidelity.md draws them).
//
// Weight-stationary: x streams left to right, partial sums top to bottom, weights shift down a
// chain. DOUBLE_BUFFERED: chain + shadow + active; the final shift of a load also writes the
// shadow, the first vector of a fold commits shadow to active. SINGLE_BUFFERED: chain + active,
// the first vector commits the chain. NONE: the chain register is the weight.
// Output-stationary: x streams left to right, weights top to bottom, the PE keeps the sum.
// DOUBLE_BUFFERED: acc + shadow + drain chain (the column latches shadows into the chain).
// SINGLE_BUFFERED: acc + drain chain (the last vector writes the chain). NONE: acc is the chain.
module npu_pe
  import npu_rtl_pkg::*;
(
    input logic clk,
    input logic df_os,
    input logic [1:0] pipe,
    input logic signed [8:0] x_in,
    input logic v_in,
    input logic f_in,
    input logic l_in,
    output logic signed [8:0] x_out,
    output logic v_out,
    output logic f_out,
    output logic l_out,
    input logic signed [8:0] w_in,  // WS: chain above (or column top); OS: weight stream
    output logic signed [8:0] w_out,
    input logic w_shift,  // WS: the chain shifts
    input logic w_last,  // WS: the load's final shift (writes the shadow)
    input logic signed [31:0] p_in,  // WS: partial sum above; OS: drain chain above
    output logic signed [31:0] p_out,  // registered, to the PE below
    output logic signed [31:0] p_sum,  // WS: this cycle's sum (the bottom row's goes to the acc)
    input logic d_latch,  // OS DOUBLE_BUFFERED: shadows into the drain chain
    input logic d_shift  // OS: the drain chain shifts down
);
  // One copy of the code for every PE (inlined, a 64x64 array is 80 MB of C++).
  /* verilator no_inline_module */
  logic signed [8:0] chain, shadow, active, x_q, wq;
  logic v_q, f_q, l_q;
  logic signed [31:0] p_q, acc, dchain, shadow_sum, acc_new;
  logic signed [8:0] w_new, w_use;

  always_comb begin
    w_new = pipe == kDoubleBuffered ? shadow : chain;
    w_use = pipe == kNone ? chain : (f_in ? w_new : active);
    p_sum = p_in + (v_in ? 32'(x_in) * 32'(w_use) : 32'sd0);
    acc_new = (f_in ? 32'sd0 : acc) + 32'(x_in) * 32'(w_in);
  end

  always_ff @(posedge clk) begin
    x_q <= x_in;
    v_q <= v_in;
    f_q <= f_in;
    l_q <= l_in;
    if (!df_os) begin
      if (w_shift) chain <= w_in;
      if (w_shift && w_last && pipe == kDoubleBuffered) shadow <= w_in;
      if (v_in && f_in) active <= w_new;
      p_q <= p_sum;
    end else begin
      wq <= w_in;
      if (pipe == kNone) begin
        if (d_shift) acc <= p_in;
        else if (v_in) acc <= acc_new;
      end else begin
        if (v_in) acc <= acc_new;
        if (pipe == kDoubleBuffered) begin
          if (v_in && l_in) shadow_sum <= acc_new;
          if (d_latch) dchain <= (v_in && l_in) ? acc_new : shadow_sum;
          else if (d_shift) dchain <= p_in;
        end else begin
          if (v_in && l_in) dchain <= acc_new;
          else if (d_shift) dchain <= p_in;
        end
      end
    end
  end

  assign x_out = x_q;
  assign v_out = v_q;
  assign f_out = f_q;
  assign l_out = l_q;
  assign w_out = df_os ? wq : chain;
  assign p_out = !df_os ? p_q : (pipe == kNone ? acc : dchain);
endmodule
