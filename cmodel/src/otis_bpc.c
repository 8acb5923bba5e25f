/* otis_bpc.c - BPC permutations (paper §2.13, Table 3): the vector, its destination function,
 * and routing with moves.
 *
 * Routing. Index bits 0..p-1 are P, p..2p-1 are G (p = log2 N). Inside a group any map of the
 * form position -> pi(position) XOR c (pi a bit permutation, c a per-group constant) is done by
 * otis_group_bitmap_stage. OTIS moves swap the G and P halves. With k = number of P bits that
 * the vector sends into G:
 *   k = 0, G fixed:  one intra-group stage.
 *   k = 0:           stage on P, OTIS, stage on (old) G, OTIS.
 *   k = p:           stage P -> future G, OTIS, stage (old) G -> P'.
 *   otherwise:       the three-stage decomposition: XOR the G bits going to P into the P bits
 *                    going to G (stage 1), OTIS, G -> G' (stage 2), OTIS, -> P' (stage 3). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "otis_private.h"

static pinet_status bpc_check(const pinet_otis_bpc *bpc) {
  RETURN_ERROR_IF(bpc->bits == 0 || bpc->bits > PINET_OTIS_MAX_BITS, PINET_ERR_RANGE);
  uint32_t seen = 0;
  for (uint32_t i = 0; i < bpc->bits; i++) {
    RETURN_ERROR_IF(bpc->dest_bit[i] >= bpc->bits || bpc->complement[i] > 1, PINET_ERR_RANGE);
    RETURN_ERROR_IF(seen & (1u << bpc->dest_bit[i]), PINET_ERR_RANGE);
    seen |= 1u << bpc->dest_bit[i];
  }
  return PINET_OK;
}

static uint32_t bpc_apply(const pinet_otis_bpc *bpc, uint32_t src) {
  uint32_t d = 0;
  for (uint32_t i = 0; i < bpc->bits; i++) {
    uint32_t bit = ((src >> i) & 1u) ^ bpc->complement[i];
    d |= bit << bpc->dest_bit[i];
  }
  return d;
}

pinet_status pinet_otis_bpc_dest(const pinet_otis_bpc *bpc, uint32_t src, uint32_t *dest) {
  RETURN_ERROR_IF(bpc == NULL || dest == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(bpc_check(bpc));
  RETURN_ERROR_IF(bpc->bits < 32 && src >= (1u << bpc->bits), PINET_ERR_RANGE);
  *dest = bpc_apply(bpc, src);
  return PINET_OK;
}

pinet_status pinet_otis_bpc_parse(uint32_t n_groups, const char *text, pinet_otis_bpc *bpc) {
  RETURN_ERROR_IF(text == NULL || bpc == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(pinet_otis_check_n(n_groups));
  const uint32_t q = 2 * otis_log2u(n_groups);
  int32_t vals[PINET_OTIS_MAX_BITS];
  int neg[PINET_OTIS_MAX_BITS];
  uint32_t count = 0;
  const char *s = text;
  while (isspace((unsigned char)*s)) s++;
  int bracket = 0;
  if (*s == '[') {
    bracket = 1;
    s++;
  }
  for (;;) {
    while (isspace((unsigned char)*s)) s++;
    if (*s == ']' || *s == '\0') {
      break;
    }
    int minus = 0;
    if (*s == '-' || *s == '+') {
      minus = *s == '-';
      s++;
    }
    RETURN_ERROR_IF(!isdigit((unsigned char)*s), PINET_ERR_PARSE);
    int32_t v = 0;
    while (isdigit((unsigned char)*s)) {
      v = v * 10 + (*s - '0');
      RETURN_ERROR_IF(v > 1000, PINET_ERR_PARSE);
      s++;
    }
    RETURN_ERROR_IF(count >= PINET_OTIS_MAX_BITS, PINET_ERR_PARSE);
    vals[count] = v;
    neg[count] = minus;
    count++;
    while (isspace((unsigned char)*s)) s++;
    if (*s == ',') {
      s++;
    } else if (*s != ']' && *s != '\0') {
      return PINET_ERR_PARSE;
    }
  }
  if (bracket) {
    RETURN_ERROR_IF(*s != ']', PINET_ERR_PARSE);
    s++;
  } else {
    RETURN_ERROR_IF(*s == ']', PINET_ERR_PARSE);
  }
  while (isspace((unsigned char)*s)) s++;
  RETURN_ERROR_IF(*s != '\0', PINET_ERR_PARSE);
  RETURN_ERROR_IF(count != q, PINET_ERR_SIZE);
  memset(bpc, 0, sizeof *bpc);
  bpc->bits = q;
  for (uint32_t k = 0; k < q; k++) { /* the text lists A_{q-1} first */
    uint32_t i = q - 1 - k;
    RETURN_ERROR_IF(vals[k] < 0 || (uint32_t)vals[k] >= q, PINET_ERR_RANGE);
    bpc->dest_bit[i] = (uint8_t)vals[k];
    bpc->complement[i] = (uint8_t)neg[k];
  }
  RETURN_ERROR_IF(bpc_check(bpc) != PINET_OK, PINET_ERR_RANGE);
  return PINET_OK;
}

