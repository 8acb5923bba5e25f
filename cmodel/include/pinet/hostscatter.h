/* pinet/hostscatter.h - data distribution from a host to the nodes of a hypercube (paper 003,
 * Sharma and Wagh, "Decremental scattering for data transport between host and hypercube
 * nodes"; SPEC §4), as an event-driven simulation checked against the paper's equations.
 *
 * Model
 * - A host and p = 2^d nodes (labels 0..p-1; nodes are neighbours when their labels differ in
 *   one bit). A node-to-node message of n words takes beta + n*tau; a host-to-node message
 *   beta_h + n*tau_h with beta_h = sigma*beta and tau_h = tau (equation (1)). The host reaches
 *   any node. Every sender is one-port: it sends its messages one after another, and a node
 *   starts sending once its own message has arrived. Times are in the unit of beta and tau.
 * - Node i needs the set S_i = { i*Delta, ..., i*Delta + M - 1 } of M points: consecutive windows
 *   of a 1D signal, as in digital filtering, so consecutive sets overlap in M - Delta points and
 *   each new set adds Delta new points. The overlap M - Delta is 0 .. M-1.
 * - Strategies (each message carries explicit point values; a sender can only forward points it
 *   holds, and at the end every node's set is compared with S_i):
 *   SEQUENTIAL   host -> node 0, 1, ..., p-1, M points each: T1, equation (6).
 *   SCATTER      host -> node 0 with all p*M points, then the standard hypercube scatter (node q
 *                with t-i trailing zeros sends the sets of nodes q+2^(t-i-1) .. q+2^(t-i)-1 to
 *                node q + 2^(t-i-1) at step i): T2, equation (7).
 *   SEQSCATTER   host -> node 0 with the 2^x sets of the subcube 0..2^x-1, which it scatters,
 *                while the host sends M points to each of the nodes 2^x..p-1 in turn: T3,
 *                equation (8), x in 0..d (x = d is SCATTER, x = 0 is SEQUENTIAL).
 *   DECREMENTAL  host -> the roots 2^(d-1), 2^(d-2), ..., 2^x of the subcubes of dimension d-1,
 *                ..., x, then node 0 for the last x-subcube; each message carries the union of
 *                the subcube's sets (M + (2^t - 1)*Delta points) and each root scatters it the
 *                same way, sending M + (2^(t-i-1) - 1)*Delta points at step i: T4, equations
 *                (9)-(10), x in 0..d-1.
 *   The first three send whole sets, as the paper's equations (6)-(8) count them (no overlap
 *   is exploited); only DECREMENTAL sends unions.
 * - The completion time is when the last node has received its set.
 * - Equation (9) assumes that the last subcube finishes last, which the paper justifies by
 *   beta_h > beta. That holds whenever sigma >= 1; for sigma < 1 an earlier, larger subcube can
 *   finish later, and the simulated time then exceeds the equation (formula_holds = 0).
 */
#ifndef PINET_HOSTSCATTER_H
#define PINET_HOSTSCATTER_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PINET_HOSTSCATTER_MAX_DIM 20u
/* points * 2^dim (the points the scatter root holds) may not exceed this. */
#define PINET_HOSTSCATTER_MAX_WORDS (1u << 24)

typedef enum pinet_hostscatter_strategy {
  PINET_HOSTSCATTER_SEQUENTIAL = 0,
  PINET_HOSTSCATTER_SCATTER = 1,
  PINET_HOSTSCATTER_SEQSCATTER = 2,
  PINET_HOSTSCATTER_DECREMENTAL = 3
} pinet_hostscatter_strategy;

/* Pass as x to choose the best x (the smallest x among those with the least time). */
#define PINET_HOSTSCATTER_BEST_X (-1)

typedef struct pinet_hostscatter_params {
  uint32_t dim;     /* d, 1 .. PINET_HOSTSCATTER_MAX_DIM */
  uint32_t points;  /* M >= 1 */
  uint32_t overlap; /* M - Delta, 0 .. M-1 */
  double beta;      /* node-to-node start-up, >= 0 */
  double tau;       /* per word, >= 0 (host and node) */
  double sigma;     /* beta_h / beta, >= 0 */
} pinet_hostscatter_params;

