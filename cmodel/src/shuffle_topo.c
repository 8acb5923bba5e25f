/* shuffle_topo.c - the de Bruijn (static perfect-shuffle) topology: PEs, links, channels,
 * ports, operation names, and the embedded Hamiltonian ring. */
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

pinet_status pinet_shuffle_log2(uint32_t pes, uint32_t *n) {
  RETURN_ERROR_IF(n == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pes < PINET_SHUFFLE_MIN_PES || pes > PINET_SHUFFLE_MAX_PES, PINET_ERR_SIZE);
  RETURN_ERROR_IF((pes & (pes - 1u)) != 0, PINET_ERR_SIZE);
  uint32_t k = 0;
  while ((1u << k) < pes) {
    k++;
  }
  *n = k;
  return PINET_OK;
}

static pinet_status check_pe(uint32_t pes, uint32_t pe) {
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(pe >= pes, PINET_ERR_RANGE);
  return PINET_OK;
}

pinet_status pinet_shuffle_successors(uint32_t pes, uint32_t pe, uint32_t out[2]) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pe(pes, pe));
  out[0] = (2u * pe) % pes;
  out[1] = (2u * pe + 1u) % pes;
  return PINET_OK;
}

pinet_status pinet_shuffle_predecessors(uint32_t pes, uint32_t pe, uint32_t out[2]) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pe(pes, pe));
  out[0] = pe / 2u;
  out[1] = pe / 2u + pes / 2u;
  return PINET_OK;
}

pinet_status pinet_shuffle_self_loop(uint32_t pes, uint32_t pe, int *has) {
  RETURN_ERROR_IF(has == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pe(pes, pe));
  *has = (pe == 0 || pe == pes - 1u);
  return PINET_OK;
}

void shuffle_channel_ends_raw(uint32_t pes, uint32_t ch, int32_t *src, int32_t *dst) {
  if (ch < 2u * pes) { /* forward on link ch */
    *src = (int32_t)(ch / 2u);
    *dst = (int32_t)(ch % pes);
  } else if (ch < 4u * pes) { /* backward on link ch - 2N */
    uint32_t link = ch - 2u * pes;
    *src = (int32_t)(link % pes);
    *dst = (int32_t)(link / 2u);
  } else if (ch == 4u * pes) {
    *src = PINET_SHUFFLE_HOST;
    *dst = 0;
  } else {
    *src = 0;
    *dst = PINET_SHUFFLE_HOST;
  }
}

pinet_status pinet_shuffle_channel_ends(uint32_t pes, uint32_t ch, int32_t *src, int32_t *dst) {
  RETURN_ERROR_IF(src == NULL || dst == NULL, PINET_ERR_NULL);
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(ch >= shuffle_channels(pes), PINET_ERR_RANGE);
  shuffle_channel_ends_raw(pes, ch, src, dst);
  return PINET_OK;
}

pinet_status pinet_shuffle_channels_between(uint32_t pes, int32_t src, int32_t dst,
                                            uint32_t out[4], size_t *count) {
  RETURN_ERROR_IF(out == NULL || count == NULL, PINET_ERR_NULL);
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(src < -1 || dst < -1, PINET_ERR_RANGE);
  RETURN_ERROR_IF(src >= (int32_t)pes || dst >= (int32_t)pes, PINET_ERR_RANGE);
  size_t k = 0;
  /* At most 4 channels join two PEs: the candidates are the links leaving src (2 src + b,
   * forward) and the links entering src (src, src + N, backward). */
  uint32_t cand[6] = {2u * (uint32_t)src, 2u * (uint32_t)src + 1u,
                      2u * pes + (uint32_t)src, 2u * pes + (uint32_t)src + pes,
                      4u * pes, 4u * pes + 1u};
  for (size_t i = 0; i < 6; i++) {
    if (src < 0 && i < 4) {
      continue;
    }
    int32_t a = 0, b = 0;
    shuffle_channel_ends_raw(pes, cand[i], &a, &b);
    if (a == src && b == dst && k < 4) {
      out[k++] = cand[i];
    }
  }
  /* ascending (the candidates are generated nearly sorted; sort the few) */
  for (size_t i = 1; i < k; i++) {
    for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
      uint32_t t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  }
  *count = k;
  return PINET_OK;
}

