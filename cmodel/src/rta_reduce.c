/* rta_reduce.c - the basic parallel transfer of SRTA (paper 004 §3.4.1, §4.2): reduce to PE 0.
 *
 * 1D, level l = 1 .. L-1 (SRTA level l set): the PE on terminal 1 of every level-(l+1) switch
 * (PE 2p+1) sends out of its R port, through the OFF switch and the bypass, to the first PE of its
 * level-l ring; the PE on terminal 2 (PE 2p+2) sends out of its L port to the last PE of its ring.
 * At level L, PE N-1 sends out of R to PE 0. Receivers combine with the operator, senders go idle.
 * 2D: at every level a horizontal step in every row, then a vertical step in every column (D for
 * R, U for L); only PEs that still hold data send. Destinations come from pinet_rta_route under the
 * level's SRTA bitmap. The schedule does not depend on the data and is built at create time. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/rta.h"

typedef struct rta_step {
  uint32_t level;
  uint32_t axis;
  pinet_rta_transfer *tr;
  size_t count;
} rta_step;

struct pinet_rta_reduce {
  pinet_rta_geom geom;
  pinet_rta_op op;
  uint32_t nsteps;
  uint32_t done;
  rta_step *steps;
  /* Per PE: its values (count 0 or 1, or a sorted list for SORT). A list is either the PE's slot
   * of `initial` or a buffer of its own (owned = 1). */
  int64_t *initial;
  int64_t **list;
  size_t *count;
  uint8_t *owned;
};

static uint32_t tz32(uint32_t x) {
  uint32_t n = 0;
  while ((x & 1u) == 0u) {
    x >>= 1;
    n++;
  }
  return n;
}

static int cmp_transfer(const void *pa, const void *pb) {
  const pinet_rta_transfer *a = pa, *b = pb;
  return (a->src > b->src) - (a->src < b->src);
}

/* Record the transfer of ring PE `idx` of ring `k` out of `port` if that PE still holds data. */
static void add_transfer(const pinet_rta_geom *g, uint32_t axis, uint32_t k, uint32_t idx,
                         uint32_t port, const pinet_rta_port_ref *peer, const uint8_t *holds,
                         rta_step *st) {
  uint32_t side = g->side;
  uint32_t pe = g->dim == 1u ? idx : (axis == 0u ? k * side + idx : idx * side + k);
  if (!holds[pe]) {
    return;
  }
  const pinet_rta_port_ref *dst = &peer[(size_t)pe * g->ports_per_pe + port];
  pinet_rta_transfer t = {pe, port, dst->pe, dst->port};
  st->tr[st->count++] = t;
}

/* Build the transfers of one step (level, axis) with the routing table `peer` of the level's
 * SRTA bitmap; `holds` is updated (senders stop holding). */
static pinet_status build_step(const pinet_rta_geom *g, uint32_t level, uint32_t axis,
                               const pinet_rta_port_ref *peer, uint8_t *holds, rta_step *st) {
  uint32_t side = g->side, M = g->ring_switches;
  uint32_t rings = g->dim == 1u ? 1u : side;
  /* level-(l+1) switches per ring: (M+1) / 2^l, two senders each; one sender at level L */
  size_t per_ring = level < g->levels ? 2u * ((M + 1u) >> level) : 1u;
  st->level = level;
  st->axis = axis;
  st->count = 0;
  st->tr = malloc(per_ring * rings * sizeof *st->tr);
  RETURN_ERROR_IF(st->tr == NULL, PINET_ERR_NOMEM);
  uint32_t lo = axis == 0u ? PINET_RTA_PORT_L : PINET_RTA_PORT_U;
  uint32_t hi = axis == 0u ? PINET_RTA_PORT_R : PINET_RTA_PORT_D;
  for (uint32_t k = 0; k < rings; k++) {
    if (level == g->levels) {
      add_transfer(g, axis, k, side - 1u, hi, peer, holds, st); /* PE N-1 -> PE 0 */
      continue;
    }
    for (uint32_t p = 0; p < M; p++) {
      if (tz32(p + 1u) + 2u != level + 1u) {
        continue;
      }
      add_transfer(g, axis, k, 2u * p + 1u, hi, peer, holds, st); /* terminal 1 sends right */
      add_transfer(g, axis, k, 2u * p + 2u, lo, peer, holds, st); /* terminal 2 sends left */
    }
  }
  for (size_t i = 0; i < st->count; i++) {
    holds[st->tr[i].src] = 0;
  }
  qsort(st->tr, st->count, sizeof *st->tr, cmp_transfer);
  return PINET_OK;
}

