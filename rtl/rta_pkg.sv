// Copyright pinet contributors.
//
// rta_pkg: types and pinned codes shared by the Recursive Torus Architecture blocks.
// The numeric values match cmodel/include/pinet/rta.h (pinet_rta_cmd, pinet_rta_ctrl_err,
// pinet_rta_mode): the C model and the RTL are compared on them.

package rta_pkg;

  ////////////////////
  // Switch control //
  ////////////////////

  // Switch state: ON joins terminals 1<->2 and 3<->4, OFF joins 1<->3 and 2<->4.
  typedef enum logic {
    SwOff = 1'b0,
    SwOn  = 1'b1
  } rta_sw_state_e;

  ///////////////////////////
  // Bitmap controller ISA //
  ///////////////////////////

  typedef enum logic [1:0] {
    ModeSrta = 2'd0,
    ModeArta = 2'd1,
    ModeRta  = 2'd2
  } rta_mode_e;

  typedef enum logic [2:0] {
    CmdNop      = 3'd0,
    CmdSetMode  = 3'd1,
    CmdSetLevel = 3'd2,
    CmdArtaOff  = 3'd3,
    CmdArtaOn   = 3'd4,
    CmdWriteRaw = 3'd5
  } rta_cmd_e;

  typedef enum logic [2:0] {
    ErrOk        = 3'd0,
    ErrBadOpcode = 3'd1,
    ErrBadLevel  = 3'd2,
    ErrBadNode   = 3'd3,
    ErrWrongMode = 3'd4,
    ErrIllegal   = 3'd5,
    ErrBadMode   = 3'd6
  } rta_err_e;

  // Width of the controller's command argument (levels, switch addresses, class numbers).
  parameter int RtaArgWidth = 16;

endpackage
