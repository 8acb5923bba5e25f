/* rta_distance.c - distance in the SRTA union graph with the paper's recursive algorithm (paper 004
 * §3.3, theorems 1-3; 2D by theorem 6) and the distance statistics of Tables 1 and 2.
 *
 * A hop may use the adjacency of any level. For a level-l sub-torus T with base q the four special
 * PEs of theorem 1 are X1 = q, X2 = q + 2^(l-1) - 1, X3 = q + 2^(l-1), X4 = q + 2^l - 1; they form
 * the 4-cycle X1-X2-X3-X4-X1 (X1-X2 and X3-X4 are level-(l-1) ring closures, X2-X3 consecutive PEs,
 * X1-X4 the level-l ring closure).
 *
 * STEP 1: l* is the level at which S and E first lie in different sub-tori; T is the level-(l*+1)
 * sub-torus holding both. With h the highest bit in which S and E differ, l* = h and T has base
 * S with its low h+1 bits cleared.
 * STEP 2: T's four level-(l*-1) quarters each hold exactly one X_i (X1 in the first, X2 in the
 * second, X3 in the third, X4 in the fourth); X_S and X_E are those of S's and E's quarters, at
 * distance 1 (X1-X4, X2-X3) or 2 (X1-X3, X2-X4: theorem 2 and the lemma let the path cross the
 * X1-X4 link, X1 -> X4 -> X3 or X2 -> X1 -> X4).
 * STEP 3: recurse on (S, X_S) inside S's quarter and on (X_E, E) inside E's quarter, stopping when
 * X_S = S or X_E = E. If S and E differ only in bit 0 they are the two PEs of a level-1 torus
 * (distance 1). X_S is an end PE of S's quarter, hence of every smaller sub-torus holding it, so
 * one of the two recursive calls stops at once: O(log N) calls in all. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "error_private.h"
#include "pinet/rta.h"

/* The longest shortest path of a ring of 2^16 PEs has 2*16-2 hops; 2D adds two rings of 2^10. */
#define RTA_PATH_MAX 64u

typedef struct path_buf {
  uint32_t v[RTA_PATH_MAX];
  size_t n;
} path_buf;

static void path_push(path_buf *pb, uint32_t pe) {
  if (pb->n < RTA_PATH_MAX) {
    pb->v[pb->n] = pe;
  }
  pb->n++;
}

static uint32_t high_bit(uint32_t x) {
  uint32_t h = 0;
  while (x > 1u) {
    x >>= 1;
    h++;
  }
  return h;
}

/* Append the PEs after `a` up to and including `b` of a shortest path from a to b (one ring). */
static void ring_path(uint32_t a, uint32_t b, path_buf *pb) {
  if (a == b) {
    return;
  }
  uint32_t h = high_bit(a ^ b); /* l* = h: different level-h tori, same level-(h+1) torus T */
  if (h == 0u) {                /* theorem 1, l = 1: the two PEs of a level-1 torus */
    path_push(pb, b);
    return;
  }
  uint32_t q = a & ~((2u << h) - 1u);
  const uint32_t x[4] = {q, q + (1u << h) - 1u, q + (1u << h), q + (2u << h) - 1u};
  uint32_t qa = (a >> (h - 1u)) & 3u; /* quarter of T holding a (and X_qa) */
  uint32_t qb = (b >> (h - 1u)) & 3u;
  ring_path(a, x[qa], pb); /* STEP 3 inside a's quarter (stops at once if a == X_S) */
  if (qa + qb != 3u) {     /* X1-X3 or X2-X4: distance 2 across the X1-X4 link */
    uint32_t via = (qa == 0u || qa == 2u) ? x[3] : x[0];
    path_push(pb, via);
  }
  path_push(pb, x[qb]);    /* STEP 2: X_S -> X_E */
  ring_path(x[qb], b, pb); /* STEP 3 inside b's quarter */
}

