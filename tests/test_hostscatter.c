/* test_hostscatter.c - host-to-hypercube distribution (paper 003): the event-driven simulation
 * against equations (6)-(10) written out here, the best x against an exhaustive search, every
 * node's final set against its window, and the messages against the hypercube's links. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/hostscatter.h"
#include "pinet/rng.h"
#include "test_support.h"

#define SEED 0x4d57u

static int close_to(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1.0, fabs(b)); }

/* ---- the paper's equations --------------------------------------------------------------- */

static double eq6(const pinet_hostscatter_params *q) {
  double p = pow(2, q->dim), bh = q->sigma * q->beta;
  return p * (bh + q->points * q->tau);
}

static double eq7(const pinet_hostscatter_params *q) {
  double p = pow(2, q->dim), bh = q->sigma * q->beta, m = q->points;
  return bh + m * p * q->tau + q->dim * q->beta + m * (p - 1) * q->tau;
}

static double eq8_at(const pinet_hostscatter_params *q, int x) {
  double p = pow(2, q->dim), bh = q->sigma * q->beta, m = q->points, s = pow(2, x);
  double host = (p - s) * bh + m * (p - s) * q->tau;
  double scatter = x * q->beta + m * (s - 1) * q->tau;
  return bh + m * s * q->tau + (host > scatter ? host : scatter);
}

static double eq9_at(const pinet_hostscatter_params *q, int x) {
  double d = q->dim, m = q->points, delta = (double)q->points - q->overlap;
  double bh = q->sigma * q->beta, th = q->tau;
  return (d - x + 1) * bh + (m - delta) * (d - x + 1) * th + delta * pow(2, d) * th + x * q->beta +
         x * (m - delta) * q->tau + (pow(2, x) - 1) * delta * q->tau;
}

static double eq10_at(const pinet_hostscatter_params *q, int x) {
  double d = q->dim, m = q->points, delta = (double)q->points - q->overlap;
  return ((d - x + 1) * q->sigma + x) * q->beta + (m - delta) * (d + 1) * q->tau +
         (pow(2, d) + pow(2, x) - 1) * delta * q->tau;
}

/* Decremental scattering without the paper's "last subcube finishes last" assumption: every
 * subcube finishes at its host message's arrival plus its own scatter time. */
static double decremental_actual(const pinet_hostscatter_params *q, int x) {
  double m = q->points, delta = (double)q->points - q->overlap, bh = q->sigma * q->beta;
  double host = 0.0, worst = 0.0;
  int dims[40], n = 0;
  for (int t = (int)q->dim - 1; t >= x; t--) {
    dims[n++] = t;
  }
  dims[n++] = x;
  for (int i = 0; i < n; i++) {
    int t = dims[i];
    host += bh + (m + (pow(2, t) - 1) * delta) * q->tau;
    double scatter = 0.0;
    for (int s = 0; s < t; s++) {
      scatter += q->beta + (m + (pow(2, t - s - 1) - 1) * delta) * q->tau;
    }
    worst = fmax(worst, host + scatter);
  }
  return worst;
}

static double eq_for(const pinet_hostscatter_params *q, pinet_hostscatter_strategy s, int x) {
  switch (s) {
    case PINET_HOSTSCATTER_SEQUENTIAL: return eq6(q);
    case PINET_HOSTSCATTER_SCATTER: return eq7(q);
    case PINET_HOSTSCATTER_SEQSCATTER: return eq8_at(q, x);
    default: return eq10_at(q, x);
  }
}

static uint32_t tz(uint32_t v) {
  uint32_t z = 0;
  while (v && !(v & 1u)) {
    v >>= 1;
    z++;
  }
  return z;
}

/* Nodes (count) whose sets the message to node v carries, from the paper's descriptions. */
static uint32_t block_of(const pinet_hostscatter_params *q, pinet_hostscatter_strategy s, int x,
                         uint32_t v) {
  uint32_t p = 1u << q->dim;
  switch (s) {
    case PINET_HOSTSCATTER_SEQUENTIAL: return 1;
    case PINET_HOSTSCATTER_SCATTER: return v == 0 ? p : 1u << tz(v);
    case PINET_HOSTSCATTER_SEQSCATTER:
      if (v >= (1u << x)) {
        return 1;
      }
      return v == 0 ? 1u << x : 1u << tz(v);
    default: {
      uint32_t root = 0, t = (uint32_t)x;
      if (v >= (1u << x)) {
        t = 31 - (uint32_t)__builtin_clz(v);
        root = 1u << t;
      }
      uint32_t local = v - root;
      return local == 0 ? 1u << t : 1u << tz(local);
    }
  }
}

