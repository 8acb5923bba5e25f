/* recon_par.c - FBP and EM on N simulated PEs over the static perfect-shuffle network, using the
 * real schedules of pinet/shuffle.h (scatter, broadcast, integration, all-to-all broadcast, upload,
 * ring exchange) executed on per-PE memories (pinet/recon.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon.h"
#include "pinet/shuffle.h"

#define PAR_MAX_PES 64u
#define CYCLES_NONE UINT64_MAX /* a cycle sum with a collective the other kind would not build */

/* Fitted transputer constants (pinet_recon_model_fit_paper) are recomputed on demand; the
 * per-operation times come from the paper's single-PE times:
 *  FBP: t0 = 2.34e-5 s * NI^3 for the four sizes (Table 2), i.e. per pixel-view interpolation
 *       when V = NI views (the paper does not state V; we assume V = NI).
 *  EM:  5.17 s per iteration for 64 x 64 / 96 detectors = 2 * nnz box-tube pairs, with
 *       nnz = 135,614 for pinet's ring preset (pinet_ring_paper), i.e. 1.9e-5 s per pair. */
#define FBP_T_OP 2.34e-5
#define EM_T_PAIR (5.17 / (2.0 * 135614.0))

/* ---- helpers ------------------------------------------------------------------------------- */

/* Where the PEs are: all here (dist NULL) or one per process (pinet_recon_dist). In a distributed
 * run every process passes through the same exec_* calls in the same order whatever its own
 * status, which is what lets the hooks agree on failures. */
typedef struct par {
  const pinet_recon_dist *dist;
  pinet_recon_comm *c;
  pinet_shuffle_kind kind; /* the builder of every collective (c->schedule) */
} par;

/* Whether this process holds PE `pe`'s memory (PE 0's: also the host's). */
static int holds(const par *x, uint32_t pe) { return x->dist == NULL || x->dist->pe == pe; }

typedef struct mems {
  uint32_t pes;
  size_t elem;
  uint32_t words;
  void **pe;   /* pe[i] NULL for the PEs of other processes */
  void *host;  /* NULL unless this process holds PE 0 */
} mems;

static void mems_free(mems *m) {
  if (m->pe != NULL) {
    for (uint32_t i = 0; i < m->pes; i++) free(m->pe[i]);
  }
  free(m->pe);
  free(m->host);
  memset(m, 0, sizeof *m);
}

static pinet_status mems_alloc(const par *x, mems *m, uint32_t pes, pinet_shuffle_elem elem,
                               uint32_t words, uint32_t host_words) {
  memset(m, 0, sizeof *m);
  m->pes = pes;
  m->elem = pinet_shuffle_elem_size(elem);
  m->words = words;
  m->pe = calloc(pes, sizeof *m->pe);
  RETURN_ERROR_IF(m->pe == NULL, PINET_ERR_NOMEM);
  for (uint32_t i = 0; i < pes; i++) {
    if (!holds(x, i)) continue;
    m->pe[i] = calloc(words ? words : 1, m->elem);
    if (m->pe[i] == NULL) {
      mems_free(m);
      return PINET_ERR_NOMEM;
    }
  }
  if (host_words > 0 && holds(x, 0)) {
    m->host = calloc(host_words, m->elem);
    if (m->host == NULL) {
      mems_free(m);
      return PINET_ERR_NOMEM;
    }
  }
  return PINET_OK;
}

/* The kind that did not run: its schedules are built only to measure their done cycles. */
static pinet_shuffle_kind other_kind(pinet_shuffle_kind kind) {
  return kind == PINET_SHUFFLE_PAPER ? PINET_SHUFFLE_FAST : PINET_SHUFFLE_PAPER;
}

/* *t = the done cycle of (op, pes, words) under the kind that does not run. Both builders take
 * the same arguments (pinet_shuffle_build_fast's contract), so this never fails but for memory;
 * should that contract break, *t = CYCLES_NONE and the run goes on as it would have without the
 * measurement. Only PINET_ERR_NOMEM is returned. */
static pinet_status measure_other(const par *x, pinet_shuffle_op op, uint32_t pes, uint32_t words,
                                  pinet_shuffle_elem elem, uint64_t *t) {
  pinet_shuffle_schedule *o = NULL;
  pinet_status st = pinet_shuffle_build_kind_typed(&o, other_kind(x->kind), op, pes, words, elem);
  if (st == PINET_OK) st = pinet_shuffle_cycle_total(o, t);
  pinet_shuffle_schedule_free(o);
  if (st != PINET_OK) *t = CYCLES_NONE;
  return st == PINET_ERR_NOMEM ? st : PINET_OK;
}

/* a + b, or CYCLES_NONE if either is (a sum with an unmeasured collective is unknown). */
static uint64_t cycles_add(uint64_t a, uint64_t b) {
  return a == CYCLES_NONE || b == CYCLES_NONE ? CYCLES_NONE : a + b;
}

/* Account s, of kind c->schedule; *t_other is the done cycle of the same collective under the
 * other kind (t_other NULL: a custom schedule, the same in both kinds). */
