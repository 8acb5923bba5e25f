/* bench_otis.c - simulated processor-moves per second of the OTIS-Mesh step engine and of a
 * few operations at N = 256 (65536 processors). Goal (issue 4): at least 1e8 for the engine.
 *
 *   bench_otis [seconds-per-measurement]     (default 1.0)
 *
 * A processor-move is one word carried over one link; a step of the full machine is 65536. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pinet/otis.h"
#include "pinet/rng.h"

static double now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC); /* C11; wall clock is fine for a benchmark */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what, pinet_status st) {
  fprintf(stderr, "bench_otis: %s: %s\n", what, pinet_status_str(st));
  exit(1);
}

static double cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Uniform steps, back and forth: every processor over its OTIS link (otis = 1), or every
 * processor but the last column right and back left (otis = 0). */
static void bench_uniform(uint32_t N, double budget, int otis) {
  pinet_otis *m = NULL;
  pinet_status st = pinet_otis_create(N, PINET_OTIS_SIMD, &m);
  if (st != PINET_OK) die("create", st);
  const uint32_t w[2] = {1, 1};
  if ((st = pinet_otis_configure(m, 2, w)) != PINET_OK) die("configure", st);
  uint32_t n = 1;
  while (n * n < N) n++;
  for (uint32_t p = 0; p < N * N; p++) {
    int64_t v = p;
    if (otis || p % n != n - 1) pinet_otis_reg_set(m, 0, p, &v);
  }
  double t0 = now(), t = t0, c0 = cpu();
  uint64_t steps = 0;
  while (t - t0 < budget) {
    for (int k = 0; k < 64; k++) {
      uint32_t a = (uint32_t)(steps & 1u);
      pinet_otis_dir d = otis ? PINET_OTIS_LINK : a ? PINET_OTIS_LEFT : PINET_OTIS_RIGHT;
      if ((st = pinet_otis_step_uniform(m, d, a, 1 - a, NULL, 0)) != PINET_OK) {
        die("uniform step", st);
      }
      steps++;
    }
    t = now();
  }
  double c1 = cpu();
  pinet_otis_counts c;
  pinet_otis_get_counts(m, &c);
  printf("engine, uniform %s steps, N=%u: %" PRIu64 " steps, %.3g processor-moves/s wall, "
         "%.3g per CPU second\n",
         otis ? "OTIS" : "electronic", N, steps, (double)c.words / (t - t0),
         (double)c.words / (c1 - c0));
  pinet_otis_free(m);
}

/* General steps (move lists): MIMD, even columns send right and odd columns send left. */
static void bench_general(uint32_t N, double budget) {
  pinet_otis *m = NULL;
  pinet_status st = pinet_otis_create(N, PINET_OTIS_MIMD, &m);
  if (st != PINET_OK) die("create", st);
  const uint32_t w[2] = {1, 1};
  if ((st = pinet_otis_configure(m, 2, w)) != PINET_OK) die("configure", st);
  const uint32_t P = N * N;
  uint32_t n = 1;
  while (n * n < N) n++;
  pinet_otis_move *mv = malloc(P * sizeof *mv);
  if (mv == NULL) die("malloc", PINET_ERR_NOMEM);
  for (uint32_t p = 0; p < P; p++) {
    int64_t v = p;
    pinet_otis_reg_set(m, 0, p, &v);
  }
  double t0 = now(), t = t0, c0 = cpu();
  uint64_t steps = 0;
  while (t - t0 < budget) {
    for (int k = 0; k < 16; k++) {
      uint8_t a = (uint8_t)(steps & 1u);
      for (uint32_t p = 0; p < P; p++) {
        mv[p].proc = p;
        mv[p].dir = (p % n) % 2 == 0 ? PINET_OTIS_RIGHT : PINET_OTIS_LEFT;
        mv[p].src = a;
        mv[p].dst = (uint8_t)(1 - a);
        mv[p].keep = 0;
      }
      if ((st = pinet_otis_step(m, mv, P)) != PINET_OK) die("step", st);
      steps++;
    }
    t = now();
  }
  double c1 = cpu();
  pinet_otis_counts c;
  pinet_otis_get_counts(m, &c);
  printf("engine, MIMD move-list steps, N=%u: %" PRIu64 " steps, %.3g processor-moves/s wall, "
         "%.3g per CPU second\n",
         N, steps, (double)c.words / (t - t0), (double)c.words / (c1 - c0));
  free(mv);
  pinet_otis_free(m);
}

/* Whole operations: processor-moves and steps per second. */
static void bench_ops(uint32_t N) {
  const uint32_t P = N * N;
  pinet_otis *m = NULL;
  pinet_status st = pinet_otis_create(N, PINET_OTIS_SIMD, &m);
  if (st != PINET_OK) die("create", st);
  int64_t *in = malloc(P * sizeof *in), *out = malloc(P * sizeof *out);
  int64_t *rank = malloc(P * sizeof *rank);
  uint8_t *has = malloc(P);
  if (!in || !out || !rank || !has) die("malloc", PINET_ERR_NOMEM);
  pinet_rng rng;
  pinet_rng_seed(&rng, 1);
  int64_t r = 0;
  for (uint32_t p = 0; p < P; p++) {
    in[p] = (int64_t)pinet_rng_next(&rng);
    rank[p] = pinet_rng_below(&rng, 2) ? r++ : -1;
  }
  const char *names[4] = {"prefix_sum", "concentrate", "shift (g)", "sort"};
  for (int k = 0; k < 4; k++) {
    double t0 = now();
    switch (k) {
      case 0: st = pinet_otis_prefix_sum(m, in, 1, out); break;
      case 1: st = pinet_otis_concentrate(m, in, rank, out, has); break;
      case 2: st = pinet_otis_shift(m, in, PINET_OTIS_SHIFT_G, 5, out); break;
      default: st = pinet_otis_sort(m, in, out, NULL); break;
    }
    double dt = now() - t0;
    if (st != PINET_OK) die(names[k], st);
    pinet_otis_counts c;
    pinet_otis_get_counts(m, &c);
    printf("op %-12s N=%u: %" PRIu64 " electronic + %" PRIu64 " OTIS steps in %.3f s, "
           "%.3g processor-moves/s\n",
           names[k], N, c.electronic, c.otis, dt, (double)c.words / dt);
  }
  free(in);
  free(out);
  free(rank);
  free(has);
  pinet_otis_free(m);
}

int main(int argc, char **argv) {
  double budget = argc > 1 ? atof(argv[1]) : 1.0;
  if (!(budget > 0)) budget = 1.0;
  bench_uniform(256, budget, 0);
  bench_uniform(256, budget, 1);
  bench_general(256, budget);
  bench_ops(256);
  return 0;
}
