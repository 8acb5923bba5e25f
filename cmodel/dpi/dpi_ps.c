/* dpi_ps.c - libpinet_dpi: the perfect-shuffle network model (pinet/dpi.h, docs/dpi.md) on the
 * C model's schedules, cycle simulator and engine (pinet/shuffle.h). Mirrors the cosims'
 * NetworkChecker (cosim/ps/ps_cosim.h) with the comparisons left to the testbench. */
#include <stdlib.h>
#include <string.h>

#include "dpi_private.h"
#include "pinet/shuffle.h"

/* One memory write of the last edge. */
typedef struct dpi_write {
  int32_t pe;
  uint32_t addr;
  uint32_t data;
} dpi_write;

typedef struct dpi_ps {
  uint32_t pes, mem_words, channels;
  uint32_t *mem;                 /* pes * mem_words: the memories between runs */
  uint8_t *known;                /* pes * mem_words */
  uint32_t *host;                /* mem_words: the host's image */
  pinet_shuffle_schedule *sched; /* the running collective (NULL when idle) */
  pinet_shuffle_cycle *sim;
  const uint32_t **init;         /* pes: start pointers for pinet_shuffle_cycle_create */
  void **exec;                   /* pes: memory pointers for pinet_shuffle_execute */
  uint32_t words, base;
  uint64_t t;
  int done;
  uint32_t err;
  dpi_write *writes;             /* at most `channels` per edge */
  uint32_t nwrites;
} dpi_ps;

/* ---- the RTL's op set in C-model terms (as cosim/ps/ps_cosim.h) ---------------------------- */

static pinet_status rtl_quantum(uint32_t op, uint32_t pes, uint32_t *quantum) {
  if (op == PINET_SHUFFLE_OP_RING_EXCHANGE) {
    uint32_t n = 0;
    pinet_status st = pinet_shuffle_log2(pes, &n);
    *quantum = st == PINET_OK ? 4u : 0u;
    return st;
  }
  if (op >= PINET_SHUFFLE_OP_COUNT) {
    return PINET_ERR_RANGE;
  }
  return pinet_shuffle_words_quantum((pinet_shuffle_op)op, pes, quantum);
}

static pinet_status rtl_build(pinet_shuffle_schedule **sched, uint32_t op, uint32_t pes,
                              uint32_t words) {
  if (op == PINET_SHUFFLE_OP_RING_EXCHANGE) {
    return pinet_shuffle_build_ring_exchange_default(sched, pes, words);
  }
  if (op >= PINET_SHUFFLE_OP_COUNT) {
    return PINET_ERR_RANGE;
  }
  return pinet_shuffle_build(sched, (pinet_shuffle_op)op, pes, words);
}

int pinet_dpi_ps_expected_error(unsigned int pes, unsigned int mem_words, unsigned int op,
                                unsigned int words, unsigned int base, unsigned int *err) {
  DPI_RETURN_IF(err == NULL, PINET_ERR_NULL);
  uint32_t n = 0;
  DPI_FORWARD(pinet_shuffle_log2(pes, &n));
  uint32_t quantum = 0;
  pinet_status st = rtl_quantum(op, pes, &quantum);
  if (st == PINET_ERR_RANGE) {
    *err = PINET_DPI_PS_ERR_BAD_OP;
    return PINET_OK;
  }
  DPI_FORWARD(st);
  if (words == 0) {
    *err = PINET_DPI_PS_ERR_WORDS;
    return PINET_OK;
  }
  if ((uint64_t)base + words > mem_words) {
    *err = PINET_DPI_PS_ERR_MEMORY;
    return PINET_OK;
  }
  pinet_shuffle_schedule *sched = NULL;
  st = rtl_build(&sched, op, pes, words);
  pinet_shuffle_schedule_free(sched);
  if (st == PINET_ERR_MISMATCH) {
    *err = PINET_DPI_PS_ERR_QUANTUM;
    return PINET_OK;
  }
  DPI_FORWARD(st);
  *err = PINET_DPI_PS_ERR_OK;
  return PINET_OK;
}

