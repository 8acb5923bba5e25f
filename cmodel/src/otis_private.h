/* otis_private.h - internals shared by the otis_*.c files (not installed).
 *
 * Discipline: operation code reads and writes registers of one processor at a time (local
 * computation, free); every transfer between processors goes through the step engine. */
#ifndef PINET_OTIS_PRIVATE_H
#define PINET_OTIS_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "error_private.h"
#include "pinet/otis.h"

#define OTIS_NDIRS 5u
#define OTIS_NONE UINT32_MAX

struct pinet_otis {
  uint32_t N;     /* groups = processors per group */
  uint32_t n;     /* mesh side sqrt(N) */
  uint32_t procs; /* N^2 */
  uint32_t p;     /* log2 N */
  uint32_t h;     /* log2 n */
  pinet_otis_model model;

  uint32_t nregs;
  uint32_t width[PINET_OTIS_MAX_REGS];
  int64_t *data[PINET_OTIS_MAX_REGS];
  uint8_t *occ[PINET_OTIS_MAX_REGS];

  uint32_t *nbr;         /* [dir * procs + proc] -> neighbour or OTIS_NONE */
  uint32_t *stamp_link;  /* [proc * OTIS_NDIRS + dir] */
  uint32_t *stamp_dst;   /* [reg * procs + proc] */
  uint32_t *stamp_leave; /* [reg * procs + proc] */
  uint32_t stamp;
  int64_t *staging; /* procs * PINET_OTIS_MAX_WIDTH */
  uint32_t *plist;  /* procs */

  pinet_otis_counts counts;
  int trace_level;
  pinet_otis_trace_step *tsteps;
  size_t tsteps_len, tsteps_cap;
  pinet_otis_trace_move *tmoves;
  size_t tmoves_len, tmoves_cap;

  /* move list used by the operations (one logical step, possibly several directions) */
  pinet_otis_move *ml;
  size_t ml_len, ml_cap;
  pinet_otis_move *ml_tmp;
  size_t ml_tmp_cap;
};

static inline int64_t *otis_w(pinet_otis *m, uint32_t r, uint32_t proc) {
  return m->data[r] + (size_t)proc * m->width[r];
}
static inline int otis_has(const pinet_otis *m, uint32_t r, uint32_t proc) {
  return m->occ[r][proc] != 0;
}
static inline uint32_t otis_px(const pinet_otis *m, uint32_t proc) {
  return (proc % m->N) / m->n;
}
static inline uint32_t otis_py(const pinet_otis *m, uint32_t proc) { return proc % m->n; }
static inline uint32_t otis_grp(const pinet_otis *m, uint32_t proc) { return proc / m->N; }
static inline uint32_t otis_pos(const pinet_otis *m, uint32_t proc) { return proc % m->N; }

/* Local register operations (processor-local, never counted). */
void otis_put(pinet_otis *m, uint32_t r, uint32_t proc, const int64_t *word);
void otis_clear(pinet_otis *m, uint32_t r, uint32_t proc);
void otis_clear_reg(pinet_otis *m, uint32_t r);
/* Move a word between two registers of the same processor; ILLEGAL_MOVE if dst is occupied. */
pinet_status otis_local_move(pinet_otis *m, uint32_t from, uint32_t to, uint32_t proc);

/* Configure registers for an operation: widths[0..nregs-1]; resets counts and the trace. */
pinet_status otis_setup(pinet_otis *m, uint32_t nregs, const uint32_t *widths);

/* Move-list API: push moves of one logical step, then commit. In SIMD the commit runs one engine
 * step per direction present (UP, DOWN, LEFT, RIGHT, in that order); in MIMD one step. OTIS
 * moves must not be mixed with electronic ones. */
pinet_status otis_ml_push(pinet_otis *m, uint32_t proc, pinet_otis_dir dir, uint32_t src,
                          uint32_t dst, int keep);
pinet_status otis_ml_commit(pinet_otis *m);
void otis_ml_reset(pinet_otis *m);

/* One step in which every word of register r1 moves over d1 and every word of r2 over d2
 * (electronic, r1 != r2). MIMD: one step; SIMD: a d1 step, then a d2 step. */
pinet_status otis_step_chains(pinet_otis *m, pinet_otis_dir d1, uint32_t r1, pinet_otis_dir d2,
                              uint32_t r2);

/* OTIS move of every word of register src into register dst (move semantics). */
pinet_status otis_otis_all(pinet_otis *m, uint32_t src, uint32_t dst);

/* ---- line phases: movement along one axis inside every line of every group ---------------- */

