/* otis_machine.c - the OTIS-Mesh machine: geometry, registers and the step engine. */
#include <stdlib.h>
#include <string.h>

#include "otis_private.h"

/* ---- geometry ------------------------------------------------------------------------------- */

pinet_status pinet_otis_check_n(uint32_t n_groups) {
  RETURN_ERROR_IF(n_groups != 4u && n_groups != 16u && n_groups != 64u && n_groups != 256u,
                  PINET_ERR_SIZE);
  return PINET_OK;
}

static uint32_t side_of(uint32_t n_groups) {
  uint32_t s = 1;
  while (s * s < n_groups) {
    s++;
  }
  return s;
}

pinet_status pinet_otis_index(uint32_t n_groups, uint32_t gx, uint32_t gy, uint32_t px,
                              uint32_t py, uint32_t *index) {
  FORWARD_IF_ERROR(pinet_otis_check_n(n_groups));
  RETURN_ERROR_IF(index == NULL, PINET_ERR_NULL);
  uint32_t n = side_of(n_groups);
  RETURN_ERROR_IF(gx >= n || gy >= n || px >= n || py >= n, PINET_ERR_RANGE);
  *index = (gx * n + gy) * n_groups + px * n + py;
  return PINET_OK;
}

pinet_status pinet_otis_coords(uint32_t n_groups, uint32_t index, uint32_t *gx, uint32_t *gy,
                               uint32_t *px, uint32_t *py) {
  FORWARD_IF_ERROR(pinet_otis_check_n(n_groups));
  RETURN_ERROR_IF(index >= n_groups * n_groups, PINET_ERR_RANGE);
  uint32_t n = side_of(n_groups);
  uint32_t g = index / n_groups, q = index % n_groups;
  if (gx) *gx = g / n;
  if (gy) *gy = g % n;
  if (px) *px = q / n;
  if (py) *py = q % n;
  return PINET_OK;
}

/* ---- create / free / configure -------------------------------------------------------------- */

static void free_regs(pinet_otis *m) {
  for (uint32_t r = 0; r < PINET_OTIS_MAX_REGS; r++) {
    free(m->data[r]);
    free(m->occ[r]);
    m->data[r] = NULL;
    m->occ[r] = NULL;
    m->width[r] = 0;
  }
  m->nregs = 0;
}

void pinet_otis_free(pinet_otis *m) {
  if (m == NULL) {
    return;
  }
  free_regs(m);
  free(m->nbr);
  free(m->stamp_link);
  free(m->stamp_dst);
  free(m->stamp_leave);
  free(m->staging);
  free(m->plist);
  free(m->tsteps);
  free(m->tmoves);
  free(m->ml);
  free(m->ml_tmp);
  free(m);
}

pinet_status pinet_otis_create(uint32_t n_groups, pinet_otis_model model, pinet_otis **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(pinet_otis_check_n(n_groups));
  RETURN_ERROR_IF(model != PINET_OTIS_SIMD && model != PINET_OTIS_MIMD, PINET_ERR_RANGE);
  pinet_otis *m = calloc(1, sizeof *m);
  RETURN_ERROR_IF(m == NULL, PINET_ERR_NOMEM);
  m->N = n_groups;
  m->n = side_of(n_groups);
  m->procs = n_groups * n_groups;
  m->p = otis_log2u(n_groups);
  m->h = otis_log2u(m->n);
  m->model = model;
  size_t P = m->procs;
  m->nbr = malloc(OTIS_NDIRS * P * sizeof *m->nbr);
  m->stamp_link = calloc(OTIS_NDIRS * P, sizeof *m->stamp_link);
  m->stamp_dst = calloc(PINET_OTIS_MAX_REGS * P, sizeof *m->stamp_dst);
  m->stamp_leave = calloc(PINET_OTIS_MAX_REGS * P, sizeof *m->stamp_leave);
  m->plist = malloc(2 * P * sizeof *m->plist);
  if (m->nbr == NULL || m->stamp_link == NULL || m->stamp_dst == NULL || m->stamp_leave == NULL ||
      m->plist == NULL) {
    pinet_otis_free(m);
    return PINET_ERR_NOMEM;
  }
  uint32_t n = m->n, N = m->N;
  for (uint32_t i = 0; i < m->procs; i++) {
    uint32_t g = i / N, q = i % N, x = q / n, y = q % n;
    m->nbr[PINET_OTIS_UP * P + i] = x > 0 ? i - n : OTIS_NONE;
    m->nbr[PINET_OTIS_DOWN * P + i] = x + 1 < n ? i + n : OTIS_NONE;
    m->nbr[PINET_OTIS_LEFT * P + i] = y > 0 ? i - 1 : OTIS_NONE;
    m->nbr[PINET_OTIS_RIGHT * P + i] = y + 1 < n ? i + 1 : OTIS_NONE;
    m->nbr[PINET_OTIS_LINK * P + i] = q * N + g;
  }
  uint32_t w1 = 1;
  pinet_status st = pinet_otis_configure(m, 1, &w1);
  if (st != PINET_OK) {
    pinet_otis_free(m);
    return st;
  }
  *out = m;
  return PINET_OK;
}

