/* pinet/histogram.h - histograms by butterfly all-to-all reduction on a hypercube (paper 001,
 * Gerogiannis, Orphanoudakis, Johnsson, YALEU/DCS/TR-682; SPEC §3).
 *
 * Model
 * - M = `pes` simulated processors (a power of two, 1 .. PINET_HISTOGRAM_MAX_PES), B = `bins`
 *   bins (a power of two, 2 .. PINET_HISTOGRAM_MAX_BINS), N pixel values in 0..B-1. Processor i
 *   holds pixels floor(i*N/M) .. floor((i+1)*N/M) - 1 (exactly i*N/M .. (i+1)*N/M - 1 when M
 *   divides N); p = ceil(N/M) is the most pixels any processor holds.
 * - Step 0 (phase 1): every processor builds its local histogram (one addition per pixel).
 * - Steps 1..L (phase 2), L = min(log B, log M): at step k processor w exchanges B/2^k bins with
 *   the partner whose address differs in bit L-k. For M >= B this is the paper's butterfly inside
 *   groups of B processors: the kept segment starts at t_k (equation (1)), the sent one at s_k
 *   (equation (2)), and after step log B processor w holds bin w mod B. For M < B the address
 *   bits play the role of the top log M bits of the bin index, and after log M steps processor w
 *   holds the B/M bins w*B/M .. (w+1)*B/M - 1 (the paper's M < B case).
 * - Steps L+1 .. log M (phase 3, only if M > B): a binomial-tree reduction over the M/B groups,
 *   one word per step; afterwards processors 0..B-1 hold bins 0..B-1.
 * - The data-dependent algorithms run the first r phase-2 steps on active bins only, sending
 *   (index, count) pairs (two words per bin), then switch to the data-independent exchange.
 *   r = floor(log(B/p)/2) (equation (6); the largest r with p*4^r <= B), at most L. Approach 1
 *   scans the sent segment for non-zero bins (one comparison per bin of the segment); approach 2
 *   keeps one active-bin list per step 1..r and sends straight from list k at step k.
 *
 * Cost accounting, per processor and step (pinet_histogram_counters)
 * - words_sent / words_received: histogram counts and bin indices, one word each.
 * - additions: histogram updates (phase 1: one per pixel; later: one per received count).
 * - comparisons: approach 1's segment scan (B/2^k at step k <= r); approach 2's "is this
 *   received bin already active" test at steps k < r.
 * - bookkeeping: approach 2's list work: computing the list index of a newly active bin (1),
 *   incrementing that list's counter and appending the bin (2, only for lists 1..r). The step-0
 *   set-up counts the same three operations per distinct pixel value (equation (12)'s 3p).
 *   At step r received bins are only added (the lists are no longer needed), as in the paper.
 * - memory_words: after the step, B words of histogram array plus the active-bin list entries
 *   (approach 2) still to be sent.
 * Totals follow the paper's one-port accounting: a step costs what its busiest processor does,
 * and a total is the sum over steps of the per-step maximum (pinet_histogram_summary).
 */
#ifndef PINET_HISTOGRAM_H
#define PINET_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/image.h"
#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PINET_HISTOGRAM_MAX_PES 65536u
#define PINET_HISTOGRAM_MAX_BINS 65536u
/* pes * bins (the simulated histogram words) may not exceed this. */
#define PINET_HISTOGRAM_MAX_WORDS (1u << 25)

typedef enum pinet_histogram_algo {
  PINET_HISTOGRAM_INDEPENDENT = 0, /* section 2: every step sends whole segments */
  PINET_HISTOGRAM_DEPENDENT1 = 1,  /* section 3.1: segment scan for the first r steps */
  PINET_HISTOGRAM_DEPENDENT2 = 2   /* section 3.2: per-step active-bin lists for the first r steps */
} pinet_histogram_algo;

/* How r is chosen. The paper's equation (6) admits p*4^r == B, where the data-dependent step
 * costs exactly as much as the data-independent one; its inequality (3) and the discontinuities
 * it reports for Figures 2-3 (p = 4, 16, 64 at B = 256) take the inequality strictly. */
