/* histogram.c - butterfly all-to-all reduction histograms (paper 001), simulated per processor. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/histogram.h"

enum { C_SENT = 0, C_RECV, C_ADD, C_CMP, C_BOOK, C_MEM, N_CTR };

struct pinet_histogram_result {
  pinet_histogram_summary sum;
  pinet_histogram_algo algo;
  uint32_t log_b, big_l, shift; /* log B, L, log B - L */
  uint32_t slots;               /* steps + 1 */
  uint32_t *hist;               /* pes * bins */
  uint32_t *ctr;                /* pes * slots * N_CTR */
  uint64_t *global;             /* bins */
};

static int is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

static uint32_t log2u(uint64_t v) {
  uint32_t l = 0;
  while (v > 1) {
    v >>= 1;
    l++;
  }
  return l;
}

static pinet_status check_sizes(uint32_t pes, uint32_t bins) {
  RETURN_ERROR_IF(!is_pow2(pes) || pes > PINET_HISTOGRAM_MAX_PES, PINET_ERR_SIZE);
  RETURN_ERROR_IF(!is_pow2(bins) || bins < 2 || bins > PINET_HISTOGRAM_MAX_BINS, PINET_ERR_SIZE);
  RETURN_ERROR_IF((uint64_t)pes * bins > PINET_HISTOGRAM_MAX_WORDS, PINET_ERR_SIZE);
  return PINET_OK;
}

const char *pinet_histogram_algo_name(pinet_histogram_algo algo) {
  switch (algo) {
    case PINET_HISTOGRAM_INDEPENDENT: return "independent";
    case PINET_HISTOGRAM_DEPENDENT1: return "dependent1";
    case PINET_HISTOGRAM_DEPENDENT2: return "dependent2";
    default: return NULL;
  }
}

pinet_status pinet_histogram_choose_r(uint32_t bins, uint64_t pixels_per_pe,
                                      pinet_histogram_r_rule rule, uint32_t *r) {
  RETURN_ERROR_IF(r == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!is_pow2(bins) || bins < 2, PINET_ERR_SIZE);
  RETURN_ERROR_IF(pixels_per_pe == 0, PINET_ERR_RANGE);
  RETURN_ERROR_IF(rule != PINET_HISTOGRAM_R_EQ6 && rule != PINET_HISTOGRAM_R_EQ3, PINET_ERR_RANGE);
  uint32_t best = 0;
  for (uint32_t c = 1; 2 * c <= log2u(bins); c++) {
    /* p * 4^c <= B (or < B) without overflow: 4^c divides B, so compare p with B / 4^c. */
    uint64_t quota = (uint64_t)bins >> (2 * c);
    int ok = rule == PINET_HISTOGRAM_R_EQ6 ? pixels_per_pe <= quota : pixels_per_pe < quota;
    if (ok) {
      best = c;
    }
  }
  *r = best;
  return PINET_OK;
}

/* Kept / sent segment starts at phase-2 step k for phase-2 address a (low L bits of the PE). */
static uint32_t kept_start(const struct pinet_histogram_result *res, uint32_t a, uint32_t k) {
  uint32_t top = a >> (res->big_l - k);
  return top << (res->log_b - k);
}

pinet_status pinet_histogram_segments(uint32_t pes, uint32_t bins, uint32_t pe, uint32_t step,
                                      uint32_t *kept, uint32_t *sent, uint32_t *length) {
  RETURN_ERROR_IF(kept == NULL || sent == NULL || length == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_sizes(pes, bins));
  struct pinet_histogram_result geo;
  memset(&geo, 0, sizeof geo);
  geo.log_b = log2u(bins);
  uint32_t log_m = log2u(pes);
  geo.big_l = log_m < geo.log_b ? log_m : geo.log_b;
  RETURN_ERROR_IF(pe >= pes || step < 1 || step > geo.big_l, PINET_ERR_RANGE);
  uint32_t a = pe & ((1u << geo.big_l) - 1u);
  *kept = kept_start(&geo, a, step);
  *sent = kept_start(&geo, a ^ (1u << (geo.big_l - step)), step);
  *length = bins >> step;
  return PINET_OK;
}

