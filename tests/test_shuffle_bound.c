/* test_shuffle_bound.c - unit tests of pinet_shuffle_link_bound (issue 11, docs/shuffle.md
 * section 12): the closed forms against a brute-force computation on the channel graph, built
 * here from pinet_shuffle_channel_ends with a max-flow (Edmonds-Karp) and BFS of its own; the
 * paper schedules never beating the bound; bad input. Random sizes print their seed (override
 * with PINET_TEST_SEED) and every failure names the seed and case. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/rng.h"
#include "pinet/shuffle.h"
#include "test_support.h"

static uint64_t g_seed = 20240611u;

#define CHECK(cond, ...) CHECK_SEED(g_seed, cond, __VA_ARGS__)

/* The ops that have a bound, with the quantum of M each needs (0 = N, -1 = log2 N). */
static const struct {
  pinet_shuffle_op op;
  int quantum;
} k_ops[] = {
    {PINET_SHUFFLE_OP_BCAST, -1},    {PINET_SHUFFLE_OP_BCAST_HOST, -1},
    {PINET_SHUFFLE_OP_SCATTER, 0},   {PINET_SHUFFLE_OP_INTEGRATE, 0},
    {PINET_SHUFFLE_OP_ALLGATHER, 0}, {PINET_SHUFFLE_OP_GATHER, 0},
    {PINET_SHUFFLE_OP_UPLOAD, 0},    {PINET_SHUFFLE_OP_RING_EXCHANGE, 4},
};
#define OPS (sizeof k_ops / sizeof k_ops[0])

static uint32_t lg(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) {
    k++;
  }
  return k;
}

static uint32_t quantum_of(size_t o, uint32_t N) {
  return k_ops[o].quantum == 0 ? N : k_ops[o].quantum < 0 ? lg(N) : (uint32_t)k_ops[o].quantum;
}

/* The smallest multiple of q that is >= m. */
static uint64_t round_up(uint64_t m, uint64_t q) { return (m + q - 1) / q * q; }

static uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ---- the channel graph, max-flow and BFS ------------------------------------------------- */

#define MAX_PES 16u
#define MAX_V (MAX_PES + 1u) /* PEs and the host */
#define NODES (MAX_V + 2u)   /* plus a super source and a super sink */
#define BIG 1000000

typedef struct {
  uint32_t v;            /* nodes: PEs 0..N-1, the host N if present */
  int cap[NODES][NODES]; /* directed channels a -> b, self-loops left out */
} graph_t;

/* The host stays in the graph only for the ops that move data to or from it: for the others it
 * is a leaf of PE 0 with no data, so a word sent up only comes back to PE 0. */
static void graph_build(graph_t *g, uint32_t N, int host) {
  memset(g, 0, sizeof *g);
  g->v = N + (host ? 1u : 0u);
  for (uint32_t ch = 0; ch < PINET_SHUFFLE_CHANNELS(N); ch++) {
    int32_t a = 0, b = 0;
    assert_int_equal(pinet_shuffle_channel_ends(N, ch, &a, &b), PINET_OK);
    if (a == b || (!host && (a < 0 || b < 0))) {
      continue;
    }
    g->cap[a < 0 ? N : (uint32_t)a][b < 0 ? N : (uint32_t)b]++;
  }
}

