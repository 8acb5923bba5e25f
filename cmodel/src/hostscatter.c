/* hostscatter.c - event-driven simulation of host-to-hypercube data distribution (paper 003). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/hostscatter.h"

#define REL_TOL 1e-9

/* A planned message: the sets of nodes lo .. hi-1, whole (merged == 0) or as their union. */
typedef struct plan {
  int32_t src; /* -1 host */
  uint32_t dst;
  uint32_t lo, hi;
} plan;

typedef struct node_state {
  uint32_t expected; /* messages addressed to this node */
  uint32_t received;
  double ready;      /* arrival of the last of them */
  uint32_t held_lo, held_hi;
  uint32_t *data; /* the points it holds until it has sent everything */
  size_t n_data;
  uint32_t *own; /* its M points at the end */
  uint32_t first_plan, n_plans; /* its sends, in order, in the run's plan array */
} node_state;

typedef struct event {
  double time;
  uint64_t seq; /* ties: in the order scheduled */
  uint32_t msg; /* index into the message log */
} event;

struct pinet_hostscatter_run {
  pinet_hostscatter_params prm;
  pinet_hostscatter_strategy strategy;
  int merged;
  uint32_t p;
  uint32_t delta;
  node_state *nodes;
  plan *plans; /* host plans first, then each node's */
  uint32_t n_plans;
  uint32_t host_first, host_n;
  pinet_hostscatter_message *log;
  uint32_t **payloads; /* per logged message, its points until delivered */
  size_t *payload_len;
  uint32_t *payload_plan; /* per logged message, the plan it carries out */
  uint32_t n_log;
  event *heap;
  uint32_t n_heap;
  uint64_t seq;
  pinet_hostscatter_outcome out;
};

const char *pinet_hostscatter_strategy_name(pinet_hostscatter_strategy strategy) {
  switch (strategy) {
    case PINET_HOSTSCATTER_SEQUENTIAL: return "sequential";
    case PINET_HOSTSCATTER_SCATTER: return "scatter";
    case PINET_HOSTSCATTER_SEQSCATTER: return "seqscatter";
    case PINET_HOSTSCATTER_DECREMENTAL: return "decremental";
    default: return NULL;
  }
}

static int param_ok(double v) { return isfinite(v) && v >= 0.0; }