void pinet_otis_get_geometry(const pinet_otis *m, uint32_t *n_groups, uint32_t *side,
                             uint32_t *procs, pinet_otis_model *model) {
  if (m == NULL) {
    return;
  }
  if (n_groups) *n_groups = m->N;
  if (side) *side = m->n;
  if (procs) *procs = m->procs;
  if (model) *model = m->model;
}

pinet_status pinet_otis_configure(pinet_otis *m, uint32_t nregs, const uint32_t *widths) {
  RETURN_ERROR_IF(m == NULL || widths == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(nregs == 0 || nregs > PINET_OTIS_MAX_REGS, PINET_ERR_RANGE);
  for (uint32_t r = 0; r < nregs; r++) {
    RETURN_ERROR_IF(widths[r] == 0 || widths[r] > PINET_OTIS_MAX_WIDTH, PINET_ERR_RANGE);
  }
  free_regs(m);
  for (uint32_t r = 0; r < nregs; r++) {
    m->width[r] = widths[r];
    m->data[r] = calloc((size_t)m->procs * widths[r], sizeof(int64_t));
    m->occ[r] = calloc(m->procs, 1);
    if (m->data[r] == NULL || m->occ[r] == NULL) {
      free_regs(m);
      return PINET_ERR_NOMEM;
    }
  }
  m->nregs = nregs;
  pinet_otis_reset_counts(m);
  return PINET_OK;
}

pinet_status otis_setup(pinet_otis *m, uint32_t nregs, const uint32_t *widths) {
  otis_ml_reset(m);
  return pinet_otis_configure(m, nregs, widths);
}

/* ---- registers ------------------------------------------------------------------------------ */

pinet_status pinet_otis_reg_set(pinet_otis *m, uint32_t reg, uint32_t proc, const int64_t *word) {
  RETURN_ERROR_IF(m == NULL || word == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(reg >= m->nregs || proc >= m->procs, PINET_ERR_RANGE);
  otis_put(m, reg, proc, word);
  return PINET_OK;
}

pinet_status pinet_otis_reg_clear(pinet_otis *m, uint32_t reg, uint32_t proc) {
  RETURN_ERROR_IF(m == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(reg >= m->nregs || proc >= m->procs, PINET_ERR_RANGE);
  otis_clear(m, reg, proc);
  return PINET_OK;
}

pinet_status pinet_otis_reg_get(const pinet_otis *m, uint32_t reg, uint32_t proc, int64_t *word,
                                int *present) {
  RETURN_ERROR_IF(m == NULL || word == NULL || present == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(reg >= m->nregs || proc >= m->procs, PINET_ERR_RANGE);
  *present = m->occ[reg][proc] != 0;
  if (*present) {
    memcpy(word, m->data[reg] + (size_t)proc * m->width[reg], m->width[reg] * sizeof(int64_t));
  }
  return PINET_OK;
}

void otis_put(pinet_otis *m, uint32_t r, uint32_t proc, const int64_t *word) {
  memcpy(otis_w(m, r, proc), word, m->width[r] * sizeof(int64_t));
  m->occ[r][proc] = 1;
}

void otis_clear(pinet_otis *m, uint32_t r, uint32_t proc) { m->occ[r][proc] = 0; }

void otis_clear_reg(pinet_otis *m, uint32_t r) { memset(m->occ[r], 0, m->procs); }

pinet_status otis_local_move(pinet_otis *m, uint32_t from, uint32_t to, uint32_t proc) {
  if (!m->occ[from][proc]) {
    return PINET_OK;
  }
  RETURN_ERROR_IF(m->occ[to][proc], PINET_ERR_ILLEGAL_MOVE);
  RETURN_ERROR_IF(m->width[from] != m->width[to], PINET_ERR_MISMATCH);
  memcpy(otis_w(m, to, proc), otis_w(m, from, proc), m->width[to] * sizeof(int64_t));
  m->occ[to][proc] = 1;
  m->occ[from][proc] = 0;
  return PINET_OK;
}

/* ---- counters and trace --------------------------------------------------------------------- */

void pinet_otis_get_counts(const pinet_otis *m, pinet_otis_counts *counts) {
  if (m != NULL && counts != NULL) {
    *counts = m->counts;
  }
}

void pinet_otis_reset_counts(pinet_otis *m) {
  if (m == NULL) {
    return;
  }
  memset(&m->counts, 0, sizeof m->counts);
  m->tsteps_len = 0;
  m->tmoves_len = 0;
}

pinet_status pinet_otis_set_trace(pinet_otis *m, int level) {
  RETURN_ERROR_IF(m == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(level < 0 || level > 2, PINET_ERR_RANGE);
  m->trace_level = level;
  return PINET_OK;
}

size_t pinet_otis_trace_steps(const pinet_otis *m, const pinet_otis_trace_step **steps) {
  if (m == NULL) {
    return 0;
  }
  if (steps) *steps = m->tsteps;
  return m->tsteps_len;
}

size_t pinet_otis_trace_moves(const pinet_otis *m, const pinet_otis_trace_move **moves) {
  if (m == NULL) {
    return 0;
  }
  if (moves) *moves = m->tmoves;
  return m->tmoves_len;
}

static pinet_status grow(void **buf, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) {
    return PINET_OK;
  }
  size_t nc = *cap ? *cap : 64;
  while (nc < need) {
    nc *= 2;
  }
  void *nb = realloc(*buf, nc * elem);
  RETURN_ERROR_IF(nb == NULL, PINET_ERR_NOMEM);
  *buf = nb;
  *cap = nc;
  return PINET_OK;
}

/* Reserve trace space before a step commits, so that a failed allocation changes nothing. */
static pinet_status trace_reserve(pinet_otis *m, size_t words) {
  if (m->trace_level >= 1) {
    FORWARD_IF_ERROR(grow((void **)&m->tsteps, &m->tsteps_cap, m->tsteps_len + 1,
                          sizeof *m->tsteps));
  }
  if (m->trace_level >= 2) {
    FORWARD_IF_ERROR(grow((void **)&m->tmoves, &m->tmoves_cap, m->tmoves_len + words,
                          sizeof *m->tmoves));
  }
  return PINET_OK;
}

static void count_step(pinet_otis *m, int is_otis, uint8_t dir_mask, size_t words) {
  uint64_t index = m->counts.electronic + m->counts.otis;
  if (is_otis) {
    m->counts.otis++;
  } else {
    m->counts.electronic++;
  }
  m->counts.words += words;
  if (m->trace_level >= 1) {
    pinet_otis_trace_step *t = &m->tsteps[m->tsteps_len++];
    t->index = index;
    t->otis = (uint8_t)is_otis;
    t->dir_mask = dir_mask;
    t->words = (uint32_t)words;
  }
}

static void trace_move(pinet_otis *m, uint32_t from, uint32_t to, uint8_t dir, uint8_t src,
                       uint8_t dst) {
  if (m->trace_level >= 2) {
    pinet_otis_trace_move *t = &m->tmoves[m->tmoves_len++];
    t->step = m->counts.electronic + m->counts.otis;
    t->from = from;
    t->to = to;
    t->dir = dir;
    t->src = src;
    t->dst = dst;
  }
}

/* ---- step engine ---------------------------------------------------------------------------- */

static uint32_t next_stamp(pinet_otis *m) {
  m->stamp++;
  if (m->stamp == 0) { /* wrapped: forget every old mark */
    memset(m->stamp_link, 0, (size_t)OTIS_NDIRS * m->procs * sizeof *m->stamp_link);
    memset(m->stamp_dst, 0, (size_t)PINET_OTIS_MAX_REGS * m->procs * sizeof *m->stamp_dst);
    memset(m->stamp_leave, 0, (size_t)PINET_OTIS_MAX_REGS * m->procs * sizeof *m->stamp_leave);
    m->stamp = 1;
  }
  return m->stamp;
}

pinet_status pinet_otis_step(pinet_otis *m, const pinet_otis_move *moves, size_t count) {
  RETURN_ERROR_IF(m == NULL || (moves == NULL && count > 0), PINET_ERR_NULL);
  if (count == 0) {
    return PINET_OK;
  }
  const size_t P = m->procs;
  RETURN_ERROR_IF(count > P * OTIS_NDIRS, PINET_ERR_ILLEGAL_MOVE);
  const int is_otis = moves[0].dir == PINET_OTIS_LINK;
  const uint32_t s = next_stamp(m);
  uint8_t dir_mask = 0;
  size_t maxw = 1;
  /* Pass 1: links, sources, destination uniqueness; mark leaving words. */
  for (size_t k = 0; k < count; k++) {
    const pinet_otis_move *mv = &moves[k];
    RETURN_ERROR_IF(mv->proc >= P || mv->dir >= OTIS_NDIRS || mv->src >= m->nregs ||
                        mv->dst >= m->nregs,
                    PINET_ERR_RANGE);
    RETURN_ERROR_IF(m->width[mv->src] != m->width[mv->dst], PINET_ERR_MISMATCH);
    RETURN_ERROR_IF((mv->dir == PINET_OTIS_LINK) != is_otis, PINET_ERR_ILLEGAL_MOVE);
    RETURN_ERROR_IF(m->model == PINET_OTIS_SIMD && mv->dir != moves[0].dir, PINET_ERR_ILLEGAL_MOVE);
    uint32_t to = m->nbr[(size_t)mv->dir * P + mv->proc];
    RETURN_ERROR_IF(to == OTIS_NONE, PINET_ERR_ILLEGAL_MOVE);
    RETURN_ERROR_IF(!m->occ[mv->src][mv->proc], PINET_ERR_ILLEGAL_MOVE);
    uint32_t *lk = &m->stamp_link[(size_t)mv->proc * OTIS_NDIRS + mv->dir];
    RETURN_ERROR_IF(*lk == s, PINET_ERR_ILLEGAL_MOVE);
    *lk = s;
    if (!(to == mv->proc && mv->src == mv->dst)) {
      uint32_t *ds = &m->stamp_dst[(size_t)mv->dst * P + to];
      RETURN_ERROR_IF(*ds == s, PINET_ERR_ILLEGAL_MOVE);
      *ds = s;
    }
    if (!mv->keep) {
      m->stamp_leave[(size_t)mv->src * P + mv->proc] = s;
    }
    if (m->width[mv->src] > maxw) {
      maxw = m->width[mv->src];
    }
    dir_mask |= (uint8_t)(1u << mv->dir);
  }
  /* Pass 2: a destination must be empty or see its word leave in this step. */
  for (size_t k = 0; k < count; k++) {
    const pinet_otis_move *mv = &moves[k];
    uint32_t to = m->nbr[(size_t)mv->dir * P + mv->proc];
    if (to == mv->proc && mv->src == mv->dst) {
      continue; /* OTIS self-link: the word stays where it is */
    }
    if (m->occ[mv->dst][to] && m->stamp_leave[(size_t)mv->dst * P + to] != s) {
      return PINET_ERR_ILLEGAL_MOVE;
    }
  }
  static const size_t k_unit = sizeof(int64_t);
  const size_t need = count * maxw;
  if (m->staging == NULL) { /* room for every processor's widest word */
    m->staging = malloc((size_t)P * PINET_OTIS_MAX_WIDTH * k_unit);
    RETURN_ERROR_IF(m->staging == NULL, PINET_ERR_NOMEM);
  }
  int64_t *stage = m->staging;
  int64_t *heap_stage = NULL;
  if (need > (size_t)P * PINET_OTIS_MAX_WIDTH) {
    heap_stage = malloc(need * k_unit);
    RETURN_ERROR_IF(heap_stage == NULL, PINET_ERR_NOMEM);
    stage = heap_stage;
  }
  pinet_status st = trace_reserve(m, count);
  if (st != PINET_OK) {
    free(heap_stage);
    return st;
  }
  /* Commit: read every word, empty the sources that move, write the destinations. */
  for (size_t k = 0; k < count; k++) {
    const pinet_otis_move *mv = &moves[k];
    memcpy(stage + k * maxw, otis_w(m, mv->src, mv->proc), m->width[mv->src] * k_unit);
  }
  for (size_t k = 0; k < count; k++) {
    if (!moves[k].keep) {
      m->occ[moves[k].src][moves[k].proc] = 0;
    }
  }
  for (size_t k = 0; k < count; k++) {
    const pinet_otis_move *mv = &moves[k];
    uint32_t to = m->nbr[(size_t)mv->dir * P + mv->proc];
    memcpy(otis_w(m, mv->dst, to), stage + k * maxw, m->width[mv->dst] * k_unit);
    m->occ[mv->dst][to] = 1;
    trace_move(m, mv->proc, to, mv->dir, mv->src, mv->dst);
  }
  free(heap_stage);
  count_step(m, is_otis, dir_mask, count);
  return PINET_OK;
}

pinet_status pinet_otis_step_uniform(pinet_otis *m, pinet_otis_dir dir, uint32_t src, uint32_t dst,
                                     const uint8_t *mask, int keep) {
  RETURN_ERROR_IF(m == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)dir >= OTIS_NDIRS || src >= m->nregs || dst >= m->nregs,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(m->width[src] != m->width[dst], PINET_ERR_MISMATCH);
  const uint32_t P = m->procs;
  (void)P;
  const uint32_t *nb = m->nbr + (size_t)dir * P;
  uint8_t *os = m->occ[src];
  uint8_t *od = m->occ[dst];
  const size_t w = m->width[src];
  const size_t bytes = w * sizeof(int64_t);
  size_t cnt = 0;
  if (src != dst) {
    /* Validate: every sender has a link and an empty destination register (nobody leaves
     * register dst in this step). Then commit in one more pass; no participant list needed.
     * OTIS steps visit the processors in 16 x 16 tiles of (G, P) so that the transposed writes
     * stay in cache. */
    const uint32_t N = m->N, tile = dir == PINET_OTIS_LINK && N >= 16 ? 16 : N;
    for (uint32_t g0 = 0; g0 < N; g0 += tile) {
      for (uint32_t q0 = 0; q0 < N; q0 += tile) {
        for (uint32_t g = g0; g < g0 + tile; g++) {
          for (uint32_t i = g * N + q0; i < g * N + q0 + tile; i++) {
            if (!os[i] || (mask != NULL && !mask[i])) {
              continue;
            }
            uint32_t to = nb[i];
            RETURN_ERROR_IF(to == OTIS_NONE || od[to], PINET_ERR_ILLEGAL_MOVE);
            cnt++;
          }
        }
      }
    }
    if (cnt == 0) {
      return PINET_OK;
    }
    FORWARD_IF_ERROR(trace_reserve(m, cnt));
    int64_t *ss = m->data[src], *ds = m->data[dst];
    for (uint32_t g0 = 0; g0 < N; g0 += tile) {
      for (uint32_t q0 = 0; q0 < N; q0 += tile) {
        for (uint32_t g = g0; g < g0 + tile; g++) {
          for (uint32_t i = g * N + q0; i < g * N + q0 + tile; i++) {
            if (!os[i] || (mask != NULL && !mask[i])) {
              continue;
            }
            uint32_t to = nb[i];
            if (w == 1) {
              ds[to] = ss[i];
            } else {
              memcpy(ds + (size_t)to * w, ss + (size_t)i * w, bytes);
            }
            od[to] = 1;
            if (!keep) {
              os[i] = 0;
            }
            if (m->trace_level >= 2) {
              trace_move(m, i, to, (uint8_t)dir, (uint8_t)src, (uint8_t)dst);
            }
          }
        }
      }
    }
    count_step(m, dir == PINET_OTIS_LINK, (uint8_t)(1u << dir), cnt);
    return PINET_OK;
  }
  /* src == dst: a destination may hold a word that leaves in this step (a chain), so read every
   * word first. */
  uint32_t *pl = m->plist;
  for (uint32_t i = 0; i < P; i++) {
    if (!os[i] || (mask != NULL && !mask[i])) {
      continue;
    }
    RETURN_ERROR_IF(nb[i] == OTIS_NONE, PINET_ERR_ILLEGAL_MOVE);
    pl[cnt++] = i;
  }
  if (cnt == 0) {
    return PINET_OK;
  }
  for (size_t k = 0; k < cnt; k++) {
    uint32_t i = pl[k], to = nb[i];
    if (!od[to] || to == i) {
      continue; /* free, or the OTIS self-link */
    }
    /* occupied: fine only if that word leaves now */
    RETURN_ERROR_IF(keep || (mask != NULL && !mask[to]), PINET_ERR_ILLEGAL_MOVE);
  }
  FORWARD_IF_ERROR(trace_reserve(m, cnt));
  if (m->staging == NULL) {
    m->staging = malloc((size_t)P * PINET_OTIS_MAX_WIDTH * sizeof(int64_t));
    RETURN_ERROR_IF(m->staging == NULL, PINET_ERR_NOMEM);
  }
  int64_t *stage = m->staging;
  int64_t *ds = m->data[dst];
  for (size_t k = 0; k < cnt; k++) {
    memcpy(stage + k * w, ds + (size_t)pl[k] * w, bytes);
  }
  if (!keep) {
    for (size_t k = 0; k < cnt; k++) {
      os[pl[k]] = 0;
    }
  }
  for (size_t k = 0; k < cnt; k++) {
    uint32_t i = pl[k], to = nb[i];
    memcpy(ds + (size_t)to * w, stage + k * w, bytes);
    od[to] = 1;
    trace_move(m, i, to, (uint8_t)dir, (uint8_t)src, (uint8_t)dst);
  }
  count_step(m, dir == PINET_OTIS_LINK, (uint8_t)(1u << dir), cnt);
  return PINET_OK;
}

/* ---- two chains at once (line phases) -------------------------------------------------------- */

/* Collect the processors whose register r holds a word; each must have a link in `dir`. */
static pinet_status chain_collect(pinet_otis *m, pinet_otis_dir dir, uint32_t r, uint32_t *pl,
                                  size_t *cnt) {
  const uint32_t P = m->procs;
  const uint32_t *nb = m->nbr + (size_t)dir * P;
  const uint8_t *o = m->occ[r];
  size_t c = 0;
  for (uint32_t i = 0; i < P; i++) {
    if (o[i]) {
      RETURN_ERROR_IF(nb[i] == OTIS_NONE, PINET_ERR_ILLEGAL_MOVE);
      pl[c++] = i;
    }
  }
  *cnt = c;
  return PINET_OK;
}

/* Every word of register r moves one link in `dir` (all words leave, so every destination is
 * free by the time it is written; the map is injective). */
static void chain_commit(pinet_otis *m, pinet_otis_dir dir, uint32_t r, const uint32_t *pl,
                         size_t cnt) {
  const uint32_t *nb = m->nbr + (size_t)dir * m->procs;
  const size_t w = m->width[r], bytes = w * sizeof(int64_t);
  int64_t *d = m->data[r], *stage = m->staging;
  uint8_t *o = m->occ[r];
  for (size_t k = 0; k < cnt; k++) {
    memcpy(stage + k * w, d + (size_t)pl[k] * w, bytes);
    o[pl[k]] = 0;
  }
  for (size_t k = 0; k < cnt; k++) {
    uint32_t to = nb[pl[k]];
    memcpy(d + (size_t)to * w, stage + k * w, bytes);
    o[to] = 1;
    trace_move(m, pl[k], to, (uint8_t)dir, (uint8_t)r, (uint8_t)r);
  }
}

pinet_status otis_step_chains(pinet_otis *m, pinet_otis_dir d1, uint32_t r1, pinet_otis_dir d2,
                              uint32_t r2) {
  RETURN_ERROR_IF(r1 == r2 || r1 >= m->nregs || r2 >= m->nregs, PINET_ERR_RANGE);
  RETURN_ERROR_IF(d1 == PINET_OTIS_LINK || d2 == PINET_OTIS_LINK, PINET_ERR_RANGE);
  if (m->model == PINET_OTIS_SIMD || d1 == d2) {
    FORWARD_IF_ERROR(pinet_otis_step_uniform(m, d1, r1, r1, NULL, 0));
    return pinet_otis_step_uniform(m, d2, r2, r2, NULL, 0);
  }
  if (m->staging == NULL) {
    m->staging = malloc((size_t)m->procs * PINET_OTIS_MAX_WIDTH * sizeof(int64_t));
    RETURN_ERROR_IF(m->staging == NULL, PINET_ERR_NOMEM);
  }
  uint32_t *pl1 = m->plist, *pl2 = m->plist + m->procs;
  size_t c1 = 0, c2 = 0;
  FORWARD_IF_ERROR(chain_collect(m, d1, r1, pl1, &c1));
  FORWARD_IF_ERROR(chain_collect(m, d2, r2, pl2, &c2));
  if (c1 + c2 == 0) {
    return PINET_OK;
  }
  FORWARD_IF_ERROR(trace_reserve(m, c1 + c2));
  chain_commit(m, d1, r1, pl1, c1);
  chain_commit(m, d2, r2, pl2, c2);
  uint8_t mask = (uint8_t)((c1 ? 1u << d1 : 0u) | (c2 ? 1u << d2 : 0u));
  count_step(m, 0, mask, c1 + c2);
  return PINET_OK;
}

/* ---- move lists ----------------------------------------------------------------------------- */

void otis_ml_reset(pinet_otis *m) { m->ml_len = 0; }

pinet_status otis_ml_push(pinet_otis *m, uint32_t proc, pinet_otis_dir dir, uint32_t src,
                          uint32_t dst, int keep) {
  FORWARD_IF_ERROR(grow((void **)&m->ml, &m->ml_cap, m->ml_len + 1, sizeof *m->ml));
  pinet_otis_move *mv = &m->ml[m->ml_len++];
  mv->proc = proc;
  mv->dir = (uint8_t)dir;
  mv->src = (uint8_t)src;
  mv->dst = (uint8_t)dst;
  mv->keep = (uint8_t)(keep != 0);
  return PINET_OK;
}

pinet_status otis_ml_commit(pinet_otis *m) {
  size_t len = m->ml_len;
  m->ml_len = 0;
  if (len == 0) {
    return PINET_OK;
  }
  if (m->model == PINET_OTIS_MIMD) {
    return pinet_otis_step(m, m->ml, len);
  }
  int has_link = 0, has_mesh = 0;
  for (size_t i = 0; i < len; i++) {
    if (m->ml[i].dir == PINET_OTIS_LINK) {
      has_link = 1;
    } else {
      has_mesh = 1;
    }
  }
  RETURN_ERROR_IF(has_link && has_mesh, PINET_ERR_ILLEGAL_MOVE);
  FORWARD_IF_ERROR(grow((void **)&m->ml_tmp, &m->ml_tmp_cap, len, sizeof *m->ml_tmp));
  for (uint32_t d = 0; d < OTIS_NDIRS; d++) {
    size_t k = 0;
    for (size_t i = 0; i < len; i++) {
      if (m->ml[i].dir == d) {
        m->ml_tmp[k++] = m->ml[i];
      }
    }
    FORWARD_IF_ERROR(pinet_otis_step(m, m->ml_tmp, k));
  }
  return PINET_OK;
}

pinet_status otis_otis_all(pinet_otis *m, uint32_t src, uint32_t dst) {
  return pinet_otis_step_uniform(m, PINET_OTIS_LINK, src, dst, NULL, 0);
}
