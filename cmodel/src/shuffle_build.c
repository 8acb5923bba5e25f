/* shuffle_build.c - the built-in schedules: pipelined tree broadcast (from PE 0 or fed by the
 * host), pipelined scatter, integration (reduce-scatter), all-to-all broadcast (allgather), gather
 * to PE 0, upload to the host, and the ring neighbour exchange. All use global addressing. */
#include <stdlib.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

pinet_status pinet_shuffle_words_quantum(pinet_shuffle_op op, uint32_t pes, uint32_t *quantum) {
  RETURN_ERROR_IF(quantum == NULL, PINET_ERR_NULL);
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  switch (op) {
    case PINET_SHUFFLE_OP_BCAST:
    case PINET_SHUFFLE_OP_BCAST_HOST: *quantum = n; return PINET_OK;
    case PINET_SHUFFLE_OP_SCATTER:
    case PINET_SHUFFLE_OP_INTEGRATE:
    case PINET_SHUFFLE_OP_ALLGATHER:
    case PINET_SHUFFLE_OP_GATHER:
    case PINET_SHUFFLE_OP_UPLOAD: *quantum = pes; return PINET_OK;
    default: return PINET_ERR_RANGE;
  }
}

/* Append one transfer between src and dst on `channel` with global addressing. */
static pinet_status put(pinet_shuffle_schedule *s, int32_t src, int32_t dst, uint32_t channel,
                        uint32_t offset, uint32_t words, pinet_shuffle_combine combine) {
  pinet_shuffle_transfer t = {src, dst, channel, offset, offset, words, combine, 0};
  return pinet_shuffle_schedule_add(s, &t);
}

/* The embedded binary tree: PE 0 -> PE 1 (forward link 1), PE p -> 2p, 2p+1 (forward links 2p,
 * 2p+1) for 1 <= p < N/2. Depth of PE 0 is 0, of PE q >= 1 floor(log2 q) + 1; depth t holds PEs
 * 2^(t-1) .. 2^t - 1. Hop t (t >= 1) goes from depth t-1 to depth t. */

/* Broadcast: hop t of packet k (offset k*q, q words) from depth t-1 to depth t. */
static pinet_status bcast_hop(pinet_shuffle_schedule *s, uint32_t t, uint32_t off, uint32_t q) {
  if (t == 1) {
    return put(s, 0, 1, PINET_SHUFFLE_CH_FWD(s->pes, 1), off, q, PINET_SHUFFLE_COPY);
  }
  for (uint32_t p = 1u << (t - 2); p < (1u << (t - 1)); p++) {
    for (uint32_t b = 0; b < 2; b++) {
      uint32_t c = 2u * p + b;
      FORWARD_IF_ERROR(put(s, (int32_t)p, (int32_t)c, PINET_SHUFFLE_CH_FWD(s->pes, c), off, q,
                           PINET_SHUFFLE_COPY));
    }
  }
  return PINET_OK;
}

/* Broadcast, packets k = 0..n-1 of q = M/n words. From PE 0: packet k takes hop t in step k + t
 * (1-based), 2n - 1 steps. Fed by the host: hop 0 (host -> PE 0) of packet k is step k + 1 and
 * hop t is step k + 1 + t, 2n steps. Within a step the deepest hop comes first. */
static pinet_status build_bcast(pinet_shuffle_schedule *s, int host) {
  uint32_t n = s->n, q = s->words / n;
  uint32_t steps = host ? 2u * n : 2u * n - 1u;
  for (uint32_t step = 1; step <= steps; step++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    for (uint32_t t = n + 1u; t-- > (host ? 0u : 1u);) {
      /* packet k takes hop t in step k + t + host (1-based) */
      if (step < t + (uint32_t)host) {
        continue;
      }
      uint32_t k = step - t - (uint32_t)host;
      if (k >= n) {
        continue;
      }
      if (t == 0) {
        FORWARD_IF_ERROR(put(s, PINET_SHUFFLE_HOST, 0, PINET_SHUFFLE_CH_HOST_DOWN(s->pes), k * q, q,
                             PINET_SHUFFLE_COPY));
      } else {
        FORWARD_IF_ERROR(bcast_hop(s, t, k * q, q));
      }
    }
  }
  return PINET_OK;
}

