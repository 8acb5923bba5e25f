/* rta_bitmap_ctrl.c - cycle model of rtl/rta_bitmap_ctrl.sv, the central switch controller of
 * paper 004 §6 (SPEC §1.3): a bitmap with one bit per switch, a mode register and an error register,
 * all updated at the rising clock edge that takes a command. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/rta.h"

struct pinet_rta_ctrl {
  pinet_rta_geom geom;
  uint8_t *bits;    /* the bitmap register (bits_q) */
  uint8_t *scratch; /* the candidate bitmap of the command being taken (bits_d) */
  pinet_rta_mode mode;
  unsigned err;
};

static const char *const k_cmd_names[] = {"NOP",     "SET_MODE", "SET_LEVEL",
                                          "ARTA_OFF", "ARTA_ON", "WRITE_RAW"};
static const char *const k_err_names[] = {"OK",         "BAD_OPCODE", "BAD_LEVEL", "BAD_NODE",
                                          "WRONG_MODE", "ILLEGAL",    "BAD_MODE"};

const char *pinet_rta_cmd_name(unsigned cmd) {
  return cmd < sizeof k_cmd_names / sizeof k_cmd_names[0] ? k_cmd_names[cmd] : NULL;
}

const char *pinet_rta_ctrl_err_name(unsigned err) {
  return err < sizeof k_err_names / sizeof k_err_names[0] ? k_err_names[err] : NULL;
}

pinet_status pinet_rta_ctrl_create(pinet_rta_ctrl **out, const pinet_rta_geom *geom) {
  RETURN_ERROR_IF(out == NULL || geom == NULL, PINET_ERR_NULL);
  *out = NULL;
  pinet_rta_ctrl *c = calloc(1, sizeof *c);
  RETURN_ERROR_IF(c == NULL, PINET_ERR_NOMEM);
  c->geom = *geom;
  c->bits = malloc(geom->switches);
  c->scratch = malloc(geom->switches);
  if (c->bits == NULL || c->scratch == NULL) {
    pinet_rta_ctrl_free(c);
    return PINET_ERR_NOMEM;
  }
  pinet_rta_ctrl_reset(c);
  *out = c;
  return PINET_OK;
}

void pinet_rta_ctrl_free(pinet_rta_ctrl *ctrl) {
  if (ctrl == NULL) {
    return;
  }
  free(ctrl->bits);
  free(ctrl->scratch);
  free(ctrl);
}

void pinet_rta_ctrl_reset(pinet_rta_ctrl *ctrl) {
  if (ctrl == NULL) {
    return;
  }
  memset(ctrl->bits, 1, ctrl->geom.switches); /* SRTA level L: every switch ON */
  ctrl->mode = PINET_RTA_MODE_SRTA;
  ctrl->err = PINET_RTA_CTRL_OK;
}

static int legal_in(const pinet_rta_ctrl *c, pinet_rta_mode mode, const uint8_t *bits) {
  int legal = 0;
  return pinet_rta_bitmap_is_legal(&c->geom, mode, bits, &legal) == PINET_OK && legal;
}

pinet_status pinet_rta_ctrl_clock(pinet_rta_ctrl *ctrl, int cmd_valid, unsigned opcode,
                                  uint32_t arg, const uint8_t *raw_bits) {
  RETURN_ERROR_IF(ctrl == NULL, PINET_ERR_NULL);
  if (!cmd_valid) {
    return PINET_OK;
  }
  const pinet_rta_geom *g = &ctrl->geom;
  opcode &= 7u;
  arg &= 0xffffu;
  RETURN_ERROR_IF(opcode == PINET_RTA_CMD_WRITE_RAW && raw_bits == NULL, PINET_ERR_NULL);
  unsigned err = PINET_RTA_CTRL_OK;
  switch (opcode) {
    case PINET_RTA_CMD_NOP: break;
    case PINET_RTA_CMD_SET_MODE:
      if (arg > (uint32_t)PINET_RTA_MODE_RTA) {
        err = PINET_RTA_CTRL_BAD_MODE;
      } else if (!legal_in(ctrl, (pinet_rta_mode)arg, ctrl->bits)) {
        err = PINET_RTA_CTRL_ILLEGAL;
      } else {
        ctrl->mode = (pinet_rta_mode)arg;
      }
      break;
    case PINET_RTA_CMD_SET_LEVEL:
      if (arg < 1u || arg > g->levels) {
        err = PINET_RTA_CTRL_BAD_LEVEL;
      } else {
        FORWARD_IF_ERROR(pinet_rta_srta_bitmap(g, arg, ctrl->bits));
      }
      break;
    case PINET_RTA_CMD_ARTA_OFF:
    case PINET_RTA_CMD_ARTA_ON:
      if (ctrl->mode == PINET_RTA_MODE_SRTA) {
        err = PINET_RTA_CTRL_WRONG_MODE;
      } else if (arg < 1u || arg > g->nodes) {
        err = PINET_RTA_CTRL_BAD_NODE;
      } else {
        FORWARD_IF_ERROR(
            pinet_rta_arta_apply(g, arg, opcode == PINET_RTA_CMD_ARTA_ON, ctrl->bits));
      }
      break;
    case PINET_RTA_CMD_WRITE_RAW:
      for (uint32_t b = 0; b < g->switches; b++) {
        ctrl->scratch[b] = raw_bits[b] & 1u; /* one wire per switch: bit 0 of each entry */
      }
      if (legal_in(ctrl, ctrl->mode, ctrl->scratch)) {
        memcpy(ctrl->bits, ctrl->scratch, g->switches);
      } else {
        err = PINET_RTA_CTRL_ILLEGAL;
      }
      break;
    default: err = PINET_RTA_CTRL_BAD_OPCODE; break;
  }
  ctrl->err = err;
  return PINET_OK;
}

const uint8_t *pinet_rta_ctrl_bitmap(const pinet_rta_ctrl *ctrl) {
  return ctrl == NULL ? NULL : ctrl->bits;
}

pinet_rta_mode pinet_rta_ctrl_mode(const pinet_rta_ctrl *ctrl) {
  return ctrl == NULL ? PINET_RTA_MODE_SRTA : ctrl->mode;
}

unsigned pinet_rta_ctrl_error(const pinet_rta_ctrl *ctrl) {
  return ctrl == NULL ? PINET_RTA_CTRL_OK : ctrl->err;
}