/* Edmonds-Karp: the max-flow from the node set `from` to the node set `to` (bit masks). */
static int max_flow(const graph_t *g, uint32_t from, uint32_t to) {
  int r[NODES][NODES]; /* the residual graph */
  uint32_t s = g->v, t = g->v + 1, nodes = g->v + 2;
  memset(r, 0, sizeof r);
  for (uint32_t a = 0; a < g->v; a++) {
    memcpy(r[a], g->cap[a], g->v * sizeof r[a][0]);
    r[s][a] = (from >> a) & 1u ? BIG : 0;
    r[a][t] = (to >> a) & 1u ? BIG : 0;
  }
  int flow = 0;
  for (;;) {
    uint32_t prev[NODES], queue[NODES], head = 0, tail = 0;
    for (uint32_t a = 0; a < nodes; a++) {
      prev[a] = UINT32_MAX;
    }
    prev[s] = s;
    queue[tail++] = s;
    while (head < tail && prev[t] == UINT32_MAX) {
      uint32_t a = queue[head++];
      for (uint32_t b = 0; b < nodes; b++) {
        if (prev[b] == UINT32_MAX && r[a][b] > 0) {
          prev[b] = a;
          queue[tail++] = b;
        }
      }
    }
    if (prev[t] == UINT32_MAX) {
      return flow;
    }
    int push = BIG;
    for (uint32_t b = t; b != s; b = prev[b]) {
      push = r[prev[b]][b] < push ? r[prev[b]][b] : push;
    }
    for (uint32_t b = t; b != s; b = prev[b]) {
      r[prev[b]][b] -= push;
      r[b][prev[b]] += push;
    }
    flow += push;
  }
}

/* Hops from `from` to every node (against the channels' direction if `reverse`). */
static void bfs(const graph_t *g, uint32_t from, int reverse, uint32_t *dist) {
  uint32_t queue[MAX_V], head = 0, tail = 0;
  for (uint32_t a = 0; a < g->v; a++) {
    dist[a] = UINT32_MAX;
  }
  dist[from] = 0;
  queue[tail++] = from;
  while (head < tail) {
    uint32_t a = queue[head++];
    for (uint32_t b = 0; b < g->v; b++) {
      if (dist[b] == UINT32_MAX && (reverse ? g->cap[b][a] : g->cap[a][b]) > 0) {
        dist[b] = dist[a] + 1;
        queue[tail++] = b;
      }
    }
  }
  for (uint32_t a = 0; a < g->v; a++) {
    CHECK(dist[a] != UINT32_MAX, "node %u unreachable from %u", a, from);
  }
}

/* ---- what each op must move -------------------------------------------------------------- */

/* `words` words of data block `id` must get from node src to node dst. Two demands with one id
 * are the same data (a broadcast's words, or the sum a reduce-scatter delivers): counted once. */
typedef struct {
  uint32_t src, dst, id;
  uint64_t words;
} demand_t;

#define MAX_DEMANDS (MAX_PES * MAX_PES)
#define MAX_IDS (2u * MAX_PES)

static size_t demands_of(pinet_shuffle_op op, uint32_t N, uint64_t M, demand_t *d) {
  uint32_t H = N; /* the host's node */
  uint64_t S = M / N;
  size_t k = 0;
  for (uint32_t i = 0; i < N; i++) {
    switch (op) {
      case PINET_SHUFFLE_OP_BCAST: /* PE 0's M words to everyone */
        if (i != 0) {
          d[k++] = (demand_t){0, i, 0, M};
        }
        break;
      case PINET_SHUFFLE_OP_BCAST_HOST: d[k++] = (demand_t){H, i, 0, M}; break;
      case PINET_SHUFFLE_OP_SCATTER: d[k++] = (demand_t){H, i, i, S}; break;
      case PINET_SHUFFLE_OP_UPLOAD: d[k++] = (demand_t){i, H, i, S}; break;
      case PINET_SHUFFLE_OP_GATHER:
        if (i != 0) {
          d[k++] = (demand_t){i, 0, i, S};
        }
        break;
      case PINET_SHUFFLE_OP_INTEGRATE: /* PE j's result: segment j summed, one block per j */
        for (uint32_t j = 0; j < N; j++) {
          if (j != i) {
            d[k++] = (demand_t){i, j, j, S};
          }
        }
        break;
      case PINET_SHUFFLE_OP_ALLGATHER: /* PE i's segment to everyone */
        for (uint32_t j = 0; j < N; j++) {
          if (j != i) {
            d[k++] = (demand_t){i, j, i, S};
          }
        }
        break;
      default: break;
    }
  }
  if (op == PINET_SHUFFLE_OP_RING_EXCHANGE) { /* M/4 words to each ring neighbour */
    uint32_t ring[MAX_PES] = {0, 1};
    if (N >= 4) {
      assert_int_equal(pinet_shuffle_ring(N, ring), PINET_OK);
    }
    for (uint32_t r = 0; r < N; r++) {
      d[k++] = (demand_t){ring[r], ring[(r + 1) % N], 2 * ring[r], M / 4};
      d[k++] = (demand_t){ring[r], ring[(r + N - 1) % N], 2 * ring[r] + 1, M / 4};
    }
  }
  assert_true(k <= MAX_DEMANDS);
  return k;
}

