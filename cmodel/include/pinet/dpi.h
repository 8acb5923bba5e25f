/* pinet/dpi.h - libpinet_dpi: the golden model as DPI-C functions for a SystemVerilog testbench
 * or scoreboard (import them with pinet_dpi_pkg.sv, installed under share/pinet/sv; docs/dpi.md).
 *
 * Types. Every function uses only the IEEE 1800 DPI-C types that need no svdpi.h:
 *   SV chandle            <-> void *              (output chandle <-> void **)
 *   SV int / int unsigned <-> int / unsigned int  (output: a pointer)
 *   SV bit                <-> unsigned char       (svBit; output: a pointer)
 *   SV longint unsigned   <-> unsigned long long  (output: a pointer)
 *   SV real               <-> double              (output: a pointer)
 *   SV string (return)    <-> const char *
 * No open arrays: arrays (memories, bitmaps, images) are read and written a word at a time
 * through the handle, so the library needs no simulator header, links under Verilator and any
 * simulator with DPI-C alike, and a plain C program (tests/dpi/test_dpi.c) calls exactly what
 * the simulator calls.
 *
 * Status. Every function but the *_free ones and pinet_dpi_status_str returns a pinet_status as
 * an int (0 = PINET_OK; pinet_dpi_status_str names it) and writes its results through pointers.
 * On an error the outputs are unspecified and the handle is unchanged unless said otherwise.
 *
 * Handles. Four opaque models, each with create / free (free accepts NULL):
 *   rta  an RTA (1D ring or 2D torus): routing and fabric evaluation of a bitmap
 *        (rta_ring / rta_torus2d) and the bitmap controller (rta_bitmap_ctrl), pinet/rta.h;
 *   ps   the perfect-shuffle network (ps_network, N ps_routers): the cycle contract of
 *        pinet/shuffle.h per cycle, or a whole collective at once, on an image of every memory;
 *   fbp  filtered backprojection (float or the fixed-point path the RTL system uses);
 *   em   Shepp-Vardi EM on the parallel-beam system matrix.
 * Nothing is kept in globals: any number of handles can live in one simulation. A handle is not
 * safe to use from two threads at once; different handles are independent. */
#ifndef PINET_DPI_H
#define PINET_DPI_H

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* pinet_status_str(status); "unknown status" for a value outside the enum. Never NULL. */
const char *pinet_dpi_status_str(int status);

/* ==== RTA: routing, fabric, bitmap controller ================================================
 * Numbering as pinet/rta.h: bitmap bit b (0 .. switches-1), PE port index pe * ports + port
 * (ports = 2 in 1D: L, R; 4 in 2D: L, R, U, D). The handle holds two bitmaps: the FABRIC bitmap
 * (the switch states rta_ring's bitmap_i sees; set with pinet_dpi_rta_set_bit) and the
 * CONTROLLER's state (rta_bitmap_ctrl's bitmap_o, mode_o, err_o), plus the controller's raw
 * bitmap input (cmd_bitmap_i). */

/* An RTA of `pes` PEs in `dim` (1 or 2) dimensions: fabric bitmap all OFF, every port input 0,
 * controller in reset (SRTA mode, level L, err OK). PINET_ERR_NULL; PINET_ERR_RANGE (dim);
 * PINET_ERR_SIZE (pes: pinet_rta_geom_init); PINET_ERR_NOMEM. */
int pinet_dpi_rta_create(void **handle, unsigned int dim, unsigned int pes);
void pinet_dpi_rta_free(void *handle);

/* Sizes: bitmap width, PEs per ring, ports (pes * ports_per_pe), ARTA nodes. PINET_ERR_NULL. */
int pinet_dpi_rta_geom(void *handle, unsigned int *switches, unsigned int *side,
                       unsigned int *ports, unsigned int *nodes);

/* Fabric bitmap bit `bit` = on (any value but 0 is ON). PINET_ERR_NULL; PINET_ERR_RANGE. */
int pinet_dpi_rta_set_bit(void *handle, unsigned int bit, unsigned char on);

/* *legal = 1 if the fabric bitmap is legal in `mode` (0 SRTA, 1 ARTA, 2 RTA):
 * pinet_rta_bitmap_is_legal. PINET_ERR_NULL; PINET_ERR_RANGE (mode). */
int pinet_dpi_rta_legal(void *handle, unsigned int mode, unsigned char *legal);

/* The word PE port `port` drives into the fabric (l_i / r_i ...). PINET_ERR_NULL; RANGE. */
int pinet_dpi_rta_set_in(void *handle, unsigned int port, unsigned int data);

/* Evaluate the fabric (combinational): route the fabric bitmap (pinet_rta_route, any bitmap)
 * and compute every port's output (pinet_rta_fabric_eval). Call after changing bits or inputs;
 * pinet_dpi_rta_peer / _out read the result of the last evaluation. PINET_ERR_NULL. */