/* The phase-2 step (1..L) at which address a sends bin v, or 0 if a keeps it to the end. */
static uint32_t send_step(const struct pinet_histogram_result *res, uint32_t a, uint32_t v) {
  uint32_t diff = (v >> res->shift) ^ a;
  if (diff == 0) {
    return 0;
  }
  return res->big_l - log2u(diff);
}

static uint32_t *ctr_at(struct pinet_histogram_result *res, uint32_t pe, uint32_t step) {
  return res->ctr + ((size_t)pe * res->slots + step) * N_CTR;
}

/* Approach-2 state: per processor, list k (1..r) lives at offset B - B/2^(k-1) with room for the
 * B/2^k bins of its segment. */
typedef struct lists {
  uint32_t *entries; /* pes * bins */
  uint32_t *len;     /* pes * (r + 1) */
  uint32_t *maxlen;  /* pes * (r + 1) */
  uint32_t r;
} lists;

static uint32_t list_offset(uint32_t bins, uint32_t k) { return bins - (bins >> (k - 1)); }

/* Record a newly active bin v at processor pe (address a): one operation for the list index, two
 * more (counter, append) if it goes into one of the lists 1..r. Returns the bookkeeping count. */
static uint32_t list_note_new(struct pinet_histogram_result *res, lists *ls, uint32_t pe, uint32_t a,
                              uint32_t v) {
  uint32_t k = send_step(res, a, v);
  if (k == 0 || k > ls->r) {
    return 1;
  }
  uint32_t bins = res->sum.bins;
  size_t li = (size_t)pe * (ls->r + 1) + k;
  ls->entries[(size_t)pe * bins + list_offset(bins, k) + ls->len[li]] = v;
  ls->len[li]++;
  if (ls->len[li] > ls->maxlen[li]) {
    ls->maxlen[li] = ls->len[li];
  }
  return 3;
}

/* One data-dependent message: (index, count) pairs. */
typedef struct message {
  uint32_t *pairs; /* 2 * capacity */
  uint32_t n;      /* pairs */
} message;

/* Build processor pe's step-k message: active bins of its sent segment. */
static pinet_status dd_build(struct pinet_histogram_result *res, lists *ls, uint32_t pe, uint32_t a,
                             uint32_t k, message *msg) {
  uint32_t bins = res->sum.bins;
  uint32_t *h = res->hist + (size_t)pe * bins;
  uint32_t seg = bins >> k;
  uint32_t *c = ctr_at(res, pe, k);
  msg->n = 0;
  if (res->algo == PINET_HISTOGRAM_DEPENDENT1) {
    uint32_t s = kept_start(res, a ^ (1u << (res->big_l - k)), k);
    for (uint32_t i = 0; i < seg; i++) {
      c[C_CMP]++;
      if (h[s + i] != 0) {
        msg->pairs[2 * msg->n] = s + i;
        msg->pairs[2 * msg->n + 1] = h[s + i];
        msg->n++;
        h[s + i] = 0;
      }
    }
  } else {
    size_t li = (size_t)pe * (ls->r + 1) + k;
    const uint32_t *list = ls->entries + (size_t)pe * bins + list_offset(bins, k);
    for (uint32_t j = 0; j < ls->len[li]; j++) {
      uint32_t v = list[j];
      RETURN_ERROR_IF(h[v] == 0, PINET_ERR_ILLEGAL_STATE); /* a listed bin is always active */
      msg->pairs[2 * msg->n] = v;
      msg->pairs[2 * msg->n + 1] = h[v];
      msg->n++;
      h[v] = 0;
    }
    ls->len[li] = 0;
  }
  c[C_SENT] += 2 * msg->n;
  return PINET_OK;
}