/* Words of distinct data among the demands selected by `pick`. */
static uint64_t info(const demand_t *d, size_t nd, const uint8_t *pick) {
  uint8_t seen[MAX_IDS] = {0};
  uint64_t w = 0;
  for (size_t k = 0; k < nd; k++) {
    assert_true(d[k].id < MAX_IDS);
    if (pick[k] && !seen[d[k].id]) {
      seen[d[k].id] = 1;
      w += d[k].words;
    }
  }
  return w;
}

/* The best bound of the family (docs/shuffle.md section 12) at one end node e: the demands that
 * leave e (out) or enter it (in). Cut terms: with c channels out of (into) e, the data for
 * (from) the nodes at >= h hops cross in at most T - h cycles, so T >= ceil(K_h / c) + h.
 * Min-cut terms: the data between e and one node x cross a cut of capacity maxflow(e, x), so
 * T >= ceil(K_x / maxflow) + 1. */
static uint64_t end_bound(const graph_t *g, const demand_t *d, size_t nd, uint32_t e, int out) {
  uint8_t pick[MAX_DEMANDS];
  uint32_t dist[MAX_V];
  uint32_t all = (1u << g->v) - 1u, me = 1u << e;
  int c = out ? max_flow(g, me, all & ~me) : max_flow(g, all & ~me, me);
  bfs(g, e, !out, dist);
  uint64_t best = 0;
  for (uint32_t h = 1; h < g->v; h++) {
    for (size_t k = 0; k < nd; k++) {
      uint32_t other = out ? d[k].dst : d[k].src;
      pick[k] = (out ? d[k].src : d[k].dst) == e && dist[other] >= h;
    }
    uint64_t K = info(d, nd, pick);
    if (K > 0) {
      CHECK(c > 0, "no channel at node %u", e);
      best = max_u64(best, div_up(K, (uint64_t)c) + h);
    }
  }
  for (uint32_t x = 0; x < g->v; x++) {
    for (size_t k = 0; k < nd; k++) {
      pick[k] = out ? d[k].src == e && d[k].dst == x : d[k].dst == e && d[k].src == x;
    }
    uint64_t K = info(d, nd, pick);
    if (K > 0) {
      int f = out ? max_flow(g, me, 1u << x) : max_flow(g, 1u << x, me);
      CHECK(f > 0, "no path between %u and %u", e, x);
      best = max_u64(best, div_up(K, (uint64_t)f) + 1);
    }
  }
  return best;
}

static uint64_t brute_bound(pinet_shuffle_op op, uint32_t N, uint64_t M) {
  graph_t g;
  demand_t d[MAX_DEMANDS];
  int host = op == PINET_SHUFFLE_OP_BCAST_HOST || op == PINET_SHUFFLE_OP_SCATTER ||
             op == PINET_SHUFFLE_OP_UPLOAD;
  graph_build(&g, N, host);
  size_t nd = demands_of(op, N, M, d);
  uint64_t best = 0;
  for (uint32_t e = 0; e < g.v; e++) {
    for (int out = 0; out <= 1; out++) {
      best = max_u64(best, end_bound(&g, d, nd, e, out));
    }
  }
  return best;
}

/* ---- tests ------------------------------------------------------------------------------- */