static pinet_status build_schedule(pinet_rta_reduce *red) {
  const pinet_rta_geom *g = &red->geom;
  size_t nports = (size_t)g->pes * g->ports_per_pe;
  uint8_t *bits = malloc(g->switches ? g->switches : 1u);
  uint8_t *holds = malloc(g->pes);
  pinet_rta_port_ref *peer = malloc(nports * sizeof *peer);
  pinet_status st = PINET_OK;
  if (bits == NULL || holds == NULL || peer == NULL) {
    st = PINET_ERR_NOMEM;
  } else {
    memset(holds, 1, g->pes);
    uint32_t s = 0;
    for (uint32_t level = 1; level <= g->levels && st == PINET_OK; level++) {
      st = pinet_rta_srta_bitmap(g, level, bits);
      if (st == PINET_OK) {
        st = pinet_rta_route(g, bits, peer);
      }
      for (uint32_t axis = 0; axis < g->dim && st == PINET_OK; axis++) {
        st = build_step(g, level, axis, peer, holds, &red->steps[s]);
        s++;
      }
    }
  }
  free(bits);
  free(holds);
  free(peer);
  return st;
}

void pinet_rta_reduce_free(pinet_rta_reduce *red) {
  if (red == NULL) {
    return;
  }
  if (red->steps != NULL) {
    for (uint32_t s = 0; s < red->nsteps; s++) {
      free(red->steps[s].tr);
    }
  }
  if (red->list != NULL && red->owned != NULL) {
    for (uint32_t pe = 0; pe < red->geom.pes; pe++) {
      if (red->owned[pe]) {
        free(red->list[pe]);
      }
    }
  }
  free(red->steps);
  free(red->initial);
  free(red->list);
  free(red->count);
  free(red->owned);
  free(red);
}

