/* shuffle_bound.c - link-capacity lower bounds on the done cycle of the collectives (issue 11).
 * The formulas and their proofs: docs/shuffle.md section 12; the header lists them. */
#include "error_private.h"
#include "pinet/shuffle.h"

/* ceil(x / 2) */
static uint64_t half_up(uint64_t x) { return x / 2u + (x & 1u); }

/* The bound for M a multiple of the paper schedule's quantum if `paper`, else of the fast
 * schedule's (pinet_shuffle_fast_words_quantum). */
static pinet_status link_bound(pinet_shuffle_op op, uint32_t pes, uint64_t words, int paper,
                               uint64_t *cycles) {
  RETURN_ERROR_IF(cycles == NULL, PINET_ERR_NULL);
  uint32_t n = 0;
  uint32_t quantum = 4; /* ring-exchange: four blocks of W words, as its default builder */
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  if (op != PINET_SHUFFLE_OP_RING_EXCHANGE) {
    FORWARD_IF_ERROR(paper ? pinet_shuffle_words_quantum(op, pes, &quantum)
                           : pinet_shuffle_fast_words_quantum(op, pes, &quantum));
  }
  RETURN_ERROR_IF(words == 0 || words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(words % quantum != 0, PINET_ERR_MISMATCH);
  /* The words one PE exchanges with all the others: M minus its own segment. */
  uint64_t others = words - words / pes;
  switch (op) {
    /* PE 0's two useful out-channels, then n - 1 more hops to PE N-1 */
    case PINET_SHUFFLE_OP_BCAST: *cycles = half_up(words) + n; break;
    /* the host link's one word per cycle, then n + 1 hops to PE N-1 */
    case PINET_SHUFFLE_OP_BCAST_HOST: *cycles = words + n + 1u; break;
    /* every word crosses the host link (down, or up) */
    case PINET_SHUFFLE_OP_SCATTER:
    case PINET_SHUFFLE_OP_UPLOAD: *cycles = words + 1u; break;
    /* PE 0's two useful in-channels (gather, allgather) or out-channels (integrate) */
    case PINET_SHUFFLE_OP_INTEGRATE:
    case PINET_SHUFFLE_OP_ALLGATHER:
    case PINET_SHUFFLE_OP_GATHER: *cycles = half_up(others) + 1u; break;
    /* PE 0 sends two blocks of M/4 over its two useful out-channels */
    case PINET_SHUFFLE_OP_RING_EXCHANGE: *cycles = words / 4u + 1u; break;
    default: return PINET_ERR_RANGE; /* not reached: the quantum refused the op */
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_link_bound(pinet_shuffle_op op, uint32_t pes, uint64_t words,
                                      uint64_t *cycles) {
  return link_bound(op, pes, words, 1, cycles);
}

pinet_status pinet_shuffle_link_bound_fast(pinet_shuffle_op op, uint32_t pes, uint64_t words,
                                           uint64_t *cycles) {
  return link_bound(op, pes, words, 0, cycles);
}