/* The graph facts the proofs use, computed here: PE 0 has two useful channels each way, the
 * host link one, and PE N-1 is n hops from PE 0. */
static void test_shuffle_bound_graph_facts(void **state) {
  (void)state;
  graph_t g;
  for (uint32_t N = 2; N <= MAX_PES; N *= 2) {
    uint32_t dist[MAX_V], all = (1u << (N + 1)) - 1u, far = 0;
    graph_build(&g, N, 1);
    CHECK(max_flow(&g, 1u, all & ~1u & ~(1u << N)) == 2, "N=%u: PE 0 out to the PEs", N);
    CHECK(max_flow(&g, all & ~1u & ~(1u << N), 1u) == 2, "N=%u: PE 0 in from the PEs", N);
    CHECK(max_flow(&g, 1u << N, all & ~(1u << N)) == 1, "N=%u: host link down", N);
    CHECK(max_flow(&g, all & ~(1u << N), 1u << N) == 1, "N=%u: host link up", N);
    bfs(&g, 0, 0, dist);
    for (uint32_t v = 0; v < N; v++) {
      far = (uint32_t)max_u64(far, dist[v]);
    }
    CHECK(far == lg(N) && dist[N - 1] == lg(N), "N=%u: PE 0's eccentricity %u", N, far);
  }
}

/* The closed forms == the best bound of the family, computed by brute force, N = 2 .. 16. */
static void test_shuffle_bound_brute_force(void **state) {
  (void)state;
  const uint64_t mult[] = {1, 2, 3, 7};
  for (uint32_t N = 2; N <= MAX_PES; N *= 2) {
    for (size_t o = 0; o < OPS; o++) {
      uint32_t q = quantum_of(o, N);
      uint64_t Ms[6] = {mult[0] * q, mult[1] * q, mult[2] * q, mult[3] * q,
                        round_up(64u * N, q), round_up(128u * N, q)};
      for (size_t m = 0; m < 6; m++) {
        uint64_t got = 0, want = brute_bound(k_ops[o].op, N, Ms[m]);
        pinet_status st = pinet_shuffle_link_bound(k_ops[o].op, N, Ms[m], &got);
        CHECK(st == PINET_OK && got == want, "%s N=%u M=%" PRIu64 ": bound %" PRIu64
              " (status %d), brute force %" PRIu64,
              pinet_shuffle_op_name(k_ops[o].op), N, Ms[m], got, (int)st, want);
      }
    }
  }
}

static pinet_status paper_cycles(pinet_shuffle_op op, uint32_t N, uint32_t M, uint64_t *cycles) {
  pinet_shuffle_schedule *s = NULL;
  pinet_status st = op == PINET_SHUFFLE_OP_RING_EXCHANGE
                        ? pinet_shuffle_build_ring_exchange_default(&s, N, M)
                        : pinet_shuffle_build(&s, op, N, M);
  if (st == PINET_OK) {
    st = pinet_shuffle_cycle_total(s, cycles);
  }
  pinet_shuffle_schedule_free(s);
  return st;
}

/* A schedule that beats a lower bound would prove the bound wrong: the paper's never do. */
static void test_shuffle_bound_paper_schedules(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed);
  for (uint32_t N = 2; N <= 64; N *= 2) {
    for (size_t o = 0; o < OPS; o++) {
      uint32_t q = quantum_of(o, N);
      uint64_t Ms[6] = {q, round_up(64u * N, q), round_up(128u * N, q)};
      for (size_t m = 3; m < 6; m++) {
        Ms[m] = q * (1 + pinet_rng_below(&rng, 300));
      }
      for (size_t m = 0; m < 6; m++) {
        uint64_t bound = 0, cycles = 0;
        pinet_shuffle_op op = k_ops[o].op;
        assert_int_equal(pinet_shuffle_link_bound(op, N, Ms[m], &bound), PINET_OK);
        assert_int_equal(paper_cycles(op, N, (uint32_t)Ms[m], &cycles), PINET_OK);
        CHECK(cycles >= bound, "%s N=%u M=%" PRIu64 ": the schedule's %" PRIu64
              " cycles beat the bound %" PRIu64, pinet_shuffle_op_name(op), N, Ms[m], cycles,
              bound);
        /* the ring exchange moves both blocks at once: it meets its bound */
        CHECK(op != PINET_SHUFFLE_OP_RING_EXCHANGE || cycles == bound,
              "ring-exchange N=%u M=%" PRIu64 ": %" PRIu64 " cycles, bound %" PRIu64, N, Ms[m],
              cycles, bound);
      }
    }
  }
}