/* Scatter/gather packets: packet d (0..n) carries the segments of the depth-d PEs, 2^(d-1) .. 2^d
 * - 1 (d = 0: PE 0's). Within the subtree of a depth-t PE q (t <= d) these are the PEs
 * q 2^(d-t) .. (q+1) 2^(d-t) - 1: 2^(d-t) segments at offset q 2^(d-t) S. */
static void packet_part(uint32_t d, uint32_t t, uint32_t q, uint32_t seg, uint32_t *off,
                        uint32_t *words) {
  if (d == 0) { /* PE 0's own segment, only ever on the host link */
    *off = 0;
    *words = seg;
    return;
  }
  if (t == 0) { /* the host hop carries the whole packet, like PE 0 -> PE 1 (q = 1, t = 1) */
    t = 1;
    q = 1;
  }
  uint32_t span = 1u << (d - t);
  *off = q * span * seg;
  *words = span * seg;
}

/* Scatter: packet d takes hop t (t = 0: host -> PE 0, t = 1: PE 0 -> PE 1, t >= 2: depth t-1 ->
 * depth t) in step n + 1 - d + t; n + 1 steps; deepest packet first within a step. */
static pinet_status build_scatter(pinet_shuffle_schedule *s) {
  uint32_t n = s->n, seg = s->words / s->pes;
  for (uint32_t step = 1; step <= n + 1u; step++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    for (uint32_t d = n + 1u; d-- > 0;) {
      if (step + d < n + 1u) {
        continue;
      }
      uint32_t t = step + d - (n + 1u);
      if (t > d) {
        continue;
      }
      uint32_t off = 0, words = 0;
      if (t == 0) {
        packet_part(d, 0, 0, seg, &off, &words);
        FORWARD_IF_ERROR(put(s, PINET_SHUFFLE_HOST, 0, PINET_SHUFFLE_CH_HOST_DOWN(s->pes), off,
                             words, PINET_SHUFFLE_COPY));
      } else if (t == 1) {
        packet_part(d, 1, 1, seg, &off, &words);
        FORWARD_IF_ERROR(put(s, 0, 1, PINET_SHUFFLE_CH_FWD(s->pes, 1), off, words,
                             PINET_SHUFFLE_COPY));
      } else {
        for (uint32_t p = 1u << (t - 2); p < (1u << (t - 1)); p++) {
          for (uint32_t b = 0; b < 2; b++) {
            uint32_t q = 2u * p + b;
            packet_part(d, t, q, seg, &off, &words);
            FORWARD_IF_ERROR(put(s, (int32_t)p, (int32_t)q, PINET_SHUFFLE_CH_FWD(s->pes, q), off,
                                 words, PINET_SHUFFLE_COPY));
          }
        }
      }
    }
  }
  return PINET_OK;
}

/* Gather: the PE part of scatter reversed in time and direction. Packet d >= 1 goes from depth t
 * to depth t - 1 in step 1 + d - t (backward channels of the tree links), reaching PE 0 in step
 * d; n steps. Upload adds PE 0 -> host for packet d in step d + 1 (d = 0 in step 1); n + 1 steps. */
