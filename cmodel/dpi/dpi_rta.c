/* dpi_rta.c - libpinet_dpi: the RTA's routing, fabric evaluation and bitmap controller
 * (pinet/dpi.h, docs/dpi.md) on pinet/rta.h. */
#include <stdlib.h>

#include "dpi_private.h"
#include "pinet/rta.h"

typedef struct dpi_rta {
  pinet_rta_geom geom;
  uint32_t ports;
  uint8_t *bits;            /* switches: the fabric bitmap */
  uint8_t *raw;             /* switches: the controller's raw bitmap input */
  uint32_t *in, *out;       /* ports */
  pinet_rta_port_ref *peer; /* ports: the last evaluation's routing */
  int evaluated;
  pinet_rta_ctrl *ctrl;
} dpi_rta;

void pinet_dpi_rta_free(void *handle) {
  dpi_rta *r = handle;
  if (r == NULL) {
    return;
  }
  pinet_rta_ctrl_free(r->ctrl);
  free(r->bits);
  free(r->raw);
  free(r->in);
  free(r->out);
  free(r->peer);
  free(r);
}

int pinet_dpi_rta_create(void **handle, unsigned int dim, unsigned int pes) {
  DPI_RETURN_IF(handle == NULL, PINET_ERR_NULL);
  *handle = NULL;
  pinet_rta_geom geom;
  DPI_FORWARD(pinet_rta_geom_init(&geom, dim, pes));
  dpi_rta *r = calloc(1, sizeof *r);
  DPI_RETURN_IF(r == NULL, PINET_ERR_NOMEM);
  r->geom = geom;
  r->ports = geom.pes * geom.ports_per_pe;
  r->bits = calloc(geom.switches ? geom.switches : 1, sizeof *r->bits);
  r->raw = calloc(geom.switches ? geom.switches : 1, sizeof *r->raw);
  r->in = calloc(r->ports, sizeof *r->in);
  r->out = calloc(r->ports, sizeof *r->out);
  r->peer = calloc(r->ports, sizeof *r->peer);
  pinet_status st = PINET_ERR_NOMEM;
  if (r->bits != NULL && r->raw != NULL && r->in != NULL && r->out != NULL && r->peer != NULL) {
    st = pinet_rta_ctrl_create(&r->ctrl, &r->geom);
  }
  if (st != PINET_OK) {
    pinet_dpi_rta_free(r);
    return (int)st;
  }
  *handle = r;
  return PINET_OK;
}

int pinet_dpi_rta_geom(void *handle, unsigned int *switches, unsigned int *side,
                       unsigned int *ports, unsigned int *nodes) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || switches == NULL || side == NULL || ports == NULL || nodes == NULL,
                PINET_ERR_NULL);
  *switches = r->geom.switches;
  *side = r->geom.side;
  *ports = r->ports;
  *nodes = r->geom.nodes;
  return PINET_OK;
}

int pinet_dpi_rta_set_bit(void *handle, unsigned int bit, unsigned char on) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(bit >= r->geom.switches, PINET_ERR_RANGE);
  r->bits[bit] = (uint8_t)(on != 0);
  return PINET_OK;
}

int pinet_dpi_rta_legal(void *handle, unsigned int mode, unsigned char *legal) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || legal == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(mode > PINET_RTA_MODE_RTA, PINET_ERR_RANGE);
  int ok = 0;
  DPI_FORWARD(pinet_rta_bitmap_is_legal(&r->geom, (pinet_rta_mode)mode, r->bits, &ok));
  *legal = (unsigned char)(ok != 0);
  return PINET_OK;
}

int pinet_dpi_rta_set_in(void *handle, unsigned int port, unsigned int data) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(port >= r->ports, PINET_ERR_RANGE);
  r->in[port] = data;
  return PINET_OK;
}

int pinet_dpi_rta_eval(void *handle) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  DPI_FORWARD(pinet_rta_route(&r->geom, r->bits, r->peer));
  DPI_FORWARD(pinet_rta_fabric_eval(&r->geom, r->peer, r->in, r->out));
  r->evaluated = 1;
  return PINET_OK;
}

int pinet_dpi_rta_peer(void *handle, unsigned int port, unsigned int *peer) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || peer == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(port >= r->ports, PINET_ERR_RANGE);
  DPI_RETURN_IF(!r->evaluated, PINET_ERR_ILLEGAL_STATE);
  *peer = r->peer[port].pe * r->geom.ports_per_pe + r->peer[port].port;
  return PINET_OK;
}

int pinet_dpi_rta_out(void *handle, unsigned int port, unsigned int *data) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || data == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(port >= r->ports, PINET_ERR_RANGE);
  DPI_RETURN_IF(!r->evaluated, PINET_ERR_ILLEGAL_STATE);
  *data = r->out[port];
  return PINET_OK;
}

/* ---- the bitmap controller ------------------------------------------------------------------ */

int pinet_dpi_rta_ctrl_raw_bit(void *handle, unsigned int bit, unsigned char on) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(bit >= r->geom.switches, PINET_ERR_RANGE);
  r->raw[bit] = (uint8_t)(on != 0);
  return PINET_OK;
}

int pinet_dpi_rta_ctrl_reset(void *handle) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  pinet_rta_ctrl_reset(r->ctrl);
  return PINET_OK;
}

int pinet_dpi_rta_ctrl_clock(void *handle, unsigned char cmd_valid, unsigned int op,
                             unsigned int arg) {
  dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL, PINET_ERR_NULL);
  DPI_FORWARD(pinet_rta_ctrl_clock(r->ctrl, cmd_valid != 0, op, arg, r->raw));
  return PINET_OK;
}

int pinet_dpi_rta_ctrl_state(void *handle, unsigned int *mode, unsigned int *err) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || mode == NULL || err == NULL, PINET_ERR_NULL);
  *mode = (unsigned int)pinet_rta_ctrl_mode(r->ctrl);
  *err = pinet_rta_ctrl_error(r->ctrl);
  return PINET_OK;
}

int pinet_dpi_rta_ctrl_bit(void *handle, unsigned int bit, unsigned char *on) {
  const dpi_rta *r = handle;
  DPI_RETURN_IF(r == NULL || on == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(bit >= r->geom.switches, PINET_ERR_RANGE);
  *on = pinet_rta_ctrl_bitmap(r->ctrl)[bit];
  return PINET_OK;
}