typedef enum { OTIS_AXIS_ROW = 0, OTIS_AXIS_COL = 1 } otis_axis;

/* Interval callback: for the word in register `in` of `proc`, the coordinates [lo, hi] along
 * the axis that must receive a copy. Return 0 to drop the word. */
typedef int (*otis_span_fn)(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                            int32_t *lo, int32_t *hi);

typedef enum {
  OTIS_PARK_EXCLUSIVE = 0, /* a second word in `out` is an error */
  OTIS_PARK_MAXKEY = 1     /* keep the word with the larger key field */
} otis_park_mode;

typedef struct otis_line_spec {
  otis_axis axis;
  uint32_t r_in, r_out, r_neg, r_pos; /* r_neg/r_pos: width(in) + 2 */
  otis_span_fn span;
  void *ctx;
  otis_park_mode park;
  uint32_t key_field; /* for OTIS_PARK_MAXKEY */
  int kill_pos;       /* MAXKEY: a positive-direction mover dies on a resident with larger key */
  int kill_neg;
} otis_line_spec;

/* Deliver every word of r_in to its interval along the axis (lockstep movers in r_neg and r_pos,
 * copies parked in r_out). Consumes r_in. */
pinet_status otis_line_phase(pinet_otis *m, const otis_line_spec *spec);

/* Route words inside every group to a target position (a field of the word); `rows_first`
 * selects the row phase first. Registers: in, out (width w), neg, pos (width w + 2). */
pinet_status otis_group_route(pinet_otis *m, uint32_t r_in, uint32_t r_out, uint32_t r_neg,
                              uint32_t r_pos, uint32_t target_field, int rows_first);

/* Intra-group stage of a BPC-like map: each word of r_in carries its target position within
 * the group in `target_field`; `pi[b]` is the destination bit of position bit b of the linear
 * part of the map (the same for all groups). Three line phases: row, column, row. */
pinet_status otis_group_bitmap_stage(pinet_otis *m, uint32_t r_in, uint32_t r_out, uint32_t r_neg,
                                     uint32_t r_pos, uint32_t target_field, const uint8_t *pi);

/* Route a BPC permutation on words of register r_w (width w, payload untouched). Registers
 * r_a, r_b (width w + 2) and r_c, r_d (width w + 4) are scratch; the result ends in r_w. */
pinet_status otis_bpc_words(pinet_otis *m, const pinet_otis_bpc *bpc, uint32_t r_w, uint32_t r_a,
                            uint32_t r_b, uint32_t r_c, uint32_t r_d);

/* Sort the words of register r_w (width w, key in field 0, every processor must hold a word)
 * into index order. r_e, r_f: scratch of width w; r_a, r_b width w + 2; r_c, r_d width w + 4.
 * bpc_counts (may be NULL) receives the moves of the BPC permutations. */
pinet_status otis_sort_words(pinet_otis *m, uint32_t r_w, uint32_t r_e, uint32_t r_f,
                             uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d,
                             pinet_otis_counts *bpc_counts);

/* Inclusive prefix sum (improved algorithm, 7(n - 1) + 2 moves) of the width-1 register r_v,
 * where every processor holds a value, into r_out; tmp: six scratch width-1 registers. */
pinet_status otis_prefix_words(pinet_otis *m, uint32_t r_v, uint32_t r_out, const uint32_t tmp[6]);

/* Concentrate / distribute / generalize on words already in registers (see otis_route.c);
 * scratch r_a, r_b of width w + 2 and r_c, r_d of width w + 4. */
pinet_status otis_concentrate_words(pinet_otis *m, uint32_t r_w, uint32_t rank_field,
                                    uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d);
pinet_status otis_distribute_words(pinet_otis *m, uint32_t r_w, uint32_t dest_field,
                                   uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d);
pinet_status otis_generalize_words(pinet_otis *m, uint32_t r_w, uint32_t dest_field,
                                   uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d);

/* Move every word from processor I to I + 1 (index order; the word of N^2 - 1 is dropped).
 * r_w: the words (width w); r_a..r_d scratch (r_a, r_b width w + 2; r_c, r_d width w + 4).
 * Result in r_w. */
pinet_status otis_index_shift(pinet_otis *m, uint32_t r_w, uint32_t r_a, uint32_t r_b,
                              uint32_t r_c, uint32_t r_d);

/* Integer helpers. */
static inline uint32_t otis_log2u(uint32_t v) {
  uint32_t r = 0;
  while ((1u << r) < v) {
    r++;
  }
  return r;
}

#endif /* PINET_OTIS_PRIVATE_H */
