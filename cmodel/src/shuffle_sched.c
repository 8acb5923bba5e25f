/* shuffle_sched.c - the schedule object: storage, transfer-by-transfer construction, the validity
 * rules (including the same-step hazards of the cycle contract), accessors and regions. */
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/shuffle.h"
#include "shuffle_private.h"

pinet_status shuffle_schedule_alloc(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                    uint32_t pes, uint32_t words, uint32_t mem_words,
                                    uint32_t host_words) {
  *out = NULL;
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  pinet_shuffle_schedule *s = calloc(1, sizeof *s);
  RETURN_ERROR_IF(s == NULL, PINET_ERR_NOMEM);
  s->op = op;
  s->pes = pes;
  s->n = n;
  s->words = words;
  s->mem_words = mem_words;
  s->host_words = host_words;
  s->cap_steps = 8;
  s->step_begin = malloc((s->cap_steps + 1) * sizeof *s->step_begin);
  s->ch_stamp = calloc(shuffle_channels(pes), sizeof *s->ch_stamp);
  s->cap_xf = 64;
  s->xf = malloc(s->cap_xf * sizeof *s->xf);
  if (s->step_begin == NULL || s->ch_stamp == NULL || s->xf == NULL) {
    pinet_shuffle_schedule_free(s);
    return PINET_ERR_NOMEM;
  }
  s->step_begin[0] = 0;
  *out = s;
  return PINET_OK;
}

void pinet_shuffle_schedule_free(pinet_shuffle_schedule *sched) {
  if (sched == NULL) {
    return;
  }
  free(sched->xf);
  free(sched->step_begin);
  free(sched->ch_stamp);
  free(sched->step_start);
  free(sched->step_len);
  free(sched->by_channel);
  free(sched);
}