int pinet_dpi_ps_channel_ends(unsigned int pes, unsigned int ch, int *src, int *dst) {
  DPI_RETURN_IF(src == NULL || dst == NULL, PINET_ERR_NULL);
  int32_t s = 0, d = 0;
  DPI_FORWARD(pinet_shuffle_channel_ends(pes, ch, &s, &d));
  *src = s;
  *dst = d;
  return PINET_OK;
}

/* ---- create / free ------------------------------------------------------------------------ */

static void drop_run(dpi_ps *m) {
  pinet_shuffle_cycle_free(m->sim);
  m->sim = NULL;
  pinet_shuffle_schedule_free(m->sched);
  m->sched = NULL;
}

void pinet_dpi_ps_free(void *handle) {
  dpi_ps *m = handle;
  if (m == NULL) {
    return;
  }
  drop_run(m);
  free(m->mem);
  free(m->known);
  free(m->host);
  free(m->init);
  free(m->exec);
  free(m->writes);
  free(m);
}

int pinet_dpi_ps_create(void **handle, unsigned int pes, unsigned int mem_words) {
  DPI_RETURN_IF(handle == NULL, PINET_ERR_NULL);
  *handle = NULL;
  uint32_t n = 0;
  DPI_FORWARD(pinet_shuffle_log2(pes, &n));
  DPI_RETURN_IF(mem_words == 0 || mem_words > PINET_SHUFFLE_MAX_WORDS, PINET_ERR_RANGE);
  dpi_ps *m = calloc(1, sizeof *m);
  DPI_RETURN_IF(m == NULL, PINET_ERR_NOMEM);
  m->pes = pes;
  m->mem_words = mem_words;
  m->channels = PINET_SHUFFLE_CHANNELS(pes);
  const size_t cells = (size_t)pes * mem_words;
  m->mem = calloc(cells, sizeof *m->mem);
  m->known = calloc(cells, sizeof *m->known);
  m->host = calloc(mem_words, sizeof *m->host);
  m->init = calloc(pes, sizeof *m->init);
  m->exec = calloc(pes, sizeof *m->exec);
  m->writes = calloc(m->channels, sizeof *m->writes);
  if (m->mem == NULL || m->known == NULL || m->host == NULL || m->init == NULL ||
      m->exec == NULL || m->writes == NULL) {
    pinet_dpi_ps_free(m);
    return PINET_ERR_NOMEM;
  }
  *handle = m;
  return PINET_OK;
}

int pinet_dpi_ps_set_host_word(void *handle, unsigned int addr, unsigned int data) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(addr >= m->mem_words, PINET_ERR_RANGE);
  m->host[addr] = data;
  return PINET_OK;
}

int pinet_dpi_ps_host_word(void *handle, unsigned int addr, unsigned int *data) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || data == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(addr >= m->mem_words, PINET_ERR_RANGE);
  *data = m->host[addr];
  return PINET_OK;
}

/* ---- expectations of the current cycle ---------------------------------------------------- */

int pinet_dpi_ps_expect_status(void *handle, unsigned char *busy, unsigned char *done,
                               unsigned int *err) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || busy == NULL || done == NULL || err == NULL, PINET_ERR_NULL);
  *busy = (unsigned char)(m->sim != NULL);
  *done = (unsigned char)(m->done != 0);
  *err = m->err;
  return PINET_OK;
}

int pinet_dpi_ps_expect_channel(void *handle, unsigned int ch, unsigned char *valid,
                                unsigned int *data) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || valid == NULL || data == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(ch >= m->channels, PINET_ERR_RANGE);
  *valid = 0;
  *data = 0;
  if (m->sim == NULL) {
    return PINET_OK;
  }
  int v = 0;
  uint32_t d = 0;
  DPI_FORWARD(pinet_shuffle_cycle_channel(m->sim, ch, &v, &d));
  *valid = (unsigned char)(v != 0);
  *data = d;
  return PINET_OK;
}