pinet_status pinet_shuffle_pe_ports(uint32_t pes, uint32_t pe, uint32_t out_ch[4],
                                    uint32_t in_ch[4]) {
  RETURN_ERROR_IF(out_ch == NULL || in_ch == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pe(pes, pe));
  out_ch[0] = 2u * pe;
  out_ch[1] = 2u * pe + 1u;
  out_ch[2] = 2u * pes + pe;
  out_ch[3] = 3u * pes + pe;
  in_ch[0] = pe;
  in_ch[1] = pe + pes;
  in_ch[2] = 2u * pes + 2u * pe;
  in_ch[3] = 2u * pes + 2u * pe + 1u;
  return PINET_OK;
}

/* ---- names ---------------------------------------------------------------------------------- */

static const char *const k_op_names[PINET_SHUFFLE_OP_COUNT] = {
    "bcast", "bcast-host", "scatter", "integrate", "allgather",
    "gather", "upload", "ring-exchange", "custom"};

const char *pinet_shuffle_op_name(pinet_shuffle_op op) {
  if ((unsigned)op >= PINET_SHUFFLE_OP_COUNT) {
    return NULL;
  }
  return k_op_names[op];
}

pinet_status pinet_shuffle_op_from_name(const char *name, pinet_shuffle_op *op) {
  RETURN_ERROR_IF(name == NULL || op == NULL, PINET_ERR_NULL);
  for (unsigned i = 0; i < PINET_SHUFFLE_OP_COUNT; i++) {
    if (strcmp(name, k_op_names[i]) == 0) {
      *op = (pinet_shuffle_op)i;
      return PINET_OK;
    }
  }
  return PINET_ERR_RANGE;
}

size_t pinet_shuffle_elem_size(pinet_shuffle_elem elem) {
  switch (elem) {
    case PINET_SHUFFLE_I32: return 4;
    case PINET_SHUFFLE_F32: return sizeof(float);
    case PINET_SHUFFLE_F64: return sizeof(double);
    default: return 0;
  }
}

/* ---- the embedded ring ---------------------------------------------------------------------- */

static pinet_status check_ring_pes(uint32_t pes) {
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(n < 2, PINET_ERR_SIZE);
  return PINET_OK;
}

pinet_status pinet_shuffle_ring(uint32_t pes, uint32_t *ring) {
  RETURN_ERROR_IF(ring == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_ring_pes(pes));
  uint8_t *seen = calloc(pes, 1);
  RETURN_ERROR_IF(seen == NULL, PINET_ERR_NOMEM);
  /* Martin's prefer-one rule: the n-bit windows of the generated de Bruijn sequence are the
   * PEs; appending bit b to window x gives the shuffle successor 2x + b mod N. */
  uint32_t x = 0;
  ring[0] = 0;
  seen[0] = 1;
  pinet_status st = PINET_OK;
  for (uint32_t k = 1; k < pes; k++) {
    uint32_t y = (2u * x + 1u) % pes;
    if (seen[y]) {
      y = (2u * x) % pes;
    }
    if (seen[y]) { /* cannot happen (Martin 1934); reported rather than trusted */
      st = PINET_ERR_UNSUPPORTED;
      break;
    }
    seen[y] = 1;
    ring[k] = y;
    x = y;
  }
  if (st == PINET_OK && (2u * x) % pes != 0) {
    st = PINET_ERR_UNSUPPORTED; /* the cycle must close back to PE 0 */
  }
  free(seen);
  return st;
}

/* 1 if a and b (a != b) are joined by a link in either direction. */
static int joined(uint32_t pes, uint32_t a, uint32_t b) {
  return (2u * a) % pes == b || (2u * a + 1u) % pes == b || (2u * b) % pes == a ||
         (2u * b + 1u) % pes == a;
}

pinet_status pinet_shuffle_ring_check(uint32_t pes, const uint32_t *ring, size_t len, int *valid) {
  RETURN_ERROR_IF(ring == NULL || valid == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_ring_pes(pes));
  *valid = 0;
  if (len != pes) {
    return PINET_OK;
  }
  uint8_t *seen = calloc(pes, 1);
  RETURN_ERROR_IF(seen == NULL, PINET_ERR_NOMEM);
  int ok = 1;
  for (size_t i = 0; i < len && ok; i++) {
    if (ring[i] >= pes || seen[ring[i]]) {
      ok = 0;
      break;
    }
    seen[ring[i]] = 1;
  }
  for (size_t i = 0; i < len && ok; i++) {
    uint32_t a = ring[i], b = ring[(i + 1) % len];
    if (!joined(pes, a, b)) {
      ok = 0;
    }
  }
  free(seen);
  *valid = ok;
  return PINET_OK;
}