/* Deliver a step-k data-dependent message to processor pe. */
static void dd_deliver(struct pinet_histogram_result *res, lists *ls, uint32_t pe, uint32_t a,
                       uint32_t k, const message *msg) {
  uint32_t *h = res->hist + (size_t)pe * res->sum.bins;
  uint32_t *c = ctr_at(res, pe, k);
  c[C_RECV] += 2 * msg->n;
  for (uint32_t j = 0; j < msg->n; j++) {
    uint32_t v = msg->pairs[2 * j], cnt = msg->pairs[2 * j + 1];
    if (res->algo == PINET_HISTOGRAM_DEPENDENT2 && k < ls->r) {
      c[C_CMP]++;
      if (h[v] == 0) {
        c[C_BOOK] += list_note_new(res, ls, pe, a, v);
      }
    }
    h[v] += cnt;
    c[C_ADD]++;
  }
}

/* Memory after `step`: the B-word histogram array plus the list entries still to be sent. */
static void record_memory(struct pinet_histogram_result *res, const lists *ls, int use_lists,
                          uint32_t step) {
  for (uint32_t w = 0; w < res->sum.pes; w++) {
    uint64_t words = res->sum.bins;
    if (use_lists) {
      for (uint32_t k = step + 1; k <= ls->r; k++) {
        words += ls->len[(size_t)w * (ls->r + 1) + k];
      }
    }
    ctr_at(res, w, step)[C_MEM] = (uint32_t)words;
  }
}

static pinet_status simulate(struct pinet_histogram_result *res, const uint32_t *values, size_t n) {
  const uint32_t pes = res->sum.pes, bins = res->sum.bins, big_l = res->big_l;
  const uint32_t r = res->sum.r;
  lists ls = {NULL, NULL, NULL, r};
  message m1 = {NULL, 0}, m2 = {NULL, 0};
  pinet_status st = PINET_OK;
  int use_lists = res->algo == PINET_HISTOGRAM_DEPENDENT2 && r > 0;
  if (use_lists) {
    ls.entries = malloc((size_t)pes * bins * sizeof *ls.entries);
    ls.len = calloc((size_t)pes * (r + 1), sizeof *ls.len);
    ls.maxlen = calloc((size_t)pes * (r + 1), sizeof *ls.maxlen);
    if (ls.entries == NULL || ls.len == NULL || ls.maxlen == NULL) {
      st = PINET_ERR_NOMEM;
    }
  }
  if (r > 0 && st == PINET_OK) {
    m1.pairs = malloc((size_t)bins * 2 * sizeof *m1.pairs);
    m2.pairs = malloc((size_t)bins * 2 * sizeof *m2.pairs);
    if (m1.pairs == NULL || m2.pairs == NULL) {
      st = PINET_ERR_NOMEM;
    }
  }
  const uint32_t amask = (1u << big_l) - 1u;

  /* Step 0, phase 1: local histograms (and approach 2's lists). */
  for (uint32_t w = 0; w < pes && st == PINET_OK; w++) {
    size_t lo = (size_t)(((uint64_t)w * n) / pes); /* n < 2^32, w < 2^16: no overflow */
    size_t hi = (size_t)(((uint64_t)(w + 1) * n) / pes);
    uint32_t *h = res->hist + (size_t)w * bins;
    uint32_t *c = ctr_at(res, w, 0);
    for (size_t i = lo; i < hi; i++) {
      uint32_t v = values[i];
      if (use_lists && h[v] == 0) {
        c[C_BOOK] += list_note_new(res, &ls, w, w & amask, v);
      }
      h[v]++;
      c[C_ADD]++;
    }
  }

  if (st == PINET_OK) {
    record_memory(res, &ls, use_lists, 0);
  }

  /* Steps 1..L, phase 2. */
  for (uint32_t k = 1; k <= big_l && st == PINET_OK; k++) {
    uint32_t bit = 1u << (big_l - k);
    uint32_t seg = bins >> k;
    for (uint32_t w = 0; w < pes && st == PINET_OK; w++) {
      uint32_t u = w ^ bit;
      if (u < w) {
        continue;
      }
      uint32_t aw = w & amask, au = u & amask;
      if (k <= r) {
        st = dd_build(res, &ls, w, aw, k, &m1);
        if (st == PINET_OK) {
          st = dd_build(res, &ls, u, au, k, &m2);
        }
        if (st == PINET_OK) {
          dd_deliver(res, &ls, u, au, k, &m1);
          dd_deliver(res, &ls, w, aw, k, &m2);
        }
        continue;
      }
      uint32_t *hw = res->hist + (size_t)w * bins, *hu = res->hist + (size_t)u * bins;
      uint32_t kw = kept_start(res, aw, k), ku = kept_start(res, au, k);
      for (uint32_t i = 0; i < seg; i++) {
        hw[kw + i] += hu[kw + i];
        hu[kw + i] = 0;
        hu[ku + i] += hw[ku + i];
        hw[ku + i] = 0;
      }
      uint32_t *cw = ctr_at(res, w, k), *cu = ctr_at(res, u, k);
      cw[C_SENT] += seg;
      cw[C_RECV] += seg;
      cw[C_ADD] += seg;
      cu[C_SENT] += seg;
      cu[C_RECV] += seg;
      cu[C_ADD] += seg;
    }
    if (st == PINET_OK) {
      record_memory(res, &ls, use_lists, k);
    }
  }

  /* Steps L+1 .., phase 3: binomial reduction over the groups of B processors. */
  for (uint32_t j = 0; j < res->sum.phase3_steps && st == PINET_OK; j++) {
    uint32_t k = big_l + 1 + j;
    uint32_t low = (1u << j) - 1u;
    for (uint32_t w = 0; w < pes; w++) {
      uint32_t g = w >> res->log_b;
      if (((g >> j) & 1u) == 0 || (g & low) != 0) {
        continue;
      }
      uint32_t dst = w - (bins << j);
      uint32_t b = w & (bins - 1u);
      res->hist[(size_t)dst * bins + b] += res->hist[(size_t)w * bins + b];
      res->hist[(size_t)w * bins + b] = 0;
      ctr_at(res, w, k)[C_SENT] += 1;
      ctr_at(res, dst, k)[C_RECV] += 1;
      ctr_at(res, dst, k)[C_ADD] += 1;
    }
    if (st == PINET_OK) {
      record_memory(res, &ls, use_lists, k);
    }
  }

  if (st == PINET_OK && use_lists) {
    /* Arrays sized alike on every processor (as on a SIMD machine): list k needs the largest
     * length it reached anywhere. */
    uint64_t total = 0;
    for (uint32_t k = 1; k <= r; k++) {
      uint32_t best = 0;
      for (uint32_t w = 0; w < pes; w++) {
        uint32_t ml = ls.maxlen[(size_t)w * (r + 1) + k];
        best = ml > best ? ml : best;
      }
      total += best;
    }
    res->sum.list_words_max = total;
  }
  free(ls.entries);
  free(ls.len);
  free(ls.maxlen);
  free(m1.pairs);
  free(m2.pairs);
  return st;
}