/* ---- routing -------------------------------------------------------------------------------- */

/* Per-stage targets are computed from the source index (field w + 1) and the vector, which
 * every processor knows (the SIMD program's parameter). */
typedef enum { T_FINAL_P, T_FINAL_G, T_XOR_Q } target_kind;

typedef struct {
  const pinet_otis_bpc *bpc;
  uint32_t pairs;
  uint32_t u[PINET_OTIS_MAX_BITS]; /* P bits sent into G */
  uint32_t v[PINET_OTIS_MAX_BITS]; /* G bits (G-relative) sent into P */
} bpc_plan;

static void set_targets(pinet_otis *m, uint32_t r, uint32_t w, const bpc_plan *pl,
                        target_kind kind) {
  const uint32_t mask = m->N - 1;
  for (uint32_t p = 0; p < m->procs; p++) {
    if (!otis_has(m, r, p)) {
      continue;
    }
    int64_t *wd = otis_w(m, r, p);
    uint32_t src = (uint32_t)wd[w + 1];
    uint32_t d = bpc_apply(pl->bpc, src);
    uint32_t t = 0;
    if (kind == T_FINAL_P) {
      t = d & mask;
    } else if (kind == T_FINAL_G) {
      t = d >> m->p;
    } else {
      uint32_t q = src & mask, g = src >> m->p;
      t = q;
      for (uint32_t j = 0; j < pl->pairs; j++) {
        t ^= ((g >> pl->v[j]) & 1u) << pl->u[j];
      }
    }
    wd[w] = t;
  }
}

static pinet_status stage(pinet_otis *m, uint32_t w, const bpc_plan *pl, target_kind kind,
                          const uint8_t *pi, uint32_t r_a, uint32_t r_b, uint32_t r_c,
                          uint32_t r_d) {
  set_targets(m, r_a, w, pl, kind);
  return otis_group_bitmap_stage(m, r_a, r_b, r_c, r_d, w, pi);
}

static pinet_status to_a(pinet_otis *m, uint32_t r_b, uint32_t r_a, int via_otis) {
  if (via_otis) {
    return otis_otis_all(m, r_b, r_a);
  }
  for (uint32_t p = 0; p < m->procs; p++) {
    FORWARD_IF_ERROR(otis_local_move(m, r_b, r_a, p));
  }
  return PINET_OK;
}

