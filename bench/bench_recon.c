/* bench_recon.c - timing driver for bench/recon_bench.sh (prints figures; never a test).
 *
 *   bench_recon fbp SINO V D N OUT REPS [ISA [T]]
 *                                         FBP of a raw float32 sinogram (V views x D bins) to an
 *                                         N x N raw float32 image; best of REPS runs, the whole
 *                                         run and its filtering and backprojection alone
 *   bench_recon em  N V DIR REPS [ISA [T]] builds the N x N, V-view parallel-beam matrix, writes
 *                                         DIR/{ptr.i64,idx.i32,val.f32,counts.f64,lam0.f64,
 *                                         sens.f64,lam1.f64} and times one EM iteration (the
 *                                         default sweep, and the plain fused one with the
 *                                         symmetries off), each after PINET_BENCH_EM_WARM
 *                                         untimed ones (environment; default 0)
 * ISA: sse2 | avx2 | avx512 | auto (default auto: PINET_ISA or the widest the CPU has); T: threads
 * (default 1). Each prints one line of key=value figures on stdout. Times are the thread's CPU
 * time (best of REPS; `*_wall_s`: wall-clock time, what T > 1 is judged on). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pinet/recon.h"
#include "pinet/recon_io.h"

/* CPU time of this thread: on a shared machine it does not count the time others run. */
static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
/* Wall-clock time (the measure of a run on several threads). */
static double wall_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ISA and thread arguments (argv[first], argv[first + 1], optional). 0 ok, else an exit code. */
static int parse_isa_threads(int argc, char **argv, int first, int *isa, uint32_t *threads) {
  *isa = -1;
  *threads = 1;
  if (argc > first && strcmp(argv[first], "auto") != 0) {
    pinet_isa x;
    if (pinet_isa_parse(argv[first], &x) != PINET_OK || !pinet_isa_supported(x)) {
      fprintf(stderr, "bench_recon: ISA '%s' unknown or not supported here\n", argv[first]);
      return 2;
    }
    *isa = (int)x;
  }
  if (argc > first + 1) {
    int t = atoi(argv[first + 1]);
    if (t < 1 || t > (int)PINET_RECON_MAX_THREADS) {
      fprintf(stderr, "bench_recon: threads '%s' out of range\n", argv[first + 1]);
      return 2;
    }
    *threads = (uint32_t)t;
  }
  return 0;
}

static int write_bin(const char *dir, const char *name, const void *data, size_t bytes) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  if (f == NULL) return 1;
  int ok = fwrite(data, 1, bytes, f) == bytes;
  ok &= fclose(f) == 0;
  return ok ? 0 : 1;
}

