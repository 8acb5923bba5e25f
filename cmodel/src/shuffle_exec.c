/* shuffle_exec.c - the one schedule engine (every element type through the same executor: words
 * are moved as bytes, only the ADD combine looks at the type) and the cost report. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "recon_simd.h"
#include "shuffle_private.h"

/* dst[i] += src[i] for `count` elements of type `elem`, element by element with the kernels of
 * one instruction set (recon_simd.h: any of them gives the same values). int32 wraps modulo 2^32
 * (uint32_t arithmetic: int32_t and uint32_t share their representation and may alias). */
static void add_range(const pinet_simd_kernels *kern, pinet_shuffle_elem elem, unsigned char *dst,
                      const unsigned char *src, size_t count) {
  switch (elem) {
    case PINET_SHUFFLE_I32:
      kern->add_i32((uint32_t *)(void *)dst, (const uint32_t *)(const void *)src, count);
      break;
    case PINET_SHUFFLE_F32:
      kern->add_f32((float *)(void *)dst, (const float *)(const void *)src, count);
      break;
    case PINET_SHUFFLE_F64:
      kern->add_f64((double *)(void *)dst, (const double *)(const void *)src, count);
      break;
    default: break;
  }
}

static pinet_status apply_with(const pinet_simd_kernels *kern, pinet_shuffle_elem elem,
                               pinet_shuffle_combine combine, void *dst, const void *src,
                               size_t count) {
  RETURN_ERROR_IF(dst == NULL || src == NULL, PINET_ERR_NULL);
  const size_t esize = pinet_shuffle_elem_size(elem);
  RETURN_ERROR_IF(esize == 0, PINET_ERR_RANGE);
  if (combine == PINET_SHUFFLE_COPY) {
    memcpy(dst, src, count * esize);
  } else if (combine == PINET_SHUFFLE_ADD) {
    add_range(kern, elem, dst, src, count);
  } else {
    return PINET_ERR_RANGE;
  }
  return PINET_OK;
}

/* The instruction set is pinet_isa_from_env's, read per call (no state kept between calls). */
pinet_status pinet_shuffle_apply(pinet_shuffle_elem elem, pinet_shuffle_combine combine,
                                 void *dst, const void *src, size_t count) {
  return apply_with(pinet_simd_kernels_for(pinet_simd_default_isa()), elem, combine, dst, src,
                    count);
}

static unsigned char *mem_of(void *const *pe_mem, void *host_mem, int32_t pe) {
  return (unsigned char *)(pe < 0 ? host_mem : pe_mem[pe]);
}

/* One step with some start != 0, in cycle order: in every in-step cycle c the words crossing in
 * c are read first (into `stage`, one slot per transfer), then the COPYs land, then the ADDs are
 * added in list order: the cycle contract itself, so a cut-through transfer forwards the words
 * received in earlier cycles. Costs a loop per word; the paper schedules never come here. */
static void execute_cycles(const pinet_simd_kernels *kern, pinet_shuffle_elem elem, size_t esize,
                           const pinet_shuffle_transfer *t, size_t nt, uint32_t len,
                           void *const *pe_mem, void *host_mem, unsigned char *stage) {
  uint32_t first = UINT32_MAX; /* nothing crosses before the earliest start */
  for (size_t k = 0; k < nt; k++) {
    first = t[k].start < first ? t[k].start : first;
  }
  for (uint32_t c = first; c < len; c++) {
    for (size_t k = 0; k < nt; k++) {
      if (c >= t[k].start && c - t[k].start < t[k].words) {
        size_t i = c - t[k].start;
        const unsigned char *src = mem_of(pe_mem, host_mem, t[k].src);
        memcpy(stage + k * esize, src + (t[k].src_offset + i) * esize, esize);
      }
    }
    for (int pass = 0; pass < 2; pass++) {
      pinet_shuffle_combine want = pass == 0 ? PINET_SHUFFLE_COPY : PINET_SHUFFLE_ADD;
      for (size_t k = 0; k < nt; k++) {
        if (t[k].combine == want && c >= t[k].start && c - t[k].start < t[k].words) {
          size_t i = c - t[k].start;
          unsigned char *dst = mem_of(pe_mem, host_mem, t[k].dst) + (t[k].dst_offset + i) * esize;
          (void)apply_with(kern, elem, want, dst, stage + k * esize, 1);
        }
      }
    }
  }
}