typedef enum pinet_histogram_r_rule {
  PINET_HISTOGRAM_R_EQ6 = 0, /* r = floor(log(B/p)/2): the largest r with p*4^r <= B (default) */
  PINET_HISTOGRAM_R_EQ3 = 1  /* the largest r with p*4^r < B (inequality (3) taken strictly) */
} pinet_histogram_r_rule;

typedef struct pinet_histogram_config {
  uint32_t pes;
  uint32_t bins;
  pinet_histogram_algo algo;
  pinet_histogram_r_rule r_rule;
} pinet_histogram_config;

typedef struct pinet_histogram_counters {
  uint64_t words_sent;
  uint64_t words_received;
  uint64_t additions;
  uint64_t comparisons;
  uint64_t bookkeeping;
  uint64_t memory_words;
} pinet_histogram_counters;

typedef struct pinet_histogram_summary {
  uint32_t pes, bins;
  uint64_t pixels;
  uint64_t pixels_per_pe;        /* p = ceil(N/M) */
  uint32_t phase2_steps;         /* L = min(log B, log M) */
  uint32_t phase3_steps;         /* log(M/B) if M > B, else 0 */
  uint32_t steps;                /* L + phase3_steps (= log M) */
  uint32_t r;                    /* data-dependent phase-2 steps (0 for the independent algorithm) */
  uint64_t transfers_max;        /* sum over steps 1..steps of the max words sent in the step */
  uint64_t additions_max;        /* sum over steps 0..steps of the max additions in the step */
  uint64_t phase2_transfers_max; /* the same sum over steps 1..L: equations (4)+(5) */
  uint64_t phase2_additions_max; /* over steps 1..L: (8)+(10) */
  uint64_t phase2_comparisons_max;
  uint64_t phase2_ops_max;       /* max of additions+comparisons+bookkeeping, summed over steps
                                    1..L, plus step 0's bookkeeping: (8)+(9)+(10) or (12)+(13) */
  uint64_t list_words_max;       /* approach 2: words of list arrays each processor allocates,
                                    sized alike everywhere: the sum over lists k = 1..r of the
                                    largest length list k reached on any processor (14) */
} pinet_histogram_summary;

typedef struct pinet_histogram_result pinet_histogram_result;

/* The r a configuration uses for `pixels_per_pe` pixels per processor (before capping at L).
 * PINET_ERR_NULL, PINET_ERR_SIZE (bins not a power of two >= 2), PINET_ERR_RANGE (p == 0 or an
 * unknown rule). */
pinet_status pinet_histogram_choose_r(uint32_t bins, uint64_t pixels_per_pe,
                                      pinet_histogram_r_rule rule, uint32_t *r);

/* Start bins of the segment processor `pe` keeps (t_k) and sends (s_k) at phase-2 step `step`
 * (1..L), and the segment length B/2^k. PINET_ERR_SIZE (pes or bins not valid), PINET_ERR_RANGE
 * (pe >= pes, step not in 1..L), PINET_ERR_NULL. */
pinet_status pinet_histogram_segments(uint32_t pes, uint32_t bins, uint32_t pe, uint32_t step,
                                      uint32_t *kept_start, uint32_t *sent_start, uint32_t *length);

/* Simulate the algorithm on `values` (n values, each < bins). Returns PINET_ERR_NULL,
 * PINET_ERR_SIZE (pes or bins not a power of two or beyond the limits, n == 0 or n > UINT32_MAX),
 * PINET_ERR_RANGE (a value >= bins, an unknown algo or rule), PINET_ERR_NOMEM. *out is NULL on
 * error; free the result with pinet_histogram_result_free. */
pinet_status pinet_histogram_run(const pinet_histogram_config *cfg, const uint32_t *values, size_t n,
                                 pinet_histogram_result **out);

void pinet_histogram_result_free(pinet_histogram_result *res);

/* The run's totals. PINET_ERR_NULL. */
pinet_status pinet_histogram_result_summary(const pinet_histogram_result *res,
                                            pinet_histogram_summary *summary);