int pinet_dpi_rta_eval(void *handle);

/* The port that port `port` reaches through the switches (an involution without fixed points),
 * and the word arriving on port `port` (= the input of its peer). PINET_ERR_NULL;
 * PINET_ERR_RANGE (port); PINET_ERR_ILLEGAL_STATE before the first pinet_dpi_rta_eval. */
int pinet_dpi_rta_peer(void *handle, unsigned int port, unsigned int *peer);
int pinet_dpi_rta_out(void *handle, unsigned int port, unsigned int *data);

/* Controller: bit `bit` of the raw bitmap input (used by WRITE_RAW only). PINET_ERR_NULL;
 * PINET_ERR_RANGE. */
int pinet_dpi_rta_ctrl_raw_bit(void *handle, unsigned int bit, unsigned char on);

/* Controller reset (rst_ni low): SRTA mode, level L, err OK. PINET_ERR_NULL. */
int pinet_dpi_rta_ctrl_reset(void *handle);

/* One rising clock edge of the controller with cmd_valid_i, cmd_op_i (taken modulo 8) and
 * cmd_arg_i (taken modulo 2^16): pinet_rta_ctrl_clock. After it, pinet_dpi_rta_ctrl_state /
 * _ctrl_bit give the outputs of the next cycle (next state and error). PINET_ERR_NULL. */
int pinet_dpi_rta_ctrl_clock(void *handle, unsigned char cmd_valid, unsigned int op,
                             unsigned int arg);

/* The controller's outputs now: mode_o (pinet_rta_mode), err_o (pinet_rta_ctrl_err), and bit
 * `bit` of bitmap_o. PINET_ERR_NULL; PINET_ERR_RANGE (bit). */
int pinet_dpi_rta_ctrl_state(void *handle, unsigned int *mode, unsigned int *err);
int pinet_dpi_rta_ctrl_bit(void *handle, unsigned int bit, unsigned char *on);

/* ==== Perfect-shuffle network ================================================================
 * A reference for rtl/ps_network.sv (N ps_routers; or a user's design with its ports): N PEs of
 * mem_words 32-bit words, the host port on PE 0, one command bus. Between runs the handle keeps
 * an image of every PE memory (local-port writes, then the C model's memories at the end of
 * every run; words never written are "unknown") and of the host's memory, the RTL error code of
 * the last command (rtl/ps_pkg.sv ps_err_e: the PINET_DPI_PS_ERR_* below) and done. While a
 * collective runs, every expected channel word, the host port and the memory writes come from
 * the C model's cycle simulator (pinet_shuffle_cycle_*, the cycle contract of pinet/shuffle.h).
 *
 * Per clock cycle a scoreboard does, in this order (docs/dpi.md "Cycle semantics"):
 *   1. drive the DUT's inputs, let them settle; if rst_n is low, pinet_dpi_ps_reset;
 *   2. compare the DUT's outputs with pinet_dpi_ps_expect_status / _expect_channel /
 *      _expect_host / _expect_mem (the outputs of THIS cycle);
 *   3. tell the model what the closing clock edge samples: pinet_dpi_ps_local_write for each
 *      local-port write, then pinet_dpi_ps_edge with rst_n and the command inputs;
 *   4. let the simulator take the clock edge.
 * After pinet_dpi_ps_edge, pinet_dpi_ps_write_count / _write_get list the memory writes of that
 * edge. pinet_dpi_ps_collective runs a whole collective at once instead (transaction level). */

#define PINET_DPI_PS_ERR_OK 0u
#define PINET_DPI_PS_ERR_BAD_OP 1u
#define PINET_DPI_PS_ERR_WORDS 2u
#define PINET_DPI_PS_ERR_MEMORY 3u
#define PINET_DPI_PS_ERR_QUANTUM 4u
#define PINET_DPI_PS_ERR_BUSY 5u
#define PINET_DPI_PS_ERR_LINK 6u

/* The RTL error code a command (op, M = words, base) must give on a network of `pes` PEs with
 * `mem_words` words per memory, checked in the RTL's order: bad op (not one the RTL runs:
 * bcast .. upload, ring-exchange), M = 0, base + M > mem_words, M not a multiple of the op's
 * quantum (pinet_shuffle_words_quantum; 4 for ring-exchange). PINET_ERR_NULL; PINET_ERR_SIZE
 * (pes); another status if the C model answers unexpectedly. */
int pinet_dpi_ps_expected_error(unsigned int pes, unsigned int mem_words, unsigned int op,
                                unsigned int words, unsigned int base, unsigned int *err);

