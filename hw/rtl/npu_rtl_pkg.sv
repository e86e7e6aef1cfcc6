// Shared definitions of the RTL reference of the MAC array (hw/rtl/README.md): the pipelining
// codes (hw/spec/npu_config.proto's FoldPipelining numbers), the stream record that travels with
// the operands, and the DPI functions through which the testbench plays SRAM, accumulator buffer
// and instruction registers.
package npu_rtl_pkg;

  localparam logic [1:0] kDoubleBuffered = 2'd1;
  localparam logic [1:0] kSingleBuffered = 2'd2;
  localparam logic [1:0] kNone = 2'd3;

  localparam int kTagBits = 6;  // folds in flight: at most (R + C) / slot + 2 < 64
  localparam int kSlotBits = 5;  // instructions in flight < 32
  localparam int kIdxBits = 24;  // stream index: M or K of one CONV

  // One streamed vector of a fold: valid, first and last of its fold, the fold's tag, its index.
  typedef struct packed {
    logic v, f, l;
    logic [kTagBits-1:0] tag;
    logic [kIdxBits-1:0] s;
  } stream_t;

  // Instruction fields, as the testbench's register file numbers them (rtl_testbench.cc).
  typedef enum int {
    F_IN_ADDR, F_IN_H, F_IN_W, F_IN_C, F_PAD_TOP, F_PAD_LEFT, F_PAD_VALUE, F_KERNEL_H,
    F_KERNEL_W, F_STRIDE_H, F_STRIDE_W, F_DIL_H, F_DIL_W, F_OUT_H, F_OUT_W, F_OUT_C, F_WT_ADDR,
    F_ACC_ADDR, F_ACCUMULATE, F_WEIGHTS_KN, F_IN_ZP, F_WT_ZP, F_DEPTHWISE, F_GROUPS, F_NUM_FIELDS
  } field_t;

  import "DPI-C" pure function int npu_insn_count();
  import "DPI-C" pure function int npu_insn_field(input int idx, input int field);
  import "DPI-C" pure function int npu_sram_byte(input int addr);  // sign-extended int8
  import "DPI-C" function int npu_acc_read(input int entry);
  import "DPI-C" function void npu_acc_write(input int entry, input int value);
  // A fold's stream left the array (its last accumulator write slot passed column C-1).
  import "DPI-C" function void npu_fold_done(input int insn, input int last_of_insn,
                                             input longint cycle);
  // The engine began work from idle (first weight shift, or first streamed vector).
  import "DPI-C" function void npu_begin(input longint cycle);

endpackage
