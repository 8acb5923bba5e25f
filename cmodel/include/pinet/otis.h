/* pinet/otis.h - the OTIS-Mesh optoelectronic computer and its basic operations (paper 002,
 * SPEC §5), every operation run as real, counted moves on a simulated machine.
 *
 * Conventions
 * - The machine has N^2 processors in N groups, N = 4, 16, 64 or 256 (a power of 4), so that
 *   every group is an n x n mesh, n = sqrt(N). Processor (G, P) has G = (Gx, Gy), P = (Px, Py),
 *   G = Gx*n + Gy, P = Px*n + Py and the scalar index I = G*N + P. Px is the row of P inside its
 *   group's mesh, Py its column; Gx, Gy place the group in an n x n layout of groups.
 * - Links: electronic mesh links inside a group, no wrap-around (UP: Px-1, DOWN: Px+1, LEFT: Py-1,
 *   RIGHT: Py+1) and optical OTIS links (G, P) <-> (P, G). Processor (G, G) is its own OTIS
 *   partner: an OTIS move there keeps the word in the processor.
 * - Registers: each processor has up to PINET_OTIS_MAX_REGS registers; register r holds at most
 *   one word of width[r] int64 fields (a record such as (D, r) travels as one word, as in the
 *   paper). A move carries one word over one link in one step.
 * - Step engine: a step is a set of moves that happen at once. SIMD: every move of a step uses
 *   the same direction (or all use OTIS links). MIMD: directions may differ per processor, but a
 *   step is either all-electronic or all-OTIS, and a processor sends at most one word per link
 *   per step. The engine rejects (PINET_ERR_ILLEGAL_MOVE, nothing changed) a move that does not
 *   follow a link, from an empty register, two words landing in one register (an occupied
 *   destination whose word does not leave in the same step counts), and a SIMD step mixing
 *   directions. A step counts as one electronic or one OTIS move when at least one word moves;
 *   every moved word is one processor-move.
 * - Operations reconfigure the machine's registers, reset its counters, load the input
 *   (free), run only engine moves plus processor-local computation, and read the result back
 *   (free). After an operation pinet_otis_get_counts() gives its move counts. Sums wrap modulo
 *   2^64 (two's complement int64).
 * - BPC vectors follow the paper: A = [A_{q-1} ... A_0] over the q = 2*log2(N) bits of I; the
 *   data of the processor with index bits m goes to the processor whose bit |A_i| is m_i
 *   (A_i >= 0) or its complement (A_i < 0); -0 is negative and distinct from +0. In C a vector
 *   is given per source bit i: dest_bit[i] = |A_i| and complement[i] = (A_i < 0).
 */
#ifndef PINET_OTIS_H
#define PINET_OTIS_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PINET_OTIS_MAX_REGS 16u
#define PINET_OTIS_MAX_WIDTH 40u
#define PINET_OTIS_MAX_N 256u
/* Index bits of the largest machine: 2 * log2(256). */
#define PINET_OTIS_MAX_BITS 16u

typedef enum pinet_otis_model { PINET_OTIS_SIMD = 0, PINET_OTIS_MIMD = 1 } pinet_otis_model;

typedef enum pinet_otis_dir {
  PINET_OTIS_UP = 0,    /* Px - 1 */
  PINET_OTIS_DOWN = 1,  /* Px + 1 */
  PINET_OTIS_LEFT = 2,  /* Py - 1 */
  PINET_OTIS_RIGHT = 3, /* Py + 1 */
  PINET_OTIS_LINK = 4   /* the OTIS link (G, P) -> (P, G) */
} pinet_otis_dir;

/* The four dimensions of the OTIS-Mesh seen as a 4D array. */
typedef enum pinet_otis_dim {
  PINET_OTIS_DIM_GX = 0,
  PINET_OTIS_DIM_GY = 1,
  PINET_OTIS_DIM_PX = 2,
  PINET_OTIS_DIM_PY = 3
} pinet_otis_dim;

