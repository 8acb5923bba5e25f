/* rta_fabric.c - cycle model of rtl/rta_ring.sv and rtl/rta_torus2d.sv: purely combinational, a
 * word presented on a PE port appears on the PE port the switches connect it to (SPEC §1.1: gates
 * only, a word crosses any chain of switches in the same cycle). */
#include <stddef.h>
#include <stdint.h>

#include "error_private.h"
#include "pinet/rta.h"

pinet_status pinet_rta_fabric_eval(const pinet_rta_geom *geom, const pinet_rta_port_ref *peer,
                                   const uint32_t *in, uint32_t *out) {
  RETURN_ERROR_IF(geom == NULL || peer == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  size_t n = (size_t)geom->pes * geom->ports_per_pe;
  for (size_t i = 0; i < n; i++) {
    RETURN_ERROR_IF(peer[i].pe >= geom->pes || peer[i].port >= geom->ports_per_pe,
                    PINET_ERR_RANGE);
  }
  for (size_t i = 0; i < n; i++) {
    out[i] = in[(size_t)peer[i].pe * geom->ports_per_pe + peer[i].port];
  }
  return PINET_OK;
}