/* One simulation checked in every way the test can see it. Returns the simulated time. */
static double check_run(const pinet_hostscatter_params *q, pinet_hostscatter_strategy s, int x,
                        const char *tag) {
  pinet_hostscatter_run *run = NULL;
  pinet_status st = pinet_hostscatter_simulate(q, s, x, &run);
  if (st != PINET_OK) {
    fail_msg("%s: simulate %d x=%d: %s", tag, s, x, pinet_status_str(st));
  }
  pinet_hostscatter_outcome o;
  pinet_hostscatter_run_outcome(run, &o);
  uint32_t p = 1u << q->dim, m = q->points, delta = q->points - q->overlap;
  int merged = s == PINET_HOSTSCATTER_DECREMENTAL;
  /* Every node's set, compared with its window. */
  double last = 0.0;
  for (uint32_t i = 0; i < p; i++) {
    const uint32_t *pts = NULL;
    size_t cnt = 0;
    double arr = 0.0;
    assert_int_equal(pinet_hostscatter_run_node(run, i, &pts, &cnt, &arr), PINET_OK);
    if (cnt != m) {
      fail_msg("%s: node %u has %zu points, wants %u", tag, i, cnt, m);
    }
    for (uint32_t k = 0; k < m; k++) {
      if (pts[k] != i * delta + k) {
        fail_msg("%s: node %u point %u is %u, want %u", tag, i, k, pts[k], i * delta + k);
      }
    }
    last = fmax(last, arr);
  }
  assert_true(o.sets_ok);
  /* Messages: one into each node, node messages along hypercube links, sizes and durations. */
  const pinet_hostscatter_message *msgs = NULL;
  size_t nm = 0;
  assert_int_equal(pinet_hostscatter_run_messages(run, &msgs, &nm), PINET_OK);
  assert_int_equal(nm, p);
  uint32_t *into = xcalloc(p, sizeof *into);
  assert_non_null(into);
  uint64_t host_msgs = 0;
  for (size_t i = 0; i < nm; i++) {
    const pinet_hostscatter_message *g = &msgs[i];
    assert_true(g->dst < p);
    into[g->dst]++;
    if (g->src >= 0) {
      uint32_t diff = (uint32_t)g->src ^ g->dst;
      if (diff == 0 || (diff & (diff - 1)) != 0) {
        fail_msg("%s: message %d -> %u is not along a hypercube link", tag, g->src, g->dst);
      }
    } else {
      host_msgs++;
    }
    uint32_t b = block_of(q, s, x, g->dst);
    uint64_t words = merged ? m + (uint64_t)(b - 1) * delta : (uint64_t)b * m;
    if (g->words != words) {
      fail_msg("%s: message to %u carries %llu words, want %llu", tag, g->dst,
               (unsigned long long)g->words, (unsigned long long)words);
    }
    double setup = g->src < 0 ? q->sigma * q->beta : q->beta;
    assert_true(close_to(g->end - g->start, setup + (double)words * q->tau));
  }
  for (uint32_t i = 0; i < p; i++) {
    assert_int_equal(into[i], 1);
  }
  free(into);
  uint64_t want_host = s == PINET_HOSTSCATTER_SEQUENTIAL ? p
                       : s == PINET_HOSTSCATTER_SCATTER  ? 1
                       : s == PINET_HOSTSCATTER_SEQSCATTER ? 1 + p - (1u << x)
                                                           : q->dim - (uint32_t)x + 1;
  assert_int_equal(host_msgs, want_host);
  assert_int_equal(o.host_messages, want_host);
  assert_true(close_to(o.time, last));
  pinet_hostscatter_run_free(run);
  return o.time;
}

/* ---- tests ------------------------------------------------------------------------------- */

/* With sigma >= 1 (the paper's beta_h >= beta) every strategy's simulated time equals its
 * equation at every x, for many d, M and overlaps; (9) and (10) agree. */