static void comm_add(pinet_recon_comm *c, const pinet_shuffle_schedule *s,
                     const uint64_t *t_other) {
  pinet_shuffle_report r;
  uint64_t t = 0;
  if (pinet_shuffle_report_compute(s, NULL, &r) != PINET_OK) return;
  if (pinet_shuffle_cycle_total(s, &t) != PINET_OK) return;
  const uint64_t o = t_other != NULL ? *t_other : t;
  c->schedules++;
  c->steps += r.steps;
  c->words_moved += r.words_moved;
  c->words_summed += r.words_summed;
  c->link_time += r.link_time;
  c->cycles += t;
  c->cycles_paper = cycles_add(c->cycles_paper, c->schedule == PINET_SHUFFLE_PAPER ? t : o);
  c->cycles_fast = cycles_add(c->cycles_fast, c->schedule == PINET_SHUFFLE_FAST ? t : o);
}

/* Execute s on m (st: the status so far; s is not used unless st is PINET_OK), account it with
 * t_other (comm_add's). */
static pinet_status exec_sched(const par *x, pinet_status st, const pinet_shuffle_schedule *s,
                               const uint64_t *t_other, pinet_shuffle_elem elem, mems *m) {
  if (x->dist == NULL) {
    if (st == PINET_OK) st = pinet_shuffle_execute(s, elem, m->pe, m->host);
  } else {
    void *mine = m->pe != NULL ? m->pe[x->dist->pe] : NULL;
    st = x->dist->step(x->dist->ctx, st, st == PINET_OK ? s : NULL, elem, mine, m->host);
  }
  if (st == PINET_OK) comm_add(x->c, s, t_other);
  return st;
}

/* The last meeting of a distributed run: every process returns the same status. */
static pinet_status exec_settle(const par *x, pinet_status st) {
  if (x->dist == NULL) return st;
  return x->dist->step(x->dist->ctx, st, NULL, PINET_SHUFFLE_F64, NULL, NULL);
}

/* Build with x->kind, measure the other kind, execute on m, account, free. A failure joins st
 * before exec_sched, so that a distributed run agrees on it at the hook. */
static pinet_status run_op(const par *x, pinet_status st, pinet_shuffle_op op,
                           pinet_shuffle_elem elem, mems *m) {
  pinet_shuffle_schedule *s = NULL;
  uint64_t t_other = CYCLES_NONE;
  if (st == PINET_OK) st = pinet_shuffle_build_kind_typed(&s, x->kind, op, m->pes, m->words, elem);
  if (st == PINET_OK) st = measure_other(x, op, m->pes, m->words, elem, &t_other);
  st = exec_sched(x, st, s, &t_other, elem, m);
  pinet_shuffle_schedule_free(s);
  return st;
}

/* Account a schedule without executing it (bulk input downloads: no sums, any type), with the
 * other kind's cycles as run_op. */
static pinet_status account_op(const par *x, pinet_shuffle_op op, uint32_t pes, uint32_t words) {
  pinet_shuffle_schedule *s = NULL;
  uint64_t t_other = CYCLES_NONE;
  FORWARD_IF_ERROR(pinet_shuffle_build_kind(&s, x->kind, op, pes, words));
  pinet_status st = measure_other(x, op, pes, words, PINET_SHUFFLE_F64, &t_other);
  if (st == PINET_OK) comm_add(x->c, s, &t_other);
  pinet_shuffle_schedule_free(s);
  return st;
}

/* PE 0 -> host, the whole memory, one step on the host link. */
static pinet_status run_pe0_upload(const par *x, pinet_status st, pinet_shuffle_elem elem,
                                   mems *m) {
  pinet_shuffle_schedule *s = NULL;
  if (st == PINET_OK) st = pinet_shuffle_schedule_create(&s, m->pes, m->words, m->words);
  pinet_shuffle_transfer t = {0, PINET_SHUFFLE_HOST, PINET_SHUFFLE_CH_HOST_UP(m->pes), 0, 0,
                              m->words, PINET_SHUFFLE_COPY, 0};
  if (st == PINET_OK) st = pinet_shuffle_schedule_add_step(s);
  if (st == PINET_OK) st = pinet_shuffle_schedule_add(s, &t);
  if (st == PINET_OK) st = pinet_shuffle_schedule_finish(s);
  st = exec_sched(x, st, s, NULL, elem, m); /* custom: the same for both kinds */
  pinet_shuffle_schedule_free(s);
  return st;
}

/* PE pe's copy of the image in lam (held: every PE's side by side, or this process's only). */
static double *pe_image(const par *x, double *lam, uint32_t pe, uint32_t boxes) {
  return lam + (size_t)(x->dist == NULL ? pe : 0) * boxes;
}

static uint32_t round_up(uint32_t x, uint32_t q) { return (x + q - 1) / q * q; }

static pinet_status check_pes(uint32_t pes) {
  RETURN_ERROR_IF(pes == 0 || pes > PAR_MAX_PES || (pes & (pes - 1)) != 0, PINET_ERR_SIZE);
  return PINET_OK;
}