int pinet_dpi_ps_expect_host(void *handle, unsigned char *req, unsigned int *req_addr,
                             unsigned int *up_addr) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || req == NULL || req_addr == NULL || up_addr == NULL, PINET_ERR_NULL);
  *req = 0;
  *req_addr = 0;
  *up_addr = 0;
  if (m->sim == NULL) {
    return PINET_OK;
  }
  pinet_shuffle_word next, up;
  DPI_FORWARD(
      pinet_shuffle_cycle_word(m->sched, m->t + 1, PINET_SHUFFLE_CH_HOST_DOWN(m->pes), &next));
  DPI_FORWARD(pinet_shuffle_cycle_word(m->sched, m->t, PINET_SHUFFLE_CH_HOST_UP(m->pes), &up));
  if (next.valid) {
    *req = 1;
    *req_addr = next.src_addr;
  }
  if (up.valid) {
    *up_addr = up.dst_addr;
  }
  return PINET_OK;
}

int pinet_dpi_ps_expect_mem(void *handle, unsigned int pe, unsigned int addr, unsigned int *data,
                            unsigned char *known) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || data == NULL || known == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(pe >= m->pes || addr >= m->mem_words, PINET_ERR_RANGE);
  const size_t k = (size_t)pe * m->mem_words + addr;
  *data = m->mem[k];
  *known = m->known[k];
  return PINET_OK;
}

int pinet_dpi_ps_run_cycle(void *handle, unsigned long long *cycle) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || cycle == NULL, PINET_ERR_NULL);
  *cycle = m->t;
  return PINET_OK;
}

/* ---- the clock edge ------------------------------------------------------------------------ */

int pinet_dpi_ps_local_write(void *handle, unsigned int pe, unsigned int addr, unsigned int data) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(pe >= m->pes || addr >= m->mem_words, PINET_ERR_RANGE);
  if (m->sim != NULL) {
    return PINET_OK;
  }
  const size_t k = (size_t)pe * m->mem_words + addr;
  m->mem[k] = data;
  m->known[k] = 1;
  return PINET_OK;
}

/* The images of [base, base + M) of every PE memory are the C model's now (known from here on);
 * with `host`, the host image's [0, M) too. */
static void take_model_memories(dpi_ps *m, int host) {
  for (uint32_t j = 0; j < m->pes; j++) {
    const uint32_t *src = pinet_shuffle_cycle_mem(m->sim, (int32_t)j);
    const size_t k = (size_t)j * m->mem_words + m->base;
    memcpy(&m->mem[k], src, (size_t)m->words * sizeof *src);
    memset(&m->known[k], 1, m->words);
  }
  const uint32_t host_words = pinet_shuffle_schedule_host_words(m->sched);
  if (host && host_words > 0) {
    memcpy(m->host, pinet_shuffle_cycle_mem(m->sim, PINET_SHUFFLE_HOST),
           (size_t)host_words * sizeof *m->host);
  }
}

int pinet_dpi_ps_reset(void *handle) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL, PINET_ERR_NULL);
  if (m->sim != NULL) {
    take_model_memories(m, 0);
    drop_run(m);
  }
  m->done = 0;
  m->err = PINET_DPI_PS_ERR_OK;
  m->nwrites = 0;
  return PINET_OK;
}

static int start_run(dpi_ps *m, uint32_t op, uint32_t words, uint32_t base) {
  DPI_FORWARD(rtl_build(&m->sched, op, m->pes, words));
  for (uint32_t j = 0; j < m->pes; j++) {
    m->init[j] = &m->mem[(size_t)j * m->mem_words + base];
  }
  const uint32_t *host = pinet_shuffle_schedule_host_words(m->sched) > 0 ? m->host : NULL;
  pinet_status st = pinet_shuffle_cycle_create(&m->sim, m->sched, m->init, host);
  if (st != PINET_OK) {
    drop_run(m);
    return (int)st;
  }
  m->words = words;
  m->base = base;
  m->t = 0;
  return PINET_OK;
}

/* Record the destinations of this cycle's words (before the model's clock), once each. */
static int collect_writes(dpi_ps *m) {
  m->nwrites = 0;
  for (uint32_t c = 0; c < m->channels; c++) {
    pinet_shuffle_word w;
    DPI_FORWARD(pinet_shuffle_cycle_word(m->sched, m->t, c, &w));
    if (!w.valid) {
      continue;
    }
    int32_t src = 0, dst = 0;
    DPI_FORWARD(pinet_shuffle_channel_ends(m->pes, c, &src, &dst));
    int seen = 0;
    for (uint32_t i = 0; i < m->nwrites; i++) {
      seen |= m->writes[i].pe == dst && m->writes[i].addr == w.dst_addr;
    }
    if (!seen) {
      m->writes[m->nwrites].pe = dst;
      m->writes[m->nwrites].addr = w.dst_addr;
      m->nwrites++;
    }
  }
  return PINET_OK;
}