static void summarise(struct pinet_histogram_result *res) {
  pinet_histogram_summary *s = &res->sum;
  for (uint32_t step = 0; step < res->slots; step++) {
    pinet_histogram_counters mx;
    pinet_histogram_result_step_max(res, step, &mx);
    uint64_t ops = 0;
    for (uint32_t w = 0; w < s->pes; w++) {
      const uint32_t *c = ctr_at(res, w, step);
      uint64_t o = step == 0 ? c[C_BOOK] : (uint64_t)c[C_ADD] + c[C_CMP] + c[C_BOOK];
      if (o > ops) {
        ops = o;
      }
    }
    s->additions_max += mx.additions;
    if (step >= 1) {
      s->transfers_max += mx.words_sent;
    }
    if (step <= s->phase2_steps) {
      s->phase2_ops_max += ops;
    }
    if (step >= 1 && step <= s->phase2_steps) {
      s->phase2_transfers_max += mx.words_sent;
      s->phase2_additions_max += mx.additions;
      s->phase2_comparisons_max += mx.comparisons;
    }
  }
  /* Final owners. */
  for (uint32_t w = 0; w < s->pes; w++) {
    uint32_t first = 0, nb = 0;
    const uint32_t *counts = NULL;
    pinet_histogram_result_held(res, w, &first, &nb, &counts);
    for (uint32_t i = 0; i < nb; i++) {
      res->global[first + i] += counts[i];
    }
  }
}