static pinet_status build_gather(pinet_shuffle_schedule *s, int host) {
  uint32_t n = s->n, seg = s->words / s->pes;
  uint32_t steps = host ? n + 1u : n;
  for (uint32_t step = 1; step <= steps; step++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    for (uint32_t d = n + 1u; d-- > 1;) {
      if (d + 1u < step) {
        continue;
      }
      uint32_t t = d + 1u - step; /* this step moves packet d from depth t to t - 1 */
      if (t < 1 || t > d) {
        continue;
      }
      uint32_t off = 0, words = 0;
      if (t == 1) {
        packet_part(d, 1, 1, seg, &off, &words);
        FORWARD_IF_ERROR(put(s, 1, 0, PINET_SHUFFLE_CH_BWD(s->pes, 1), off, words,
                             PINET_SHUFFLE_COPY));
      } else {
        for (uint32_t p = 1u << (t - 2); p < (1u << (t - 1)); p++) {
          for (uint32_t b = 0; b < 2; b++) {
            uint32_t q = 2u * p + b;
            packet_part(d, t, q, seg, &off, &words);
            FORWARD_IF_ERROR(put(s, (int32_t)q, (int32_t)p, PINET_SHUFFLE_CH_BWD(s->pes, q), off,
                                 words, PINET_SHUFFLE_COPY));
          }
        }
      }
    }
    if (host) { /* packet step - 1 is complete in PE 0: upload it */
      uint32_t off = 0, words = 0;
      packet_part(step - 1u, 0, 0, seg, &off, &words);
      FORWARD_IF_ERROR(put(s, 0, PINET_SHUFFLE_HOST, PINET_SHUFFLE_CH_HOST_UP(s->pes), off, words,
                           PINET_SHUFFLE_COPY));
    }
  }
  return PINET_OK;
}

/* Integration, step k = 1..n: PE i holds block i mod 2^(k-1) of size M/2^(k-1); it sends half b
 * over forward link 2i + b to PE (2i + b) mod N, whose new block is (2i + b) mod 2^k of size
 * M/2^k at the same addresses. PE j receives on link j (from floor(j/2): COPY) and link j + N
 * (from floor(j/2) + N/2: ADD). Transfers in link order, so the COPY of each pair comes first. */
static pinet_status build_integrate(pinet_shuffle_schedule *s) {
  uint32_t n = s->n, N = s->pes, m = s->words;
  for (uint32_t k = 1; k <= n; k++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    uint32_t half = m >> k, mask = (1u << (k - 1u)) - 1u;
    for (uint32_t l = 0; l < 2u * N; l++) {
      uint32_t i = l / 2u, b = l & 1u;
      uint32_t off = (i & mask) * 2u * half + b * half;
      FORWARD_IF_ERROR(put(s, (int32_t)i, (int32_t)(l % N), PINET_SHUFFLE_CH_FWD(N, l), off, half,
                           l < N ? PINET_SHUFFLE_COPY : PINET_SHUFFLE_ADD));
    }
  }
  return PINET_OK;
}

/* All-to-all broadcast, step k = 1..n (m = n + 1 - k): PE j sends its block j mod 2^m of size
 * M/2^m back over links j and j + N to floor(j/2) and floor(j/2) + N/2 (backward channels). */