pinet_status pinet_rta_distance(const pinet_rta_geom *geom, uint32_t from, uint32_t to,
                                uint32_t *distance, uint32_t *path, size_t path_cap,
                                size_t *path_len) {
  RETURN_ERROR_IF(geom == NULL || distance == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(from >= geom->pes || to >= geom->pes, PINET_ERR_RANGE);
  path_buf pb;
  pb.n = 0;
  path_push(&pb, from);
  if (geom->dim == 1u) {
    ring_path(from, to, &pb);
  } else { /* theorem 6: along row r1 to column c2, then along column c2 to row r2 */
    uint32_t side = geom->side;
    uint32_t r1 = from / side, c1 = from % side, r2 = to / side, c2 = to % side;
    path_buf h, v;
    h.n = 0;
    v.n = 0;
    ring_path(c1, c2, &h);
    ring_path(r1, r2, &v);
    for (size_t i = 0; i < h.n; i++) {
      path_push(&pb, r1 * side + h.v[i]);
    }
    for (size_t i = 0; i < v.n; i++) {
      path_push(&pb, v.v[i] * side + c2);
    }
  }
  RETURN_ERROR_IF(pb.n > RTA_PATH_MAX, PINET_ERR_RANGE); /* cannot happen within the maxima */
  uint32_t d = (uint32_t)(pb.n - 1u);
  if (path != NULL) {
    RETURN_ERROR_IF(path_cap < pb.n, PINET_ERR_RANGE);
    for (size_t i = 0; i < pb.n; i++) {
      path[i] = pb.v[i];
    }
  }
  *distance = d;
  if (path_len != NULL) {
    *path_len = pb.n;
  }
  return PINET_OK;
}

/* ---- statistics -------------------------------------------------------------------------- */

/* Histogram of the distance over ordered pairs (a, b) of one ring, a == b included (hist[0]).
 * hist has RTA_PATH_MAX entries. */
static pinet_status ring_histogram(const pinet_rta_geom *ring, uint64_t *hist) {
  for (size_t i = 0; i < RTA_PATH_MAX; i++) {
    hist[i] = 0;
  }
  for (uint32_t a = 0; a < ring->side; a++) {
    hist[0]++;
    for (uint32_t b = a + 1u; b < ring->side; b++) {
      uint32_t d = 0;
      FORWARD_IF_ERROR(pinet_rta_distance(ring, a, b, &d, NULL, 0, NULL));
      RETURN_ERROR_IF(d >= RTA_PATH_MAX, PINET_ERR_RANGE);
      hist[d] += 2u;
    }
  }
  return PINET_OK;
}

pinet_status pinet_rta_stats_compute(const pinet_rta_geom *geom, pinet_rta_stats *stats) {
  RETURN_ERROR_IF(geom == NULL || stats == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(geom->side > 4096u, PINET_ERR_RANGE);
  pinet_rta_geom ring;
  FORWARD_IF_ERROR(pinet_rta_geom_init(&ring, 1, geom->side));
  uint64_t h1[RTA_PATH_MAX];
  FORWARD_IF_ERROR(ring_histogram(&ring, h1));
  uint64_t hist[2u * RTA_PATH_MAX];
  for (size_t i = 0; i < 2u * RTA_PATH_MAX; i++) {
    hist[i] = 0;
  }
  if (geom->dim == 1u) {
    for (size_t i = 0; i < RTA_PATH_MAX; i++) {
      hist[i] = h1[i];
    }
  } else { /* theorem 5: the 2D distance is the sum of a row and a column distance */
    for (size_t i = 0; i < RTA_PATH_MAX; i++) {
      for (size_t j = 0; j < RTA_PATH_MAX; j++) {
        hist[i + j] += h1[i] * h1[j];
      }
    }
  }
  uint64_t pairs = (uint64_t)geom->pes * (geom->pes - 1u);
  double total = 0.0;
  uint32_t diam = 0;
  for (size_t d = 1; d < 2u * RTA_PATH_MAX; d++) {
    if (hist[d] != 0u) {
      diam = (uint32_t)d;
      total += (double)d * (double)hist[d];
    }
  }
  stats->diameter = diam;
  stats->average = total / (double)pairs;
  stats->diameter_pairs = hist[diam] / 2u;
  return PINET_OK;
}