static void test_hostscatter_matches_equations(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED);
  printf("test_hostscatter_matches_equations: seed %u\n", SEED);
  const uint32_t ms[] = {1, 3, 10, 100};
  const double sigmas[] = {1.0, 1.5, 4.0};
  double params[4][2] = {{800, 8}, {0, 1}, {5, 0}, {0, 0}};
  params[3][0] = 1.0 + 1000.0 * pinet_rng_unit(&rng);
  params[3][1] = 0.5 + 20.0 * pinet_rng_unit(&rng);
  int checked = 0;
  for (uint32_t d = 1; d <= 7; d++) {
    for (size_t mi = 0; mi < sizeof ms / sizeof ms[0]; mi++) {
      uint32_t m = ms[mi];
      uint32_t ovs[4] = {0, 1, m / 2, m - 1};
      for (int oi = 0; oi < 4; oi++) {
        if (ovs[oi] >= m || (oi > 0 && ovs[oi] == ovs[oi - 1])) {
          continue;
        }
        for (size_t si = 0; si < sizeof sigmas / sizeof sigmas[0]; si++) {
          for (int pi = 0; pi < 4; pi++) {
            if (d > 5 && pi != 0 && pi != 3) {
              continue; /* keep the sweep short; the large cubes use the figures' units */
            }
            pinet_hostscatter_params q = {d, m, ovs[oi], params[pi][0], params[pi][1], sigmas[si]};
            char tag[160];
            for (int s = 0; s < 4; s++) {
              int lo = s < 2 ? -1 : 0, hi = s < 2 ? -1 : (s == 2 ? (int)d : (int)d - 1);
              for (int x = lo; x <= hi; x++) {
                snprintf(tag, sizeof tag, "seed %u d=%u M=%u overlap=%u beta=%g tau=%g sigma=%g s=%d x=%d",
                         SEED, d, m, ovs[oi], q.beta, q.tau, q.sigma, s, x);
                double t = check_run(&q, (pinet_hostscatter_strategy)s, x, tag);
                double want = eq_for(&q, (pinet_hostscatter_strategy)s, x);
                if (!close_to(t, want)) {
                  fail_msg("%s: simulated %.12g, equation %.12g", tag, t, want);
                }
                if (s == 3 && !close_to(eq9_at(&q, x), want)) {
                  fail_msg("%s: (9) %.12g != (10) %.12g", tag, eq9_at(&q, x), want);
                }
                pinet_hostscatter_run *run = NULL;
                pinet_hostscatter_simulate(&q, (pinet_hostscatter_strategy)s, x, &run);
                pinet_hostscatter_outcome o;
                pinet_hostscatter_run_outcome(run, &o);
                assert_true(o.formula_holds);
                assert_true(close_to(o.formula_time, want));
                assert_int_equal(o.x, x);
                pinet_hostscatter_run_free(run);
                checked++;
              }
            }
          }
        }
      }
    }
  }
  printf("test_hostscatter_matches_equations: %d simulations equal their equation\n", checked);
  /* (8) at x = d is (7), at x = 0 is (6). */
  pinet_hostscatter_params q = {6, 100, 0, 800, 8, 1.5};
  assert_true(close_to(eq8_at(&q, 6), eq7(&q)));
  assert_true(close_to(eq8_at(&q, 0), eq6(&q)));
}

/* The x chosen is the exhaustive minimiser (the smallest x on ties), for the simulation and for
 * the equation. */