pinet_status pinet_histogram_run(const pinet_histogram_config *cfg, const uint32_t *values, size_t n,
                                 pinet_histogram_result **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(cfg == NULL || values == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_sizes(cfg->pes, cfg->bins));
  RETURN_ERROR_IF(n == 0 || n > UINT32_MAX, PINET_ERR_SIZE);
  RETURN_ERROR_IF(pinet_histogram_algo_name(cfg->algo) == NULL, PINET_ERR_RANGE);
  RETURN_ERROR_IF(cfg->r_rule != PINET_HISTOGRAM_R_EQ6 && cfg->r_rule != PINET_HISTOGRAM_R_EQ3,
                  PINET_ERR_RANGE);
  for (size_t i = 0; i < n; i++) {
    RETURN_ERROR_IF(values[i] >= cfg->bins, PINET_ERR_RANGE);
  }
  struct pinet_histogram_result *res = calloc(1, sizeof *res);
  RETURN_ERROR_IF(res == NULL, PINET_ERR_NOMEM);
  pinet_histogram_summary *s = &res->sum;
  s->pes = cfg->pes;
  s->bins = cfg->bins;
  s->pixels = n;
  s->pixels_per_pe = (n + cfg->pes - 1) / cfg->pes;
  res->algo = cfg->algo;
  res->log_b = log2u(cfg->bins);
  uint32_t log_m = log2u(cfg->pes);
  res->big_l = log_m < res->log_b ? log_m : res->log_b;
  res->shift = res->log_b - res->big_l;
  s->phase2_steps = res->big_l;
  s->phase3_steps = log_m > res->log_b ? log_m - res->log_b : 0;
  s->steps = s->phase2_steps + s->phase3_steps;
  res->slots = s->steps + 1;
  if (cfg->algo != PINET_HISTOGRAM_INDEPENDENT) {
    pinet_histogram_choose_r(cfg->bins, s->pixels_per_pe, cfg->r_rule, &s->r);
    if (s->r > res->big_l) {
      s->r = res->big_l;
    }
  }
  res->hist = calloc((size_t)cfg->pes * cfg->bins, sizeof *res->hist);
  res->ctr = calloc((size_t)cfg->pes * res->slots * N_CTR, sizeof *res->ctr);
  res->global = calloc(cfg->bins, sizeof *res->global);
  pinet_status st = (res->hist && res->ctr && res->global) ? PINET_OK : PINET_ERR_NOMEM;
  if (st == PINET_OK) {
    st = simulate(res, values, n);
  }
  if (st != PINET_OK) {
    pinet_histogram_result_free(res);
    return st;
  }
  summarise(res);
  *out = res;
  return PINET_OK;
}

void pinet_histogram_result_free(pinet_histogram_result *res) {
  if (res != NULL) {
    free(res->hist);
    free(res->ctr);
    free(res->global);
    free(res);
  }
}

pinet_status pinet_histogram_result_summary(const pinet_histogram_result *res,
                                            pinet_histogram_summary *summary) {
  RETURN_ERROR_IF(res == NULL || summary == NULL, PINET_ERR_NULL);
  *summary = res->sum;
  return PINET_OK;
}

pinet_status pinet_histogram_result_histogram(const pinet_histogram_result *res,
                                              const uint64_t **counts) {
  RETURN_ERROR_IF(res == NULL || counts == NULL, PINET_ERR_NULL);
  *counts = res->global;
  return PINET_OK;
}

pinet_status pinet_histogram_result_held(const pinet_histogram_result *res, uint32_t pe,
                                         uint32_t *first_bin, uint32_t *n_bins,
                                         const uint32_t **counts) {
  RETURN_ERROR_IF(res == NULL || first_bin == NULL || n_bins == NULL || counts == NULL,
                  PINET_ERR_NULL);
  RETURN_ERROR_IF(pe >= res->sum.pes, PINET_ERR_RANGE);
  uint32_t bins = res->sum.bins;
  *first_bin = 0;
  *n_bins = 0;
  *counts = NULL;
  if (res->sum.pes >= bins) {
    if (pe < bins) {
      *first_bin = pe;
      *n_bins = 1;
    }
  } else {
    *n_bins = bins / res->sum.pes;
    *first_bin = pe * *n_bins;
  }
  if (*n_bins > 0) {
    *counts = res->hist + (size_t)pe * bins + *first_bin;
  }
  return PINET_OK;
}

