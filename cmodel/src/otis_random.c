/* otis_random.c - random access read and write (paper §2.14, §2.15), composed from the sort,
 * rank, concentrate, distribute and generalize operations on the machine.
 *
 * Step 2 ("deactivate if the same address as the neighbour") needs the neighbour's address:
 * every word is moved from processor I to I + 1 (otis_index_shift, real moves; the paper does not
 * count this step). We keep the FIRST processor of each run of equal addresses active (the
 * paper keeps the last): with the first, the run starts are exactly the lower ends the
 * generalize of RAR Step 8 needs, and for RAW the first of a run sorted by (address, index) is
 * the priority winner. */
#include <string.h>

#include "otis_private.h"

/* Registers: words, sort copy/partner, routing scratch, flags, ranks, prefix scratch, data. */
enum {
  RW = 0, RE = 1, RF = 2, RA = 3, RB = 4, RC = 5, RD = 6,
  RV = 7, RR = 8, T0 = 9, T1 = 10, T2 = 11, T3 = 12, T4 = 13, T5 = 14, RDATA = 15, RNREG = 16
};

static pinet_status setup_random(pinet_otis *m, uint32_t w) {
  uint32_t widths[RNREG];
  for (uint32_t r = 0; r < RNREG; r++) {
    widths[r] = 1;
  }
  widths[RW] = widths[RE] = widths[RF] = w;
  widths[RA] = widths[RB] = w + 2;
  widths[RC] = widths[RD] = w + 4;
  return otis_setup(m, RNREG, widths);
}

static pinet_status check_addr(const pinet_otis *m, const int64_t *addr) {
  for (uint32_t p = 0; p < m->procs; p++) {
    RETURN_ERROR_IF(addr[p] < -1 || addr[p] >= (int64_t)m->procs, PINET_ERR_RANGE);
  }
  return PINET_OK;
}

/* After the sort: flag (in RV) the first word of every run of equal addresses (field af; -1 =
 * no request), using the word of the previous processor brought by real moves. Ranks the flags
 * into RR (inclusive prefix). */
static pinet_status first_of_runs(pinet_otis *m, uint32_t af) {
  for (uint32_t p = 0; p < m->procs; p++) {
    otis_put(m, RE, p, otis_w(m, RW, p));
  }
  FORWARD_IF_ERROR(otis_index_shift(m, RE, RA, RB, RC, RD));
  for (uint32_t p = 0; p < m->procs; p++) {
    int64_t a = otis_w(m, RW, p)[af];
    int first = a >= 0 && (!otis_has(m, RE, p) || otis_w(m, RE, p)[af] != a);
    int64_t f = first;
    otis_put(m, RV, p, &f);
    otis_clear(m, RE, p);
  }
  const uint32_t tmp[6] = {T0, T1, T2, T3, T4, T5};
  return otis_prefix_words(m, RV, RR, tmp);
}

