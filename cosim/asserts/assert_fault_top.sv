// Copyright pinet contributors.
//
// assert_fault_top.sv: the top of cosim_assert_faults's models (cosim/asserts/CMakeLists.txt),
// one model per RTL module, chosen by the parameter Dut (the module's name): it drives that module,
// verilated from a copy with its deliberate faults, with pseudo-random inputs from a xorshift
// register (seeded by seed_i at reset) and out of reset after the harness's reset cycles. The
// module's bound checker (rtl/assert/) must catch the fault. Every output of the module is a bit
// of o_o (nothing is left unused); the bits above them are 0.

// The stimulus: a 64-bit xorshift state, one step per clock edge, reset to seed_i | 1.
module assert_fault_rnd (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] seed_i,
  output logic [63:0] rnd_o
);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rnd_o <= seed_i | 64'd1;
    end else begin
      rnd_o <= rnd_o ^ (rnd_o << 13) ^ (rnd_o >> 7) ^ (rnd_o << 17);
    end
  end
endmodule

module assert_fault_top #(
  parameter string Dut  = "",
  parameter int    OutW = 1037  // the widest module's outputs (rta_system2d's)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [63:0]     seed_i,
  output logic [OutW-1:0] o_o
);
  logic [63:0] rnd;
  assert_fault_rnd u_rnd (.clk_i(clk_i), .rst_ni(rst_ni), .seed_i(seed_i), .rnd_o(rnd));

  // The clock, the reset and the command of the bitmap controller (rta_bitmap_ctrl, and the
  // systems around it); the bitmap's bits differ per module.