/* Shift kinds (a)..(h) of the paper's section 2.6. */
typedef enum pinet_otis_shift_kind {
  PINET_OTIS_SHIFT_A = 0, /* mesh row (Py), zero fill */
  PINET_OTIS_SHIFT_B = 1, /* mesh column (Px), zero fill */
  PINET_OTIS_SHIFT_C = 2, /* mesh row (Py), circular */
  PINET_OTIS_SHIFT_D = 3, /* mesh column (Px), circular */
  PINET_OTIS_SHIFT_E = 4, /* group row (Gy), zero fill */
  PINET_OTIS_SHIFT_F = 5, /* group column (Gx), zero fill */
  PINET_OTIS_SHIFT_G = 6, /* group row (Gy), circular */
  PINET_OTIS_SHIFT_H = 7  /* group column (Gx), circular */
} pinet_otis_shift_kind;

/* Concurrent-write rule of a random access write. */
typedef enum pinet_otis_write_rule {
  PINET_OTIS_WRITE_PRIORITY = 0, /* the writer with the smallest index wins */
  PINET_OTIS_WRITE_ARBITRARY = 1 /* any one writer wins (Step 2 of the paper as written) */
} pinet_otis_write_rule;

typedef struct pinet_otis pinet_otis;

typedef struct pinet_otis_counts {
  uint64_t electronic; /* electronic move steps */
  uint64_t otis;       /* OTIS move steps */
  uint64_t words;      /* processor-moves: words carried over a link, all steps together */
} pinet_otis_counts;

/* One move of a step: processor `proc` sends the word of register `src` over link `dir` into
 * register `dst` of the neighbour; `keep` = 1 leaves a copy behind, 0 empties `src`. */
typedef struct pinet_otis_move {
  uint32_t proc;
  uint8_t dir; /* pinet_otis_dir */
  uint8_t src;
  uint8_t dst;
  uint8_t keep;
} pinet_otis_move;

/* A trace record: one per counted step (trace level >= 1). */
typedef struct pinet_otis_trace_step {
  uint64_t index;   /* 0-based step number since the counters were reset */
  uint8_t otis;     /* 1 for an OTIS step */
  uint8_t dir_mask; /* bit d set when some word moved in direction d */
  uint32_t words;   /* words moved in this step */
} pinet_otis_trace_step;

/* A trace record per moved word (trace level 2). */
typedef struct pinet_otis_trace_move {
  uint64_t step; /* index of its step */
  uint32_t from, to;
  uint8_t dir, src, dst;
} pinet_otis_trace_move;

/* BPC vector per source bit; `bits` = 2*log2(N) entries are used. */
typedef struct pinet_otis_bpc {
  uint32_t bits;
  uint8_t dest_bit[PINET_OTIS_MAX_BITS];
  uint8_t complement[PINET_OTIS_MAX_BITS];
} pinet_otis_bpc;

/* ---- geometry (pure helpers) --------------------------------------------------------------- */

/* Check N: PINET_OK for 4, 16, 64, 256; PINET_ERR_SIZE otherwise. */
pinet_status pinet_otis_check_n(uint32_t n_groups);

/* Index of (Gx, Gy, Px, Py). PINET_ERR_SIZE for a bad N, PINET_ERR_RANGE for a coordinate
 * >= sqrt(N), PINET_ERR_NULL if index is NULL. */
pinet_status pinet_otis_index(uint32_t n_groups, uint32_t gx, uint32_t gy, uint32_t px,
                              uint32_t py, uint32_t *index);

/* Coordinates of index I (any output pointer may be NULL). PINET_ERR_RANGE if I >= N^2. */
pinet_status pinet_otis_coords(uint32_t n_groups, uint32_t index, uint32_t *gx, uint32_t *gy,
                               uint32_t *px, uint32_t *py);

/* ---- machine -------------------------------------------------------------------------------- */

/* Create a machine of N^2 processors with one register of width 1.
 * PINET_ERR_SIZE for a bad N, PINET_ERR_RANGE for an unknown model, PINET_ERR_NOMEM. */
pinet_status pinet_otis_create(uint32_t n_groups, pinet_otis_model model, pinet_otis **out);

/* Free a machine (NULL is accepted). */
void pinet_otis_free(pinet_otis *m);

/* Parameters of a machine (any pointer may be NULL). */
void pinet_otis_get_geometry(const pinet_otis *m, uint32_t *n_groups, uint32_t *side,
                             uint32_t *procs, pinet_otis_model *model);

/* Replace the register file: `nregs` registers, widths[r] fields each, all empty; resets counts.
 * PINET_ERR_RANGE if nregs is 0 or > PINET_OTIS_MAX_REGS or a width is 0 or too large. */