static void test_hostscatter_best_x_exhaustive(void **state) {
  (void)state;
  pinet_rng rng;
  uint64_t seed = SEED + 1;
  pinet_rng_seed(&rng, seed);
  printf("test_hostscatter_best_x_exhaustive: seed %llu\n", (unsigned long long)seed);
  for (int trial = 0; trial < 60; trial++) {
    pinet_hostscatter_params q;
    q.dim = 1 + (uint32_t)pinet_rng_below(&rng, 8);
    q.points = 1 + (uint32_t)pinet_rng_below(&rng, 200);
    q.overlap = (uint32_t)pinet_rng_below(&rng, q.points);
    q.beta = trial % 7 == 0 ? 0.0 : 10000.0 * pinet_rng_unit(&rng);
    q.tau = trial % 11 == 0 ? 0.0 : 20.0 * pinet_rng_unit(&rng);
    q.sigma = trial % 3 == 0 ? 0.2 + pinet_rng_unit(&rng) : 1.0 + 3.0 * pinet_rng_unit(&rng);
    for (int s = 2; s < 4; s++) {
      int hi = s == 2 ? (int)q.dim : (int)q.dim - 1;
      double best = INFINITY, best_eq = INFINITY;
      int best_x = -1, best_eq_x = -1;
      for (int x = 0; x <= hi; x++) {
        pinet_hostscatter_run *run = NULL;
        assert_int_equal(pinet_hostscatter_simulate(&q, (pinet_hostscatter_strategy)s, x, &run), PINET_OK);
        pinet_hostscatter_outcome o;
        pinet_hostscatter_run_outcome(run, &o);
        pinet_hostscatter_run_free(run);
        if (x == 0 || o.time < best - 1e-9 * fmax(1.0, best)) {
          best = o.time;
          best_x = x;
        }
        double e = eq_for(&q, (pinet_hostscatter_strategy)s, x);
        if (x == 0 || e < best_eq - 1e-9 * fmax(1.0, best_eq)) {
          best_eq = e;
          best_eq_x = x;
        }
      }
      pinet_hostscatter_run *run = NULL;
      assert_int_equal(pinet_hostscatter_simulate(&q, (pinet_hostscatter_strategy)s, PINET_HOSTSCATTER_BEST_X, &run),
                       PINET_OK);
      pinet_hostscatter_outcome o;
      pinet_hostscatter_run_outcome(run, &o);
      pinet_hostscatter_run_free(run);
      if (o.x != best_x || !close_to(o.time, best)) {
        fail_msg("seed %llu trial %d s=%d d=%u M=%u ov=%u: chose x=%d (%.12g), exhaustive x=%d (%.12g)",
                 (unsigned long long)seed, trial, s, q.dim, q.points, q.overlap, o.x, o.time, best_x, best);
      }
      double ft = 0.0;
      int32_t fx = -2;
      assert_int_equal(pinet_hostscatter_formula(&q, (pinet_hostscatter_strategy)s, PINET_HOSTSCATTER_BEST_X, &ft, &fx),
                       PINET_OK);
      assert_int_equal(fx, best_eq_x);
      assert_true(close_to(ft, best_eq));
    }
  }
}

/* Where beta_h < beta an earlier, larger subcube can finish after the last one: the simulation
 * then follows the subcube-by-subcube maximum, not equation (9)/(10). */
static void test_hostscatter_assumption_fails(void **state) {
  (void)state;
  int differ = 0, total = 0;
  const double sigmas[] = {0.05, 0.2, 0.5, 0.9, 1.0, 2.0};
  for (uint32_t d = 1; d <= 8; d++) {
    for (size_t si = 0; si < sizeof sigmas / sizeof sigmas[0]; si++) {
      for (uint32_t ov = 0; ov < 20; ov += 19) {
        pinet_hostscatter_params q = {d, 20, ov, 1000.0, 1.0, sigmas[si]};
        for (int x = 0; x < (int)d; x++) {
          char tag[128];
          snprintf(tag, sizeof tag, "d=%u sigma=%g overlap=%u x=%d", d, q.sigma, ov, x);
          double t = check_run(&q, PINET_HOSTSCATTER_DECREMENTAL, x, tag);
          double actual = decremental_actual(&q, x), eq = eq10_at(&q, x);
          if (!close_to(t, actual)) {
            fail_msg("%s: simulated %.12g, subcube maximum %.12g", tag, t, actual);
          }
          assert_true(t >= eq - 1e-9 * eq);
          total++;
          if (!close_to(t, eq)) {
            differ++;
            assert_true(q.sigma < 1.0); /* the paper's condition beta_h >= beta is sufficient */
            pinet_hostscatter_run *run = NULL;
            pinet_hostscatter_simulate(&q, PINET_HOSTSCATTER_DECREMENTAL, x, &run);
            pinet_hostscatter_outcome o;
            pinet_hostscatter_run_outcome(run, &o);
            assert_false(o.formula_holds);
            pinet_hostscatter_run_free(run);
          }
        }
      }
    }
  }
  printf("test_hostscatter_assumption_fails: %d of %d decremental runs differ from (10), all with "
         "sigma < 1; e.g. d=8, M=20, overlap 0, beta 1000, tau 1, sigma 0.05, x=0: simulated %.6g, "
         "(10) %.6g\n",
         differ, total,
         decremental_actual(&(pinet_hostscatter_params){8, 20, 0, 1000.0, 1.0, 0.05}, 0),
         eq10_at(&(pinet_hostscatter_params){8, 20, 0, 1000.0, 1.0, 0.05}, 0));
  assert_true(differ > 0);
}

/* The figures' settings: decremental scattering beats the other strategies, more so with
 * overlap, as the paper reports. */