static int bench_fbp(int argc, char **argv) {
  uint32_t v = (uint32_t)atoi(argv[3]), d = (uint32_t)atoi(argv[4]), n = (uint32_t)atoi(argv[5]);
  int reps = atoi(argv[7]), isa;
  uint32_t threads;
  int rc = parse_isa_threads(argc, argv, 8, &isa, &threads);
  if (rc != 0) return rc;
  pinet_pb_geom g;
  if (pinet_pb_geom_init(&g, n, v, d) != PINET_OK || reps < 1) {
    fprintf(stderr, "bench_recon: bad geometry\n");
    return 2;
  }
  float *sino = malloc((size_t)v * d * sizeof *sino), *img = malloc((size_t)n * n * sizeof *img);
  if (sino == NULL || img == NULL || pinet_raw_read_f32(argv[2], sino, (size_t)v * d, NULL) != PINET_OK) {
    fprintf(stderr, "bench_recon: cannot read %s\n", argv[2]);
    return 4;
  }
  double t0 = now_s();
  pinet_fbp *p = NULL;
  if (pinet_fbp_create(&g, PINET_FILTER_RAMP, &p) != PINET_OK) return 5;
  double t_create = now_s() - t0, best = 1e30, best_wall = 1e30, best_filter = 1e30, best_bp = 1e30;
  if (isa >= 0 && pinet_fbp_set_isa(p, (pinet_isa)isa) != PINET_OK) return 5;
  if (pinet_fbp_set_threads(p, threads) != PINET_OK) return 5;
  float *filt = malloc((size_t)v * pinet_fbp_filtered_stride(p) * sizeof *filt);
  double *acc = malloc((size_t)n * n * sizeof *acc);
  if (filt == NULL || acc == NULL) return 5;
  for (int r = 0; r < reps; r++) {
    double w = wall_s(), t = now_s();
    if (pinet_fbp_run(p, sino, img) != PINET_OK) return 5;
    t = now_s() - t;
    w = wall_s() - w;
    best = t < best ? t : best;
    best_wall = w < best_wall ? w : best_wall;
    t = now_s();
    if (pinet_fbp_filter_views(p, NULL, sino, v, filt) != PINET_OK) return 5;
    t = now_s() - t;
    best_filter = t < best_filter ? t : best_filter;
    memset(acc, 0, (size_t)n * n * sizeof *acc);
    t = now_s();
    if (pinet_fbp_backproject(p, filt, 0, v, acc) != PINET_OK) return 5;
    t = now_s() - t;
    best_bp = t < best_bp ? t : best_bp;
  }
  if (pinet_raw_write_f32(argv[6], img, (size_t)n * n) != PINET_OK) return 4;
  /* pixel-view interpolations: the disk's pixels times the views */
  const double rad = (double)(n / 2u);
  uint64_t disk = 0;
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t c = 0; c < n; c++) {
      const double dr = r - g.img_center, dc = c - g.img_center;
      disk += dr * dr + dc * dc <= rad * rad;
    }
  const double interps = (double)disk * v;
  printf("pinet_fbp_s=%.6f pinet_fbp_wall_s=%.6f pinet_fbp_create_s=%.6f filter_s=%.6f bp_s=%.6f "
         "interps=%.0f ginterp_s=%.3f bp_ginterp_s=%.3f isa=%s threads=%u\n",
         best, best_wall, t_create, best_filter, best_bp, interps, interps / best * 1e-9,
         interps / best_bp * 1e-9, pinet_isa_name(pinet_fbp_isa(p)), pinet_fbp_threads(p));
  pinet_fbp_free(p);
  free(sino);
  free(img);
  free(filt);
  free(acc);
  return 0;
}