/* One message of a run. */
typedef struct pinet_hostscatter_message {
  int32_t src;   /* -1 for the host */
  uint32_t dst;
  uint64_t words;
  double start;
  double end; /* arrival */
} pinet_hostscatter_message;

typedef struct pinet_hostscatter_outcome {
  double time;          /* simulated completion time */
  int32_t x;            /* the x used (-1 for SEQUENTIAL and SCATTER) */
  double formula_time;  /* the paper's equation for this strategy at this x */
  int formula_holds;    /* 1 if time equals formula_time (relative difference <= 1e-9) */
  int sets_ok;          /* 1 if every node ended with exactly its S_i */
  uint64_t messages;    /* messages sent, host messages included */
  uint64_t host_messages;
  uint64_t host_words;
  uint64_t node_words;
} pinet_hostscatter_outcome;

typedef struct pinet_hostscatter_run pinet_hostscatter_run;

/* Check parameters: PINET_ERR_NULL; PINET_ERR_RANGE (dim not in 1..MAX_DIM, points == 0,
 * overlap >= points, a negative or non-finite beta/tau/sigma); PINET_ERR_SIZE (points * 2^dim
 * above PINET_HOSTSCATTER_MAX_WORDS). */
pinet_status pinet_hostscatter_check(const pinet_hostscatter_params *prm);

/* Simulate one strategy. x: for SEQSCATTER 0..d, for DECREMENTAL 0..d-1, or
 * PINET_HOSTSCATTER_BEST_X to simulate every x and keep the fastest; ignored (pass BEST_X) for
 * SEQUENTIAL and SCATTER. Returns pinet_hostscatter_check's errors, PINET_ERR_RANGE (x out of
 * range, unknown strategy), PINET_ERR_ILLEGAL_MOVE (a schedule sent to a non-neighbour or sent
 * points its sender did not hold: an internal error), PINET_ERR_NOMEM. *out is NULL on error. */
pinet_status pinet_hostscatter_simulate(const pinet_hostscatter_params *prm,
                                        pinet_hostscatter_strategy strategy, int32_t x,
                                        pinet_hostscatter_run **out);

void pinet_hostscatter_run_free(pinet_hostscatter_run *run);

/* The run's totals. PINET_ERR_NULL. */
pinet_status pinet_hostscatter_run_outcome(const pinet_hostscatter_run *run,
                                           pinet_hostscatter_outcome *outcome);

/* The M points node `node` ended with (pointer valid until the run is freed) and the time its
 * set arrived. PINET_ERR_NULL, PINET_ERR_RANGE (node >= 2^dim). */
pinet_status pinet_hostscatter_run_node(const pinet_hostscatter_run *run, uint32_t node,
                                        const uint32_t **points, size_t *count, double *arrival);

/* The messages in the order they were sent (by start time, then sender). PINET_ERR_NULL. */
pinet_status pinet_hostscatter_run_messages(const pinet_hostscatter_run *run,
                                            const pinet_hostscatter_message **messages,
                                            size_t *count);

/* The paper's equation for a strategy: (6) SEQUENTIAL, (7) SCATTER, (8) SEQSCATTER, (10)
 * DECREMENTAL (equal to (9) since tau_h = tau). x as for pinet_hostscatter_simulate; with
 * PINET_HOSTSCATTER_BEST_X the equation's own minimum over x, and *x_used (may be NULL) gets
 * the minimising x (the smallest on ties; -1 for SEQUENTIAL and SCATTER). Same errors as
 * pinet_hostscatter_check, plus PINET_ERR_RANGE for x. */
pinet_status pinet_hostscatter_formula(const pinet_hostscatter_params *prm,
                                       pinet_hostscatter_strategy strategy, int32_t x,
                                       double *time, int32_t *x_used);

/* Names: "sequential", "scatter", "seqscatter", "decremental"; NULL for an unknown value. */
const char *pinet_hostscatter_strategy_name(pinet_hostscatter_strategy strategy);

#ifdef __cplusplus
}
#endif
#endif /* PINET_HOSTSCATTER_H */