/* Bad arguments give the status the builders give for the same arguments. */
static void test_shuffle_bound_bad_input(void **state) {
  (void)state;
  uint64_t c = 0;
  assert_int_equal(pinet_shuffle_link_bound(PINET_SHUFFLE_OP_BCAST, 8, 24, NULL), PINET_ERR_NULL);
  const struct {
    pinet_shuffle_op op;
    uint32_t pes;
    uint64_t words;
    pinet_status want;
  } cases[] = {
      {PINET_SHUFFLE_OP_INTEGRATE, 0, 64, PINET_ERR_SIZE},
      {PINET_SHUFFLE_OP_INTEGRATE, 1, 64, PINET_ERR_SIZE},
      {PINET_SHUFFLE_OP_SCATTER, 6, 12, PINET_ERR_SIZE},
      {PINET_SHUFFLE_OP_BCAST, 2048, 11, PINET_ERR_SIZE},
      {PINET_SHUFFLE_OP_RING_EXCHANGE, 12, 8, PINET_ERR_SIZE},
      {PINET_SHUFFLE_OP_CUSTOM, 3, 8, PINET_ERR_SIZE}, /* pes first, as the builder */
      {PINET_SHUFFLE_OP_CUSTOM, 8, 8, PINET_ERR_RANGE},
      {(pinet_shuffle_op)99, 8, 8, PINET_ERR_RANGE},
      {PINET_SHUFFLE_OP_GATHER, 8, 0, PINET_ERR_RANGE},
      {PINET_SHUFFLE_OP_RING_EXCHANGE, 8, 0, PINET_ERR_RANGE},
      {PINET_SHUFFLE_OP_UPLOAD, 8, PINET_SHUFFLE_MAX_WORDS + 8u, PINET_ERR_RANGE},
      {PINET_SHUFFLE_OP_INTEGRATE, 8, 12, PINET_ERR_MISMATCH},
      {PINET_SHUFFLE_OP_ALLGATHER, 16, 24, PINET_ERR_MISMATCH},
      {PINET_SHUFFLE_OP_BCAST, 8, 8, PINET_ERR_MISMATCH},
      {PINET_SHUFFLE_OP_BCAST_HOST, 64, 64, PINET_ERR_MISMATCH},
      {PINET_SHUFFLE_OP_RING_EXCHANGE, 8, 6, PINET_ERR_MISMATCH},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    c = 12345;
    pinet_status st = pinet_shuffle_link_bound(cases[i].op, cases[i].pes, cases[i].words, &c);
    CHECK(st == cases[i].want && c == 12345, "case %zu: status %d, want %d (cycles %" PRIu64 ")",
          i, (int)st, (int)cases[i].want, c);
    uint64_t dummy = 0;
    pinet_status built = paper_cycles(cases[i].op, cases[i].pes, (uint32_t)cases[i].words, &dummy);
    CHECK(built == st, "case %zu: the builder says %d, the bound %d", i, (int)built, (int)st);
  }
}

int main(void) {
  g_seed = test_seed("test_shuffle_bound", g_seed);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shuffle_bound_graph_facts),
      cmocka_unit_test(test_shuffle_bound_brute_force),
      cmocka_unit_test(test_shuffle_bound_paper_schedules),
      cmocka_unit_test(test_shuffle_bound_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