static int bench_em(int argc, char **argv) {
  uint32_t n = (uint32_t)atoi(argv[2]), v = (uint32_t)atoi(argv[3]);
  const char *dir = argv[4];
  int reps = atoi(argv[5]), isa;
  uint32_t threads;
  int rc = parse_isa_threads(argc, argv, 6, &isa, &threads);
  if (rc != 0) return rc;
  pinet_pb_geom g;
  if (pinet_pb_geom_init(&g, n, v, n) != PINET_OK || reps < 1) return 2;
  double t0 = now_s();
  pinet_sysmat *m = NULL;
  if (pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m) != PINET_OK) return 5;
  double t_build = now_s() - t0;
  pinet_csr bt = pinet_sysmat_by_tube(m);
  const uint32_t T = bt.rows, B = bt.cols;
  const uint32_t *tl = pinet_sysmat_tube_line(m);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  double *counts = malloc(T * sizeof *counts);
  for (uint32_t t = 0; t < T; t++) { /* exact line integrals x 100 counts per unit, rounded */
    double th = 3.14159265358979323846 * (double)(tl[t] / n) / v, s = (double)(tl[t] % n) - g.bin_center;
    counts[t] = nearbyint(100.0 * pinet_phantom_line_integral(e, ne, n, th, s));
  }
  /* the first iterations after a pass over other data run from cold caches (and take a few
   * more to settle here), which a reconstruction of tens of iterations does not */
  const char *warm_env = getenv("PINET_BENCH_EM_WARM");
  const int warm = warm_env != NULL ? atoi(warm_env) : 0;
  pinet_em *em = NULL;
  double t_create = now_s();
  if (pinet_em_create(m, counts, NULL, &em) != PINET_OK) return 5;
  t_create = now_s() - t_create;
  if (isa >= 0 && pinet_em_set_isa(em, (pinet_isa)isa) != PINET_OK) return 5;
  if (pinet_em_set_threads(em, threads) != PINET_OK) return 5;
  double *lam0 = malloc(B * sizeof *lam0);
  memcpy(lam0, pinet_em_image(em), B * sizeof *lam0);
  int64_t *ptr = malloc(((size_t)T + 1) * sizeof *ptr);
  for (uint32_t t = 0; t <= T; t++) ptr[t] = (int64_t)bt.ptr[t];
  int bad = write_bin(dir, "ptr.i64", ptr, ((size_t)T + 1) * sizeof *ptr);
  bad |= write_bin(dir, "idx.i32", bt.idx, bt.nnz * sizeof *bt.idx);
  bad |= write_bin(dir, "val.f32", bt.val, bt.nnz * sizeof *bt.val);
  bad |= write_bin(dir, "counts.f64", counts, T * sizeof *counts);
  bad |= write_bin(dir, "lam0.f64", lam0, B * sizeof *lam0);
  bad |= write_bin(dir, "sens.f64", pinet_em_sens(em), B * sizeof(double));
  /* the plain fused sweep first (symmetries off), then the default (result kept) */
  const uint32_t sym_tubes = pinet_em_symmetric_tubes(em);
  double best_plain = 1e30, best = 1e30, wall_plain = 1e30, wall = 1e30;
  for (int pass = 0; pass < 2; pass++) {
    if (pinet_em_set_symmetry(em, pass) != PINET_OK) return 5;
    double *bp = pass ? &best : &best_plain, *bw = pass ? &wall : &wall_plain;
    for (int r = 0; r < warm; r++) {
      if (pinet_em_set_image(em, lam0) != PINET_OK || pinet_em_iterate(em, NULL) != PINET_OK) return 5;
    }
    for (int r = 0; r < reps; r++) {
      if (pinet_em_set_image(em, lam0) != PINET_OK) return 5;
      double w = wall_s(), t = now_s();
      if (pinet_em_iterate(em, NULL) != PINET_OK) return 5;
      t = now_s() - t;
      w = wall_s() - w;
      if (t < *bp) *bp = t;
      if (w < *bw) *bw = w;
    }
  }
  bad |= write_bin(dir, "lam1.f64", pinet_em_image(em), B * sizeof(double));
  if (bad) {
    fprintf(stderr, "bench_recon: cannot write into %s\n", dir);
    return 4;
  }
  printf("pinet_em_iter_s=%.6f pinet_em_plain_iter_s=%.6f pinet_em_iter_wall_s=%.6f "
         "pinet_em_plain_iter_wall_s=%.6f sym_tubes=%u em_create_s=%.3f tubes=%u boxes=%u nnz=%llu "
         "matrix_build_s=%.3f isa=%s threads=%u\n",
         best, best_plain, wall, wall_plain, sym_tubes, t_create, T, B, (unsigned long long)bt.nnz,
         t_build, pinet_isa_name(pinet_em_isa(em)), pinet_em_threads(em));
  pinet_em_free(em);
  pinet_sysmat_free(m);
  free(counts);
  free(lam0);
  free(ptr);
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 8 && argc <= 10 && strcmp(argv[1], "fbp") == 0) return bench_fbp(argc, argv);
  if (argc >= 6 && argc <= 8 && strcmp(argv[1], "em") == 0) return bench_em(argc, argv);
  fprintf(stderr, "usage: bench_recon fbp SINO V D N OUT REPS [ISA [T]] | "
                  "bench_recon em N V DIR REPS [ISA [T]]\n");
  return 2;
}