/* The global histogram (bins counts) assembled from the final owners. The pointer stays valid
 * until the result is freed. PINET_ERR_NULL. */
pinet_status pinet_histogram_result_histogram(const pinet_histogram_result *res,
                                              const uint64_t **counts);

/* The bins processor `pe` holds at the end: first bin, count of bins (0 if it holds none) and
 * their counts (NULL if none). PINET_ERR_NULL, PINET_ERR_RANGE (pe >= pes). */
pinet_status pinet_histogram_result_held(const pinet_histogram_result *res, uint32_t pe,
                                         uint32_t *first_bin, uint32_t *n_bins,
                                         const uint32_t **counts);

/* Counters of processor `pe` at step `step` (0..steps). PINET_ERR_NULL, PINET_ERR_RANGE. */
pinet_status pinet_histogram_result_counters(const pinet_histogram_result *res, uint32_t pe,
                                             uint32_t step, pinet_histogram_counters *c);

/* Field-wise maximum over processors at step `step`. PINET_ERR_NULL, PINET_ERR_RANGE. */
pinet_status pinet_histogram_result_step_max(const pinet_histogram_result *res, uint32_t step,
                                             pinet_histogram_counters *c);

/* Pixel values of an image for a B-bin histogram, row-major. Every sample must be an integer in
 * 0..bins-1, else PINET_ERR_RANGE with *bad_index the first offending pixel (y*width + x).
 * PINET_ERR_NULL, PINET_ERR_SIZE (bins not a power of two >= 2), PINET_ERR_NOMEM. On success
 * *values (free() it) holds width*height values. */
pinet_status pinet_histogram_values_from_image(const pinet_image *img, uint32_t bins,
                                               uint32_t **values, size_t *count, size_t *bad_index);

/* A worst-case input for the data-dependent algorithms, `pixels_per_pe` pixels on each of the
 * `pes` processors (r as pinet_histogram_choose_r under `rule`, capped at L). For every step
 * k = 1..r the 2^(k-1) processors whose low L-k+1 address bits equal k hold distinct bins that
 * all gather at processor k and reach processor k + 2^(L-k) at step k as new bins (for k < r
 * bound for list k+1); every other pixel sits in its processor's final bin. So the busiest
 * processor of step k sends 2^(k-1) p bins, and the per-step maxima reach equations (4), (8),
 * (12) and (14) (with (5), (9), (10), (13) for the data-independent part).
 * PINET_ERR_NULL, PINET_ERR_SIZE, PINET_ERR_RANGE (p == 0, or M too small for this layout:
 * it needs the address bits that M >= B always gives), PINET_ERR_NOMEM. */
pinet_status pinet_histogram_worst_case(uint32_t pes, uint32_t bins, uint64_t pixels_per_pe,
                                        pinet_histogram_r_rule rule, uint32_t **values,
                                        size_t *count);

/* The paper's closed forms for phase 2 with M >= B (Figures 1-3): r and the worst-case costs. */
typedef struct pinet_histogram_model {
  uint32_t r;
  uint64_t transfers_independent; /* B - 1 */
  uint64_t transfers_dependent;   /* (4) + (5): 2p(2^r - 1) + B/2^r - 1 */
  uint64_t ops_independent;       /* B - 1 additions */
  uint64_t ops_approach1;         /* (8) + (9) + (10) */
  uint64_t ops_approach2;         /* (12) + (13); B - 1 when r == 0 (no lists) */
  uint64_t list_words;            /* (14): p(2^r - 1) */
} pinet_histogram_model;

/* Evaluate the model. PINET_ERR_NULL, PINET_ERR_SIZE, PINET_ERR_RANGE (p == 0, unknown rule). */
pinet_status pinet_histogram_model_eval(uint32_t bins, uint64_t pixels_per_pe,
                                        pinet_histogram_r_rule rule, pinet_histogram_model *model);

/* Names: "independent", "dependent1", "dependent2"; NULL for an unknown value. */
const char *pinet_histogram_algo_name(pinet_histogram_algo algo);

#ifdef __cplusplus
}
#endif
#endif /* PINET_HISTOGRAM_H */