static pinet_status check_dist(const pinet_recon_dist *dist, uint32_t pes) {
  if (dist == NULL) return PINET_OK;
  RETURN_ERROR_IF(dist->step == NULL || dist->gather == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(dist->pe >= pes, PINET_ERR_RANGE);
  return PINET_OK;
}

/* The kind, checked against the dist: a hook executes a step as all reads, then all writes
 * (pinet_shuffle_execute's store-and-forward semantics), so a cut-through relay would forward
 * words it has not received yet. Refused before any hook runs, alike in every process. */
static pinet_status check_kind(pinet_shuffle_kind kind, const pinet_recon_dist *dist) {
  RETURN_ERROR_IF(kind != PINET_SHUFFLE_PAPER && kind != PINET_SHUFFLE_FAST, PINET_ERR_RANGE);
  RETURN_ERROR_IF(kind == PINET_SHUFFLE_FAST && dist != NULL, PINET_ERR_ILLEGAL_STATE);
  return PINET_OK;
}

/* opts NULL: the paper's schedules, every PE here (what the plain entry points pass). */
static pinet_recon_par_opts opts_or_default(const pinet_recon_par_opts *opts) {
  pinet_recon_par_opts o = {PINET_SHUFFLE_PAPER, NULL};
  return opts != NULL ? *opts : o;
}

static void work_summary(pinet_recon_comm *c, const uint64_t *work, uint32_t pes) {
  c->max_work = 0;
  c->min_work = UINT64_MAX;
  c->total_work = 0;
  for (uint32_t i = 0; i < pes; i++) {
    if (work[i] > c->max_work) c->max_work = work[i];
    if (work[i] < c->min_work) c->min_work = work[i];
    c->total_work += work[i];
  }
  c->load_balance = c->max_work ? (double)c->total_work / ((double)pes * c->max_work) : 1.0;
}

/* ---- FBP -------------------------------------------------------------------------------------- */

pinet_status pinet_fbp_parallel(pinet_fbp *p, const float *sino, uint32_t pes,
                                pinet_recon_arith arith, int frac_bits, float *img,
                                pinet_recon_comm *comm, uint64_t *per_pe_work) {
  return pinet_fbp_parallel_opts(p, sino, pes, arith, frac_bits, NULL, img, comm, per_pe_work);
}

pinet_status pinet_fbp_parallel_dist(pinet_fbp *p, const float *sino, uint32_t pes,
                                     pinet_recon_arith arith, int frac_bits,
                                     const pinet_recon_dist *dist, float *img,
                                     pinet_recon_comm *comm, uint64_t *per_pe_work) {
  const pinet_recon_par_opts o = {PINET_SHUFFLE_PAPER, dist};
  return pinet_fbp_parallel_opts(p, sino, pes, arith, frac_bits, &o, img, comm, per_pe_work);
}

pinet_status pinet_fbp_parallel_opts(pinet_fbp *p, const float *sino, uint32_t pes,
                                     pinet_recon_arith arith, int frac_bits,
                                     const pinet_recon_par_opts *opts, float *img,
                                     pinet_recon_comm *comm, uint64_t *per_pe_work) {
  const pinet_recon_par_opts po = opts_or_default(opts);
  const pinet_recon_dist *dist = po.dist;
  RETURN_ERROR_IF(p == NULL || sino == NULL || img == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pes(pes));
  FORWARD_IF_ERROR(check_dist(dist, pes));
  FORWARD_IF_ERROR(check_kind(po.schedule, dist));
  RETURN_ERROR_IF(arith != PINET_RECON_FLOAT && arith != PINET_RECON_FIXED, PINET_ERR_RANGE);
  RETURN_ERROR_IF(arith == PINET_RECON_FIXED && (frac_bits < PINET_RECON_FIXED_BITS_MIN ||
                                                  frac_bits > PINET_RECON_FIXED_BITS_MAX),
                  PINET_ERR_RANGE);
  const pinet_pb_geom *g = pinet_fbp_geom(p);
  const uint32_t v = g->views, d = g->bins, n = g->size;
  const size_t stride = pinet_fbp_filtered_stride(p);
  pinet_recon_comm c;
  memset(&c, 0, sizeof c);
  c.pes = pes;
  c.schedule = po.schedule;
  const par x = {dist, &c, po.schedule};
  uint64_t work_local[PAR_MAX_PES] = {0};
  uint64_t disk = 0;
  {
    const double rad = (double)(n / 2u);
    for (uint32_t r = 0; r < n; r++)
      for (uint32_t cc = 0; cc < n; cc++) {
        double dr = r - g->img_center, dc = cc - g->img_center;
        if (dr * dr + dc * dc <= rad * rad) disk++;
      }
  }
  const uint32_t vpp = (v + pes - 1) / pes; /* views per PE */
  const size_t npix = (size_t)n * n;
  pinet_status st = PINET_OK;
  if (pes == 1) { /* one PE: no network, the sequential kernel */
    if (arith == PINET_RECON_FLOAT) st = pinet_fbp_run(p, sino, img);
    else st = pinet_fbp_run_fixed(p, sino, frac_bits, img);
    work_local[0] = (uint64_t)v * disk;
  } else {
    RETURN_ERROR_IF((uint64_t)vpp * pes * d > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
    RETURN_ERROR_IF(npix > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
    mems sc, fl, im;
    memset(&sc, 0, sizeof sc);
    memset(&fl, 0, sizeof fl);
    memset(&im, 0, sizeof im);
    float *filtered = malloc(((size_t)vpp * stride + 1) * sizeof *filtered);
    const uint32_t plen = pinet_fbp_padded_length(p);
    uint32_t n_log = 0;
    (void)pinet_shuffle_log2(pes, &n_log);
    const uint32_t fwords = round_up(plen / 2 + 1, n_log);
    const uint32_t iwords = round_up((uint32_t)npix, pes);
    const pinet_shuffle_elem ielem = arith == PINET_RECON_FLOAT ? PINET_SHUFFLE_F64 : PINET_SHUFFLE_I32;
    if (filtered == NULL) st = PINET_ERR_NOMEM;
    /* 1. scatter the views: host memory = the sinogram padded to vpp * pes views */
    if (st == PINET_OK) st = mems_alloc(&x, &sc, pes, PINET_SHUFFLE_F32, vpp * pes * d, vpp * pes * d);
    if (st == PINET_OK && sc.host != NULL) memcpy(sc.host, sino, (size_t)v * d * sizeof(float));
    st = run_op(&x, st, PINET_SHUFFLE_OP_SCATTER, PINET_SHUFFLE_F32, &sc);
    /* 2. broadcast the filter response from the host */
    if (st == PINET_OK) st = mems_alloc(&x, &fl, pes, PINET_SHUFFLE_F64, fwords, fwords);
    if (st == PINET_OK && fl.host != NULL) {
      memcpy(fl.host, pinet_fbp_response(p), (plen / 2 + 1) * sizeof(double));
    }
    st = run_op(&x, st, PINET_SHUFFLE_OP_BCAST_HOST, PINET_SHUFFLE_F64, &fl);
    /* 3. local filtering and backprojection into each PE's replicated image */
    if (st == PINET_OK) st = mems_alloc(&x, &im, pes, ielem, iwords, iwords);
    for (uint32_t j = 0; j < pes; j++) {
      uint32_t first = j * vpp;
      uint32_t count = first >= v ? 0 : (v - first < vpp ? v - first : vpp);
      work_local[j] = (uint64_t)count * disk;
      if (count == 0 || st != PINET_OK || !holds(&x, j)) continue;
      const float *mine = (const float *)sc.pe[j] + (size_t)first * d;
      st = pinet_fbp_filter_views(p, (const double *)fl.pe[j], mine, count, filtered);
      if (st != PINET_OK) break;
      if (arith == PINET_RECON_FLOAT) {
        st = pinet_fbp_backproject(p, filtered, first, count, (double *)im.pe[j]);
      } else {
        st = pinet_fbp_backproject_fixed(p, filtered, first, count, frac_bits, (int32_t *)im.pe[j]);
      }
    }
    /* 4. integration, 5. all-to-all broadcast, 6. PE 0 uploads the image */
    st = run_op(&x, st, PINET_SHUFFLE_OP_INTEGRATE, ielem, &im);
    st = run_op(&x, st, PINET_SHUFFLE_OP_ALLGATHER, ielem, &im);
    st = run_pe0_upload(&x, st, ielem, &im);
    if (st == PINET_OK && holds(&x, 0)) {
      if (arith == PINET_RECON_FLOAT) st = pinet_fbp_finish(p, (const double *)im.host, img);
      else st = pinet_fbp_finish_fixed(p, (const int32_t *)im.host, frac_bits, img);
    }
    free(filtered);
    mems_free(&sc);
    mems_free(&fl);
    mems_free(&im);
  }
  st = exec_settle(&x, st);
  if (st != PINET_OK) return st;
  work_summary(&c, work_local, pes);
  {
    pinet_recon_model_fit fit;
    (void)pinet_recon_model_fit_paper(&fit, NULL, 0, NULL);
    c.model_efficiency = pinet_recon_model_eff_fbp(FBP_T_OP * (double)c.total_work, fit.fbp_alpha,
                                                   fit.fbp_c, 0.0, (double)npix, pes);
  }
  if (comm != NULL) *comm = c;
  if (per_pe_work != NULL) memcpy(per_pe_work, work_local, pes * sizeof *per_pe_work);
  return PINET_OK;
}

/* ---- EM ---------------------------------------------------------------------------------------- */

/* The box containing entry e (the last box b with ptr[b] <= e < ptr[b+1]); e < nnz. */
static uint32_t box_of_entry(const pinet_csr *bb, uint64_t e) {
  uint32_t lo = 0, hi = bb->rows; /* ptr[lo] <= e < ptr[hi] */
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (bb->ptr[mid] <= e) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* The first box whose first entry is at or after e. */
static uint32_t first_box_at(const pinet_csr *bb, uint64_t e) {
  uint32_t lo = 0, hi = bb->rows;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (bb->ptr[mid] < e) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

pinet_status pinet_em_segments(const pinet_sysmat *m, uint32_t pes, pinet_em_partition part,
                              pinet_em_segment *seg) {
  RETURN_ERROR_IF(m == NULL || seg == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pes(pes));
  RETURN_ERROR_IF(part != PINET_EM_PARTITION_BY_BOX && part != PINET_EM_PARTITION_MODIFIED,
                  PINET_ERR_RANGE);
  const pinet_csr bb = pinet_sysmat_by_box(m);
  const uint32_t boxes = bb.rows;
  const uint64_t nnz = bb.nnz;
  RETURN_ERROR_IF(boxes == 0 || bb.cols == 0, PINET_ERR_RANGE);
  uint32_t ring[PAR_MAX_PES];
  for (uint32_t r = 0; r < pes; r++) ring[r] = r;
  if (part == PINET_EM_PARTITION_MODIFIED && pes >= 4) FORWARD_IF_ERROR(pinet_shuffle_ring(pes, ring));
  /* segment r (in ring order) runs on PE ring[r] */
  for (uint32_t r = 0; r < pes; r++) {
    uint64_t a = (uint64_t)((double)nnz * r / pes + 0.5), b = (uint64_t)((double)nnz * (r + 1) / pes + 0.5);
    if (r + 1 == pes) b = nnz;
    if (part == PINET_EM_PARTITION_BY_BOX) { /* snap to box starts */
      a = r == 0 ? 0 : bb.ptr[first_box_at(&bb, a)];
      b = r + 1 == pes ? nnz : bb.ptr[first_box_at(&bb, b)];
    }
    seg[r].pe = ring[r];
    seg[r].e0 = a;
    seg[r].e1 = b;
  }
  for (uint32_t r = 0; r < pes; r++) {
    pinet_em_segment *s = &seg[r];
    s->own0 = r == 0 ? 0 : first_box_at(&bb, s->e0);
    s->own1 = r + 1 == pes ? boxes : first_box_at(&bb, s->e1);
    if (s->own1 < s->own0) s->own1 = s->own0;
    s->box0 = s->e0 < nnz ? box_of_entry(&bb, s->e0) : boxes - 1;
    s->first_box = s->box0;
    s->last_box = s->e1 > s->e0 ? box_of_entry(&bb, s->e1 - 1) : s->box0;
    s->split_prev = r > 0 && s->e0 < s->e1 && bb.ptr[s->box0] < s->e0;
    s->split_next = r + 1 < pes && s->e1 > s->e0 && bb.ptr[s->last_box + 1] > s->e1;
  }
  for (uint32_t r = 0; r < pes; r++) { /* a box may be shared by two segments at most */
    if (seg[r].split_prev && seg[r].split_next && seg[r].first_box == seg[r].last_box) {
      return PINET_ERR_RANGE;
    }
    if (seg[r].e0 == seg[r].e1 && r > 0 && seg[r].e0 > 0 && seg[r].e0 < nnz &&
        bb.ptr[box_of_entry(&bb, seg[r].e0)] < seg[r].e0) {
      return PINET_ERR_RANGE; /* an empty segment inside a box: the box spans three PEs */
    }
  }
  return PINET_OK;
}

pinet_status pinet_em_parallel(const pinet_sysmat *m, const double *counts, uint32_t iters,
                               uint32_t pes, pinet_em_partition part, pinet_recon_arith arith,
                               double *lambda_out, double *loglik, pinet_recon_comm *comm,
                               uint64_t *per_pe_work) {
  return pinet_em_parallel_opts(m, counts, iters, pes, part, arith, NULL, lambda_out, loglik, comm,
                                per_pe_work);
}

pinet_status pinet_em_parallel_dist(const pinet_sysmat *m, const double *counts, uint32_t iters,
                                    uint32_t pes, pinet_em_partition part,
                                    pinet_recon_arith arith, const pinet_recon_dist *dist,
                                    double *lambda_out, double *loglik, pinet_recon_comm *comm,
                                    uint64_t *per_pe_work) {
  const pinet_recon_par_opts o = {PINET_SHUFFLE_PAPER, dist};
  return pinet_em_parallel_opts(m, counts, iters, pes, part, arith, &o, lambda_out, loglik, comm,
                                per_pe_work);
}

pinet_status pinet_em_parallel_opts(const pinet_sysmat *m, const double *counts, uint32_t iters,
                                    uint32_t pes, pinet_em_partition part,
                                    pinet_recon_arith arith, const pinet_recon_par_opts *opts,
                                    double *lambda_out, double *loglik, pinet_recon_comm *comm,
                                    uint64_t *per_pe_work) {
  const pinet_recon_par_opts po = opts_or_default(opts);
  const pinet_recon_dist *dist = po.dist;
  RETURN_ERROR_IF(m == NULL || counts == NULL || lambda_out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_pes(pes));
  FORWARD_IF_ERROR(check_dist(dist, pes));
  FORWARD_IF_ERROR(check_kind(po.schedule, dist));
  RETURN_ERROR_IF(part != PINET_EM_PARTITION_BY_BOX && part != PINET_EM_PARTITION_MODIFIED,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(arith != PINET_RECON_FLOAT && arith != PINET_RECON_FIXED, PINET_ERR_RANGE);
  const pinet_csr bb = pinet_sysmat_by_box(m);
  const uint32_t tubes = bb.cols, boxes = bb.rows;
  const uint64_t nnz = bb.nnz;
  double total = 0.0;
  for (uint32_t t = 0; t < tubes; t++) {
    RETURN_ERROR_IF(!isfinite(counts[t]) || counts[t] < 0.0, PINET_ERR_RANGE);
    total += counts[t];
  }
  RETURN_ERROR_IF(boxes == 0 || tubes == 0, PINET_ERR_RANGE);
  RETURN_ERROR_IF(arith == PINET_RECON_FIXED && !pinet_em_fixed_total_ok(total), PINET_ERR_RANGE);
  pinet_recon_comm c;
  memset(&c, 0, sizeof c);
  c.pes = pes;
  c.schedule = po.schedule;
  const par x = {dist, &c, po.schedule};
  uint64_t work[PAR_MAX_PES] = {0};
  if (pes == 1) { /* one PE: no network, the sequential driver */
    pinet_em *em = NULL;
    pinet_em_opts o = {1, arith, 0};
    pinet_status st1 = pinet_em_create(m, counts, &o, &em);
    for (uint32_t it = 0; it < iters && st1 == PINET_OK; it++) {
      st1 = pinet_em_iterate(em, loglik ? &loglik[it] : NULL);
    }
    if (st1 == PINET_OK) memcpy(lambda_out, pinet_em_image(em), (size_t)boxes * sizeof(double));
    pinet_em_free(em);
    FORWARD_IF_ERROR(exec_settle(&x, st1));
    work[0] = 2u * nnz * iters;
    work_summary(&c, work, 1);
    c.model_efficiency = 1.0;
    if (comm != NULL) *comm = c;
    if (per_pe_work != NULL) per_pe_work[0] = work[0];
    return PINET_OK;
  }
  pinet_em_segment seg[PAR_MAX_PES];
  FORWARD_IF_ERROR(pinet_em_segments(m, pes, part, seg));
  const uint32_t tpad = round_up(tubes, pes), bpad = round_up(boxes, pes);
  const uint32_t sw = tpad / pes; /* tubes per PE after the integration */
  /* per-PE state: image (all boxes, only the own and shared ones are kept current), sens; in a
   * distributed run this process holds one PE's image only */
  const uint32_t held = dist == NULL ? pes : 1;
  double *lam = malloc((size_t)held * boxes * sizeof *lam);
  double *sens = malloc((size_t)boxes * sizeof *sens);
  double *dpart = malloc((size_t)boxes * sizeof *dpart);
  int32_t *upart = malloc((size_t)boxes * sizeof *upart);
  double *nbar_all = malloc((size_t)tpad * sizeof *nbar_all);
  double *nbar_mine = dist != NULL ? malloc((size_t)sw * sizeof *nbar_mine) : NULL;
  mems nb, ra, xc, up;
  memset(&nb, 0, sizeof nb);
  memset(&ra, 0, sizeof ra);
  memset(&xc, 0, sizeof xc);
  memset(&up, 0, sizeof up);
  pinet_shuffle_schedule *xs = NULL;
  pinet_status st = PINET_OK;
  const pinet_shuffle_elem nelem = arith == PINET_RECON_FLOAT ? PINET_SHUFFLE_F64 : PINET_SHUFFLE_I32;
  const int bits = pinet_em_fixed_bits(total);
  const double inv = ldexp(1.0, -bits);
  if (!lam || !sens || !dpart || !upart || !nbar_all || (dist != NULL && !nbar_mine)) {
    st = PINET_ERR_NOMEM;
  }
  if (st == PINET_OK) {
    pinet_em_sensitivity(&bb, sens); /* per box: every PE computes its own boxes' sums alike */
    double stot = 0.0;
    for (uint32_t b = 0; b < boxes; b++) stot += sens[b];
    double v0 = (total > 0 && stot > 0) ? total / stot : 1.0;
    for (size_t i = 0; i < (size_t)held * boxes; i++) lam[i] = v0;
  }
  /* download: counts broadcast, matrix entries (value + index) and box indices scattered.
   * Accounted from their schedules; each PE then reads its share of the shared matrix. */
  if (st == PINET_OK) {
    uint32_t n_log = 0;
    (void)pinet_shuffle_log2(pes, &n_log);
    uint64_t maxe = 0;
    for (uint32_t r = 0; r < pes; r++) if (seg[r].e1 - seg[r].e0 > maxe) maxe = seg[r].e1 - seg[r].e0;
    uint64_t ewords = maxe * pes * 2u;
    if (ewords == 0) ewords = pes;
    st = account_op(&x, PINET_SHUFFLE_OP_BCAST_HOST, pes, round_up(tubes, n_log));
    if (st == PINET_OK && ewords <= PINET_SHUFFLE_MAX_WORDS) {
      st = account_op(&x, PINET_SHUFFLE_OP_SCATTER, pes, (uint32_t)ewords);
    }
    if (st == PINET_OK) st = mems_alloc(&x, &nb, pes, nelem, tpad, 0);
    if (st == PINET_OK) st = mems_alloc(&x, &ra, pes, PINET_SHUFFLE_F64, tpad, 0);
    if (st == PINET_OK && part == PINET_EM_PARTITION_MODIFIED) {
      st = mems_alloc(&x, &xc, pes, nelem, 4, 0);
      /* one word each way along the segments' ring (pinet_shuffle_ring): the RTL's op */
      if (st == PINET_OK) st = pinet_shuffle_build_ring_exchange_default(&xs, pes, 4);
    }
  }
  /* In a distributed run st changes inside the loop only through the hooks (the same in every
   * process), so every process runs the same iterations. */
  for (uint32_t it = 0; it < iters && st == PINET_OK; it++) {
    /* S1 into each PE's replicated projections, then integration over the tubes */
    for (uint32_t r = 0; r < pes; r++) {
      uint32_t pe = seg[r].pe;
      work[pe] += seg[r].e1 - seg[r].e0;
      if (!holds(&x, pe)) continue;
      const double *lp = pe_image(&x, lam, pe, boxes);
      if (arith == PINET_RECON_FLOAT) {
        double *nm = nb.pe[pe];
        memset(nm, 0, (size_t)tpad * sizeof(double));
        pinet_em_s1_entries(&bb, seg[r].box0, seg[r].e0, seg[r].e1, lp, nm);
      } else {
        int32_t *nm = nb.pe[pe];
        memset(nm, 0, (size_t)tpad * sizeof(int32_t));
        pinet_em_s1_entries_fixed(&bb, seg[r].box0, seg[r].e0, seg[r].e1, lp, bits, nm);
      }
    }
    st = run_op(&x, st, PINET_SHUFFLE_OP_INTEGRATE, nelem, &nb);
    if (st != PINET_OK) break;
    /* S2 on each PE's tube segment, then all-to-all broadcast of the correction factors */
    for (uint32_t j = 0; j < pes; j++) {
      if (!holds(&x, j)) continue;
      double *rm = ra.pe[j];
      for (uint32_t t = j * sw; t < (j + 1) * sw; t++) {
        double nbv = arith == PINET_RECON_FLOAT ? ((double *)nb.pe[j])[t]
                                                : (double)((int32_t *)nb.pe[j])[t] * inv;
        nbar_all[t] = nbv; /* the host's view, for the log-likelihood diagnostic only */
        rm[t] = t < tubes ? (nbv > 0.0 ? counts[t] / nbv : 0.0) : 0.0;
      }
    }
    if (dist != NULL && loglik != NULL) { /* the host's view gathered outside the schedules */
      memcpy(nbar_mine, nbar_all + (size_t)dist->pe * sw, (size_t)sw * sizeof *nbar_mine);
      st = dist->gather(dist->ctx, st, nbar_mine, (size_t)sw * sizeof *nbar_mine, nbar_all);
      if (st != PINET_OK) break;
    }
    st = run_op(&x, st, PINET_SHUFFLE_OP_ALLGATHER, PINET_SHUFFLE_F64, &ra);
    if (st != PINET_OK) break;
    if (loglik != NULL && holds(&x, 0)) loglik[it] = pinet_em_loglik(counts, nbar_all, tubes);
    /* S3 on each PE's entries; S4 at once for its unshared boxes */
    for (uint32_t r = 0; r < pes; r++) {
      uint32_t pe = seg[r].pe;
      work[pe] += seg[r].e1 - seg[r].e0;
      if (!holds(&x, pe)) continue;
      const double *ratio = ra.pe[pe];
      double *lp = pe_image(&x, lam, pe, boxes);
      uint32_t b0 = seg[r].first_box, b1 = seg[r].e1 > seg[r].e0 ? seg[r].last_box + 1 : b0;
      if (arith == PINET_RECON_FLOAT) {
        for (uint32_t b = b0; b < b1; b++) dpart[b] = 0.0;
        pinet_em_s3_entries(&bb, seg[r].box0, seg[r].e0, seg[r].e1, ratio, dpart);
      } else {
        for (uint32_t b = b0; b < b1; b++) upart[b] = 0;
        pinet_em_s3_entries_fixed(&bb, seg[r].box0, seg[r].e0, seg[r].e1, lp, ratio, bits, upart);
      }
      if (part == PINET_EM_PARTITION_MODIFIED) { /* the split boxes' partials go on the ring */
        if (arith == PINET_RECON_FLOAT) {
          double *xw = xc.pe[pe];
          xw[0] = seg[r].split_next ? dpart[seg[r].last_box] : 0.0;
          xw[1] = seg[r].split_prev ? dpart[seg[r].first_box] : 0.0;
          xw[2] = xw[3] = 0.0;
        } else {
          int32_t *xw = xc.pe[pe];
          xw[0] = seg[r].split_next ? upart[seg[r].last_box] : 0;
          xw[1] = seg[r].split_prev ? upart[seg[r].first_box] : 0;
          xw[2] = xw[3] = 0;
        }
      }
      for (uint32_t b = b0; b < b1; b++) {
        int shared = (seg[r].split_prev && b == seg[r].first_box) ||
                     (seg[r].split_next && b == seg[r].last_box);
        if (shared) continue;
        if (arith == PINET_RECON_FLOAT) pinet_em_s4(dpart, sens, b, b + 1, lp);
        else pinet_em_s4_fixed(upart, bits, sens, b, b + 1, lp);
      }
      for (uint32_t b = seg[r].own0; b < seg[r].own1; b++) { /* boxes no tube meets */
        if (bb.ptr[b + 1] == bb.ptr[b]) lp[b] = 0.0;
      }
    }
    /* modified partition: ring exchange, then S4 for the split boxes on both PEs */
    if (part == PINET_EM_PARTITION_MODIFIED) {
      st = exec_sched(&x, st, xs, NULL, nelem, &xc); /* custom: the same for both kinds */
      if (st != PINET_OK) break;
      for (uint32_t r = 0; r < pes; r++) {
        uint32_t pe = seg[r].pe;
        if (!holds(&x, pe)) continue;
        double *lp = pe_image(&x, lam, pe, boxes);
        uint32_t bl = seg[r].last_box, bf = seg[r].first_box;
        if (arith == PINET_RECON_FLOAT) {
          const double *xw = xc.pe[pe];
          /* [0] mine -> successor, [3] the successor's; [2] the predecessor's, [1] mine: both
           * PEs form (predecessor part) + (successor part), the same sum */
          if (seg[r].split_next) {
            double dsum = xw[0] + xw[3];
            lp[bl] = sens[bl] > 0.0 ? lp[bl] * dsum / sens[bl] : 0.0;
          }
          if (seg[r].split_prev) {
            double dsum = xw[2] + xw[1];
            lp[bf] = sens[bf] > 0.0 ? lp[bf] * dsum / sens[bf] : 0.0;
          }
        } else {
          const int32_t *xw = xc.pe[pe];
          if (seg[r].split_next) {
            int32_t u = (int32_t)((uint32_t)xw[0] + (uint32_t)xw[3]);
            pinet_em_s4_fixed(&u, bits, sens + bl, 0, 1, lp + bl);
          }
          if (seg[r].split_prev) {
            int32_t u = (int32_t)((uint32_t)xw[2] + (uint32_t)xw[1]);
            pinet_em_s4_fixed(&u, bits, sens + bf, 0, 1, lp + bf);
          }
        }
      }
    }
  }
  /* upload: each PE contributes its own boxes; integration then upload (reduce to the host) */
  if (st == PINET_OK) st = mems_alloc(&x, &up, pes, PINET_SHUFFLE_F64, bpad, bpad);
  for (uint32_t r = 0; r < pes && st == PINET_OK; r++) {
    uint32_t pe = seg[r].pe;
    if (!holds(&x, pe)) continue;
    double *um = up.pe[pe];
    for (uint32_t b = seg[r].own0; b < seg[r].own1; b++) um[b] = pe_image(&x, lam, pe, boxes)[b];
  }
  st = run_op(&x, st, PINET_SHUFFLE_OP_INTEGRATE, PINET_SHUFFLE_F64, &up);
  st = run_op(&x, st, PINET_SHUFFLE_OP_UPLOAD, PINET_SHUFFLE_F64, &up);
  if (st == PINET_OK && holds(&x, 0)) memcpy(lambda_out, up.host, (size_t)boxes * sizeof(double));
  pinet_shuffle_schedule_free(xs);
  mems_free(&nb);
  mems_free(&ra);
  mems_free(&xc);
  mems_free(&up);
  free(lam);
  free(sens);
  free(dpart);
  free(upart);
  free(nbar_all);
  free(nbar_mine);
  st = exec_settle(&x, st);
  if (st != PINET_OK) return st;
  work_summary(&c, work, pes);
  {
    pinet_recon_model_fit fit;
    (void)pinet_recon_model_fit_paper(&fit, NULL, 0, NULL);
    double t0 = EM_T_PAIR * (double)c.total_work / (iters ? iters : 1);
    c.model_efficiency = pinet_recon_model_eff_em(t0, fit.em_alpha, fit.em_c, 0.0, (double)tubes,
                                                  pes, iters ? iters : 1);
  }
  if (comm != NULL) *comm = c;
  if (per_pe_work != NULL) memcpy(per_pe_work, work, pes * sizeof *per_pe_work);
  return PINET_OK;
}
