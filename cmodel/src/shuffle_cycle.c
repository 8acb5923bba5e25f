/* shuffle_cycle.c - the cycle-level model of the perfect-shuffle network: the data-independent
 * timing (which word crosses which channel in which cycle) and a 32-bit cycle simulator that the
 * RTL co-simulation compares against, channel by channel, cycle by cycle. */
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

pinet_status pinet_shuffle_cycle_total(const pinet_shuffle_schedule *sched, uint64_t *done_cycle) {
  RETURN_ERROR_IF(sched == NULL || done_cycle == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  *done_cycle = sched->step_start[sched->steps];
  return PINET_OK;
}

pinet_status pinet_shuffle_cycle_step_start(const pinet_shuffle_schedule *sched, uint32_t step,
                                            uint64_t *cycle) {
  RETURN_ERROR_IF(sched == NULL || cycle == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  RETURN_ERROR_IF(step >= sched->steps, PINET_ERR_RANGE);
  *cycle = sched->step_start[step];
  return PINET_OK;
}

/* The step that cycle `cycle` belongs to (steps if at or after done). */
static uint32_t step_of(const pinet_shuffle_schedule *s, uint64_t cycle) {
  uint32_t lo = 0, hi = s->steps; /* answer in [lo, hi] */
  if (cycle >= s->step_start[s->steps]) {
    return s->steps;
  }
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (s->step_start[mid] <= cycle) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

pinet_status pinet_shuffle_cycle_word(const pinet_shuffle_schedule *sched, uint64_t cycle,
                                      uint32_t ch, pinet_shuffle_word *word) {
  RETURN_ERROR_IF(sched == NULL || word == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  RETURN_ERROR_IF(ch >= shuffle_channels(sched->pes), PINET_ERR_RANGE);
  memset(word, 0, sizeof *word);
  uint32_t s = step_of(sched, cycle);
  word->step = s;
  if (s == sched->steps || cycle == sched->step_start[s]) {
    return PINET_OK; /* done, or the setup cycle */
  }
  uint64_t i = cycle - sched->step_start[s] - 1u;
  /* binary search of the step's channel-sorted index (a channel has at most one transfer) */
  uint32_t lo = sched->step_begin[s], hi = sched->step_begin[s + 1];
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (sched->xf[sched->by_channel[mid]].channel < ch) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < sched->step_begin[s + 1]) {
    uint32_t k = sched->by_channel[lo];
    const pinet_shuffle_transfer *t = &sched->xf[k];
    if (t->channel == ch && i >= t->start && i - t->start < t->words) {
      uint32_t w = (uint32_t)(i - t->start); /* word index: it crosses in B_s + 1 + start + w */
      word->valid = 1;
      word->transfer = k - sched->step_begin[s];
      word->index = w;
      word->src_addr = t->src_offset + w;
      word->dst_addr = t->dst_offset + w;
    }
  }
  return PINET_OK;
}

/* ---- the simulator with data ---------------------------------------------------------------- */

struct pinet_shuffle_cycle {
  const pinet_shuffle_schedule *sched;
  uint32_t **mem;  /* mem[pe + 1]; mem[0] is the host */
  uint64_t cycle;
  uint32_t step;   /* step of `cycle` (steps once done) */
  uint8_t *valid;  /* outputs of the current cycle, per channel */
  uint32_t *data;
};

void pinet_shuffle_cycle_free(pinet_shuffle_cycle *sim) {
  if (sim == NULL) {
    return;
  }
  if (sim->mem != NULL) {
    for (uint32_t i = 0; i <= sim->sched->pes; i++) {
      free(sim->mem[i]);
    }
  }
  free(sim->mem);
  free(sim->valid);
  free(sim->data);
  free(sim);
}

/* Compute the outputs of the current cycle from the current memories. */
static void eval(pinet_shuffle_cycle *sim) {
  const pinet_shuffle_schedule *s = sim->sched;
  uint32_t nch = shuffle_channels(s->pes);
  memset(sim->valid, 0, nch);
  memset(sim->data, 0, nch * sizeof *sim->data);
  if (sim->step == s->steps || sim->cycle == s->step_start[sim->step]) {
    return;
  }
  uint64_t i = sim->cycle - s->step_start[sim->step] - 1u;
  for (uint32_t k = s->step_begin[sim->step]; k < s->step_begin[sim->step + 1]; k++) {
    const pinet_shuffle_transfer *t = &s->xf[k];
    if (i >= t->start && i - t->start < t->words) {
      sim->valid[t->channel] = 1;
      sim->data[t->channel] = sim->mem[t->src + 1][t->src_offset + (i - t->start)];
    }
  }
}

pinet_status pinet_shuffle_cycle_create(pinet_shuffle_cycle **out,
                                        const pinet_shuffle_schedule *sched,
                                        const uint32_t *const *pe_init, const uint32_t *host_init) {
  RETURN_ERROR_IF(out == NULL || sched == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(!sched->finished, PINET_ERR_ILLEGAL_STATE);
  if (pe_init != NULL) {
    for (uint32_t i = 0; i < sched->pes; i++) {
      RETURN_ERROR_IF(pe_init[i] == NULL, PINET_ERR_NULL);
    }
  }
  pinet_shuffle_cycle *sim = calloc(1, sizeof *sim);
  RETURN_ERROR_IF(sim == NULL, PINET_ERR_NOMEM);
  sim->sched = sched;
  uint32_t nch = shuffle_channels(sched->pes);
  sim->mem = calloc(sched->pes + 1u, sizeof *sim->mem);
  sim->valid = calloc(nch, 1);
  sim->data = calloc(nch, sizeof *sim->data);
  int ok = sim->mem != NULL && sim->valid != NULL && sim->data != NULL;
  for (uint32_t i = 0; ok && i <= sched->pes; i++) {
    size_t words = i == 0 ? sched->host_words : sched->mem_words;
    sim->mem[i] = calloc(words > 0 ? words : 1, sizeof(uint32_t));
    ok = sim->mem[i] != NULL;
    const uint32_t *init = i == 0 ? host_init : (pe_init ? pe_init[i - 1] : NULL);
    if (ok && init != NULL && words > 0) {
      memcpy(sim->mem[i], init, words * sizeof(uint32_t));
    }
  }
  if (!ok) {
    pinet_shuffle_cycle_free(sim);
    return PINET_ERR_NOMEM;
  }
  eval(sim);
  *out = sim;
  return PINET_OK;
}

uint64_t pinet_shuffle_cycle_now(const pinet_shuffle_cycle *sim) { return sim ? sim->cycle : 0; }

int pinet_shuffle_cycle_done(const pinet_shuffle_cycle *sim) {
  return sim != NULL && sim->step == sim->sched->steps;
}

pinet_status pinet_shuffle_cycle_channel(const pinet_shuffle_cycle *sim, uint32_t ch, int *valid,
                                         uint32_t *data) {
  RETURN_ERROR_IF(sim == NULL || valid == NULL || data == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(ch >= shuffle_channels(sim->sched->pes), PINET_ERR_RANGE);
  *valid = sim->valid[ch];
  *data = sim->data[ch];
  return PINET_OK;
}

pinet_status pinet_shuffle_cycle_channels(const pinet_shuffle_cycle *sim, uint8_t *valid,
                                          uint32_t *data) {
  RETURN_ERROR_IF(sim == NULL || valid == NULL || data == NULL, PINET_ERR_NULL);
  uint32_t nch = shuffle_channels(sim->sched->pes);
  memcpy(valid, sim->valid, nch);
  memcpy(data, sim->data, nch * sizeof *data);
  return PINET_OK;
}

pinet_status pinet_shuffle_cycle_clock(pinet_shuffle_cycle *sim) {
  RETURN_ERROR_IF(sim == NULL, PINET_ERR_NULL);
  const pinet_shuffle_schedule *s = sim->sched;
  if (sim->step < s->steps && sim->cycle > s->step_start[sim->step]) {
    /* the closing edge: COPY words land, then ADD words are added (to the copied word when a
     * COPY hit the same address in this cycle: one adder) */
    uint64_t i = sim->cycle - s->step_start[sim->step] - 1u;
    for (int pass = 0; pass < 2; pass++) {
      pinet_shuffle_combine want = pass == 0 ? PINET_SHUFFLE_COPY : PINET_SHUFFLE_ADD;
      for (uint32_t k = s->step_begin[sim->step]; k < s->step_begin[sim->step + 1]; k++) {
        const pinet_shuffle_transfer *t = &s->xf[k];
        if (t->combine != want || i < t->start || i - t->start >= t->words) {
          continue;
        }
        uint32_t *d = &sim->mem[t->dst + 1][t->dst_offset + (i - t->start)];
        *d = want == PINET_SHUFFLE_COPY ? sim->data[t->channel] : *d + sim->data[t->channel];
      }
    }
  }
  sim->cycle++;
  if (sim->step < s->steps && sim->cycle == s->step_start[sim->step + 1]) {
    sim->step++;
  }
  eval(sim);
  return PINET_OK;
}

pinet_status pinet_shuffle_cycle_run(pinet_shuffle_cycle *sim) {
  RETURN_ERROR_IF(sim == NULL, PINET_ERR_NULL);
  while (!pinet_shuffle_cycle_done(sim)) {
    FORWARD_IF_ERROR(pinet_shuffle_cycle_clock(sim));
  }
  return PINET_OK;
}

const uint32_t *pinet_shuffle_cycle_mem(const pinet_shuffle_cycle *sim, int32_t pe) {
  if (sim == NULL || pe < -1 || pe >= (int32_t)sim->sched->pes) {
    return NULL;
  }
  return sim->mem[pe + 1];
}
