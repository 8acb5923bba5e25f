/* rta_route.c - where every PE port of an RTA leads for any switch bitmap (general RTA).
 *
 * One ring of S PEs: PE 2m R is wired to PE 2m+1 L. The bypass line runs PE 0 L - (t3 sw0 t4) -
 * (t3 sw1 t4) - ... - (t3 sw(M-1) t4) - PE S-1 R; call its pieces segments 0..M (segment s lies
 * between switch s-1 and switch s). An ON switch p joins its terminals 1-2 (PE 2p+1 R to PE 2p+2 L)
 * and passes segment p through to segment p+1; an OFF switch p ends segment p at PE 2p+1 R (1-3)
 * and starts segment p+1 at PE 2p+2 L (2-4). So one left-to-right sweep pairs the two ends of every
 * run of segments joined by ON switches. */
#include <stddef.h>
#include <stdint.h>

#include "error_private.h"
#include "pinet/rta.h"

typedef struct ring_ctx {
  pinet_rta_port_ref *peer;
  uint32_t ports_per_pe;
  uint32_t pe0;       /* scalar number of ring PE 0 */
  uint32_t pe_stride; /* scalar distance between consecutive ring PEs */
  uint32_t lo, hi;    /* the ring's "L" and "R" ports (U and D along a column) */
} ring_ctx;

static void link_ports(const ring_ctx *rc, uint32_t a, uint32_t pa, uint32_t b, uint32_t pb) {
  uint32_t ga = rc->pe0 + a * rc->pe_stride;
  uint32_t gb = rc->pe0 + b * rc->pe_stride;
  rc->peer[ga * rc->ports_per_pe + pa].pe = gb;
  rc->peer[ga * rc->ports_per_pe + pa].port = pb;
  rc->peer[gb * rc->ports_per_pe + pb].pe = ga;
  rc->peer[gb * rc->ports_per_pe + pb].port = pa;
}

/* Route one ring of `side` PEs whose switch p has state sw[p]. */
static void route_ring(const ring_ctx *rc, uint32_t side, const uint8_t *sw) {
  uint32_t M = side / 2u - 1u;
  for (uint32_t m = 0; m < side / 2u; m++) {
    link_ports(rc, 2u * m, rc->hi, 2u * m + 1u, rc->lo);
  }
  uint32_t run_pe = 0; /* PE whose lo port starts the current run of segments */
  for (uint32_t p = 0; p < M; p++) {
    if (sw[p]) {
      link_ports(rc, 2u * p + 1u, rc->hi, 2u * p + 2u, rc->lo);
    } else {
      link_ports(rc, run_pe, rc->lo, 2u * p + 1u, rc->hi);
      run_pe = 2u * p + 2u;
    }
  }
  link_ports(rc, run_pe, rc->lo, side - 1u, rc->hi);
}

pinet_status pinet_rta_route(const pinet_rta_geom *geom, const uint8_t *bits,
                             pinet_rta_port_ref *peer) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL || peer == NULL, PINET_ERR_NULL);
  uint32_t side = geom->side, M = geom->ring_switches;
  ring_ctx rc;
  rc.peer = peer;
  rc.ports_per_pe = geom->ports_per_pe;
  if (geom->dim == 1u) {
    rc.pe0 = 0;
    rc.pe_stride = 1;
    rc.lo = PINET_RTA_PORT_L;
    rc.hi = PINET_RTA_PORT_R;
    route_ring(&rc, side, bits);
    return PINET_OK;
  }
  for (uint32_t r = 0; r < side; r++) { /* horizontal rings */
    rc.pe0 = r * side;
    rc.pe_stride = 1;
    rc.lo = PINET_RTA_PORT_L;
    rc.hi = PINET_RTA_PORT_R;
    route_ring(&rc, side, bits + (size_t)r * M);
  }
  for (uint32_t c = 0; c < side; c++) { /* vertical rings, U as L, D as R */
    rc.pe0 = c;
    rc.pe_stride = side;
    rc.lo = PINET_RTA_PORT_U;
    rc.hi = PINET_RTA_PORT_D;
    route_ring(&rc, side, bits + (size_t)side * M + (size_t)c * M);
  }
  return PINET_OK;
}