pinet_status pinet_hostscatter_check(const pinet_hostscatter_params *prm) {
  RETURN_ERROR_IF(prm == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(prm->dim < 1 || prm->dim > PINET_HOSTSCATTER_MAX_DIM, PINET_ERR_RANGE);
  RETURN_ERROR_IF(prm->points == 0 || prm->overlap >= prm->points, PINET_ERR_RANGE);
  RETURN_ERROR_IF(!param_ok(prm->beta) || !param_ok(prm->tau) || !param_ok(prm->sigma),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(((uint64_t)prm->points << prm->dim) > PINET_HOSTSCATTER_MAX_WORDS, PINET_ERR_SIZE);
  return PINET_OK;
}

static pinet_status x_range(const pinet_hostscatter_params *prm, pinet_hostscatter_strategy s,
                            int32_t *lo, int32_t *hi) {
  switch (s) {
    case PINET_HOSTSCATTER_SEQUENTIAL:
    case PINET_HOSTSCATTER_SCATTER: *lo = *hi = -1; return PINET_OK;
    case PINET_HOSTSCATTER_SEQSCATTER: *lo = 0; *hi = (int32_t)prm->dim; return PINET_OK;
    case PINET_HOSTSCATTER_DECREMENTAL: *lo = 0; *hi = (int32_t)prm->dim - 1; return PINET_OK;
    default: return PINET_ERR_RANGE;
  }
}

/* ---- the paper's equations ------------------------------------------------------------------- */

static double formula_at(const pinet_hostscatter_params *prm, pinet_hostscatter_strategy s, int32_t x) {
  double d = prm->dim, p = ldexp(1.0, (int)prm->dim), m = prm->points;
  double delta = (double)prm->points - prm->overlap;
  double beta = prm->beta, tau = prm->tau, beta_h = prm->sigma * prm->beta, tau_h = prm->tau;
  double two_x = ldexp(1.0, x < 0 ? 0 : x);
  switch (s) {
    case PINET_HOSTSCATTER_SEQUENTIAL: return p * (beta_h + m * tau_h);                       /* (6) */
    case PINET_HOSTSCATTER_SCATTER: return beta_h + m * p * tau_h + d * beta + m * (p - 1) * tau; /* (7) */
    case PINET_HOSTSCATTER_SEQSCATTER:                                                         /* (8) */
      return beta_h + m * two_x * tau_h +
             fmax((p - two_x) * beta_h + m * (p - two_x) * tau_h, x * beta + m * (two_x - 1) * tau);
    case PINET_HOSTSCATTER_DECREMENTAL:                                                        /* (10) */
      return ((d - x + 1) * prm->sigma + x) * beta + (m - delta) * (d + 1) * tau +
             (p + two_x - 1) * delta * tau;
    default: return NAN;
  }
}

static int better(double t, double best) { return t < best - REL_TOL * fmax(1.0, fabs(best)); }

pinet_status pinet_hostscatter_formula(const pinet_hostscatter_params *prm,
                                       pinet_hostscatter_strategy strategy, int32_t x,
                                       double *time, int32_t *x_used) {
  RETURN_ERROR_IF(time == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(pinet_hostscatter_check(prm));
  int32_t lo = 0, hi = 0;
  FORWARD_IF_ERROR(x_range(prm, strategy, &lo, &hi));
  if (lo < 0) {
    x = -1;
  } else if (x == PINET_HOSTSCATTER_BEST_X) {
    int32_t best_x = lo;
    double best = formula_at(prm, strategy, lo);
    for (int32_t c = lo + 1; c <= hi; c++) {
      double t = formula_at(prm, strategy, c);
      if (better(t, best)) {
        best = t;
        best_x = c;
      }
    }
    x = best_x;
  } else {
    RETURN_ERROR_IF(x < lo || x > hi, PINET_ERR_RANGE);
  }
  *time = formula_at(prm, strategy, x);
  if (x_used != NULL) {
    *x_used = x;
  }
  return PINET_OK;
}

/* ---- plans ----------------------------------------------------------------------------------- */

static uint32_t trailing_zeros(uint32_t v) {
  uint32_t z = 0;
  while ((v & 1u) == 0 && z < 32) {
    v >>= 1;
    z++;
  }
  return z;
}

/* Subcube root..root+2^t-1: node q (local label) sends, in order, the sets of its sub-blocks to
 * q + 2^b for b = tz(q)-1 .. 0 (t-1 .. 0 for the root). Plans go into the nodes' lists. */
static void plan_subcube(struct pinet_hostscatter_run *run, uint32_t root, uint32_t t) {
  for (uint32_t q = 0; q < (1u << t); q++) {
    uint32_t node = root + q;
    uint32_t top = q == 0 ? t : trailing_zeros(q);
    node_state *ns = &run->nodes[node];
    ns->first_plan = run->n_plans;
    ns->n_plans = top;
    for (uint32_t b = top; b-- > 0;) {
      plan *pl = &run->plans[run->n_plans++];
      pl->src = (int32_t)node;
      pl->dst = node + (1u << b);
      pl->lo = node + (1u << b);
      pl->hi = node + (2u << b);
      run->nodes[pl->dst].expected++;
    }
  }
}

static void plan_host(struct pinet_hostscatter_run *run, uint32_t dst, uint32_t lo, uint32_t hi) {
  plan *pl = &run->plans[run->n_plans++];
  pl->src = -1;
  pl->dst = dst;
  pl->lo = lo;
  pl->hi = hi;
  run->nodes[dst].expected++;
  run->host_n++;
}

static void build_plans(struct pinet_hostscatter_run *run, int32_t x) {
  uint32_t d = run->prm.dim, p = run->p;
  run->host_first = 0;
  switch (run->strategy) {
    case PINET_HOSTSCATTER_SEQUENTIAL:
      for (uint32_t i = 0; i < p; i++) {
        plan_host(run, i, i, i + 1);
      }
      break;
    case PINET_HOSTSCATTER_SCATTER:
      plan_host(run, 0, 0, p);
      plan_subcube(run, 0, d);
      break;
    case PINET_HOSTSCATTER_SEQSCATTER: {
      uint32_t sub = 1u << x;
      plan_host(run, 0, 0, sub);
      for (uint32_t i = sub; i < p; i++) {
        plan_host(run, i, i, i + 1);
      }
      plan_subcube(run, 0, (uint32_t)x);
      break;
    }
    case PINET_HOSTSCATTER_DECREMENTAL:
      for (uint32_t t = d; t-- > (uint32_t)x;) {
        plan_host(run, 1u << t, 1u << t, 2u << t);
      }
      plan_host(run, 0, 0, 1u << x);
      for (uint32_t t = d; t-- > (uint32_t)x;) {
        plan_subcube(run, 1u << t, t);
      }
      plan_subcube(run, 0, (uint32_t)x);
      break;
  }
}

/* ---- payloads -------------------------------------------------------------------------------- */

static size_t payload_words(const struct pinet_hostscatter_run *run, uint32_t lo, uint32_t hi) {
  size_t n = hi - lo, m = run->prm.points;
  return run->merged ? m + (n - 1) * run->delta : n * m;
}

/* The host builds a payload from the signal itself. */
static void host_payload(const struct pinet_hostscatter_run *run, uint32_t lo, uint32_t hi,
                         uint32_t *out) {
  uint32_t m = run->prm.points, delta = run->delta;
  if (run->merged) {
    size_t n = payload_words(run, lo, hi);
    for (size_t k = 0; k < n; k++) {
      out[k] = lo * delta + (uint32_t)k;
    }
    return;
  }
  for (uint32_t j = lo; j < hi; j++) {
    for (uint32_t k = 0; k < m; k++) {
      out[(size_t)(j - lo) * m + k] = j * delta + k;
    }
  }
}

/* Copy the points of nodes lo..hi-1 out of what a node holds (in its held layout). */
static pinet_status node_extract(const struct pinet_hostscatter_run *run, const node_state *ns,
                                 uint32_t lo, uint32_t hi, uint32_t *out) {
  RETURN_ERROR_IF(ns->data == NULL || lo < ns->held_lo || hi > ns->held_hi || lo >= hi,
                  PINET_ERR_ILLEGAL_MOVE);
  size_t off = run->merged ? (size_t)(lo - ns->held_lo) * run->delta
                           : (size_t)(lo - ns->held_lo) * run->prm.points;
  size_t n = payload_words(run, lo, hi);
  RETURN_ERROR_IF(off + n > ns->n_data, PINET_ERR_ILLEGAL_MOVE);
  memcpy(out, ns->data + off, n * sizeof *out);
  return PINET_OK;
}

/* ---- event queue ----------------------------------------------------------------------------- */

static int event_before(const event *a, const event *b) {
  return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void heap_push(struct pinet_hostscatter_run *run, double time, uint32_t msg) {
  uint32_t i = run->n_heap++;
  run->heap[i] = (event){time, run->seq++, msg};
  while (i > 0) {
    uint32_t parent = (i - 1) / 2;
    if (!event_before(&run->heap[i], &run->heap[parent])) {
      break;
    }
    event tmp = run->heap[i];
    run->heap[i] = run->heap[parent];
    run->heap[parent] = tmp;
    i = parent;
  }
}

static event heap_pop(struct pinet_hostscatter_run *run) {
  event top = run->heap[0];
  run->heap[0] = run->heap[--run->n_heap];
  uint32_t i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < run->n_heap && event_before(&run->heap[l], &run->heap[m])) {
      m = l;
    }
    if (r < run->n_heap && event_before(&run->heap[r], &run->heap[m])) {
      m = r;
    }
    if (m == i) {
      break;
    }
    event tmp = run->heap[i];
    run->heap[i] = run->heap[m];
    run->heap[m] = tmp;
    i = m;
  }
  return top;
}

/* ---- simulation ------------------------------------------------------------------------------ */

/* Sender `src` (-1 host) is ready at `t`: it sends its plans one after another. */
static pinet_status start_sender(struct pinet_hostscatter_run *run, int32_t src, double t) {
  uint32_t first = src < 0 ? run->host_first : run->nodes[src].first_plan;
  uint32_t count = src < 0 ? run->host_n : run->nodes[src].n_plans;
  double setup = src < 0 ? run->prm.sigma * run->prm.beta : run->prm.beta;
  double per_word = run->prm.tau; /* tau_h = tau */
  for (uint32_t j = 0; j < count; j++) {
    const plan *pl = &run->plans[first + j];
    if (src >= 0) {
      uint32_t diff = (uint32_t)src ^ pl->dst;
      RETURN_ERROR_IF(diff == 0 || (diff & (diff - 1)) != 0, PINET_ERR_ILLEGAL_MOVE);
    }
    size_t n = payload_words(run, pl->lo, pl->hi);
    uint32_t *buf = malloc(n * sizeof *buf);
    RETURN_ERROR_IF(buf == NULL, PINET_ERR_NOMEM);
    pinet_status st = PINET_OK;
    if (src < 0) {
      host_payload(run, pl->lo, pl->hi, buf);
    } else {
      st = node_extract(run, &run->nodes[src], pl->lo, pl->hi, buf);
    }
    if (st != PINET_OK) {
      free(buf);
      return st;
    }
    uint32_t id = run->n_log++;
    pinet_hostscatter_message *msg = &run->log[id];
    msg->src = src;
    msg->dst = pl->dst;
    msg->words = n;
    msg->start = t;
    msg->end = t + setup + (double)n * per_word;
    run->payloads[id] = buf;
    run->payload_len[id] = n;
    run->payload_plan[id] = first + j;
    heap_push(run, msg->end, id);
    t = msg->end;
    run->out.messages++;
    if (src < 0) {
      run->out.host_messages++;
      run->out.host_words += n;
    } else {
      run->out.node_words += n;
    }
  }
  if (src >= 0) {
    /* Everything forwarded: keep only the node's own set. */
    node_state *ns = &run->nodes[src];
    uint32_t *own = malloc((size_t)run->prm.points * sizeof *own);
    RETURN_ERROR_IF(own == NULL, PINET_ERR_NOMEM);
    pinet_status st = node_extract(run, ns, (uint32_t)src, (uint32_t)src + 1, own);
    if (st != PINET_OK) {
      free(own);
      return st;
    }
    ns->own = own;
    free(ns->data);
    ns->data = NULL;
    ns->n_data = 0;
  }
  return PINET_OK;
}

static pinet_status run_events(struct pinet_hostscatter_run *run) {
  FORWARD_IF_ERROR(start_sender(run, -1, 0.0));
  while (run->n_heap > 0) {
    event ev = heap_pop(run);
    pinet_hostscatter_message *msg = &run->log[ev.msg];
    node_state *ns = &run->nodes[msg->dst];
    /* Each node of these schedules receives exactly one message: the block it is the root of. */
    RETURN_ERROR_IF(ns->data != NULL || ns->own != NULL, PINET_ERR_ILLEGAL_MOVE);
    const plan *pl = &run->plans[run->payload_plan[ev.msg]];
    ns->data = run->payloads[ev.msg];
    ns->n_data = run->payload_len[ev.msg];
    run->payloads[ev.msg] = NULL;
    ns->held_lo = pl->lo;
    ns->held_hi = pl->hi;
    ns->received++;
    ns->ready = ev.time;
    if (ns->received == ns->expected) {
      FORWARD_IF_ERROR(start_sender(run, (int32_t)msg->dst, ev.time));
    }
  }
  return PINET_OK;
}

static int cmp_msg(const void *a, const void *b) {
  const pinet_hostscatter_message *x = a, *y = b;
  if (x->start != y->start) {
    return x->start < y->start ? -1 : 1;
  }
  return (x->src > y->src) - (x->src < y->src);
}

static void run_release(struct pinet_hostscatter_run *run) {
  if (run == NULL) {
    return;
  }
  if (run->nodes != NULL) {
    for (uint32_t i = 0; i < run->p; i++) {
      free(run->nodes[i].data);
      free(run->nodes[i].own);
    }
  }
  if (run->payloads != NULL) {
    for (uint32_t i = 0; i < run->n_log; i++) {
      free(run->payloads[i]);
    }
  }
  free(run->nodes);
  free(run->plans);
  free(run->log);
  free(run->payloads);
  free(run->payload_len);
  free(run->payload_plan);
  free(run->heap);
  free(run);
}

/* Simulate one strategy at one x. */
static pinet_status simulate_one(const pinet_hostscatter_params *prm, pinet_hostscatter_strategy s,
                                 int32_t x, struct pinet_hostscatter_run **out) {
  struct pinet_hostscatter_run *run = calloc(1, sizeof *run);
  RETURN_ERROR_IF(run == NULL, PINET_ERR_NOMEM);
  run->prm = *prm;
  run->strategy = s;
  run->merged = s == PINET_HOSTSCATTER_DECREMENTAL;
  run->p = 1u << prm->dim;
  run->delta = prm->points - prm->overlap;
  uint32_t max_msgs = 2 * run->p + 2; /* at most p messages, one per node */
  run->nodes = calloc(run->p, sizeof *run->nodes);
  run->plans = calloc(max_msgs, sizeof *run->plans);
  run->log = calloc(max_msgs, sizeof *run->log);
  run->payloads = calloc(max_msgs, sizeof *run->payloads);
  run->payload_len = calloc(max_msgs, sizeof *run->payload_len);
  run->payload_plan = calloc(max_msgs, sizeof *run->payload_plan);
  run->heap = calloc(max_msgs, sizeof *run->heap);
  pinet_status st = PINET_OK;
  if (!run->nodes || !run->plans || !run->log || !run->payloads || !run->payload_len || !run->payload_plan ||
      !run->heap) {
    st = PINET_ERR_NOMEM;
  }
  if (st == PINET_OK) {
    build_plans(run, x);
    st = run_events(run);
  }
  if (st == PINET_OK) {
    run->out.x = x;
    run->out.sets_ok = 1;
    for (uint32_t i = 0; i < run->p; i++) {
      const node_state *ns = &run->nodes[i];
      if (ns->own == NULL) {
        run->out.sets_ok = 0;
        continue;
      }
      for (uint32_t k = 0; k < prm->points; k++) {
        if (ns->own[k] != i * run->delta + k) {
          run->out.sets_ok = 0;
        }
      }
      if (ns->ready > run->out.time) {
        run->out.time = ns->ready;
      }
    }
    run->out.formula_time = formula_at(prm, s, x);
    run->out.formula_holds =
        fabs(run->out.time - run->out.formula_time) <= REL_TOL * fmax(1.0, fabs(run->out.formula_time));
    qsort(run->log, run->n_log, sizeof *run->log, cmp_msg);
  }
  if (st != PINET_OK) {
    run_release(run);
    return st;
  }
  *out = run;
  return PINET_OK;
}

pinet_status pinet_hostscatter_simulate(const pinet_hostscatter_params *prm,
                                        pinet_hostscatter_strategy strategy, int32_t x,
                                        pinet_hostscatter_run **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(pinet_hostscatter_check(prm));
  int32_t lo = 0, hi = 0;
  FORWARD_IF_ERROR(x_range(prm, strategy, &lo, &hi));
  if (lo < 0) {
    RETURN_ERROR_IF(x != PINET_HOSTSCATTER_BEST_X, PINET_ERR_RANGE);
    return simulate_one(prm, strategy, -1, out);
  }
  if (x != PINET_HOSTSCATTER_BEST_X) {
    RETURN_ERROR_IF(x < lo || x > hi, PINET_ERR_RANGE);
    return simulate_one(prm, strategy, x, out);
  }
  struct pinet_hostscatter_run *best = NULL;
  for (int32_t c = lo; c <= hi; c++) {
    struct pinet_hostscatter_run *run = NULL;
    pinet_status st = simulate_one(prm, strategy, c, &run);
    if (st != PINET_OK) {
      run_release(best);
      return st;
    }
    if (best == NULL || better(run->out.time, best->out.time)) {
      run_release(best);
      best = run;
    } else {
      run_release(run);
    }
  }
  *out = best;
  return PINET_OK;
}

void pinet_hostscatter_run_free(pinet_hostscatter_run *run) { run_release(run); }

pinet_status pinet_hostscatter_run_outcome(const pinet_hostscatter_run *run,
                                           pinet_hostscatter_outcome *outcome) {
  RETURN_ERROR_IF(run == NULL || outcome == NULL, PINET_ERR_NULL);
  *outcome = run->out;
  return PINET_OK;
}

pinet_status pinet_hostscatter_run_node(const pinet_hostscatter_run *run, uint32_t node,
                                        const uint32_t **points, size_t *count, double *arrival) {
  RETURN_ERROR_IF(run == NULL || points == NULL || count == NULL || arrival == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(node >= run->p, PINET_ERR_RANGE);
  *points = run->nodes[node].own;
  *count = run->nodes[node].own ? run->prm.points : 0;
  *arrival = run->nodes[node].ready;
  return PINET_OK;
}

pinet_status pinet_hostscatter_run_messages(const pinet_hostscatter_run *run,
                                            const pinet_hostscatter_message **messages,
                                            size_t *count) {
  RETURN_ERROR_IF(run == NULL || messages == NULL || count == NULL, PINET_ERR_NULL);
  *messages = run->log;
  *count = run->n_log;
  return PINET_OK;
}