/* The ends of channel `ch` on N = pes PEs (-1 = host): pinet_shuffle_channel_ends.
 * PINET_ERR_NULL; PINET_ERR_SIZE (pes); PINET_ERR_RANGE (ch >= 4N + 2). */
int pinet_dpi_ps_channel_ends(unsigned int pes, unsigned int ch, int *src, int *dst);

/* A network model: every memory word unknown (reads as 0), host image 0, idle, err 0, done 0.
 * PINET_ERR_NULL; PINET_ERR_SIZE (pes not a power of two in [2, 1024]); PINET_ERR_RANGE
 * (mem_words 0 or above PINET_SHUFFLE_MAX_WORDS); PINET_ERR_NOMEM. */
int pinet_dpi_ps_create(void **handle, unsigned int pes, unsigned int mem_words);
void pinet_dpi_ps_free(void *handle);

/* Word `addr` of the host's image: what the host sends when PE 0 asks for it (bcast-host,
 * scatter), and after an upload (or pinet_dpi_ps_collective) what the host received.
 * PINET_ERR_NULL; PINET_ERR_RANGE (addr >= mem_words). */
int pinet_dpi_ps_set_host_word(void *handle, unsigned int addr, unsigned int data);
int pinet_dpi_ps_host_word(void *handle, unsigned int addr, unsigned int *data);

/* Asynchronous reset (rst_n low in this cycle): a running collective stops (the memories keep
 * the words written up to the last edge), done and err clear. PINET_ERR_NULL. */
int pinet_dpi_ps_reset(void *handle);

/* Status outputs of the current cycle: busy (a collective runs), done (the last collective has
 * finished, until the next command or reset), err. PINET_ERR_NULL. */
int pinet_dpi_ps_expect_status(void *handle, unsigned char *busy, unsigned char *done,
                               unsigned int *err);

/* Channel `ch` (0 .. 4N+1) in the current cycle: while a collective runs the C model's word
 * (pinet_shuffle_cycle_channel), else not valid and 0. Channel 4N (host -> PE 0) carries the
 * host's input, which the model predicts only while running (idle: the testbench's own input).
 * PINET_ERR_NULL; PINET_ERR_RANGE (ch). */
int pinet_dpi_ps_expect_channel(void *handle, unsigned int ch, unsigned char *valid,
                                unsigned int *data);

/* The host port in the current cycle: *req / *req_addr = PE 0 asks for that word of the host's
 * image, to arrive in the next cycle; *up_addr = the image address of the word going up on
 * channel 4N+1 (0 if none). All 0 while idle. PINET_ERR_NULL. */
int pinet_dpi_ps_expect_host(void *handle, unsigned char *req, unsigned int *req_addr,
                             unsigned int *up_addr);

/* Word `addr` of PE `pe`'s memory as the model knows it (*known = 0 if never written, then
 * *data = 0). Meaningful while idle: a running collective's memories are inside the C model
 * until done. PINET_ERR_NULL; PINET_ERR_RANGE (pe, addr). */
int pinet_dpi_ps_expect_mem(void *handle, unsigned int pe, unsigned int addr, unsigned int *data,
                            unsigned char *known);

/* A local-port write sampled by the coming edge: PE `pe`'s mem[addr] = data. Ignored (PINET_OK)
 * while a collective runs, as the RTL ignores it. PINET_ERR_NULL; PINET_ERR_RANGE. */
int pinet_dpi_ps_local_write(void *handle, unsigned int pe, unsigned int addr, unsigned int data);

/* The closing clock edge of the current cycle, with the command inputs it samples.
 * rst_n = 0: as pinet_dpi_ps_reset. Running: the C model clocks (memory writes); a start gives
 * err BUSY and is otherwise ignored; when the C model is done, done rises and the memories (and
 * the host image, for the ops that use the host) are the model's. Idle with start: err =
 * pinet_dpi_ps_expected_error; if 0 the collective starts on every memory's words
 * [base, base + M) and the host image's [0, M), and the next cycle is its cycle 0.
 * PINET_ERR_NULL; a C-model status if building or clocking fails (a bug). */
int pinet_dpi_ps_edge(void *handle, unsigned char rst_n, unsigned char start, unsigned int op,
                      unsigned int words, unsigned int base);

/* The cycle of the running collective (0 = the cycle after the edge that accepted it); after
 * done its length T. PINET_ERR_NULL. */
int pinet_dpi_ps_run_cycle(void *handle, unsigned long long *cycle);

/* The memory writes of the last pinet_dpi_ps_edge: *count of them; write i is PE `pe`'s (-1 =
 * host) memory word `addr` (PE: memory address, base included; host: image address) = data
 * after the edge. Local-port writes are not listed. PINET_ERR_NULL; PINET_ERR_RANGE. */