pinet_status pinet_otis_rar(pinet_otis *m, const int64_t *data, const int64_t *addr, int64_t *out,
                            uint8_t *out_has) {
  RETURN_ERROR_IF(m == NULL || data == NULL || addr == NULL || out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_addr(m, addr));
  /* Word: key, requester I, address d, loaded value D. */
  enum { K = 0, I = 1, A = 2, D = 3, W = 4 };
  FORWARD_IF_ERROR(setup_random(m, W));
  const int64_t big = (int64_t)m->procs * (int64_t)m->procs;
  for (uint32_t p = 0; p < m->procs; p++) {
    int64_t wd[W] = {addr[p] >= 0 ? addr[p] * (int64_t)m->procs + p : big + p, p, addr[p], 0};
    otis_put(m, RW, p, wd);
    otis_put(m, RDATA, p, &data[p]);
  }
  /* Step 1: sort by address. Steps 2-3: first of each run, ranked. */
  FORWARD_IF_ERROR(otis_sort_words(m, RW, RE, RF, RA, RB, RC, RD, NULL));
  FORWARD_IF_ERROR(first_of_runs(m, A));
  /* Step 4: concentrate (d, run start s, rank) by rank. Item word: d, s, rank, value. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_w(m, RV, p)[0]) {
      int64_t it[W] = {otis_w(m, RW, p)[A], p, otis_w(m, RR, p)[0] - 1, 0};
      otis_put(m, RE, p, it);
    }
  }
  FORWARD_IF_ERROR(otis_concentrate_words(m, RE, 2, RA, RB, RC, RD));
  /* Step 5: distribute to the addresses. Step 6: load. Step 7: concentrate back. */
  FORWARD_IF_ERROR(otis_distribute_words(m, RE, 0, RA, RB, RC, RD));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, RE, p)) {
      otis_w(m, RE, p)[3] = otis_w(m, RDATA, p)[0];
    }
  }
  FORWARD_IF_ERROR(otis_concentrate_words(m, RE, 2, RA, RB, RC, RD));
  /* Step 8: generalize by run start: every processor of a run gets its run's item. */
  FORWARD_IF_ERROR(otis_generalize_words(m, RE, 1, RA, RB, RC, RD));
  for (uint32_t p = 0; p < m->procs; p++) {
    int64_t *wd = otis_w(m, RW, p);
    if (wd[A] >= 0) {
      RETURN_ERROR_IF(!otis_has(m, RE, p) || otis_w(m, RE, p)[0] != wd[A],
                      PINET_ERR_ILLEGAL_STATE);
      wd[D] = otis_w(m, RE, p)[3];
    }
    wd[K] = wd[I];
    otis_clear(m, RE, p);
  }
  /* Step 9: sort by requester. */
  FORWARD_IF_ERROR(otis_sort_words(m, RW, RE, RF, RA, RB, RC, RD, NULL));
  for (uint32_t p = 0; p < m->procs; p++) {
    const int64_t *wd = otis_w(m, RW, p);
    RETURN_ERROR_IF(wd[I] != (int64_t)p, PINET_ERR_ILLEGAL_STATE);
    out[p] = wd[A] >= 0 ? wd[D] : 0;
    if (out_has) {
      out_has[p] = (uint8_t)(wd[A] >= 0);
    }
  }
  return PINET_OK;
}

pinet_status pinet_otis_raw(pinet_otis *m, const int64_t *data, const int64_t *addr,
                            pinet_otis_write_rule rule, int64_t *out, uint8_t *out_has) {
  RETURN_ERROR_IF(m == NULL || data == NULL || addr == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(rule != PINET_OTIS_WRITE_PRIORITY && rule != PINET_OTIS_WRITE_ARBITRARY,
                  PINET_ERR_RANGE);
  FORWARD_IF_ERROR(check_addr(m, addr));
  /* Word: key, value D, address d. Priority sorts by (d, I); arbitrary by d alone, so that the
   * order inside a run is whatever the sort leaves. */
  enum { K = 0, D = 1, A = 2, W = 3 };
  FORWARD_IF_ERROR(setup_random(m, W));
  const int64_t big = (int64_t)m->procs * (int64_t)m->procs;
  for (uint32_t p = 0; p < m->procs; p++) {
    int64_t key;
    if (addr[p] < 0) {
      key = big + p;
    } else if (rule == PINET_OTIS_WRITE_PRIORITY) {
      key = addr[p] * (int64_t)m->procs + p;
    } else {
      key = addr[p] * (int64_t)m->procs;
    }
    int64_t wd[W] = {key, data[p], addr[p]};
    otis_put(m, RW, p, wd);
  }
  /* Step 1: sort. Steps 2-3: one writer per address, ranked. */
  FORWARD_IF_ERROR(otis_sort_words(m, RW, RE, RF, RA, RB, RC, RD, NULL));
  FORWARD_IF_ERROR(first_of_runs(m, A));
  /* Step 4: concentrate (value, d, rank). Step 5: distribute to d. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_w(m, RV, p)[0]) {
      int64_t it[W] = {otis_w(m, RW, p)[D], otis_w(m, RW, p)[A], otis_w(m, RR, p)[0] - 1};
      otis_put(m, RE, p, it);
    }
  }
  FORWARD_IF_ERROR(otis_concentrate_words(m, RE, 2, RA, RB, RC, RD));
  FORWARD_IF_ERROR(otis_distribute_words(m, RE, 1, RA, RB, RC, RD));
  for (uint32_t p = 0; p < m->procs; p++) {
    int has = otis_has(m, RE, p);
    RETURN_ERROR_IF(has && otis_w(m, RE, p)[1] != (int64_t)p, PINET_ERR_ILLEGAL_STATE);
    out[p] = has ? otis_w(m, RE, p)[0] : 0;
    if (out_has) {
      out_has[p] = (uint8_t)has;
    }
  }
  return PINET_OK;
}