static void test_hostscatter_figures_ordering(void **state) {
  (void)state;
  const uint32_t ms[2] = {100, 500};
  const double betas[2] = {800.0, 6500.0};
  for (int f = 0; f < 2; f++) {
    for (uint32_t d = 2; d <= 10; d++) {
      double t[4], dec_ov[3];
      for (int s = 0; s < 4; s++) {
        pinet_hostscatter_params q = {d, ms[f], 0, betas[f], 8.0, 1.5};
        pinet_hostscatter_run *run = NULL;
        assert_int_equal(pinet_hostscatter_simulate(&q, (pinet_hostscatter_strategy)s, PINET_HOSTSCATTER_BEST_X, &run),
                         PINET_OK);
        pinet_hostscatter_outcome o;
        pinet_hostscatter_run_outcome(run, &o);
        pinet_hostscatter_run_free(run);
        t[s] = o.time;
      }
      const uint32_t ovs[3] = {0, ms[f] / 2, ms[f] - 1};
      for (int j = 0; j < 3; j++) {
        pinet_hostscatter_params q = {d, ms[f], ovs[j], betas[f], 8.0, 1.5};
        pinet_hostscatter_run *run = NULL;
        assert_int_equal(pinet_hostscatter_simulate(&q, PINET_HOSTSCATTER_DECREMENTAL, PINET_HOSTSCATTER_BEST_X, &run),
                         PINET_OK);
        pinet_hostscatter_outcome o;
        pinet_hostscatter_run_outcome(run, &o);
        pinet_hostscatter_run_free(run);
        dec_ov[j] = o.time;
      }
      assert_true(t[2] <= t[1] + 1e-9 && t[2] <= t[0] + 1e-9); /* T3 <= T2, T1 */
      assert_true(t[3] <= t[2] + 1e-9);                         /* T4 <= T3 */
      assert_true(dec_ov[1] < dec_ov[0] && dec_ov[2] < dec_ov[1]);
    }
  }
}

/* Bad parameters get the documented errors. */
static void test_hostscatter_bad_input(void **state) {
  (void)state;
  pinet_hostscatter_run *run = (pinet_hostscatter_run *)1;
  pinet_hostscatter_params ok = {4, 10, 2, 800, 8, 1.5};
  pinet_hostscatter_params q = ok;
  q.dim = 0;
  assert_int_equal(pinet_hostscatter_simulate(&q, PINET_HOSTSCATTER_SCATTER, -1, &run), PINET_ERR_RANGE);
  assert_null(run);
  q.dim = 21;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q = ok;
  q.overlap = 10;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q.overlap = 0;
  q.points = 0;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q = ok;
  q.beta = -1;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q = ok;
  q.tau = NAN;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q = ok;
  q.sigma = -0.5;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_RANGE);
  q = ok;
  q.dim = 20;
  q.points = 100;
  assert_int_equal(pinet_hostscatter_check(&q), PINET_ERR_SIZE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, PINET_HOSTSCATTER_DECREMENTAL, 4, &run), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, PINET_HOSTSCATTER_SEQSCATTER, 5, &run), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, PINET_HOSTSCATTER_SEQSCATTER, -2, &run), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, PINET_HOSTSCATTER_SCATTER, 1, &run), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, (pinet_hostscatter_strategy)9, -1, &run), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(NULL, PINET_HOSTSCATTER_SCATTER, -1, &run), PINET_ERR_NULL);
  double t;
  assert_int_equal(pinet_hostscatter_formula(&ok, PINET_HOSTSCATTER_DECREMENTAL, 7, &t, NULL), PINET_ERR_RANGE);
  assert_int_equal(pinet_hostscatter_simulate(&ok, PINET_HOSTSCATTER_SCATTER, -1, &run), PINET_OK);
  const uint32_t *pts;
  size_t cnt;
  double arr;
  assert_int_equal(pinet_hostscatter_run_node(run, 16, &pts, &cnt, &arr), PINET_ERR_RANGE);
  pinet_hostscatter_run_free(run);
  pinet_hostscatter_run_free(NULL);
  assert_string_equal(pinet_hostscatter_strategy_name(PINET_HOSTSCATTER_SEQSCATTER), "seqscatter");
  assert_null(pinet_hostscatter_strategy_name((pinet_hostscatter_strategy)4));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_hostscatter_matches_equations),
      cmocka_unit_test(test_hostscatter_best_x_exhaustive),
      cmocka_unit_test(test_hostscatter_assumption_fails),
      cmocka_unit_test(test_hostscatter_figures_ordering),
      cmocka_unit_test(test_hostscatter_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