pinet_status pinet_rta_reduce_create(pinet_rta_reduce **out, const pinet_rta_geom *geom,
                                     pinet_rta_op op, const int64_t *values) {
  RETURN_ERROR_IF(out == NULL || geom == NULL || values == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(op != PINET_RTA_OP_SUM && op != PINET_RTA_OP_MAX && op != PINET_RTA_OP_MIN &&
                      op != PINET_RTA_OP_SORT,
                  PINET_ERR_RANGE);
  pinet_rta_reduce *red = calloc(1, sizeof *red);
  RETURN_ERROR_IF(red == NULL, PINET_ERR_NOMEM);
  red->geom = *geom;
  red->op = op;
  red->nsteps = geom->levels * geom->dim;
  uint32_t n = geom->pes;
  red->steps = calloc(red->nsteps, sizeof *red->steps);
  red->initial = malloc((size_t)n * sizeof *red->initial);
  red->list = malloc((size_t)n * sizeof *red->list);
  red->count = malloc((size_t)n * sizeof *red->count);
  red->owned = calloc(n, 1);
  if (red->steps == NULL || red->initial == NULL || red->list == NULL || red->count == NULL ||
      red->owned == NULL) {
    pinet_rta_reduce_free(red);
    return PINET_ERR_NOMEM;
  }
  for (uint32_t pe = 0; pe < n; pe++) {
    red->initial[pe] = values[pe];
    red->list[pe] = &red->initial[pe];
    red->count[pe] = 1;
  }
  pinet_status st = build_schedule(red);
  if (st != PINET_OK) {
    pinet_rta_reduce_free(red);
    return st;
  }
  *out = red;
  return PINET_OK;
}

uint32_t pinet_rta_reduce_step_count(const pinet_rta_reduce *red) {
  return red == NULL ? 0u : red->nsteps;
}

uint32_t pinet_rta_reduce_steps_done(const pinet_rta_reduce *red) {
  return red == NULL ? 0u : red->done;
}

/* Receiver `dst` combines the values of `src`; src ends empty. */
static pinet_status combine(pinet_rta_reduce *red, uint32_t src, uint32_t dst) {
  size_t cs = red->count[src], cd = red->count[dst];
  if (cs == 0u) {
    return PINET_OK;
  }
  if (cd == 0u) { /* cannot happen in the basic scheme: receivers always hold data */
    red->list[dst] = red->list[src];
    red->count[dst] = cs;
    red->owned[dst] = red->owned[src];
    red->list[src] = &red->initial[src];
    red->owned[src] = 0;
    red->count[src] = 0;
    return PINET_OK;
  }
  int64_t *a = red->list[dst], *b = red->list[src];
  switch (red->op) {
    case PINET_RTA_OP_SUM: a[0] = (int64_t)((uint64_t)a[0] + (uint64_t)b[0]); break;
    case PINET_RTA_OP_MAX: a[0] = b[0] > a[0] ? b[0] : a[0]; break;
    case PINET_RTA_OP_MIN: a[0] = b[0] < a[0] ? b[0] : a[0]; break;
    case PINET_RTA_OP_SORT: {
      int64_t *m = malloc((cs + cd) * sizeof *m);
      RETURN_ERROR_IF(m == NULL, PINET_ERR_NOMEM);
      size_t i = 0, j = 0, k = 0;
      while (i < cd && j < cs) {
        m[k++] = b[j] < a[i] ? b[j++] : a[i++];
      }
      while (i < cd) {
        m[k++] = a[i++];
      }
      while (j < cs) {
        m[k++] = b[j++];
      }
      if (red->owned[dst]) {
        free(a);
      }
      if (red->owned[src]) {
        free(b);
      }
      red->list[dst] = m;
      red->owned[dst] = 1;
      red->count[dst] = cs + cd;
      red->list[src] = &red->initial[src];
      red->owned[src] = 0;
      break;
    }
    default: return PINET_ERR_RANGE;
  }
  red->count[src] = 0;
  return PINET_OK;
}

pinet_status pinet_rta_reduce_step(pinet_rta_reduce *red) {
  RETURN_ERROR_IF(red == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(red->done >= red->nsteps, PINET_ERR_RANGE);
  const rta_step *st = &red->steps[red->done];
  /* Senders and receivers of one step are disjoint, so the simultaneous transfers can be applied
   * one after the other. */
  for (size_t i = 0; i < st->count; i++) {
    FORWARD_IF_ERROR(combine(red, st->tr[i].src, st->tr[i].dst));
  }
  red->done++;
  return PINET_OK;
}

pinet_status pinet_rta_reduce_run(pinet_rta_reduce *red) {
  RETURN_ERROR_IF(red == NULL, PINET_ERR_NULL);
  while (red->done < red->nsteps) {
    FORWARD_IF_ERROR(pinet_rta_reduce_step(red));
  }
  return PINET_OK;
}

pinet_status pinet_rta_reduce_step_info(const pinet_rta_reduce *red, uint32_t step,
                                        uint32_t *level, uint32_t *axis,
                                        const pinet_rta_transfer **transfers, size_t *count) {
  RETURN_ERROR_IF(red == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(step >= red->nsteps, PINET_ERR_RANGE);
  const rta_step *st = &red->steps[step];
  if (level != NULL) {
    *level = st->level;
  }
  if (axis != NULL) {
    *axis = st->axis;
  }
  if (transfers != NULL) {
    *transfers = st->tr;
  }
  if (count != NULL) {
    *count = st->count;
  }
  return PINET_OK;
}

pinet_status pinet_rta_reduce_pe_values(const pinet_rta_reduce *red, uint32_t pe,
                                        const int64_t **values, size_t *count) {
  RETURN_ERROR_IF(red == NULL || values == NULL || count == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pe >= red->geom.pes, PINET_ERR_RANGE);
  *values = red->list[pe];
  *count = red->count[pe];
  return PINET_OK;
}