/* After the clock: the values written, from the model's memories; PE addresses get the base. */
static void fill_writes(dpi_ps *m) {
  for (uint32_t i = 0; i < m->nwrites; i++) {
    dpi_write *w = &m->writes[i];
    w->data = pinet_shuffle_cycle_mem(m->sim, w->pe)[w->addr];
    if (w->pe >= 0) {
      w->addr += m->base;
    }
  }
}

int pinet_dpi_ps_edge(void *handle, unsigned char rst_n, unsigned char start, unsigned int op,
                      unsigned int words, unsigned int base) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL, PINET_ERR_NULL);
  m->nwrites = 0;
  if (!rst_n) {
    return pinet_dpi_ps_reset(m);
  }
  if (m->sim != NULL) {
    if (start) {
      m->err = PINET_DPI_PS_ERR_BUSY;
    }
    DPI_FORWARD(collect_writes(m));
    DPI_FORWARD(pinet_shuffle_cycle_clock(m->sim));
    fill_writes(m);
    m->t++;
    if (pinet_shuffle_cycle_done(m->sim)) {
      m->done = 1;
      take_model_memories(m, 1);
      drop_run(m);
    }
    return PINET_OK;
  }
  if (!start) {
    return PINET_OK;
  }
  unsigned int e = 0;
  DPI_FORWARD((pinet_status)pinet_dpi_ps_expected_error(m->pes, m->mem_words, op, words, base, &e));
  m->err = e;
  m->done = 0;
  if (e != PINET_DPI_PS_ERR_OK) {
    return PINET_OK;
  }
  return start_run(m, op, words, base);
}

int pinet_dpi_ps_write_count(void *handle, unsigned int *count) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || count == NULL, PINET_ERR_NULL);
  *count = m->nwrites;
  return PINET_OK;
}

int pinet_dpi_ps_write_get(void *handle, unsigned int i, int *pe, unsigned int *addr,
                           unsigned int *data) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || pe == NULL || addr == NULL || data == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(i >= m->nwrites, PINET_ERR_RANGE);
  *pe = m->writes[i].pe;
  *addr = m->writes[i].addr;
  *data = m->writes[i].data;
  return PINET_OK;
}

/* ---- a whole collective at once ------------------------------------------------------------ */

int pinet_dpi_ps_collective(void *handle, unsigned int op, unsigned int words, unsigned int base,
                            unsigned int *err) {
  dpi_ps *m = handle;
  DPI_RETURN_IF(m == NULL || err == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(m->sim != NULL, PINET_ERR_ILLEGAL_STATE);
  m->nwrites = 0;
  unsigned int e = 0;
  DPI_FORWARD((pinet_status)pinet_dpi_ps_expected_error(m->pes, m->mem_words, op, words, base, &e));
  *err = e;
  m->err = e;
  m->done = 0;
  if (e != PINET_DPI_PS_ERR_OK) {
    return PINET_OK;
  }
  pinet_shuffle_schedule *sched = NULL;
  DPI_FORWARD(rtl_build(&sched, op, m->pes, words));
  for (uint32_t j = 0; j < m->pes; j++) {
    m->exec[j] = &m->mem[(size_t)j * m->mem_words + base];
  }
  void *host = pinet_shuffle_schedule_host_words(sched) > 0 ? m->host : NULL;
  pinet_status st = pinet_shuffle_execute(sched, PINET_SHUFFLE_I32, m->exec, host);
  pinet_shuffle_schedule_free(sched);
  DPI_FORWARD(st);
  for (uint32_t j = 0; j < m->pes; j++) {
    memset(&m->known[(size_t)j * m->mem_words + base], 1, words);
  }
  m->done = 1;
  return PINET_OK;
}