pinet_status pinet_otis_configure(pinet_otis *m, uint32_t nregs, const uint32_t *widths);

/* Put `word` (width[reg] fields) into register `reg` of `proc` (initial data; not a move).
 * PINET_ERR_RANGE for a bad register or processor. */
pinet_status pinet_otis_reg_set(pinet_otis *m, uint32_t reg, uint32_t proc, const int64_t *word);
/* Empty a register. */
pinet_status pinet_otis_reg_clear(pinet_otis *m, uint32_t reg, uint32_t proc);
/* Read a register: *present = 0 when empty (word untouched), else the word is copied. */
pinet_status pinet_otis_reg_get(const pinet_otis *m, uint32_t reg, uint32_t proc, int64_t *word,
                                int *present);

/* Run one step made of `count` moves (see the engine rules above). PINET_ERR_ILLEGAL_MOVE when a
 * rule is broken (the machine is then unchanged), PINET_ERR_RANGE for a bad processor, register
 * or direction, PINET_ERR_MISMATCH when src and dst widths differ. */
pinet_status pinet_otis_step(pinet_otis *m, const pinet_otis_move *moves, size_t count);

/* One step in which every processor with mask[proc] != 0 (all when mask is NULL) whose register
 * `src` holds a word sends it over `dir` into register `dst`. Processors with an empty `src` stay
 * idle. Same errors as pinet_otis_step. */
pinet_status pinet_otis_step_uniform(pinet_otis *m, pinet_otis_dir dir, uint32_t src, uint32_t dst,
                                     const uint8_t *mask, int keep);

/* Move counters since the last reset (or configure / operation start). */
void pinet_otis_get_counts(const pinet_otis *m, pinet_otis_counts *counts);
void pinet_otis_reset_counts(pinet_otis *m);

/* Trace: level 0 off, 1 one record per step, 2 also one record per word. Resetting the counters
 * (and every operation) clears the trace. PINET_ERR_RANGE for another level. */
pinet_status pinet_otis_set_trace(pinet_otis *m, int level);
size_t pinet_otis_trace_steps(const pinet_otis *m, const pinet_otis_trace_step **steps);
size_t pinet_otis_trace_moves(const pinet_otis *m, const pinet_otis_trace_move **moves);

/* ---- BPC permutations ----------------------------------------------------------------------- */

/* Parse the paper's notation "[A_{q-1}, ..., A_0]" (brackets optional, "-0" negative) for a
 * machine of N groups (q = 2 log2 N). PINET_ERR_PARSE for malformed text, PINET_ERR_SIZE for a
 * bad N or a wrong number of entries, PINET_ERR_RANGE when |A_i| is not a permutation of
 * 0..q-1. */
pinet_status pinet_otis_bpc_parse(uint32_t n_groups, const char *text, pinet_otis_bpc *bpc);

/* Destination of index `src` under `bpc` (the definition, no moves). PINET_ERR_RANGE when the
 * vector is not a permutation of its bits or src is out of range. */
pinet_status pinet_otis_bpc_dest(const pinet_otis_bpc *bpc, uint32_t src, uint32_t *dest);

/* Route the BPC permutation with moves: out[dest(I)] = in[I]. PINET_ERR_SIZE when bpc->bits
 * does not match the machine. */
pinet_status pinet_otis_bpc_route(pinet_otis *m, const pinet_otis_bpc *bpc, const int64_t *in,
                                  int64_t *out);

/* ---- operations (in/out arrays have N^2 entries in index order) ----------------------------- */

/* Broadcast in[source] to every processor. PINET_ERR_RANGE if source >= N^2. */
pinet_status pinet_otis_broadcast(pinet_otis *m, const int64_t *in, uint32_t source, int64_t *out);

/* Window broadcast: the w x w top-left window of group `group` tiles every group:
 * out[(G', (Px, Py))] = in[(group, (Px mod w, Py mod w))]. PINET_ERR_RANGE if w is 0 or does not
 * divide sqrt(N), or group >= N. */
pinet_status pinet_otis_window_broadcast(pinet_otis *m, const int64_t *in, uint32_t group,
                                         uint32_t w, int64_t *out);

/* Inclusive prefix sum in index order; `improved` selects the 7(sqrt N - 1) + 2 algorithm, 0 the
 * simple 8(sqrt N - 1) + 2 one. */