static pinet_status build_allgather(pinet_shuffle_schedule *s) {
  uint32_t n = s->n, N = s->pes, m = s->words;
  for (uint32_t k = 1; k <= n; k++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    uint32_t lev = n + 1u - k, size = m >> lev, mask = (1u << lev) - 1u;
    for (uint32_t l = 0; l < 2u * N; l++) {
      uint32_t j = l % N;
      FORWARD_IF_ERROR(put(s, (int32_t)j, (int32_t)(l / 2u), PINET_SHUFFLE_CH_BWD(N, l),
                           (j & mask) * size, size, PINET_SHUFFLE_COPY));
    }
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_build(pinet_shuffle_schedule **out, pinet_shuffle_op op, uint32_t pes,
                                 uint32_t words) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  uint32_t quantum = 0;
  FORWARD_IF_ERROR(pinet_shuffle_words_quantum(op, pes, &quantum));
  RETURN_ERROR_IF(words == 0 || words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(words % quantum != 0, PINET_ERR_MISMATCH);
  int host = op == PINET_SHUFFLE_OP_BCAST_HOST || op == PINET_SHUFFLE_OP_SCATTER ||
             op == PINET_SHUFFLE_OP_UPLOAD;
  pinet_shuffle_schedule *s = NULL;
  FORWARD_IF_ERROR(shuffle_schedule_alloc(&s, op, pes, words, words, host ? words : 0));
  pinet_status st = PINET_OK;
  switch (op) {
    case PINET_SHUFFLE_OP_BCAST: st = build_bcast(s, 0); break;
    case PINET_SHUFFLE_OP_BCAST_HOST: st = build_bcast(s, 1); break;
    case PINET_SHUFFLE_OP_SCATTER: st = build_scatter(s); break;
    case PINET_SHUFFLE_OP_INTEGRATE: st = build_integrate(s); break;
    case PINET_SHUFFLE_OP_ALLGATHER: st = build_allgather(s); break;
    case PINET_SHUFFLE_OP_GATHER: st = build_gather(s, 0); break;
    case PINET_SHUFFLE_OP_UPLOAD: st = build_gather(s, 1); break;
    default: st = PINET_ERR_RANGE; break;
  }
  return shuffle_schedule_hand_over(s, st, out);
}

/* ---- ring exchange -------------------------------------------------------------------------- */

pinet_shuffle_ring_xchg pinet_shuffle_ring_xchg_default(uint32_t words) {
  pinet_shuffle_ring_xchg x;
  x.mem_words = 4u * words;
  x.words = words;
  x.next_src = 0;
  x.prev_src = words;
  x.next_dst = 2u * words; /* the successor stores what comes from its predecessor here */
  x.prev_dst = 3u * words; /* the predecessor stores what comes from its successor here */
  x.combine = PINET_SHUFFLE_COPY;
  return x;
}

void shuffle_ring_edge_channels(uint32_t pes, uint32_t a, uint32_t b, uint32_t *to_next,
                                uint32_t *to_prev) {
  if ((2u * a) % pes == b || (2u * a + 1u) % pes == b) {
    uint32_t link = (2u * a) % pes == b ? 2u * a : 2u * a + 1u;
    *to_next = PINET_SHUFFLE_CH_FWD(pes, link);
    *to_prev = PINET_SHUFFLE_CH_BWD(pes, link);
  } else {
    uint32_t link = (2u * b) % pes == a ? 2u * b : 2u * b + 1u;
    *to_next = PINET_SHUFFLE_CH_BWD(pes, link);
    *to_prev = PINET_SHUFFLE_CH_FWD(pes, link);
  }
}

static int region_ok(uint32_t off, uint32_t words, uint32_t mem) {
  return (uint64_t)off + words <= mem;
}

pinet_status pinet_shuffle_build_ring_exchange(pinet_shuffle_schedule **out, uint32_t pes,
                                               const uint32_t *ring,
                                               const pinet_shuffle_ring_xchg *layout) {
  RETURN_ERROR_IF(out == NULL || layout == NULL, PINET_ERR_NULL);
  *out = NULL;
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(n < 2, PINET_ERR_SIZE);
  const pinet_shuffle_ring_xchg *x = layout;
  RETURN_ERROR_IF(x->words == 0 || x->mem_words == 0 || x->mem_words > PINET_SHUFFLE_MAX_WORDS,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!region_ok(x->next_src, x->words, x->mem_words) ||
                      !region_ok(x->next_dst, x->words, x->mem_words) ||
                      !region_ok(x->prev_src, x->words, x->mem_words) ||
                      !region_ok(x->prev_dst, x->words, x->mem_words),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(x->combine != PINET_SHUFFLE_COPY && x->combine != PINET_SHUFFLE_ADD,
                  PINET_ERR_RANGE);
  uint32_t *own = NULL;
  if (ring == NULL) {
    own = malloc(pes * sizeof *own);
    RETURN_ERROR_IF(own == NULL, PINET_ERR_NOMEM);
    pinet_status st = pinet_shuffle_ring(pes, own);
    if (st != PINET_OK) {
      free(own);
      return st;
    }
    ring = own;
  }
  int valid = 0;
  pinet_status st = pinet_shuffle_ring_check(pes, ring, pes, &valid);
  if (st == PINET_OK && !valid) {
    st = PINET_ERR_ILLEGAL_STATE;
  }
  pinet_shuffle_schedule *s = NULL;
  if (st == PINET_OK) {
    st = shuffle_schedule_alloc(&s, PINET_SHUFFLE_OP_RING_EXCHANGE, pes, x->mem_words,
                                x->mem_words, 0);
  }
  if (st == PINET_OK) {
    st = pinet_shuffle_schedule_add_step(s);
  }
  for (uint32_t r = 0; r < pes && st == PINET_OK; r++) {
    uint32_t a = ring[r], b = ring[(r + 1u) % pes];
    uint32_t fwd_ch = 0, back_ch = 0;
    shuffle_ring_edge_channels(pes, a, b, &fwd_ch, &back_ch);
    pinet_shuffle_transfer to_next = {(int32_t)a, (int32_t)b, fwd_ch, x->next_src, x->next_dst,
                                      x->words, x->combine, 0};
    pinet_shuffle_transfer to_prev = {(int32_t)b, (int32_t)a, back_ch, x->prev_src, x->prev_dst,
                                      x->words, x->combine, 0};
    st = pinet_shuffle_schedule_add(s, &to_next);
    if (st == PINET_OK) {
      st = pinet_shuffle_schedule_add(s, &to_prev);
    }
  }
  free(own);
  return shuffle_schedule_hand_over(s, st, out);
}

/* N = 2: PE 0 and PE 1 are each other's ring successor and predecessor; the block to the
 * successor and the block to the predecessor take the two channels from one PE to the other, in
 * ascending channel order (the RTL's out 1 / out 3 from PE 0, out 0 / out 2 from PE 1). */
static pinet_status build_ring_exchange_two(const pinet_shuffle_ring_xchg *x,
                                            pinet_shuffle_schedule **out) {
  uint32_t ch01[4], ch10[4];
  size_t n01 = 0, n10 = 0;
  FORWARD_IF_ERROR(pinet_shuffle_channels_between(2, 0, 1, ch01, &n01));
  FORWARD_IF_ERROR(pinet_shuffle_channels_between(2, 1, 0, ch10, &n10));
  RETURN_ERROR_IF(n01 < 2 || n10 < 2, PINET_ERR_ILLEGAL_STATE);
  pinet_shuffle_schedule *s = NULL;
  FORWARD_IF_ERROR(shuffle_schedule_alloc(&s, PINET_SHUFFLE_OP_RING_EXCHANGE, 2, x->mem_words,
                                          x->mem_words, 0));
  const pinet_shuffle_transfer t[4] = {
      {0, 1, ch01[0], x->next_src, x->next_dst, x->words, x->combine, 0},
      {0, 1, ch01[1], x->prev_src, x->prev_dst, x->words, x->combine, 0},
      {1, 0, ch10[0], x->next_src, x->next_dst, x->words, x->combine, 0},
      {1, 0, ch10[1], x->prev_src, x->prev_dst, x->words, x->combine, 0}};
  pinet_status st = pinet_shuffle_schedule_add_step(s);
  for (int i = 0; i < 4 && st == PINET_OK; i++) {
    st = pinet_shuffle_schedule_add(s, &t[i]);
  }
  return shuffle_schedule_hand_over(s, st, out);
}

pinet_status pinet_shuffle_build_ring_exchange_default(pinet_shuffle_schedule **out, uint32_t pes,
                                                       uint32_t words) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(words == 0 || words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(words % 4u != 0, PINET_ERR_MISMATCH);
  const pinet_shuffle_ring_xchg x = pinet_shuffle_ring_xchg_default(words / 4u);
  if (pes == 2) {
    return build_ring_exchange_two(&x, out);
  }
  return pinet_shuffle_build_ring_exchange(out, pes, NULL, &x);
}