pinet_status pinet_shuffle_execute_steps(const pinet_shuffle_schedule *sched,
                                         pinet_shuffle_elem elem, void *const *pe_mem,
                                         void *host_mem, uint32_t first, uint32_t count) {
  RETURN_ERROR_IF(sched == NULL || pe_mem == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  size_t esize = pinet_shuffle_elem_size(elem);
  RETURN_ERROR_IF(esize == 0, PINET_ERR_RANGE);
  RETURN_ERROR_IF(first > sched->steps || count > sched->steps - first, PINET_ERR_RANGE);
  RETURN_ERROR_IF(sched->host_words > 0 && host_mem == NULL, PINET_ERR_NULL);
  for (uint32_t i = 0; i < sched->pes; i++) {
    RETURN_ERROR_IF(pe_mem[i] == NULL, PINET_ERR_NULL);
  }
  size_t stage_words = 0;
  for (uint32_t s = first; s < first + count; s++) {
    size_t w = 0;
    for (uint32_t i = sched->step_begin[s]; i < sched->step_begin[s + 1]; i++) {
      w += sched->xf[i].words;
    }
    /* a cut-through step stages one word per transfer and cycle (nt <= w) */
    stage_words = w > stage_words ? w : stage_words;
  }
  if (count == 0) {
    return PINET_OK;
  }
  unsigned char *stage = malloc(stage_words * esize);
  RETURN_ERROR_IF(stage == NULL, PINET_ERR_NOMEM);
  const pinet_simd_kernels *kern = pinet_simd_kernels_for(pinet_simd_default_isa());
  for (uint32_t s = first; s < first + count; s++) {
    const pinet_shuffle_transfer *t = sched->xf + sched->step_begin[s];
    size_t nt = sched->step_begin[s + 1] - sched->step_begin[s];
    int cut_through = 0;
    for (size_t i = 0; i < nt; i++) {
      cut_through |= t[i].start != 0;
    }
    if (cut_through) {
      execute_cycles(kern, elem, esize, t, nt, sched->step_len[s], pe_mem, host_mem, stage);
      continue;
    }
    /* every start is 0 (store-and-forward): the validity rules make every read see the memory
     * as before the step, so whole ranges move at once.
     * 1. every source as it is before the step */
    size_t pos = 0;
    for (size_t i = 0; i < nt; i++) {
      memcpy(stage + pos * esize, mem_of(pe_mem, host_mem, t[i].src) + t[i].src_offset * esize,
             t[i].words * esize);
      pos += t[i].words;
    }
    /* 2. COPY writes, 3. ADD combines, each in schedule order */
    for (int pass = 0; pass < 2; pass++) {
      pinet_shuffle_combine want = pass == 0 ? PINET_SHUFFLE_COPY : PINET_SHUFFLE_ADD;
      pos = 0;
      for (size_t i = 0; i < nt; i++) {
        if (t[i].combine == want) {
          unsigned char *dst = mem_of(pe_mem, host_mem, t[i].dst) + t[i].dst_offset * esize;
          (void)apply_with(kern, elem, want, dst, stage + pos * esize, t[i].words);
        }
        pos += t[i].words;
      }
    }
  }
  free(stage);
  return PINET_OK;
}

pinet_status pinet_shuffle_execute(const pinet_shuffle_schedule *sched, pinet_shuffle_elem elem,
                                   void *const *pe_mem, void *host_mem) {
  RETURN_ERROR_IF(sched == NULL, PINET_ERR_NULL);
  return pinet_shuffle_execute_steps(sched, elem, pe_mem, host_mem, 0, sched->steps);
}

/* ---- report --------------------------------------------------------------------------------- */

pinet_shuffle_cost_params pinet_shuffle_cost_unit(void) {
  pinet_shuffle_cost_params p = {1.0, 1.0, 1.0};
  return p;
}

pinet_status pinet_shuffle_report_compute(const pinet_shuffle_schedule *sched,
                                          const pinet_shuffle_cost_params *params,
                                          pinet_shuffle_report *report) {
  RETURN_ERROR_IF(sched == NULL || report == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  pinet_shuffle_cost_params p = params ? *params : pinet_shuffle_cost_unit();
  uint32_t nch = shuffle_channels(sched->pes);
  uint64_t *added = calloc(sched->pes + 1u, sizeof *added); /* per memory, this step */
  uint64_t *totals = calloc(nch, sizeof *totals);
  if (added == NULL || totals == NULL) {
    free(added);
    free(totals);
    return PINET_ERR_NOMEM;
  }
  pinet_shuffle_report r;
  memset(&r, 0, sizeof r);
  r.steps = sched->steps;
  for (uint32_t s = 0; s < sched->steps; s++) {
    const pinet_shuffle_transfer *t = sched->xf + sched->step_begin[s];
    size_t nt = sched->step_begin[s + 1] - sched->step_begin[s];
    int pe_step = 0;
    uint64_t pe_len = 0, add_max = 0;
    for (size_t i = 0; i < nt; i++) {
      r.words_moved += t[i].words;
      totals[t[i].channel] += t[i].words;
      if (t[i].src >= 0 && t[i].dst >= 0) {
        pe_step = 1;
        uint64_t end = (uint64_t)t[i].start + t[i].words; /* its last cycle in the step */
        pe_len = end > pe_len ? end : pe_len;
      }
      if (t[i].combine == PINET_SHUFFLE_ADD) {
        r.words_summed += t[i].words;
        uint64_t *a = &added[t[i].dst + 1];
        *a += t[i].words;
        add_max = *a > add_max ? *a : add_max;
      }
    }
    for (size_t i = 0; i < nt; i++) {
      added[t[i].dst + 1] = 0;
    }
    r.pe_steps += (uint32_t)pe_step;
    r.link_time += sched->step_len[s];
    r.pe_link_time += pe_len;
    r.sum_time += add_max;
  }
  for (uint32_t c = 0; c < nch; c++) {
    r.max_channel_words = totals[c] > r.max_channel_words ? totals[c] : r.max_channel_words;
  }
  r.cycles = sched->step_start[sched->steps];
  r.cost = p.c * r.steps + p.a * (double)r.link_time + p.b * (double)r.sum_time;
  r.cost_pe = p.c * r.pe_steps + p.a * (double)r.pe_link_time + p.b * (double)r.sum_time;
  double N = sched->pes, M = sched->words, logn = sched->n, s1 = (1.0 - 1.0 / N) * M;
  switch (sched->op) {
    case PINET_SHUFFLE_OP_BCAST:
    case PINET_SHUFFLE_OP_BCAST_HOST:
      r.bound_hypercube = p.c * logn + p.a * M;
      r.bound_mesh = p.c * logn + p.a * M;
      break;
    case PINET_SHUFFLE_OP_SCATTER:
    case PINET_SHUFFLE_OP_GATHER:
    case PINET_SHUFFLE_OP_UPLOAD:
    case PINET_SHUFFLE_OP_ALLGATHER:
      r.bound_hypercube = p.c * logn + p.a * s1;
      r.bound_mesh = p.c * sqrt(N) + p.a * s1;
      break;
    case PINET_SHUFFLE_OP_INTEGRATE:
      r.bound_hypercube = p.c * logn + (p.a + p.b) * s1;
      r.bound_mesh = p.c * sqrt(N) + (p.a + p.b) * s1;
      break;
    default:
      r.bound_hypercube = NAN;
      r.bound_mesh = NAN;
      break;
  }
  free(added);
  free(totals);
  *report = r;
  return PINET_OK;
}
