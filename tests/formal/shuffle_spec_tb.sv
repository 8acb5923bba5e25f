// Copyright pinet contributors.
//
// shuffle_spec_tb: prints formal/ps_network_spec.sv's run, cycle by cycle, for every op 0 .. 6,
// both schedules (cmd_fast_i 0 and 1) and every M = 1 .. MemWords at base 0, so that
// check_shuffle_spec.py can compare it with the C model's schedules (`pinet shuffle run
// --schedule paper|fast --json`). Per command one line "cmd <op> <fast> <M> <code>"; for an
// accepted one then one line "x <t> <channel> <src> <dst> <add>" per word crossing a channel in
// cycle t, "long <t> <channel>" if the channel's transfer does not end within its step (the
// words past L_s would never cross), and "done <T>" in the cycle done_o rises.

module shuffle_spec_tb;
  parameter int  N        = 4;
  parameter int  MemWords = 16;
  localparam int Channels = 4 * N + 2;
  localparam int VW       = $clog2(MemWords + 1) + 1;
  localparam int TW       = $clog2(2 * MemWords + 2 * $clog2(N) + 2) + 1;
  localparam int CmdW     = ps_pkg::PsCmdWidth;

  logic                          clk = 1'b0;
  logic                          rst_n, start, fast;
  logic [ps_pkg::PsOpWidth-1:0]  op;
  logic [CmdW-1:0]               words;
  logic                          busy, done;
  logic [ps_pkg::PsErrWidth-1:0] err;
  logic [Channels-1:0]           valid, add;
  logic [Channels*VW-1:0]        src, dst, len, xstart;
  logic [VW-1:0]                 step_len;
  logic [TW-1:0]                 t;

  ps_network_spec #(
    .N       (N),
    .MemWords(MemWords)
  ) u_spec (
    .clk_i          (clk),
    .rst_ni         (rst_n),
    .cmd_start_i    (start),
    .cmd_op_i       (op),
    .cmd_words_i    (words),
    .cmd_base_i     (CmdW'(0)),
    .cmd_fast_i     (fast),
    .link_bad_i     (1'b0),
    .busy_o         (busy),
    .done_o         (done),
    .err_o          (err),
    .cmd_code_o     (),
    .base_o         (),
    .fast_o         (),
    .t_o            (t),
    .step_o         (),
    .setup_o        (),
    .valid_o        (valid),
    .src_o          (src),
    .dst_o          (dst),
    .add_o          (add),
    .len_o          (len),
    .start_o        (xstart),
    .step_len_o     (step_len),
    .host_req_o     (),
    .host_req_addr_o(),
    .t_total_o      (),
    .end_o          (),
    .ring_o         ()
  );

  task automatic tick;
    #1 clk = 1'b1;
    #1 clk = 1'b0;
  endtask

  initial begin
    rst_n = 1'b0;
    start = 1'b0;
    fast  = 1'b0;
    op    = '0;
    words = '0;
    tick();
    for (int o = 0; o < 7; o++) begin
      for (int fs = 0; fs < 2; fs++) begin
        for (int m = 1; m <= MemWords; m++) begin
          rst_n = 1'b0;
          tick();
          rst_n = 1'b1;
          start = 1'b1;
          op    = o;
          fast  = fs;
          words = m;
          tick();
          start = 1'b0;
          #0;
          $display("cmd %0d %0d %0d %0d", o, fs, m, err);
          while (busy) begin
            for (int c = 0; c < Channels; c++) begin
              if (len[c*VW +: VW] != '0 &&
                  xstart[c*VW +: VW] + len[c*VW +: VW] > step_len) begin
                $display("long %0d %0d", t, c);  // a transfer that does not fit its step
              end
              if (valid[c]) begin
                $display("x %0d %0d %0d %0d %0d", t, c, src[c*VW +: VW], dst[c*VW +: VW],
                         add[c]);
              end
            end
            tick();
          end
          if (done) $display("done %0d", t);
        end
      end
    end
    $finish;
  end
endmodule