pinet_status otis_bpc_words(pinet_otis *m, const pinet_otis_bpc *bpc, uint32_t r_w, uint32_t r_a,
                            uint32_t r_b, uint32_t r_c, uint32_t r_d) {
  FORWARD_IF_ERROR(bpc_check(bpc));
  RETURN_ERROR_IF(bpc->bits != 2 * m->p, PINET_ERR_SIZE);
  const uint32_t w = m->width[r_w], p = m->p;
  RETURN_ERROR_IF(m->width[r_a] != w + 2 || m->width[r_b] != w + 2 || m->width[r_c] != w + 4 ||
                      m->width[r_d] != w + 4,
                  PINET_ERR_MISMATCH);
  bpc_plan pl;
  memset(&pl, 0, sizeof pl);
  pl.bpc = bpc;
  uint32_t nv = 0;
  for (uint32_t i = 0; i < p; i++) {
    if (bpc->dest_bit[i] >= p) {
      pl.u[pl.pairs++] = i;
    }
  }
  for (uint32_t i = p; i < 2 * p; i++) {
    if (bpc->dest_bit[i] < p) {
      pl.v[nv++] = i - p;
    }
  }
  RETURN_ERROR_IF(nv != pl.pairs, PINET_ERR_RANGE);
  int g_fixed = pl.pairs == 0;
  for (uint32_t i = p; i < 2 * p && g_fixed; i++) {
    g_fixed = bpc->dest_bit[i] == i && !bpc->complement[i];
  }
  /* Load: payload, target (set per stage), source index. */
  int64_t buf[PINET_OTIS_MAX_WIDTH] = {0};
  for (uint32_t q = 0; q < m->procs; q++) {
    if (otis_has(m, r_w, q)) {
      memcpy(buf, otis_w(m, r_w, q), w * sizeof *buf);
      buf[w] = 0;
      buf[w + 1] = q;
      otis_put(m, r_a, q, buf);
      otis_clear(m, r_w, q);
    }
  }
  uint8_t pi[PINET_OTIS_MAX_BITS];
  if (pl.pairs == 0) {
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = bpc->dest_bit[b];
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_P, pi, r_a, r_b, r_c, r_d));
    if (g_fixed) {
      FORWARD_IF_ERROR(to_a(m, r_b, r_a, 0));
    } else {
      FORWARD_IF_ERROR(to_a(m, r_b, r_a, 1));
      for (uint32_t b = 0; b < p; b++) {
        pi[b] = (uint8_t)(bpc->dest_bit[p + b] - p);
      }
      FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_G, pi, r_a, r_b, r_c, r_d));
      FORWARD_IF_ERROR(to_a(m, r_b, r_a, 1));
    }
  } else if (pl.pairs == p) {
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = (uint8_t)(bpc->dest_bit[b] - p);
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_G, pi, r_a, r_b, r_c, r_d));
    FORWARD_IF_ERROR(to_a(m, r_b, r_a, 1));
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = bpc->dest_bit[p + b];
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_P, pi, r_a, r_b, r_c, r_d));
    FORWARD_IF_ERROR(to_a(m, r_b, r_a, 0));
  } else {
    /* Stage 1: Q = P XOR (G bits v_j placed at P bits u_j); a pure XOR, pi = identity. */
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = (uint8_t)b;
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_XOR_Q, pi, r_a, r_b, r_c, r_d));
    FORWARD_IF_ERROR(to_a(m, r_b, r_a, 1));
    /* Stage 2 (group Q): G -> G'. G bit b goes where the vector sends it, except the v_j,
     * which stand in for P bit u_j (P_u = Q_u XOR G_v). */
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = (uint8_t)(bpc->dest_bit[p + b] - p);
    }
    for (uint32_t j = 0; j < pl.pairs; j++) {
      pi[pl.v[j]] = (uint8_t)(bpc->dest_bit[pl.u[j]] - p);
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_G, pi, r_a, r_b, r_c, r_d));
    FORWARD_IF_ERROR(to_a(m, r_b, r_a, 1));
    /* Stage 3 (group G'): Q -> P'. Q bit u_j stands in for G bit v_j. */
    for (uint32_t b = 0; b < p; b++) {
      pi[b] = bpc->dest_bit[b];
    }
    for (uint32_t j = 0; j < pl.pairs; j++) {
      pi[pl.u[j]] = bpc->dest_bit[p + pl.v[j]];
    }
    FORWARD_IF_ERROR(stage(m, w, &pl, T_FINAL_P, pi, r_a, r_b, r_c, r_d));
    FORWARD_IF_ERROR(to_a(m, r_b, r_a, 0));
  }
  /* Unload, checking that every word reached its destination. */
  for (uint32_t q = 0; q < m->procs; q++) {
    if (otis_has(m, r_a, q)) {
      RETURN_ERROR_IF(bpc_apply(bpc, (uint32_t)otis_w(m, r_a, q)[w + 1]) != q, PINET_ERR_ILLEGAL_STATE);
      otis_put(m, r_w, q, otis_w(m, r_a, q));
      otis_clear(m, r_a, q);
    }
  }
  return PINET_OK;
}

pinet_status pinet_otis_bpc_route(pinet_otis *m, const pinet_otis_bpc *bpc, const int64_t *in,
                                  int64_t *out) {
  RETURN_ERROR_IF(m == NULL || bpc == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(bpc_check(bpc));
  RETURN_ERROR_IF(bpc->bits != 2 * m->p, PINET_ERR_SIZE);
  const uint32_t widths[5] = {1, 3, 3, 5, 5};
  FORWARD_IF_ERROR(otis_setup(m, 5, widths));
  for (uint32_t q = 0; q < m->procs; q++) {
    otis_put(m, 0, q, &in[q]);
  }
  FORWARD_IF_ERROR(otis_bpc_words(m, bpc, 0, 1, 2, 3, 4));
  for (uint32_t q = 0; q < m->procs; q++) {
    out[q] = otis_w(m, 0, q)[0];
  }
  return PINET_OK;
}