static void fill_counters(const uint32_t *c, pinet_histogram_counters *out) {
  out->words_sent = c[C_SENT];
  out->words_received = c[C_RECV];
  out->additions = c[C_ADD];
  out->comparisons = c[C_CMP];
  out->bookkeeping = c[C_BOOK];
  out->memory_words = c[C_MEM];
}

pinet_status pinet_histogram_result_counters(const pinet_histogram_result *res, uint32_t pe,
                                             uint32_t step, pinet_histogram_counters *c) {
  RETURN_ERROR_IF(res == NULL || c == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pe >= res->sum.pes || step >= res->slots, PINET_ERR_RANGE);
  fill_counters(res->ctr + ((size_t)pe * res->slots + step) * N_CTR, c);
  return PINET_OK;
}

pinet_status pinet_histogram_result_step_max(const pinet_histogram_result *res, uint32_t step,
                                             pinet_histogram_counters *c) {
  RETURN_ERROR_IF(res == NULL || c == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(step >= res->slots, PINET_ERR_RANGE);
  memset(c, 0, sizeof *c);
  for (uint32_t w = 0; w < res->sum.pes; w++) {
    pinet_histogram_counters x;
    fill_counters(res->ctr + ((size_t)w * res->slots + step) * N_CTR, &x);
    c->words_sent = x.words_sent > c->words_sent ? x.words_sent : c->words_sent;
    c->words_received = x.words_received > c->words_received ? x.words_received : c->words_received;
    c->additions = x.additions > c->additions ? x.additions : c->additions;
    c->comparisons = x.comparisons > c->comparisons ? x.comparisons : c->comparisons;
    c->bookkeeping = x.bookkeeping > c->bookkeeping ? x.bookkeeping : c->bookkeeping;
    c->memory_words = x.memory_words > c->memory_words ? x.memory_words : c->memory_words;
  }
  return PINET_OK;
}

pinet_status pinet_histogram_values_from_image(const pinet_image *img, uint32_t bins,
                                               uint32_t **values, size_t *count, size_t *bad_index) {
  RETURN_ERROR_IF(img == NULL || values == NULL || count == NULL || bad_index == NULL,
                  PINET_ERR_NULL);
  *values = NULL;
  *count = 0;
  *bad_index = 0;
  RETURN_ERROR_IF(img->pixels == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!is_pow2(bins) || bins < 2, PINET_ERR_SIZE);
  size_t n = (size_t)img->width * img->height;
  RETURN_ERROR_IF(n == 0, PINET_ERR_SIZE);
  for (size_t i = 0; i < n; i++) {
    float v = img->pixels[i];
    if (!(v >= 0.0f) || !(v < (float)bins) || v != floorf(v)) {
      *bad_index = i;
      return PINET_ERR_RANGE;
    }
  }
  uint32_t *out = malloc(n * sizeof *out);
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NOMEM);
  for (size_t i = 0; i < n; i++) {
    out[i] = (uint32_t)img->pixels[i];
  }
  *values = out;
  *count = n;
  return PINET_OK;
}

