/* shuffle_fast_allgather.c - the fast all-to-all broadcast (issue 11): segments travel both ways
 * around the embedded ring (pinet_shuffle_ring), one ring hop per step, so every PE receives on
 * two channels at once; PE 0 (and every PE) then takes in (M - S)/2 words per channel, the link
 * bound, plus a setup cycle per step. Timing and proof: docs/shuffle.md section 13. */
#include <stdlib.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

static pinet_status put(pinet_shuffle_schedule *s, uint32_t src, uint32_t dst, uint32_t channel,
                        uint32_t offset, uint32_t words) {
  if (words == 0) {
    return PINET_OK; /* S = 1: the last step's second half is empty */
  }
  pinet_shuffle_transfer t = {(int32_t)src, (int32_t)dst, channel, offset, offset, words,
                              PINET_SHUFFLE_COPY, 0};
  return pinet_shuffle_schedule_add(s, &t);
}

/* Ring positions r (PE ring[r]; N = 2: the ring 0, 1, each PE both neighbours of the other, over
 * two different links): in step t = 1 .. N/2 - 1 the PE at r sends to its ring
 * successor the segment it got from its predecessor in step t - 1 (its own in step 1), i.e.
 * ring[r - t + 1]'s, and to its predecessor ring[r + t - 1]'s; it receives ring[r - t]'s and
 * ring[r + t]'s. After N/2 - 1 steps it lacks ring[r + N/2]'s segment only, which both of its
 * neighbours hold: in step N/2 the first ceil(S/2) words come clockwise, the rest the other way. */
static pinet_status allgather_ring(pinet_shuffle_schedule *s, const uint32_t *ring,
                                   uint32_t seg) {
  uint32_t N = s->pes, half = N / 2u, lo = seg / 2u + (seg & 1u);
  for (uint32_t t = 1; t <= half; t++) {
    FORWARD_IF_ERROR(pinet_shuffle_schedule_add_step(s));
    for (uint32_t r = 0; r < N; r++) {
      uint32_t a = ring[r], b = ring[(r + 1u) % N];
      uint32_t to_next = 0, to_prev = 0;
      shuffle_ring_edge_channels(N, a, b, &to_next, &to_prev);
      uint32_t cw = ring[(r + N - (t - 1u)) % N];  /* a -> b */
      uint32_t ccw = ring[(r + t) % N];            /* b -> a: ring[(r + 1) + t - 1] */
      if (t < half) {
        FORWARD_IF_ERROR(put(s, a, b, to_next, cw * seg, seg));
        FORWARD_IF_ERROR(put(s, b, a, to_prev, ccw * seg, seg));
      } else {
        FORWARD_IF_ERROR(put(s, a, b, to_next, cw * seg, lo));
        FORWARD_IF_ERROR(put(s, b, a, to_prev, ccw * seg + lo, seg - lo));
      }
    }
  }
  return PINET_OK;
}

pinet_status shuffle_build_allgather_fast(pinet_shuffle_schedule *s) {
  uint32_t N = s->pes, seg = s->words / N;
  uint32_t *ring = malloc(N * sizeof *ring);
  RETURN_ERROR_IF(ring == NULL, PINET_ERR_NOMEM);
  /* N = 2: pinet_shuffle_ring wants N >= 4; the walk there gives 0, 1 */
  pinet_status st = N == 2u ? PINET_OK : pinet_shuffle_ring(N, ring);
  if (N == 2u) {
    ring[0] = 0;
    ring[1] = 1;
  }
  if (st == PINET_OK) {
    st = allgather_ring(s, ring, seg);
  }
  free(ring);
  return st;
}