`define ASSERT_FAULT_CMD \
      .clk_i       (clk_i), \
      .rst_ni      (rst_ni), \
      .cmd_valid_i (rnd[0]), \
      .cmd_op_i    (rnd[3:1]), \
      .cmd_arg_i   ({13'd0, rnd[6:4]})

  if (Dut == "rta_switch") begin : g_rta_switch
    rta_switch #(
      .Width(8)
    ) u_dut (
      .on_i(rnd[40]),
      .t1_i(rnd[7:0]),
      .t2_i(rnd[15:8]),
      .t3_i(rnd[23:16]),
      .t4_i(rnd[31:24]),
      .t1_o(o_o[7:0]),
      .t2_o(o_o[15:8]),
      .t3_o(o_o[23:16]),
      .t4_o(o_o[31:24])
    );
    assign o_o[OutW-1:32] = '0;
  end else if (Dut == "rta_ring") begin : g_rta_ring
    rta_ring #(
      .N    (8),
      .Width(8)
    ) u_dut (
      .bitmap_i(rnd[62:60]),
      .l_i     (rnd),
      .r_i     ({rnd[31:0], rnd[63:32]}),
      .l_o     (o_o[63:0]),
      .r_o     (o_o[127:64])
    );
    assign o_o[OutW-1:128] = '0;
  end else if (Dut == "rta_torus2d") begin : g_rta_torus2d
    rta_torus2d #(
      .Side (4),
      .Width(8)
    ) u_dut (
      .bitmap_i(rnd[55:48]),
      .l_i     ({rnd, rnd}),
      .r_i     ({rnd[31:0], rnd[63:32], rnd}),
      .u_i     ({rnd[15:0], rnd[63:16], rnd[47:0], rnd[63:48]}),
      .d_i     ({rnd[7:0], rnd[63:8], rnd[39:0], rnd[63:40]}),
      .l_o     (o_o[127:0]),
      .r_o     (o_o[255:128]),
      .u_o     (o_o[383:256]),
      .d_o     (o_o[511:384])
    );
    assign o_o[OutW-1:512] = '0;
  end else if (Dut == "rta_bitmap_ctrl") begin : g_rta_bitmap_ctrl
    rta_bitmap_ctrl #(
      .Dim (1),
      .Side(8)
    ) u_dut (
      `ASSERT_FAULT_CMD,
      .cmd_bitmap_i(rnd[9:7]),
      .bitmap_o    (o_o[2:0]),
      .mode_o      (o_o[4:3]),
      .err_o       (o_o[7:5])
    );
    assign o_o[OutW-1:8] = '0;
  end else if (Dut == "rta_system1d") begin : g_rta_system1d
    rta_system1d #(
      .N    (8),
      .Width(16)
    ) u_dut (
      `ASSERT_FAULT_CMD,
      .cmd_bitmap_i(rnd[9:7]),
      .bitmap_o    (o_o[2:0]),
      .mode_o      (o_o[4:3]),
      .err_o       (o_o[7:5]),
      .l_i         ({rnd, rnd}),
      .r_i         ({rnd[31:0], rnd[63:32], rnd}),
      .l_o         (o_o[135:8]),
      .r_o         (o_o[263:136])
    );
    assign o_o[OutW-1:264] = '0;
  end else if (Dut == "rta_system2d") begin : g_rta_system2d
    rta_system2d #(
      .Side (4),
      .Width(16)
    ) u_dut (
      `ASSERT_FAULT_CMD,
      .cmd_bitmap_i(rnd[15:8]),
      .bitmap_o    (o_o[7:0]),
      .mode_o      (o_o[9:8]),
      .err_o       (o_o[12:10]),
      .l_i         ({rnd, rnd, rnd, rnd}),
      .r_i         ({rnd[31:0], rnd[63:32], rnd, rnd, rnd}),
      .u_i         ({rnd[15:0], rnd[63:16], rnd[47:0], rnd[63:48], rnd, rnd}),
      .d_i         ({rnd[7:0], rnd[63:8], rnd[39:0], rnd[63:40], rnd, rnd}),
      .l_o         (o_o[268:13]),
      .r_o         (o_o[524:269]),
      .u_o         (o_o[780:525]),
      .d_o         (o_o[1036:781])
    );
  end else if (Dut == "ps_router_mem") begin : g_ps_router_mem
    // The router's memory (4 words of 4 bits): both write ports and the four read addresses at
    // random.
    ps_router_mem #(
      .Width   (4),
      .MemWords(4)
    ) u_dut (
      .clk_i     (clk_i),
      .rda_addr_i(rnd[1:0]),
      .rda_data_o(o_o[3:0]),
      .rdb_addr_i(rnd[3:2]),
      .rdb_data_o(o_o[7:4]),
      .wra_en_i  (rnd[4]),
      .wra_addr_i(rnd[6:5]),
      .wra_data_i(rnd[10:7]),
      .wra_old_o (o_o[11:8]),
      .wrb_en_i  (rnd[11]),
      .wrb_addr_i(rnd[13:12]),
      .wrb_data_i(rnd[17:14]),
      .wrb_old_o (o_o[15:12])
    );
    assign o_o[OutW-1:16] = '0;
  end else if (Dut == "ps_router_seq") begin : g_ps_router_seq
    // The router's sequencer (N = 4, 8 words): commands at random, a step length of 1 .. 8 (the
    // planner's, never 0) and link errors at random.
    ps_router_seq #(
      .N       (4),
      .MemWords(8)
    ) u_dut (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .cmd_start_i(rnd[0] & rnd[1]),
      .cmd_op_i   (rnd[5:2]),
      .cmd_fast_i (rnd[6]),
      .cmd_words_i({28'd0, rnd[10:7]}),
      .cmd_base_i ({30'd0, rnd[12:11]}),
      .step_len_i ({1'b0, rnd[15:13]} + 4'd1),
      .link_bad_i (rnd[16] & rnd[17] & rnd[18]),
      .run_o      (o_o[0]),
      .setup_o    (o_o[1]),
      .xfer_o     (o_o[2]),
      .last_word_o(o_o[3]),
      .step_o     (o_o[8:4]),
      .word_o     (o_o[12:9]),
      .len_o      (o_o[16:13]),
      .done_o     (o_o[17]),
      .err_o      (o_o[20:18]),
      .op_o       (o_o[24:21]),
      .fast_o     (o_o[25]),
      .m_o        (o_o[29:26]),
      .pkt_o      (o_o[33:30]),
      .fwords_o   (o_o[37:34]),
      .base_o     (o_o[40:38])
    );
    assign o_o[OutW-1:41] = '0;
  end else if (Dut == "ps_router_planner") begin : g_ps_router_planner
    // The planner (N = 4, 16 words, PE 0: the host port's schedules) driven by the router's
    // sequencer (commands at random, every op, both schedules, M a multiple of 4 up to 12; the
    // planner's step lengths), so that it sees what a router's planner sees: accepted commands
    // and their steps.
    logic        run, setup, xfer, last_word, done, fast;
    logic [4:0]  step, word, len_q, m, pkt, fwords, len;
    logic [2:0]  err;
    logic [3:0]  op, base;
    logic [55:0] desc;
    logic [3:0]  rda_to;
    logic [2:0]  rdb_to, wra_src;
    logic        wrb_in2, wra_add3;
    ps_router_seq #(
      .N       (4),
      .MemWords(16)
    ) u_seq (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .cmd_start_i(rnd[0] & rnd[1]),
      .cmd_op_i   ({1'b0, rnd[22:20]}),
      .cmd_fast_i (rnd[37]),
      .cmd_words_i({28'd0, rnd[45:44], 2'b00}),
      .cmd_base_i (32'd0),
      .step_len_i (len),
      .link_bad_i (1'b0),
      .run_o      (run),
      .setup_o    (setup),
      .xfer_o     (xfer),
      .last_word_o(last_word),
      .step_o     (step),
      .word_o     (word),
      .len_o      (len_q),
      .done_o     (done),
      .err_o      (err),
      .op_o       (op),
      .fast_o     (fast),
      .m_o        (m),
      .pkt_o      (pkt),
      .fwords_o   (fwords),
      .base_o     (base)
    );
    ps_router_planner #(
      .N       (4),
      .MemWords(16)
    ) u_dut (
      .pe_i            (2'd0),
      .ring_succ_link_i(1'b1),
      .ring_pred_link_i(1'b1),
      .op_i            (op),
      .fast_i          (fast),
      .m_i             (m),
      .pkt_i           (pkt),
      .fwords_i        (fwords),
      .step_i          (step),
      .len_o           (len),
      .desc_o          (desc),
      .rda_to_o        (rda_to),
      .rdb_to_o        (rdb_to),
      .wrb_in2_o       (wrb_in2),
      .wra_src_o       (wra_src),
      .wra_add3_o      (wra_add3)
    );
    assign o_o[47:0] = {desc[55:48] ^ {run, setup, xfer, last_word, done, fast, wrb_in2, wra_add3},
                        desc[47:0] ^ {step, word, len_q, err, base, rda_to, rdb_to, wra_src, len, 11'd0}};
    assign o_o[OutW-1:48] = '0;
  end else if (Dut == "ps_router") begin : g_ps_router
    // The router of PE 0 of 2, the one with the host port (its ring straps as ps_network gives
    // them), commands at random.
    ps_router #(
      .N       (2),
      .Width   (4),
      .MemWords(4)
    ) u_dut (
      .clk_i           (clk_i),
      .rst_ni          (rst_ni),
      .pe_i            (1'b0),
      .ring_succ_link_i(1'b1),
      .ring_pred_link_i(1'b1),
      .cmd_start_i     (rnd[0]),
      .cmd_op_i        (rnd[4:1]),
      .cmd_fast_i      (rnd[5]),
      .cmd_words_i     ({29'd0, rnd[8:6]}),
      .cmd_base_i      ({31'd0, rnd[9]}),
      .busy_o          (o_o[0]),
      .done_o          (o_o[1]),
      .err_o           (o_o[4:2]),
      .out_valid_o     (o_o[8:5]),
      .out_data_o      (o_o[24:9]),
      .in_valid_i      (rnd[13:10]),
      .in_data_i       (rnd[29:14]),
      .host_req_o      (o_o[25]),
      .host_req_addr_o (o_o[27:26]),
      .host_valid_i    (rnd[30]),
      .host_data_i     (rnd[34:31]),
      .host_valid_o    (o_o[28]),
      .host_data_o     (o_o[32:29]),
      .host_addr_o     (o_o[34:33]),
      .lcl_we_i        (rnd[35]),
      .lcl_addr_i      (rnd[37:36]),
      .lcl_wdata_i     (rnd[41:38]),
      .lcl_rdata_o     (o_o[38:35])
    );
    assign o_o[OutW-1:39] = '0;
  end else if (Dut == "ps_network") begin : g_ps_network
    logic [9:0]  ch_valid;
    logic [39:0] ch_data;
    logic [7:0]  lcl_rdata;
    // The host answers each request in the next cycle, as the network expects (random words): the
    // links then agree with the schedule, and the routers' link errors do not mask the network's
    // agreement properties.
    logic host_req, host_answer_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) host_answer_q <= 1'b0;
      else         host_answer_q <= host_req;
    end
    ps_network #(
      .N       (2),
      .Width   (4),
      .MemWords(4)
    ) u_dut (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .cmd_start_i    (rnd[0]),
      .cmd_op_i       (rnd[4:1]),
      .cmd_fast_i     (rnd[5]),
      .cmd_words_i    ({29'd0, rnd[8:6]}),
      .cmd_base_i     ({31'd0, rnd[9]}),
      .busy_o         (o_o[0]),
      .done_o         (o_o[1]),
      .err_o          (o_o[4:2]),
      .host_req_o     (host_req),
      .host_req_addr_o(o_o[7:6]),
      .host_valid_i   (host_answer_q),
      .host_data_i    (rnd[14:11]),
      .host_valid_o   (o_o[8]),
      .host_data_o    (o_o[12:9]),
      .host_addr_o    (o_o[14:13]),
      .lcl_we_i       (rnd[16:15]),
      .lcl_addr_i     (rnd[18:17]),
      .lcl_wdata_i    (rnd[26:19]),
      .lcl_rdata_o    (lcl_rdata),
      .ch_valid_o     (ch_valid),
      .ch_data_o      (ch_data)
    );
    assign o_o[5]     = host_req;
    assign o_o[63:15] = {lcl_rdata, ch_valid, ch_data[30:0]} ^ {18'd0, ch_data[39:31], 22'd0};
    assign o_o[OutW-1:64] = '0;
  end else begin : g_unknown
    $error("assert_fault_top: Dut names no module of this file");
  end
`undef ASSERT_FAULT_CMD
endmodule