pinet_status pinet_shuffle_schedule_create(pinet_shuffle_schedule **out, uint32_t pes,
                                           uint32_t mem_words, uint32_t host_words) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  uint32_t n = 0;
  FORWARD_IF_ERROR(pinet_shuffle_log2(pes, &n));
  RETURN_ERROR_IF(mem_words == 0 || mem_words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(host_words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  return shuffle_schedule_alloc(out, PINET_SHUFFLE_OP_CUSTOM, pes, mem_words, mem_words,
                                host_words);
}

pinet_status pinet_shuffle_schedule_add_step(pinet_shuffle_schedule *sched) {
  RETURN_ERROR_IF(sched == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(sched->finished, PINET_ERR_ILLEGAL_STATE);
  if (sched->steps == sched->cap_steps) {
    uint32_t cap = 2 * sched->cap_steps;
    uint32_t *grown = realloc(sched->step_begin, (cap + 1) * sizeof *grown);
    RETURN_ERROR_IF(grown == NULL, PINET_ERR_NOMEM);
    sched->step_begin = grown;
    sched->cap_steps = cap;
  }
  sched->steps++;
  sched->step_begin[sched->steps] = (uint32_t)sched->nxf;
  return PINET_OK;
}

static uint32_t mem_size(const pinet_shuffle_schedule *s, int32_t pe) {
  return pe < 0 ? s->host_words : s->mem_words;
}

pinet_status pinet_shuffle_schedule_add(pinet_shuffle_schedule *sched,
                                        const pinet_shuffle_transfer *t) {
  RETURN_ERROR_IF(sched == NULL || t == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(sched->finished || sched->steps == 0, PINET_ERR_ILLEGAL_STATE);
  RETURN_ERROR_IF(t->channel >= shuffle_channels(sched->pes), PINET_ERR_RANGE);
  int32_t a = 0, b = 0;
  shuffle_channel_ends_raw(sched->pes, t->channel, &a, &b);
  RETURN_ERROR_IF(a != t->src || b != t->dst, PINET_ERR_RANGE);
  RETURN_ERROR_IF(t->words == 0, PINET_ERR_RANGE);
  /* the step's length L_s = max(start + words) must stay a uint32_t */
  RETURN_ERROR_IF((uint64_t)t->start + t->words > UINT32_MAX, PINET_ERR_RANGE);
  RETURN_ERROR_IF(t->combine != PINET_SHUFFLE_COPY && t->combine != PINET_SHUFFLE_ADD,
                  PINET_ERR_RANGE);
  uint64_t src_end = (uint64_t)t->src_offset + t->words;
  uint64_t dst_end = (uint64_t)t->dst_offset + t->words;
  RETURN_ERROR_IF(src_end > mem_size(sched, t->src) || dst_end > mem_size(sched, t->dst),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(sched->ch_stamp[t->channel] == sched->steps, PINET_ERR_ILLEGAL_MOVE);
  if (sched->nxf == sched->cap_xf) {
    size_t cap = 2 * sched->cap_xf;
    pinet_shuffle_transfer *grown = realloc(sched->xf, cap * sizeof *grown);
    RETURN_ERROR_IF(grown == NULL, PINET_ERR_NOMEM);
    sched->xf = grown;
    sched->cap_xf = cap;
  }
  sched->xf[sched->nxf++] = *t;
  sched->step_begin[sched->steps] = (uint32_t)sched->nxf;
  sched->ch_stamp[t->channel] = sched->steps;
  return PINET_OK;
}

/* ---- hazards ---------------------------------------------------------------------------------
 * Word i of a transfer crosses in in-step cycle start + i. For one memory, a read of range
 * [r, r+len) by transfer x and a write of [w, w+len') by transfer y touch a common address a in
 * cycles x.start + a - r and y.start + a - w: their difference is the same for every common
 * address, so each pair (and each triple) of transfers is checked once, not word by word.
 * The rules (shuffle.h, docs/shuffle.md section 3): a store-and-forward read (start 0) of
 * address a in cycle c is legal if every write of a in the step is in a cycle >= c (it sees the
 * value before the step: the paper's rule, unchanged). A cut-through read (start >= 1) is legal
 * if every write of a is in a cycle < c (it sees the last of them) or every write is in a cycle
 * > c; a write in cycle c itself is refused (the read would see the old word one cycle before
 * the new one lands: an off-by-one start, never useful for forwarding). */

static int overlap(uint32_t a, uint32_t alen, uint32_t b, uint32_t blen) {
  return (uint64_t)a < (uint64_t)b + blen && (uint64_t)b < (uint64_t)a + alen;
}

/* Cycle of any common address read by x minus its write cycle by y (constant, see above). */
static int64_t read_minus_write(const pinet_shuffle_transfer *x, const pinet_shuffle_transfer *y) {
  return ((int64_t)x->start - x->src_offset) - ((int64_t)y->start - y->dst_offset);
}

/* Cycle of a common address written by x minus its write cycle by y. */
static int64_t write_minus_write(const pinet_shuffle_transfer *x, const pinet_shuffle_transfer *y) {
  return ((int64_t)x->start - x->dst_offset) - ((int64_t)y->start - y->dst_offset);
}

/* PINET_ERR_ILLEGAL_MOVE if transfers x, y (touching memory `mem`) break a rule. */
static pinet_status check_pair(const pinet_shuffle_transfer *x, const pinet_shuffle_transfer *y,
                               int32_t mem) {
  /* read after write: x reads an address of mem that y wrote in an earlier cycle; only a
   * cut-through transfer may (a store-and-forward one reads the memory as before the step) */
  if (x->src == mem && y->dst == mem &&
      overlap(x->src_offset, x->words, y->dst_offset, y->words)) {
    int64_t d = read_minus_write(x, y);
    if ((x->start == 0 && d > 0) || (x->start != 0 && d == 0)) {
      return PINET_ERR_ILLEGAL_MOVE;
    }
  }
  if (x != y && x->dst == mem && y->dst == mem &&
      overlap(x->dst_offset, x->words, y->dst_offset, y->words)) {
    if (x->combine == PINET_SHUFFLE_COPY && y->combine == PINET_SHUFFLE_COPY) {
      return PINET_ERR_ILLEGAL_MOVE; /* two COPYs to one address */
    }
    if (x->combine == PINET_SHUFFLE_COPY && y->combine == PINET_SHUFFLE_ADD &&
        write_minus_write(x, y) > 0) {
      return PINET_ERR_ILLEGAL_MOVE; /* the COPY would land after the ADD */
    }
  }
  return PINET_OK;
}

/* PINET_ERR_ILLEGAL_MOVE if x reads an address of mem that y writes before x's read and z at
 * or after it: the read would see a half-done step. Only possible when x is cut-through. */
static pinet_status check_triple(const pinet_shuffle_transfer *x, const pinet_shuffle_transfer *y,
                                 const pinet_shuffle_transfer *z, int32_t mem) {
  if (x->start == 0 || y == z || x->src != mem || y->dst != mem || z->dst != mem) {
    return PINET_OK;
  }
  if (read_minus_write(x, y) <= 0 || read_minus_write(x, z) > 0) {
    return PINET_OK;
  }
  /* the three ranges share an address */
  uint64_t lo = x->src_offset, hi = (uint64_t)x->src_offset + x->words;
  lo = y->dst_offset > lo ? y->dst_offset : lo;
  lo = z->dst_offset > lo ? z->dst_offset : lo;
  hi = (uint64_t)y->dst_offset + y->words < hi ? (uint64_t)y->dst_offset + y->words : hi;
  hi = (uint64_t)z->dst_offset + z->words < hi ? (uint64_t)z->dst_offset + z->words : hi;
  return lo < hi ? PINET_ERR_ILLEGAL_MOVE : PINET_OK;
}

static pinet_status check_step(const pinet_shuffle_schedule *s, uint32_t step, size_t *slot_of,
                               size_t *list) {
  /* Group the transfers by the memories they touch (each at most twice: src and dst). Every
   * memory has at most 5 channels in and 5 out, so pairwise checks are cheap. */
  const pinet_shuffle_transfer *t = s->xf + s->step_begin[step];
  size_t count = s->step_begin[step + 1] - s->step_begin[step];
  uint32_t mems = s->pes + 1u; /* index pe + 1, host = 0 */
  memset(slot_of, 0, (mems + 1) * sizeof *slot_of);
  for (size_t i = 0; i < count; i++) {
    slot_of[(size_t)(t[i].src + 1) + 1]++;
    if (t[i].dst != t[i].src) {
      slot_of[(size_t)(t[i].dst + 1) + 1]++;
    }
  }
  for (uint32_t m = 0; m < mems; m++) {
    slot_of[m + 1] += slot_of[m];
  }
  /* fill: slot_of[m] becomes the fill cursor of memory m - 1's bucket */
  for (size_t i = 0; i < count; i++) {
    list[slot_of[(size_t)(t[i].src + 1)]++] = i;
    if (t[i].dst != t[i].src) {
      list[slot_of[(size_t)(t[i].dst + 1)]++] = i;
    }
  }
  size_t begin = 0;
  for (uint32_t m = 0; m < mems; m++) {
    size_t end = slot_of[m];
    int32_t mem = (int32_t)m - 1;
    for (size_t i = begin; i < end; i++) {
      for (size_t j = begin; j < end; j++) {
        FORWARD_IF_ERROR(check_pair(&t[list[i]], &t[list[j]], mem));
        if (t[list[i]].start == 0) {
          continue; /* triples only matter for cut-through reads */
        }
        for (size_t k = begin; k < end; k++) {
          FORWARD_IF_ERROR(check_triple(&t[list[i]], &t[list[j]], &t[list[k]], mem));
        }
      }
    }
    begin = end;
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_schedule_finish(pinet_shuffle_schedule *sched) {
  RETURN_ERROR_IF(sched == NULL, PINET_ERR_NULL);
  if (sched->finished) {
    return PINET_OK;
  }
  RETURN_ERROR_IF(sched->steps == 0, PINET_ERR_ILLEGAL_STATE);
  for (uint32_t s = 0; s < sched->steps; s++) {
    RETURN_ERROR_IF(sched->step_begin[s + 1] == sched->step_begin[s], PINET_ERR_ILLEGAL_STATE);
  }
  size_t *slot_of = malloc((sched->pes + 3u) * sizeof *slot_of);
  size_t *list = malloc((2 * (size_t)shuffle_channels(sched->pes) + 1) * sizeof *list);
  uint64_t *start = malloc((sched->steps + 1u) * sizeof *start);
  uint32_t *len = malloc(sched->steps * sizeof *len);
  uint32_t *by_ch = malloc((sched->nxf ? sched->nxf : 1) * sizeof *by_ch);
  pinet_status st = (slot_of && list && start && len && by_ch) ? PINET_OK : PINET_ERR_NOMEM;
  for (uint32_t s = 0; s < sched->steps && st == PINET_OK; s++) {
    st = check_step(sched, s, slot_of, list);
  }
  if (st == PINET_OK) {
    uint64_t b = 0;
    for (uint32_t s = 0; s < sched->steps; s++) {
      uint32_t l = 0;
      for (uint32_t i = sched->step_begin[s]; i < sched->step_begin[s + 1]; i++) {
        uint32_t end = sched->xf[i].start + sched->xf[i].words; /* fits: checked by add */
        l = end > l ? end : l;
      }
      start[s] = b;
      len[s] = l;
      b += 1u + (uint64_t)l;
      /* channel-sorted index of the step (insertion sort: channels are nearly ordered) */
      uint32_t lo = sched->step_begin[s], hi = sched->step_begin[s + 1];
      for (uint32_t i = lo; i < hi; i++) {
        uint32_t j = i;
        while (j > lo && sched->xf[by_ch[j - 1]].channel > sched->xf[i].channel) {
          by_ch[j] = by_ch[j - 1];
          j--;
        }
        by_ch[j] = i;
      }
    }
    start[sched->steps] = b;
    free(sched->step_start);
    free(sched->step_len);
    free(sched->by_channel);
    sched->step_start = start;
    sched->step_len = len;
    sched->by_channel = by_ch;
    start = NULL;
    len = NULL;
    by_ch = NULL;
    sched->finished = 1;
  }
  free(slot_of);
  free(list);
  free(start);
  free(len);
  free(by_ch);
  return st;
}

pinet_status shuffle_schedule_hand_over(pinet_shuffle_schedule *s, pinet_status st,
                                        pinet_shuffle_schedule **out) {
  if (st == PINET_OK) {
    st = pinet_shuffle_schedule_finish(s);
  }
  if (st != PINET_OK) {
    pinet_shuffle_schedule_free(s);
    return st;
  }
  *out = s;
  return PINET_OK;
}

/* ---- accessors ------------------------------------------------------------------------------ */

pinet_shuffle_op pinet_shuffle_schedule_op(const pinet_shuffle_schedule *sched) {
  return sched ? sched->op : PINET_SHUFFLE_OP_BCAST;
}
uint32_t pinet_shuffle_schedule_pes(const pinet_shuffle_schedule *sched) {
  return sched ? sched->pes : 0;
}
uint32_t pinet_shuffle_schedule_words(const pinet_shuffle_schedule *sched) {
  return sched ? sched->words : 0;
}
uint32_t pinet_shuffle_schedule_mem_words(const pinet_shuffle_schedule *sched) {
  return sched ? sched->mem_words : 0;
}
uint32_t pinet_shuffle_schedule_host_words(const pinet_shuffle_schedule *sched) {
  return sched ? sched->host_words : 0;
}
uint32_t pinet_shuffle_schedule_step_count(const pinet_shuffle_schedule *sched) {
  return sched ? sched->steps : 0;
}

pinet_status pinet_shuffle_schedule_step(const pinet_shuffle_schedule *sched, uint32_t step,
                                         const pinet_shuffle_transfer **transfers, size_t *count) {
  RETURN_ERROR_IF(sched == NULL || transfers == NULL || count == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(step >= sched->steps, PINET_ERR_RANGE);
  *transfers = sched->xf + sched->step_begin[step];
  *count = sched->step_begin[step + 1] - sched->step_begin[step];
  return PINET_OK;
}

pinet_status pinet_shuffle_schedule_channel_words(const pinet_shuffle_schedule *sched,
                                                  uint64_t *totals) {
  RETURN_ERROR_IF(sched == NULL || totals == NULL, PINET_ERR_NULL);
  memset(totals, 0, shuffle_channels(sched->pes) * sizeof *totals);
  for (size_t i = 0; i < sched->nxf; i++) {
    totals[sched->xf[i].channel] += sched->xf[i].words;
  }
  return PINET_OK;
}

static pinet_status region(const pinet_shuffle_schedule *s, int32_t pe, int output,
                           uint32_t *offset, uint32_t *words) {
  RETURN_ERROR_IF(s == NULL || offset == NULL || words == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pe < -1 || pe >= (int32_t)s->pes, PINET_ERR_RANGE);
  uint32_t m = s->words, seg = s->words / s->pes;
  uint32_t j = pe < 0 ? 0 : (uint32_t)pe;
  int host = pe < 0;
  *offset = 0;
  *words = 0;
  switch (s->op) {
    case PINET_SHUFFLE_OP_BCAST:
      *words = output ? (host ? 0 : m) : (pe == 0 ? m : 0);
      break;
    case PINET_SHUFFLE_OP_BCAST_HOST:
      *words = output ? (host ? 0 : m) : (host ? m : 0);
      break;
    case PINET_SHUFFLE_OP_SCATTER:
      if (output) {
        *offset = host ? 0 : j * seg;
        *words = host ? 0 : seg;
      } else {
        *words = host ? m : 0;
      }
      break;
    case PINET_SHUFFLE_OP_INTEGRATE:
      if (output) {
        *offset = host ? 0 : j * seg;
        *words = host ? 0 : seg;
      } else {
        *words = host ? 0 : m;
      }
      break;
    case PINET_SHUFFLE_OP_ALLGATHER:
      if (output) {
        *words = host ? 0 : m;
      } else {
        *offset = host ? 0 : j * seg;
        *words = host ? 0 : seg;
      }
      break;
    case PINET_SHUFFLE_OP_GATHER:
    case PINET_SHUFFLE_OP_UPLOAD:
      if (output) {
        int holder = s->op == PINET_SHUFFLE_OP_GATHER ? pe == 0 : (host || pe == 0);
        *words = holder ? m : 0;
      } else {
        *offset = host ? 0 : j * seg;
        *words = host ? 0 : seg;
      }
      break;
    default: /* ring-exchange, custom: whole memories */
      *words = host ? s->host_words : s->mem_words;
      break;
  }
  return PINET_OK;
}

pinet_status pinet_shuffle_schedule_input_region(const pinet_shuffle_schedule *sched, int32_t pe,
                                                 uint32_t *offset, uint32_t *words) {
  return region(sched, pe, 0, offset, words);
}

pinet_status pinet_shuffle_schedule_output_region(const pinet_shuffle_schedule *sched, int32_t pe,
                                                  uint32_t *offset, uint32_t *words) {
  return region(sched, pe, 1, offset, words);
}