int pinet_dpi_ps_write_count(void *handle, unsigned int *count);
int pinet_dpi_ps_write_get(void *handle, unsigned int i, int *pe, unsigned int *addr,
                           unsigned int *data);

/* A whole collective on the memories at once (transaction level, no cycles): *err as
 * pinet_dpi_ps_expected_error; if 0, the C model's engine (pinet_shuffle_execute, 32-bit words,
 * sums modulo 2^32) runs op on every memory's [base, base + M) and the host image's [0, M), which
 * then hold the results (known); done = 1, err = *err as after the cycle-level run.
 * PINET_ERR_NULL; PINET_ERR_ILLEGAL_STATE if a cycle-level collective is running; a C-model
 * status otherwise (a bug). */
int pinet_dpi_ps_collective(void *handle, unsigned int op, unsigned int words, unsigned int base,
                            unsigned int *err);

/* ==== Reconstruction: FBP ====================================================================
 * Parallel-beam geometry of pinet_pb_geom_init (size x size image, views x bins sinogram). */

/* Sinogram all 0, no image yet. filter: pinet_fbp_filter (0 ramp .. 4 hann). PINET_ERR_NULL;
 * PINET_ERR_RANGE (sizes, filter); PINET_ERR_UNSUPPORTED (built without FFTW); PINET_ERR_NOMEM. */
int pinet_dpi_fbp_create(void **handle, unsigned int size, unsigned int views, unsigned int bins,
                         unsigned int filter);
void pinet_dpi_fbp_free(void *handle);

/* Sinogram sample (view, bin) = value (stored as float32). PINET_ERR_NULL; PINET_ERR_RANGE. */
int pinet_dpi_fbp_set_sino(void *handle, unsigned int view, unsigned int bin, double value);

/* The fraction bits of the fixed-point path for the current sinogram: pinet_fbp_fixed_bits.
 * PINET_ERR_NULL; the filter's errors (PINET_ERR_RANGE for a non-finite sample). */
int pinet_dpi_fbp_fixed_bits(void *handle, int *frac_bits);

/* Reconstruct the current sinogram. fixed = 0: pinet_fbp_run (frac_bits ignored); fixed = 1:
 * filter, backproject into int32 accumulators (each view's contribution rounded to frac_bits
 * fraction bits, summed modulo 2^32: what a fixed-point backprojector holds) and finish, which
 * is pinet_fbp_run_fixed bit for bit. PINET_ERR_NULL; the C model's errors. */
int pinet_dpi_fbp_run(void *handle, unsigned char fixed, int frac_bits);

/* Pixel (row, col) of the last image (float32, as a real), and its int32 accumulator after a
 * fixed run. PINET_ERR_NULL; PINET_ERR_RANGE; PINET_ERR_ILLEGAL_STATE (no run yet; for the
 * accumulator: the last run was not fixed). */
int pinet_dpi_fbp_pixel(void *handle, unsigned int row, unsigned int col, double *value);
int pinet_dpi_fbp_accum(void *handle, unsigned int row, unsigned int col, int *value);

/* ==== Reconstruction: EM =====================================================================
 * The parallel-beam system matrix (pinet_sysmat_create_parallel, the disk's pixels as boxes):
 * one count per (view, bin); a (view, bin) whose line meets no box has no tube. */

/* Counts all 0. fixed: PINET_RECON_FLOAT (0) or PINET_RECON_FIXED (1). PINET_ERR_NULL;
 * PINET_ERR_RANGE (sizes, fixed); PINET_ERR_NOMEM. */
int pinet_dpi_em_create(void **handle, unsigned int size, unsigned int views, unsigned int bins,
                        unsigned int fixed);
void pinet_dpi_em_free(void *handle);

/* Count of (view, bin) (ignored, PINET_OK, if it has no tube). Setting a count restarts EM from
 * the uniform image at the next iteration. PINET_ERR_NULL; PINET_ERR_RANGE (indices, or a value
 * negative or not finite). */
int pinet_dpi_em_set_count(void *handle, unsigned int view, unsigned int bin, double value);

/* `iters` EM iterations (pinet_em_iterate); *loglik = the log-likelihood before the last one.
 * PINET_ERR_NULL; pinet_em_create's errors (PINET_ERR_RANGE: counts the fixed path cannot hold). */
int pinet_dpi_em_iterate(void *handle, unsigned int iters, double *loglik);

/* Pixel (row, col) of the current image (0 outside the disk), as float32 (pinet_em_to_image).
 * PINET_ERR_NULL; PINET_ERR_RANGE; PINET_ERR_ILLEGAL_STATE (no iteration yet). */
int pinet_dpi_em_pixel(void *handle, unsigned int row, unsigned int col, double *value);

#ifdef __cplusplus
}
#endif
#endif /* PINET_DPI_H */
