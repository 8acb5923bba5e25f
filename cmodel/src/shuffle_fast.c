/* shuffle_fast.c - the fast schedules (issue 11): cut-through broadcasts over two arc-disjoint
 * spanning trees that finish at the link-capacity bound. Every other op is the paper schedule for
 * now. Trees, timing and proofs: docs/shuffle.md section 13. */
#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

/* The n low bits of q in reverse order. */
static uint32_t bit_reverse(uint32_t q, uint32_t n) {
  uint32_t r = 0;
  for (uint32_t b = 0; b < n; b++) {
    r = (r << 1) | ((q >> b) & 1u);
  }
  return r;
}

/* floor(log2 q) for q >= 1: a PE's depth in tree F minus 1. */
static uint32_t floor_log2(uint32_t q) {
  uint32_t d = 0;
  while (q > 1u) {
    q >>= 1;
    d++;
  }
  return d;
}

static pinet_status put_at(pinet_shuffle_schedule *s, int32_t src, int32_t dst, uint32_t channel,
                           uint32_t offset, uint32_t words, uint32_t start) {
  pinet_shuffle_transfer t = {src, dst, channel, offset, offset, words, PINET_SHUFFLE_COPY, start};
  return pinet_shuffle_schedule_add(s, &t);
}

/* One step. Tree F (forward channels): PE q >= 1 receives from floor(q/2) on channel q (PE 0 ->
 * 1 on channel 1, p -> 2p, 2p+1 for 1 <= p < N/2); its depth is floor(log2 q) + 1. Tree B is F
 * mirrored by bit reversal (backward channels): PE y = rev(q) receives from rev(floor(q/2)) on
 * the backward channel of link 2y + b, (2y + b) mod N = its parent; same depth as q in F. A
 * transfer into a depth-d PE starts at d - 1 + lead (lead = 1 when the host feeds PE 0 first):
 * the parent received word i in the cycle before, so it forwards it at once (cut-through).
 * F carries words [0, f_words), B [f_words, M). Self-loops are never used: q = floor(q/2) only
 * for q = 0, and rev(floor(q/2)) = rev(q) never holds for q >= 1. */
static pinet_status build_two_trees(pinet_shuffle_schedule *s, uint32_t f_words, uint32_t lead) {
  uint32_t N = s->pes, n = s->n, M = s->words;
  FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
  if (lead > 0u) {
    FORWARD_IF_ERROR(
        put_at(s, PINET_SHUFFLE_HOST, 0, PINET_SHUFFLE_CH_HOST_DOWN(N), 0, M, 0));
  }
  for (uint32_t q = 1; q < N; q++) {
    FORWARD_IF_ERROR(put_at(s, (int32_t)(q / 2u), (int32_t)q, PINET_SHUFFLE_CH_FWD(N, q), 0,
                            f_words, floor_log2(q) + lead));
  }
  if (f_words == M) {
    return PINET_OK; /* M = 1, or the host variant: B carries nothing */
  }
  for (uint32_t q = 1; q < N; q++) {
    uint32_t y = bit_reverse(q, n), parent = bit_reverse(q / 2u, n);
    uint32_t b = (parent + N - (2u * y) % N) % N; /* (2y + b) mod N = parent */
    RETURN_ERROR_IF(b > 1u, PINET_ERR_ILLEGAL_STATE); /* not reached: B is a de Bruijn tree */
    FORWARD_IF_ERROR(put_at(s, (int32_t)parent, (int32_t)y, PINET_SHUFFLE_CH_BWD(N, 2u * y + b),
                            f_words, M - f_words, floor_log2(q) + lead));
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_fast_words_quantum(pinet_shuffle_op op, uint32_t pes,
                                              uint32_t *quantum) {
  FORWARD_IF_ERROR(pinet_shuffle_words_quantum(op, pes, quantum));
  if (op == PINET_SHUFFLE_OP_BCAST || op == PINET_SHUFFLE_OP_BCAST_HOST) {
    *quantum = 1; /* the paper's packets of M/n words are gone: one cut-through step */
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_build_fast(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                      uint32_t pes, uint32_t words) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  uint32_t quantum = 0;
  FORWARD_IF_ERROR(pinet_shuffle_fast_words_quantum(op, pes, &quantum));
  if (op != PINET_SHUFFLE_OP_BCAST && op != PINET_SHUFFLE_OP_BCAST_HOST) {
    return pinet_shuffle_build(out, op, pes, words); /* no faster schedule yet */
  }
  RETURN_ERROR_IF(words == 0 || words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  int host = op == PINET_SHUFFLE_OP_BCAST_HOST;
  pinet_shuffle_schedule *s = NULL;
  FORWARD_IF_ERROR(shuffle_schedule_alloc(&s, op, pes, words, words, host ? words : 0));
  /* from PE 0: half the words down each tree (F takes the odd one); from the host: the host
   * link carries M words anyway, so F alone keeps up with it */
  uint32_t f_words = host ? words : words / 2u + (words & 1u);
  pinet_status st = build_two_trees(s, f_words, host ? 1u : 0u);
  return shuffle_schedule_hand_over(s, st, out);
}

int pinet_shuffle_schedule_cut_through(const pinet_shuffle_schedule *sched) {
  if (sched == NULL) {
    return 0;
  }
  for (size_t i = 0; i < sched->nxf; i++) {
    if (sched->xf[i].start != 0) {
      return 1;
    }
  }
  return 0;
}