pinet_status pinet_otis_prefix_sum(pinet_otis *m, const int64_t *in, int improved, int64_t *out);

/* Every processor gets the sum of all values. */
pinet_status pinet_otis_data_sum(pinet_otis *m, const int64_t *in, int64_t *out);

/* Rank: rank[I] = number of selected processors before I (selected[I] != 0), -1 when not
 * selected. */
pinet_status pinet_otis_rank(pinet_otis *m, const uint8_t *selected, int64_t *rank);

/* Shift of kind (a)..(h) by s, -sqrt(N) < s < sqrt(N), s != 0; zero fill where nothing arrives.
 * PINET_ERR_RANGE for a bad kind or s. */
pinet_status pinet_otis_shift(pinet_otis *m, const int64_t *in, pinet_otis_shift_kind kind,
                              int32_t s, int64_t *out);

/* Data accumulation along `dim`: out[I*M + i] = in[I with coordinate dim -> (c + i) mod sqrt N],
 * 0 <= i < M, 1 <= M <= sqrt(N). PINET_ERR_RANGE for a bad dim or M. */
pinet_status pinet_otis_data_accumulation(pinet_otis *m, const int64_t *in, pinet_otis_dim dim,
                                          uint32_t mcount, int64_t *out);

/* Adjacent sum: out[I] = sum of the M values data accumulation would collect. */
pinet_status pinet_otis_adjacent_sum(pinet_otis *m, const int64_t *in, pinet_otis_dim dim,
                                     uint32_t mcount, int64_t *out);

/* Consecutive sum over blocks of M consecutive processors along `dim` (M divides sqrt N):
 * x[I*M + j] is X[j] of processor I; out[I] = sum over the block's processors K of X_K[i], i the
 * block-relative index of I. PINET_ERR_RANGE for a bad dim or M. */
pinet_status pinet_otis_consecutive_sum(pinet_otis *m, const int64_t *x, pinet_otis_dim dim,
                                        uint32_t mcount, int64_t *out);

/* Concentrate: rank[I] >= 0 marks a datum with that rank (ranks must be 0, 1, ..., b-1 in index
 * order); value[I] goes to processor rank[I]. out_has[J] = 1 where a datum arrived.
 * PINET_ERR_RANGE for ranks that are not 0..b-1 in index order. */
pinet_status pinet_otis_concentrate(pinet_otis *m, const int64_t *value, const int64_t *rank,
                                    int64_t *out, uint8_t *out_has);

/* Distribute: processors 0..q hold data (dest[I] >= 0, strictly increasing, < N^2) and the
 * others dest -1; value[i] goes to dest[i]. PINET_ERR_RANGE for another layout. */
pinet_status pinet_otis_distribute(pinet_otis *m, const int64_t *value, const int64_t *dest,
                                   int64_t *out, uint8_t *out_has);

/* Generalize: same input as distribute; value[i] goes to every J with dest[i] <= J < dest[i+1]
 * (dest[q+1] = N^2); processors before dest[0] get nothing. */
pinet_status pinet_otis_generalize(pinet_otis *m, const int64_t *value, const int64_t *dest,
                                   int64_t *out, uint8_t *out_has);

/* Sort into row-major (index) order by Leighton's column sort with three BPC permutations.
 * `bpc_counts` (may be NULL) receives the moves spent in the BPC permutations alone. */
pinet_status pinet_otis_sort(pinet_otis *m, const int64_t *in, int64_t *out,
                             pinet_otis_counts *bpc_counts);

/* Random access read: processor I reads data[addr[I]] (addr -1: no read, out_has 0).
 * PINET_ERR_RANGE for an address outside -1..N^2-1. */
pinet_status pinet_otis_rar(pinet_otis *m, const int64_t *data, const int64_t *addr, int64_t *out,
                            uint8_t *out_has);

/* Random access write: processor I writes data[I] to addr[I] (-1: no write); out[J] is the
 * value written to J (out_has 0 where nobody wrote). */
pinet_status pinet_otis_raw(pinet_otis *m, const int64_t *data, const int64_t *addr,
                            pinet_otis_write_rule rule, int64_t *out, uint8_t *out_has);

#ifdef __cplusplus
}
#endif
#endif /* PINET_OTIS_H */
