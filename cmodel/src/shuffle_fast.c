/* shuffle_fast.c - the fast schedules (issue 11): cut-through broadcasts over two arc-disjoint
 * spanning trees that finish at the link-capacity bound; scatter and upload with the host link
 * busy nearly every cycle; gather over both of PE 0's useful in-channels; allgather around the
 * ring; integrate of int32 data around the ring the other way round (its float sums keep the
 * paper's tree, hence the paper's schedule). Trees, timing and proofs: docs/shuffle.md
 * section 13. */
#include <stdlib.h>

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

static pinet_status put_as(pinet_shuffle_schedule *s, int32_t src, int32_t dst, uint32_t channel,
                           uint32_t offset, uint32_t words, uint32_t start,
                           pinet_shuffle_combine combine) {
  pinet_shuffle_transfer t = {src, dst, channel, offset, offset, words, combine, start};
  return pinet_shuffle_schedule_add(s, &t);
}

static pinet_status put_at(pinet_shuffle_schedule *s, int32_t src, int32_t dst, uint32_t channel,
                           uint32_t offset, uint32_t words, uint32_t start) {
  return put_as(s, src, dst, channel, offset, words, start, PINET_SHUFFLE_COPY);
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

/* ---- scatter, upload, gather: packets of segments on tree F ---------------------------------
 * S = M/N. Packet d >= 1 holds the segments of the depth-d PEs, the addresses P_d = [2^(d-1) S,
 * 2^d S) (packet 0: segment 0). Every packet gets a step of its own, as in the paper, but within
 * its step it is cut-through: a PE forwards each word one cycle after it lands, so a step lasts
 * about as long as its packet's busiest link rather than the sum of its hops. */

/* The tree-F hops of packet d (d >= 1) into the PEs of depths top .. d, deepest first; PE q of
 * depth t carries its part, the segments of its subtree at depth d: [q 2^(d-t) S,
 * (q+1) 2^(d-t) S). Word i of the part of q's ancestor a at depth `top` crosses hop t in cycle
 * i + t going down (scatter: the host link carries it in cycle i), i + d - t going up (the
 * deepest PEs send their own words from cycle 0): one cycle after it crossed the hop before, so
 * every relay sees it, and a PE's words of one packet form one range on one channel. */
static pinet_status tree_hops(pinet_shuffle_schedule *s, uint32_t d, uint32_t top, int up) {
  uint32_t N = s->pes, seg = s->words / N, top_span = seg << (d - top);
  for (uint32_t t = d; t >= top; t--) {
    uint32_t span = seg << (d - t);
    for (uint32_t q = 1u << (t - 1u); q < (1u << t); q++) {
      uint32_t off = q * span, rel = off - (q >> (t - top)) * top_span;
      FORWARD_IF_ERROR(up ? put_at(s, (int32_t)q, (int32_t)(q / 2u), PINET_SHUFFLE_CH_BWD(N, q),
                                   off, span, rel + d - t)
                          : put_at(s, (int32_t)(q / 2u), (int32_t)q, PINET_SHUFFLE_CH_FWD(N, q),
                                   off, span, rel + t));
    }
  }
  return PINET_OK;
}

/* One step of scatter (down) or upload (up): packet d on tree F (hops into depths 1 .. d) and on
 * the host link. Down, the host link leads (start 0) and PE 0 -> 1 follows one cycle later; up,
 * PE 0 passes to the host one cycle after PE 1 -> 0 (start d). */
static pinet_status host_packet_step(pinet_shuffle_schedule *s, uint32_t d, int up) {
  uint32_t N = s->pes, seg = s->words / N;
  uint32_t off = d == 0 ? 0 : seg << (d - 1u), words = d == 0 ? seg : off;
  FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
  if (d > 0) {
    FORWARD_IF_ERROR(tree_hops(s, d, 1, up));
  }
  return up ? put_at(s, 0, PINET_SHUFFLE_HOST, PINET_SHUFFLE_CH_HOST_UP(N), off, words, d)
            : put_at(s, PINET_SHUFFLE_HOST, 0, PINET_SHUFFLE_CH_HOST_DOWN(N), off, words, 0);
}

/* Scatter: packets d = n .. 1, then segment 0; n + 1 steps, step d >= 1 lasts 2^(d-1) S + d
 * cycles (the last word leaves the host in cycle 2^(d-1) S - 1, d hops behind it). */
static pinet_status build_scatter_fast(pinet_shuffle_schedule *s) {
  for (uint32_t d = s->n + 1u; d-- > 0;) {
    FORWARD_IF_ERROR(host_packet_step(s, d, 0));
  }
  return PINET_OK;
}

/* Upload: segment 0, then packets d = 1 .. n, each step as long as scatter's; PE 0 keeps every
 * word it passes on, so it ends with [0, M) as in the paper's upload. */
static pinet_status build_upload_fast(pinet_shuffle_schedule *s) {
  for (uint32_t d = 0; d <= s->n; d++) {
    FORWARD_IF_ERROR(host_packet_step(s, d, 1));
  }
  return PINET_OK;
}

/* The last hops of a gather step into PE 0. PE 1 has word j of [off, off + lo) and of
 * [off + lo, off + lo + hi) by in-step cycle `start` + j (its own segment, start 0; or landed in
 * cycle start - 1 + j). The first range goes straight to PE 0 on channel 2N + 1, the second over
 * PE 0's other useful in-channel, N (from PE N/2): PE 1 -> N/2 on channel 3N + 1, then N/2 -> 0
 * one cycle later. For N = 2, PE N/2 is PE 1 itself and channel N = 2 leaves it directly. */
static pinet_status gather_root(pinet_shuffle_schedule *s, uint32_t off, uint32_t lo, uint32_t hi,
                                uint32_t start) {
  uint32_t N = s->pes, relay = N / 2u;
  FORWARD_IF_ERROR(put_at(s, 1, 0, PINET_SHUFFLE_CH_BWD(N, 1), off, lo, start));
  if (hi == 0) {
    return PINET_OK; /* S = 1: nothing to split */
  }
  if (relay != 1u) {
    FORWARD_IF_ERROR(put_at(s, 1, (int32_t)relay, PINET_SHUFFLE_CH_BWD(N, N + 1u), off + lo, hi,
                            start));
    start++;
  }
  return put_at(s, (int32_t)relay, 0, PINET_SHUFFLE_CH_FWD(N, N), off + lo, hi, start);
}

/* Gather, steps d = 1 .. n. d = 1: PE 1's segment, ceil(S/2) words direct, the rest relayed.
 * d >= 2: P_d's lower half L (PE 2's subtree) and upper half U (PE 3's), H = 2^(d-2) S words
 * each, climb tree F into PE 1 in parallel (word j of a half leaves depth t in cycle j + d - t);
 * PE 1 passes L to PE 0 and U towards PE N/2 in cycle j + d - 1; the step lasts 2^(d-2) S + d
 * cycles (U's relay). */
static pinet_status build_gather_fast(pinet_shuffle_schedule *s) {
  uint32_t seg = s->words / s->pes;
  for (uint32_t d = 1; d <= s->n; d++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    if (d == 1) {
      uint32_t lo = seg / 2u + (seg & 1u);
      FORWARD_IF_ERROR(gather_root(s, seg, lo, seg - lo, 0));
      continue;
    }
    uint32_t half = seg << (d - 2u);
    FORWARD_IF_ERROR(tree_hops(s, d, 2, 1));
    FORWARD_IF_ERROR(gather_root(s, 2u * half, half, half, d - 1u));
  }
  return PINET_OK;
}

/* ---- allgather and integrate: both ways around the ring ------------------------------------ */

/* Ring positions r (PE ring[r]; N = 2: the ring 0, 1, each PE both neighbours of the other, over
 * two different links), N/2 steps, start 0 throughout (every transfer reads what an earlier step
 * wrote). In step t the PE at r sends to its successor ring[r + from - t + 1]'s segment and to
 * its predecessor ring[r + from + t - 1]'s, and receives ring[r + from - t]'s and
 * ring[r + from + t]'s; in step `split` a segment's first ceil(S/2) words go clockwise and the
 * rest (none when S = 1) the other way.
 *   allgather (from 0, split N/2, COPY): the segment a PE passes on is the one it got in the step
 *     before (its own in step 1); after N/2 - 1 steps it lacks only ring[r + N/2]'s, which both
 *     of its neighbours hold: the last step brings its halves.
 *   integrate of int32 (from N/2, split 1, ADD): the same walk backwards. A partial sum of
 *     segment ring[d] grows from ring[d + N/2] towards ring[d] along both halves of the ring: in
 *     step 1 the halves of ring[r + N/2]'s own words leave, in step t >= 2 the PE passes on the
 *     segment it added into in step t - 1, and in step N/2 both partial sums of its own segment
 *     arrive in the same cycles (two ADDs on one address; N = 2: the two halves). Each word is
 *     summed in ring order, not in the paper's tree: only an associative, commutative add
 *     (int32 modulo 2^32) gives the paper's result. */
static pinet_status ring_walk(pinet_shuffle_schedule *s, const uint32_t *ring, uint32_t from,
                              uint32_t split, pinet_shuffle_combine combine) {
  uint32_t N = s->pes, seg = s->words / N, half = N / 2u, lo = seg / 2u + (seg & 1u);
  for (uint32_t t = 1; t <= half; t++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    uint32_t cw_words = t != split ? seg : lo, ccw_skip = t != split ? 0 : lo;
    for (uint32_t r = 0; r < N; r++) {
      uint32_t a = ring[r], b = ring[(r + 1u) % N];
      uint32_t to_next = 0, to_prev = 0;
      shuffle_ring_edge_channels(N, a, b, &to_next, &to_prev);
      uint32_t cw = ring[(r + from + N - (t - 1u)) % N]; /* a -> b */
      uint32_t ccw = ring[(r + from + t) % N];           /* b -> a: ring[(r + 1) + from + t - 1] */
      FORWARD_IF_ERROR(put_as(s, (int32_t)a, (int32_t)b, to_next, cw * seg, cw_words, 0, combine));
      if (seg > ccw_skip) {
        FORWARD_IF_ERROR(put_as(s, (int32_t)b, (int32_t)a, to_prev, ccw * seg + ccw_skip,
                                seg - ccw_skip, 0, combine));
      }
    }
  }
  return PINET_OK;
}

/* ring_walk on the ring of the fast allgather and integrate: pinet_shuffle_ring's (it wants
 * N >= 4; for N = 2 the walk gives 0, 1). */
static pinet_status build_around_ring(pinet_shuffle_schedule *s, uint32_t from, uint32_t split,
                                      pinet_shuffle_combine combine) {
  uint32_t N = s->pes;
  uint32_t *ring = malloc(N * sizeof *ring);
  RETURN_ERROR_IF(ring == NULL, PINET_ERR_NOMEM);
  pinet_status st = N == 2u ? PINET_OK : pinet_shuffle_ring(N, ring);
  if (N == 2u) {
    ring[0] = 0;
    ring[1] = 1;
  }
  if (st == PINET_OK) {
    st = ring_walk(s, ring, from, split, combine);
  }
  free(ring);
  return st;
}

pinet_status pinet_shuffle_fast_words_quantum(pinet_shuffle_op op, uint32_t pes,
                                              uint32_t *quantum) {
  FORWARD_IF_ERROR(pinet_shuffle_words_quantum(op, pes, quantum));
  if (op == PINET_SHUFFLE_OP_BCAST || op == PINET_SHUFFLE_OP_BCAST_HOST) {
    *quantum = 1; /* the paper's packets of M/n words are gone: one cut-through step */
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_build_fast_typed(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                            uint32_t pes, uint32_t words,
                                            pinet_shuffle_elem elem) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(pinet_shuffle_elem_size(elem) == 0, PINET_ERR_RANGE);
  uint32_t quantum = 0;
  FORWARD_IF_ERROR(pinet_shuffle_fast_words_quantum(op, pes, &quantum));
  if (op == PINET_SHUFFLE_OP_INTEGRATE && elem != PINET_SHUFFLE_I32) {
    return pinet_shuffle_build(out, op, pes, words); /* float sums: the paper's tree */
  }
  RETURN_ERROR_IF(words == 0 || words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(words % quantum != 0, PINET_ERR_MISMATCH);
  int host = op == PINET_SHUFFLE_OP_BCAST_HOST || op == PINET_SHUFFLE_OP_SCATTER ||
             op == PINET_SHUFFLE_OP_UPLOAD;
  pinet_shuffle_schedule *s = NULL;
  FORWARD_IF_ERROR(shuffle_schedule_alloc(&s, op, pes, words, words, host ? words : 0));
  pinet_status st = PINET_OK;
  switch (op) {
    /* from PE 0: half the words down each tree (F takes the odd one) */
    case PINET_SHUFFLE_OP_BCAST: st = build_two_trees(s, words / 2u + (words & 1u), 0); break;
    /* from the host: the host link carries M words anyway, so F alone keeps up with it */
    case PINET_SHUFFLE_OP_BCAST_HOST: st = build_two_trees(s, words, 1); break;
    case PINET_SHUFFLE_OP_SCATTER: st = build_scatter_fast(s); break;
    case PINET_SHUFFLE_OP_UPLOAD: st = build_upload_fast(s); break;
    case PINET_SHUFFLE_OP_GATHER: st = build_gather_fast(s); break;
    case PINET_SHUFFLE_OP_ALLGATHER:
      st = build_around_ring(s, 0, pes / 2u, PINET_SHUFFLE_COPY);
      break;
    case PINET_SHUFFLE_OP_INTEGRATE: /* int32 only: see above */
      st = build_around_ring(s, pes / 2u, 1, PINET_SHUFFLE_ADD);
      break;
    default: st = PINET_ERR_RANGE; break; /* not reached: the quantum refused the op */
  }
  return shuffle_schedule_hand_over(s, st, out);
}

pinet_status pinet_shuffle_build_fast(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                      uint32_t pes, uint32_t words) {
  /* a schedule for any element type: integrate keeps the paper's tree */
  return pinet_shuffle_build_fast_typed(out, op, pes, words, PINET_SHUFFLE_F64);
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

pinet_status pinet_shuffle_build_kind_typed(pinet_shuffle_schedule **out, pinet_shuffle_kind kind,
                                            pinet_shuffle_op op, uint32_t pes, uint32_t words,
                                            pinet_shuffle_elem elem) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(pinet_shuffle_elem_size(elem) == 0, PINET_ERR_RANGE);
  switch (kind) {
    case PINET_SHUFFLE_PAPER: return pinet_shuffle_build(out, op, pes, words);
    case PINET_SHUFFLE_FAST: return pinet_shuffle_build_fast_typed(out, op, pes, words, elem);
    default: return PINET_ERR_RANGE; /* a value outside the enum, e.g. from a cast */
  }
}

pinet_status pinet_shuffle_build_kind(pinet_shuffle_schedule **out, pinet_shuffle_kind kind,
                                      pinet_shuffle_op op, uint32_t pes, uint32_t words) {
  return pinet_shuffle_build_kind_typed(out, kind, op, pes, words, PINET_SHUFFLE_F64);
}