pinet_status pinet_histogram_worst_case(uint32_t pes, uint32_t bins, uint64_t pixels_per_pe,
                                        pinet_histogram_r_rule rule, uint32_t **values,
                                        size_t *count) {
  RETURN_ERROR_IF(values == NULL || count == NULL, PINET_ERR_NULL);
  *values = NULL;
  *count = 0;
  FORWARD_IF_ERROR(check_sizes(pes, bins));
  uint32_t r = 0;
  FORWARD_IF_ERROR(pinet_histogram_choose_r(bins, pixels_per_pe, rule, &r));
  const uint32_t log_b = log2u(bins), log_m = log2u(pes);
  const uint32_t big_l = log_m < log_b ? log_m : log_b, shift = log_b - big_l;
  const uint32_t amask = (1u << big_l) - 1u;
  const uint64_t p = pixels_per_pe;
  if (r > big_l) {
    r = big_l;
  }
  /* The subcubes below need room in the address: c_k = k must fit under bit L-k+1 and leave
   * bit L-k (and for k < r bit L-k-1) of the receiver k + 2^(L-k) clear. */
  for (uint32_t k = 1; k <= r; k++) {
    RETURN_ERROR_IF(k >= (1u << (big_l - k)), PINET_ERR_RANGE);
    RETURN_ERROR_IF(k < r && (big_l < k + 1 || k >= (1u << (big_l - k - 1))), PINET_ERR_RANGE);
    RETURN_ERROR_IF(r >= (1u << (big_l - r + 1)), PINET_ERR_RANGE);
    uint32_t free_bits = (k < r ? big_l - k - 1 : big_l - k) + shift;
    RETURN_ERROR_IF(((uint64_t)1 << (free_bits > 40 ? 40 : free_bits)) < ((uint64_t)p << (k - 1)) + 1,
                    PINET_ERR_RANGE);
  }
  RETURN_ERROR_IF((uint64_t)pes * p > UINT32_MAX, PINET_ERR_SIZE);
  size_t n = (size_t)pes * p;
  uint32_t *out = malloc(n * sizeof *out);
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NOMEM);
  /* Fillers: every pixel in the processor's final bin, which never moves in phase 2. */
  for (uint32_t w = 0; w < pes; w++) {
    for (uint64_t j = 0; j < p; j++) {
      out[(size_t)w * p + j] = (w & amask) << shift;
    }
  }
  /* Step k's worst case, in every group: the 2^(k-1) processors whose low L-k+1 address bits
   * equal k hold distinct bins whose top k-1 bits are 0 and bit L-k is 1, so all of them gather
   * at processor k in steps 1..k-1 and leave it at step k for k + 2^(L-k), where they are new
   * and (bit L-k-1 set, k < r) go into list k+1. Different k use disjoint processors. */
  for (uint32_t k = 1; k <= r; k++) {
    uint32_t fixed_a = 1u << (big_l - k);
    if (k < r) {
      fixed_a |= 1u << (big_l - k - 1);
    }
    uint32_t home_g = (k + (1u << (big_l - k))) << shift;
    for (uint32_t base = 0; base < pes; base += 1u << big_l) {
      uint32_t idx = 0;
      for (uint32_t i = 0; i < (1u << (k - 1)); i++) {
        uint32_t u = base + ((i << (big_l - k + 1)) | k);
        for (uint64_t j = 0; j < p; j++) {
          uint32_t v = (fixed_a << shift) | idx++;
          if (v == home_g) {
            v = (fixed_a << shift) | idx++;
          }
          out[(size_t)u * p + j] = v;
        }
      }
    }
  }
  *values = out;
  *count = n;
  return PINET_OK;
}

pinet_status pinet_histogram_model_eval(uint32_t bins, uint64_t pixels_per_pe,
                                        pinet_histogram_r_rule rule, pinet_histogram_model *model) {
  RETURN_ERROR_IF(model == NULL, PINET_ERR_NULL);
  uint32_t r = 0;
  FORWARD_IF_ERROR(pinet_histogram_choose_r(bins, pixels_per_pe, rule, &r));
  uint64_t p = pixels_per_pe, b = bins, two_r = (uint64_t)1 << r;
  model->r = r;
  model->transfers_independent = b - 1;
  model->transfers_dependent = 2 * p * (two_r - 1) + b / two_r - 1;
  model->ops_independent = b - 1;
  /* (8) p(2^r - 1), (9) B - B/2^r, (10) B/2^r - 1 */
  model->ops_approach1 = p * (two_r - 1) + (b - b / two_r) + (b / two_r - 1);
  /* (12) 3p + 5p(2^(r-1) - 1) + 2^(r-1) p, (13) B/2^r - 1 */
  model->ops_approach2 =
      r == 0 ? b - 1 : 3 * p + 5 * p * ((two_r >> 1) - 1) + (two_r >> 1) * p + b / two_r - 1;
  model->list_words = p * (two_r - 1);
  return PINET_OK;
}
