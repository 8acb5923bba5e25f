/* cli_recon.c - `pinet recon fbp|em|sinogram|model`: the PET reconstruction kernels.
 * The contract (options, file formats, JSON fields, exit codes) is documented in docs/recon.md. */
#define _POSIX_C_SOURCE 200809L

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "pinet/image.h"
#include "pinet/recon.h"
#include "pinet/recon_io.h"
#include "pinet/rng.h"

int pinet_cli_recon(int argc, char **argv);

const char pinet_cli_recon_summary[] =
    "PET reconstruction: FBP and Shepp-Vardi EM, sequential and on N shuffle PEs; paper model";

static const char *const k_filters[] = {"ramp", "shepp-logan", "cosine", "hamming", "hann", NULL};
static const char *const k_phantoms[] = {"shepp-logan", "disk", NULL};
static const char *const k_geoms[] = {"parallel", "ring", NULL};
static const char *const k_parts[] = {"box", "modified", NULL};
/* --schedule: the index is the pinet_shuffle_kind (as `pinet shuffle run --schedule`) */
static const char *const k_schedules[] = {"paper", "fast", NULL};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void print_area_help(FILE *out) {
  fprintf(out,
          "usage: pinet recon <command> [options]\n\n"
          "commands:\n"
          "  fbp       filtered backprojection of a sinogram file or a phantom (--pes: on N PEs)\n"
          "  em        Shepp-Vardi EM / OSEM of a phantom or a sinogram of counts (--pes: on N PEs)\n"
          "  sinogram  write the exact sinogram (and the raster) of a phantom\n"
          "  model     the efficiency models (4), (6) fitted to the paper's Tables 2-7\n\n"
          "pinet recon <command> --help for the options of each; docs/recon.md for the formats.\n");
}

static int ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  if (a < b) return 0;
  for (size_t i = 0; i < b; i++) {
    char c = s[a - b + i];
    if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
    if (c != suf[i]) return 0;
  }
  return 1;
}

/* Write an image: .png/.pgm (autoscaled 8-bit), .hv (Interfile), anything else raw float32. */
static int write_image(const char *ctx, const char *path, const float *img, uint32_t n,
                       double center) {
  pinet_status st = pinet_recon_image_write(path, img, n, center);
  if (st != PINET_OK) return pinet_cli_fail(ctx, st, "cannot write '%s'", PINET_CLI_Q(path));
  return PINET_EXIT_OK;
}

static int parse_u32_opt(const char *ctx, pinet_cli_opt *o, size_t n, const char *name,
                         uint32_t *out, uint32_t lo, uint32_t hi) {
  pinet_cli_opt *op = pinet_cli_find(o, n, name);
  if (op == NULL || !op->present) return PINET_EXIT_OK;
  int rc = pinet_cli_parse_u32(ctx, name, op->value, out);
  if (rc != PINET_EXIT_OK) return rc;
  if (*out < lo || *out > hi) {
    fprintf(stderr, "pinet: %s: --%s must be in %u..%u (got %u)\n", ctx, name, lo, hi, *out);
    return PINET_EXIT_INPUT;
  }
  return PINET_EXIT_OK;
}

/* A required option in lo..hi. */
static int require_u32(const char *ctx, pinet_cli_opt *o, size_t n, const char *name,
                       uint32_t *out, uint32_t lo, uint32_t hi) {
  const char *text;
  int rc = pinet_cli_require(ctx, o, n, name, &text);
  return rc != PINET_EXIT_OK ? rc : parse_u32_opt(ctx, o, n, name, out, lo, hi);
}

/* --pes P: a power of two in 1..64 (0 when absent: sequential). */
static int parse_pes(const char *ctx, pinet_cli_opt *o, size_t n, uint32_t *pes) {
  int rc = parse_u32_opt(ctx, o, n, "pes", pes, 1, 64);
  if (rc != PINET_EXIT_OK) return rc;
  if (*pes != 0 && (*pes & (*pes - 1)) != 0) {
    fprintf(stderr, "pinet: %s: --pes must be a power of two in 1..64 (got %u)\n", ctx, *pes);
    return PINET_EXIT_INPUT;
  }
  return PINET_EXIT_OK;
}

/* --noise S: counts per unit, S > 0. */
static int parse_noise(const char *ctx, const char *text, double *noise) {
  int rc = pinet_cli_parse_double(ctx, "noise", text, noise);
  if (rc != PINET_EXIT_OK) return rc;
  if (!(*noise > 0) || !isfinite(*noise)) {
    fprintf(stderr, "pinet: %s: --noise must be > 0\n", ctx);
    return PINET_EXIT_INPUT;
  }
  return PINET_EXIT_OK;
}

/* PINET_ISA (the kernels' instruction set, pinet_isa_from_env): an unknown value is refused, so a
 * test that forces one never runs another by a typo. */
static int check_isa_env(const char *ctx, pinet_isa *isa) {
  if (pinet_isa_from_env(isa) == PINET_OK) return PINET_EXIT_OK;
  fprintf(stderr, "pinet: %s: %s must be sse2, avx2, avx512 or auto (got '%s')\n", ctx,
          PINET_ISA_ENV, PINET_CLI_Q(getenv(PINET_ISA_ENV)));
  return PINET_EXIT_INPUT;
}

/* --threads T (1 .. PINET_RECON_MAX_THREADS, default 1): the sequential kernels' threads. The
 * parallel runs (--pes) simulate PEs instead and take none. */
static int parse_threads(const char *ctx, pinet_cli_opt *o, size_t n, uint32_t pes,
                         uint32_t *threads) {
  *threads = 1;
  pinet_cli_opt *op = pinet_cli_find(o, n, "threads");
  if (op == NULL || !op->present) return PINET_EXIT_OK;
  if (pes != 0) return pinet_cli_usage_error(ctx, "--threads goes with the sequential run (no --pes)");
  return parse_u32_opt(ctx, o, n, "threads", threads, 1, PINET_RECON_MAX_THREADS);
}

static void json_isa_threads(pinet_json *js, pinet_isa isa, uint32_t threads) {
  pinet_json_key(js, "isa");
  pinet_json_string(js, pinet_isa_name(isa));
  pinet_json_key(js, "threads");
  pinet_json_u64(js, threads);
}

/* The options `recon fbp` and `recon em` share, the last rows of both commands' tables (the
 * sinogram, phantom and views rows differ in their help and stay with the command). */
enum { R_SIZE, R_BINS, R_PES, R_FIXED, R_GEOM, R_DETS, R_NOISE, R_SEED, R_OUT, R_JSON, R_THREADS,
       R_SCHEDULE, R_COUNT };
static const pinet_cli_opt k_recon_shared_opts[R_COUNT] = {
    [R_SIZE] = {"size", 1, "N", "image N x N", NULL, 0},
    [R_BINS] = {"bins", 1, "D", "detector bins per view (default: --size)", NULL, 0},
    [R_PES] = {"pes", 1, "P", "run on P simulated PEs (1..64, power of two)", NULL, 0},
    [R_FIXED] = {"fixed", 0, NULL, "fixed-point path (with --pes: bit-exact)", NULL, 0},
    [R_GEOM] = {"geometry", 1, "G", "parallel|ring (default parallel; ring: the PET ring, with --phantom)", NULL, 0},
    [R_DETS] = {"detectors", 1, "D", "ring detectors (default 96)", NULL, 0},
    [R_NOISE] = {"noise", 1, "S", "phantom only: Poisson noise at S counts per unit", NULL, 0},
    [R_SEED] = {"seed", 1, "N", "noise seed (default 1)", NULL, 0},
    [R_OUT] = {"out", 1, "IMG", "raw float32 N x N, or .png/.pgm/.hv", NULL, 0},
    [R_JSON] = {"json", 0, NULL, "JSON on stdout", NULL, 0},
    [R_THREADS] = {"threads", 1, "T", "threads (default 1; the image does not depend on T)", NULL,
                   0},
    [R_SCHEDULE] = {"schedule", 1, "S",
                    "with --pes: paper (default) | fast (cut-through collectives: the same image; "
                    "the report gives both cycle counts)", NULL, 0}};

/* What `recon fbp` and `recon em` read alike: the input (a sinogram file or a phantom), the image
 * and projection geometry, the run (PEs or threads) and what to write. */
typedef struct recon_source {
  int from_file;      /* --sinogram (else --phantom) */
  unsigned geom;      /* index in k_geoms */
  unsigned phantom;   /* index in k_phantoms (with --phantom) */
  uint32_t size, views, bins, pes, threads, dets;
  pinet_shuffle_kind schedule; /* --schedule (with --pes) */
  double noise;       /* 0: no noise */
  uint64_t seed;
  pinet_isa isa;
} recon_source;

/* The shared options' checks, in one order for both commands; max_size bounds --size. */
static int parse_recon_source(const char *ctx, pinet_cli_opt *o, size_t n, uint32_t max_size,
                              recon_source *s) {
  const pinet_cli_opt *sino = pinet_cli_find(o, n, "sinogram"), *ph = pinet_cli_find(o, n, "phantom");
  const pinet_cli_opt *noise = pinet_cli_find(o, n, "noise");
  memset(s, 0, sizeof *s);
  s->dets = 96;
  s->seed = 1;
  if (sino->present == ph->present) return pinet_cli_usage_error(ctx, "give exactly one of --sinogram and --phantom");
  s->from_file = sino->present;
  int rc;
  if ((rc = require_u32(ctx, o, n, "size", &s->size, 1, max_size)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_optional_choice(ctx, o, n, "geometry", k_geoms, &s->geom)) != PINET_EXIT_OK) return rc;
  if (s->geom == 1 && s->from_file) {
    return pinet_cli_usage_error(ctx, "--sinogram is parallel beam; --geometry ring goes with --phantom");
  }
  if (s->geom == 0 &&
      (rc = require_u32(ctx, o, n, "views", &s->views, 1, PINET_RECON_MAX_VIEWS)) != PINET_EXIT_OK) {
    return rc;
  }
  if (s->from_file && !pinet_cli_find(o, n, "bins")->present) return pinet_cli_usage_error(ctx, "--sinogram needs --bins");
  s->bins = s->size;
  if ((rc = parse_u32_opt(ctx, o, n, "bins", &s->bins, 1, PINET_RECON_MAX_BINS)) != PINET_EXIT_OK) return rc;
  if ((rc = parse_pes(ctx, o, n, &s->pes)) != PINET_EXIT_OK) return rc;
  if ((rc = parse_threads(ctx, o, n, s->pes, &s->threads)) != PINET_EXIT_OK) return rc;
  unsigned kind = 0;
  rc = pinet_cli_optional_choice(ctx, o, n, "schedule", k_schedules, &kind);
  if (rc != PINET_EXIT_OK) return rc;
  if (pinet_cli_find(o, n, "schedule")->present && s->pes == 0) {
    return pinet_cli_usage_error(ctx, "--schedule picks the parallel run's collectives: it goes "
                                 "with --pes");
  }
  s->schedule = (pinet_shuffle_kind)kind;
  if ((rc = check_isa_env(ctx, &s->isa)) != PINET_EXIT_OK) return rc;
  if ((rc = parse_u32_opt(ctx, o, n, "detectors", &s->dets, 4, PINET_RECON_MAX_DETECTORS)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_optional_choice(ctx, o, n, "phantom", k_phantoms, &s->phantom)) != PINET_EXIT_OK) return rc;
  if (noise->present) {
    if (s->from_file) return pinet_cli_usage_error(ctx, "--noise goes with --phantom");
    if ((rc = parse_noise(ctx, noise->value, &s->noise)) != PINET_EXIT_OK) return rc;
  }
  if ((rc = pinet_cli_optional_u64(ctx, o, n, "seed", &s->seed)) != PINET_EXIT_OK) return rc;
  if (!pinet_cli_find(o, n, "out")->present && !pinet_cli_find(o, n, "json")->present) {
    return pinet_cli_usage_error(ctx, "nothing to do: give --out and/or --json");
  }
  return PINET_EXIT_OK;
}

/* RMSE inside the reconstruction disk. */
static void json_comm(pinet_json *js, const pinet_recon_comm *c, const uint64_t *work) {
  pinet_json_key(js, "pes");
  pinet_json_u64(js, c->pes);
  pinet_json_key(js, "comm");
  pinet_json_begin_object(js);
  pinet_json_key(js, "schedules");
  pinet_json_u64(js, c->schedules);
  pinet_json_key(js, "steps");
  pinet_json_u64(js, c->steps);
  pinet_json_key(js, "words_moved");
  pinet_json_u64(js, c->words_moved);
  pinet_json_key(js, "words_summed");
  pinet_json_u64(js, c->words_summed);
  pinet_json_key(js, "link_time");
  pinet_json_u64(js, c->link_time);
  pinet_json_key(js, "per_pe_work");
  pinet_json_begin_array(js);
  for (uint32_t i = 0; i < c->pes; i++) pinet_json_u64(js, work[i]);
  pinet_json_end_array(js);
  pinet_json_key(js, "load_balance");
  pinet_json_double(js, c->load_balance);
  pinet_json_key(js, "model_efficiency");
  pinet_json_double(js, c->model_efficiency);
  pinet_json_key(js, "schedule_kind");
  pinet_json_string(js, k_schedules[c->schedule]);
  pinet_json_key(js, "cycles");
  pinet_json_u64(js, c->cycles);
  pinet_json_key(js, "cycles_paper");
  pinet_json_u64(js, c->cycles_paper);
  pinet_json_key(js, "cycles_fast");
  pinet_json_u64(js, c->cycles_fast);
  pinet_json_end_object(js);
}

static void text_comm(const pinet_recon_comm *c, const uint64_t *work) {
  printf("pes %u: %u collectives, %u steps, %" PRIu64 " words moved, %" PRIu64
         " words summed, load balance %.4f, modelled efficiency %.4f\nper-PE work:",
         c->pes, c->schedules, c->steps, c->words_moved, c->words_summed, c->load_balance,
         c->model_efficiency);
  for (uint32_t i = 0; i < c->pes; i++) printf(" %" PRIu64, work[i]);
  printf("\n");
  printf("communication cycles: paper schedules %" PRIu64 ", fast schedules %" PRIu64
         " (this run: %s)\n", c->cycles_paper, c->cycles_fast, k_schedules[c->schedule]);
}

/* The library's error for a refused --schedule fast (pinet_*_parallel_opts): a distributed run
 * executes a step as a whole, which a cut-through schedule does not allow. */
static int fail_fast_dist(const char *ctx, pinet_status st) {
  return pinet_cli_fail(ctx, st, "--schedule fast: the fast schedules are cut-through, which a "
                        "distributed run cannot execute (its ranks move a step as a whole); use "
                        "--schedule paper, or pinet recon --pes");
}

/* ---- fbp ------------------------------------------------------------------------------------ */

/* A sinogram whose filtered views or image leave the float32 range (the only range error a
 * finite sinogram can raise: the fixed path's scale follows the data). Names the largest value. */
static int fail_sinogram_range(const char *ctx, pinet_status st, const float *sino, size_t n) {
  double mx = 0.0;
  for (size_t i = 0; i < n; i++) mx = fmax(mx, fabs((double)sino[i]));
  return pinet_cli_fail(ctx, st,
                        "the largest sinogram |value| %.3g is too large: filtering and backprojecting "
                        "it leave the float32 range (%.3g)", mx, (double)FLT_MAX);
}

/* A sinogram file read with PINET_ERR_RANGE (pinet_raw_read_f32 then holds every value): name
 * the first value that is not finite, by its view and bin; `rule` says what the values must be. */
static int fail_not_finite(const char *ctx, const char *path, const float *v, size_t n,
                           uint32_t bins, const char *rule) {
  size_t i = 0;
  while (i < n && isfinite(v[i])) i++;
  if (i == n) return pinet_cli_fail(ctx, PINET_ERR_RANGE, "'%s' holds a NaN or infinite value",
                                    PINET_CLI_Q(path));
  return pinet_cli_fail(ctx, PINET_ERR_RANGE, "'%s' holds %s at view %zu bin %zu: %s",
                        PINET_CLI_Q(path),
                        isnan(v[i]) ? "NaN" : v[i] > 0 ? "+Inf" : "-Inf", i / bins, i % bins, rule);
}

enum { F_SINO, F_PHANTOM, F_VIEWS, F_FILTER, F_CENTER, F_SHARED,
       F_FIXED = F_SHARED + R_FIXED, F_OUT = F_SHARED + R_OUT, F_JSON = F_SHARED + R_JSON,
       F_COUNT = F_SHARED + R_COUNT };

/* What `recon fbp` allocates, in bytes (measured peaks 0.9-1.1x of it, test_cli_memory.sh): the
 * sinogram twice (input, phantom), the filtered views (D + N + pad per view), the image, the
 * phantom and the double accumulator; with P > 1 PEs the scattered views (PEs and host) and two
 * replicated double images per PE and host (the memories and the simulator's copy). */
static double fbp_memory_estimate(uint32_t views, uint32_t bins, uint32_t size, uint32_t pes) {
  const double v = views, d = bins, n = size, p = pes > 1 ? pes : 0;
  double bytes = 8.0 * v * d + 4.0 * v * (d + n + 8.0) + 16.0 * n * n;
  if (p > 0) bytes += 8.0 * v * d + 16.0 * n * n * (p + 1.0) + 4.0 * (v / p + 1.0) * (d + n + 8.0);
  return bytes;
}

/* What `recon em` allocates, in bytes: dominated by the system matrix, whose rays cross at most
 * 2N pixels; 16 bytes per element (row and column storage) for parallel beam, 6 for the ring
 * (its eight-fold symmetry stores one orbit per element group). An estimate from above for
 * parallel beam (about 1.3x measured), close for the ring; tests/cli/test_cli_memory.sh. */
static double em_memory_estimate(double lines, uint32_t size, int ring, uint32_t pes) {
  const double n = size;
  double bytes = lines * 2.0 * n * (ring ? 6.0 : 16.0) + 16.0 * n * n + 16.0 * lines;
  if (pes > 1) bytes += 8.0 * n * n * (pes + 1.0);
  return bytes;
}

static int cmd_fbp(int argc, char **argv, const pinet_recon_dist *dist) {
  const char *ctx = "recon fbp";
  pinet_cli_opt o[F_COUNT] = {
      [F_SINO] = {"sinogram", 1, "FILE", "raw little-endian float32, V rows of D bins (or .hv)", NULL, 0},
      [F_PHANTOM] = {"phantom", 1, "NAME", "shepp-logan|disk: exact sinogram, report rmse", NULL, 0},
      [F_VIEWS] = {"views", 1, "V", "views at k*180/V degrees (>= 1)", NULL, 0},
      [F_FILTER] = {"filter", 1, "NAME", "ramp|shepp-logan|cosine|hamming|hann (default ramp)", NULL, 0},
      [F_CENTER] = {"center", 1, "C", "rotation centre bin (default floor(D/2), scikit-image)", NULL, 0}};
  memcpy(o + F_SHARED, k_recon_shared_opts, sizeof k_recon_shared_opts);
  int rc = pinet_cli_parse_or_help(ctx,
                                   "usage: pinet recon fbp (--sinogram FILE --views V --bins D | "
                                   "--phantom NAME --views V) --size N [--filter F] [--out IMG] "
                                   "[--pes P] [--json]",
                                   o, F_COUNT, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) return rc;
  recon_source src;
  if ((rc = parse_recon_source(ctx, o, F_COUNT, PINET_RECON_MAX_SIZE, &src)) != PINET_EXIT_OK) return rc;
  uint32_t size = src.size, views = src.views, bins = src.bins;
  const uint32_t pes = src.pes, threads = src.threads, dets = src.dets;
  const unsigned geom = src.geom, ph = src.phantom;
  const double noise = src.noise;
  const uint64_t seed = src.seed;
  unsigned fi = 0;
  if ((rc = pinet_cli_optional_choice(ctx, o, F_COUNT, "filter", k_filters, &fi)) != PINET_EXIT_OK) return rc;
  const pinet_fbp_filter filter = (pinet_fbp_filter)fi;
  pinet_pb_geom g;
  pinet_ring ring;
  pinet_status st;
  if (geom == 1) {
    st = pinet_ring_init(&ring, size, dets);
    if (st != PINET_OK) return pinet_cli_fail(ctx, st, "ring of %u detectors (even, >= 4)", dets);
    views = dets;
    bins = size;
  }
  st = pinet_pb_geom_init(&g, size, views, bins);
  if (st != PINET_OK) return pinet_cli_fail(ctx, st, "geometry %u x %u views x %u bins", size, views, bins);
  if (o[F_CENTER].present) {
    double cval;
    if ((rc = pinet_cli_parse_double(ctx, "center", o[F_CENTER].value, &cval)) != PINET_EXIT_OK) return rc;
    g.bin_center = cval;
    if ((st = pinet_pb_geom_check(&g)) != PINET_OK) return pinet_cli_fail(ctx, st, "--center %g", cval);
  }
  if ((rc = pinet_cli_memory_check(ctx, fbp_memory_estimate(views, bins, size, pes),
                                   "%u views x %u bins to a %u x %u image%s", views, bins, size,
                                   size, pes > 1 ? " on PEs" : "")) != PINET_EXIT_OK) {
    return rc;
  }
  const size_t nsino = (size_t)views * bins, npix = (size_t)size * size;
  float *sino = malloc(nsino * sizeof *sino), *img = malloc(npix * sizeof *img);
  float *phimg = NULL;
  int exit_code = PINET_EXIT_OK;
  pinet_fbp *p = NULL;
  if (sino == NULL || img == NULL) {
    exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "%zu floats", nsino + npix);
    goto out;
  }
  const pinet_ellipse *ell = NULL;
  size_t nell = 0;
  if (o[F_SINO].present) {
    const char *path = o[F_SINO].value;
    if ((exit_code = pinet_cli_input_path(ctx, path)) != PINET_EXIT_OK) goto out;
    if (ends_with(path, ".hv")) {
      pinet_interfile h;
      float *data = NULL;
      st = pinet_interfile_read(path, &h, &data);
      if (st == PINET_ERR_RANGE) {
        exit_code = pinet_cli_fail(ctx, st, "the data of Interfile sinogram '%s' holds a NaN or "
                                   "infinite value", PINET_CLI_Q(path));
        goto out;
      }
      if (st != PINET_OK) {
        exit_code = pinet_cli_fail(ctx, st, "cannot read Interfile sinogram '%s'",
                                   PINET_CLI_Q(path));
        goto out;
      }
      if (h.dim1 != bins || h.dim2 != views) {
        free(data);
        (void)pinet_cli_fail(ctx, PINET_ERR_MISMATCH, "'%s' is %u views x %u bins, expected %u x %u",
                             PINET_CLI_Q(path), h.dim2, h.dim1, views, bins);
        exit_code = PINET_EXIT_IO; /* a file that does not fit is a file error */
        goto out;
      }
      memcpy(sino, data, nsino * sizeof *sino);
      free(data);
    } else {
      size_t actual = 0;
      st = pinet_raw_read_f32(path, sino, nsino, &actual);
      if (st == PINET_ERR_MISMATCH) {
        (void)pinet_cli_fail(ctx, st, "'%s' holds %zu float32 values, expected %u views x %u bins = %zu",
                             PINET_CLI_Q(path), actual, views, bins, nsino);
        exit_code = PINET_EXIT_IO; /* a file that does not fit is a file error */
        goto out;
      }
      if (st == PINET_ERR_RANGE) {
        exit_code = fail_not_finite(ctx, path, sino, nsino, bins, "sinogram values must be finite");
        goto out;
      }
      if (st != PINET_OK) {
        exit_code = pinet_cli_fail(ctx, st, "cannot read '%s'", PINET_CLI_Q(path));
        goto out;
      }
    }
  } else {
    (void)pinet_phantom_by_name(k_phantoms[ph], &ell, &nell);
    phimg = malloc(npix * sizeof *phimg);
    if (phimg == NULL) {
      exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "phantom");
      goto out;
    }
    (void)pinet_phantom_rasterize(ell, nell, size, g.img_center, 4, phimg);
    if (geom == 1) {
      size_t np = pinet_ring_pairs(&ring);
      float *pv = malloc(np * sizeof *pv);
      if (pv == NULL) {
        exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "pairs");
        goto out;
      }
      for (size_t q = 0; q < np; q++) {
        uint32_t i, j;
        double th, s;
        pinet_ring_pair(&ring, q, &i, &j);
        pinet_ring_pair_coords(&ring, i, j, &th, &s);
        pv[q] = (float)pinet_phantom_line_integral(ell, nell, size, th, s);
      }
      if (noise > 0) {
        pinet_rng rng;
        pinet_rng_seed(&rng, seed);
        (void)pinet_poisson_noise(&rng, pv, np, noise, pv);
        for (size_t q = 0; q < np; q++) pv[q] = (float)(pv[q] / noise);
      }
      st = pinet_ring_rebin(&ring, pv, &g, sino);
      free(pv);
    } else {
      st = pinet_phantom_sinogram(ell, nell, &g, 4, sino);
      if (st == PINET_OK && noise > 0) {
        pinet_rng rng;
        pinet_rng_seed(&rng, seed);
        st = pinet_poisson_noise(&rng, sino, nsino, noise, sino);
        for (size_t q = 0; q < nsino; q++) sino[q] = (float)(sino[q] / noise);
      }
    }
    if (st != PINET_OK) {
      exit_code = pinet_cli_fail(ctx, st, "phantom sinogram");
      goto out;
    }
  }
  double t0 = now_s();
  st = pinet_fbp_create(&g, filter, &p);
  if (st == PINET_OK) st = pinet_fbp_set_threads(p, threads);
  if (st != PINET_OK) {
    exit_code = pinet_cli_fail(ctx, st, "FBP setup");
    goto out;
  }
  pinet_recon_comm comm;
  uint64_t work[64];
  double maxrel = NAN;
  int bits = 0;
  if (o[F_FIXED].present) {
    float *filt = malloc((size_t)views * pinet_fbp_filtered_stride(p) * sizeof *filt);
    if (filt == NULL) {
      exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "filtered views");
      goto out;
    }
    st = pinet_fbp_filter_views(p, NULL, sino, views, filt);
    double largest = 0.0;
    if (st == PINET_OK) st = pinet_fbp_fixed_scale(p, filt, &bits, &largest);
    free(filt);
    if (st != PINET_OK) {
      exit_code = fail_sinogram_range(ctx, st, sino, nsino);
      goto out;
    }
  }
  if (pes == 0) {
    st = o[F_FIXED].present ? pinet_fbp_run_fixed(p, sino, bits, img) : pinet_fbp_run(p, sino, img);
  } else {
    const pinet_recon_par_opts po = {src.schedule, dist};
    st = pinet_fbp_parallel_opts(p, sino, pes,
                                 o[F_FIXED].present ? PINET_RECON_FIXED : PINET_RECON_FLOAT, bits,
                                 &po, img, &comm, work);
  }
  double elapsed = now_s() - t0;
  if (st != PINET_OK) {
    if (st == PINET_ERR_ILLEGAL_STATE && src.schedule == PINET_SHUFFLE_FAST && dist != NULL) {
      exit_code = fail_fast_dist(ctx, st);
    } else {
      exit_code = st == PINET_ERR_RANGE ? fail_sinogram_range(ctx, st, sino, nsino)
                                        : pinet_cli_fail(ctx, st, "reconstruction");
    }
    goto out;
  }
  if (dist != NULL && dist->pe != 0) goto out; /* another process's PE: PE 0's reports */
  if (pes != 0) { /* the sequential result, to report the difference */
    float *seq = malloc(npix * sizeof *seq);
    if (seq != NULL) {
      pinet_status s2 = o[F_FIXED].present ? pinet_fbp_run_fixed(p, sino, bits, seq) : pinet_fbp_run(p, sino, seq);
      if (s2 == PINET_OK) {
        double mx = 0, md = 0;
        for (size_t i = 0; i < npix; i++) {
          mx = fmax(mx, fabs(seq[i]));
          md = fmax(md, fabs((double)seq[i] - img[i]));
        }
        maxrel = mx > 0 ? md / mx : md;
      }
      free(seq);
    }
  }
  if (o[F_OUT].present) {
    exit_code = write_image(ctx, o[F_OUT].value, img, size, g.img_center);
    if (exit_code != PINET_EXIT_OK) goto out;
  }
  double rmse = phimg ? pinet_rmse_disk(img, phimg, size, g.img_center) : NAN;
  if (o[F_JSON].present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "size");
    pinet_json_u64(&js, size);
    pinet_json_key(&js, "views");
    pinet_json_u64(&js, views);
    pinet_json_key(&js, "bins");
    pinet_json_u64(&js, bins);
    pinet_json_key(&js, "filter");
    pinet_json_string(&js, k_filters[fi]);
    pinet_json_key(&js, "time_s");
    pinet_json_double(&js, elapsed);
    if (phimg) {
      pinet_json_key(&js, "phantom");
      pinet_json_string(&js, k_phantoms[ph]);
      pinet_json_key(&js, "geometry");
      pinet_json_string(&js, k_geoms[geom]);
      pinet_json_key(&js, "rmse");
      pinet_json_double(&js, rmse);
    }
    pinet_json_key(&js, "arith");
    pinet_json_string(&js, o[F_FIXED].present ? "fixed" : "float");
    json_isa_threads(&js, pinet_fbp_isa(p), pinet_fbp_threads(p));
    if (pes != 0) {
      json_comm(&js, &comm, work);
      pinet_json_key(&js, "max_rel_diff_vs_sequential");
      pinet_json_double(&js, maxrel);
    }
    pinet_json_end_document(&js);
  } else {
    printf("FBP %ux%u from %u views x %u bins, filter %s: %.4f s", size, size, views, bins,
           k_filters[fi], elapsed);
    if (phimg) printf(", rmse %.6f", rmse);
    printf("\n");
    if (pes != 0) {
      text_comm(&comm, work);
      printf("max relative difference to the sequential result: %.3g\n", maxrel);
    }
  }
out:
  pinet_fbp_free(p);
  free(sino);
  free(img);
  free(phimg);
  return exit_code;
}

/* ---- em ------------------------------------------------------------------------------------- */

/* OSEM splits the tubes by view tag mod S (pinet_em_create): refuse an S that leaves a subset
 * without a tube, naming S and its limit, before pinet_em_create would say only "out of range". */
static int check_subsets(const char *ctx, const pinet_sysmat *m, uint32_t subsets) {
  if (subsets <= 1) return PINET_EXIT_OK;
  const uint32_t T = pinet_sysmat_tubes(m), *tv = pinet_sysmat_tube_view(m);
  uint32_t top = 0;
  for (uint32_t t = 0; t < T; t++) top = tv[t] > top ? tv[t] : top;
  uint8_t *view = calloc((size_t)top + 1, 1), *subset = calloc(subsets, 1);
  if (view == NULL || subset == NULL) {
    free(view);
    free(subset);
    return pinet_cli_fail(ctx, PINET_ERR_NOMEM, "--subsets");
  }
  uint32_t views = 0, empty = subsets;
  for (uint32_t t = 0; t < T; t++) {
    views += !view[tv[t]];
    view[tv[t]] = 1;
    subset[tv[t] % subsets] = 1;
  }
  for (uint32_t s = subsets; s-- > 0;) empty = subset[s] ? empty : s;
  free(view);
  free(subset);
  if (subsets > views) {
    fprintf(stderr, "pinet: %s: --subsets must be in 1..%u (got %u): each subset needs a view, and "
            "%u views hold tubes\n", ctx, views, subsets, views);
    return PINET_EXIT_INPUT;
  }
  if (empty < subsets) {
    fprintf(stderr, "pinet: %s: --subsets %u leaves subset %u (the views v with v mod %u = %u) "
            "without a tube\n", ctx, subsets, empty, subsets, empty);
    return PINET_EXIT_INPUT;
  }
  return PINET_EXIT_OK;
}

/* The parallel EM cuts the by-box matrix into `pes` segments of about nnz / pes entries; under
 * the modified partition a box may be shared by two of them, no more (pinet_em_segments). Refuse
 * a --pes that breaks this with the matrix's numbers and the largest --pes that works. */
static int check_em_pes(const char *ctx, const pinet_sysmat *m, uint32_t pes, unsigned part) {
  if (pes == 0) return PINET_EXIT_OK; /* sequential */
  const pinet_csr bb = pinet_sysmat_by_box(m);
  const uint32_t T = pinet_sysmat_tubes(m), B = pinet_sysmat_boxes(m);
  if (T == 0 || B == 0 || bb.nnz == 0) {
    return pinet_cli_fail(ctx, PINET_ERR_RANGE, "the matrix is empty (%u tubes, %u boxes, %" PRIu64
                          " entries): nothing to share over PEs", T, B, bb.nnz);
  }
  pinet_em_segment seg[64];
  pinet_status st = pinet_em_segments(m, pes, (pinet_em_partition)part, seg);
  if (st != PINET_ERR_RANGE) {
    return st == PINET_OK ? PINET_EXIT_OK : pinet_cli_fail(ctx, st, "partition over %u PEs", pes);
  }
  uint32_t fits = 1;
  for (uint32_t q = pes / 2; q > 1 && fits == 1; q /= 2) {
    if (pinet_em_segments(m, q, (pinet_em_partition)part, seg) == PINET_OK) fits = q;
  }
  return pinet_cli_fail(ctx, PINET_ERR_RANGE,
                        "--pes %u is too many PEs for this matrix: %u segments of its %" PRIu64
                        " entries (%u tubes x %u boxes) would put a box on more than two PEs under "
                        "the %s partition%s; it takes --pes %u at most%s", pes, pes, bb.nnz, T, B,
                        k_parts[part], bb.nnz < pes ? " (fewer entries than PEs)" : "", fits,
                        part == PINET_EM_PARTITION_MODIFIED ? ", or --partition box" : "");
}

enum { E_PHANTOM, E_SINO, E_VIEWS, E_ITERS, E_PART, E_SUBSETS, E_SHARED,
       E_FIXED = E_SHARED + R_FIXED, E_OUT = E_SHARED + R_OUT, E_JSON = E_SHARED + R_JSON,
       E_COUNT = E_SHARED + R_COUNT };

static int cmd_em(int argc, char **argv, const pinet_recon_dist *dist) {
  const char *ctx = "recon em";
  pinet_cli_opt o[E_COUNT] = {
      [E_PHANTOM] = {"phantom", 1, "NAME", "shepp-logan|disk: counts = P * phantom (+ noise)", NULL, 0},
      [E_SINO] = {"sinogram", 1, "FILE", "counts: raw float32, V rows of D bins (parallel beam)", NULL, 0},
      [E_VIEWS] = {"views", 1, "V", "parallel-beam views (>= 1)", NULL, 0},
      [E_ITERS] = {"iters", 1, "K", "iterations (default 10)", NULL, 0},
      [E_PART] = {"partition", 1, "box|modified", "parallel partition (default modified)", NULL, 0},
      [E_SUBSETS] = {"subsets", 1, "S", "OSEM with S subsets of views (sequential only)", NULL, 0}};
  memcpy(o + E_SHARED, k_recon_shared_opts, sizeof k_recon_shared_opts);
  int rc = pinet_cli_parse_or_help(ctx,
                                   "usage: pinet recon em (--phantom NAME | --sinogram FILE --bins D) "
                                   "--size N (--views V | --geometry ring) [--iters K] [--pes P] "
                                   "[--out IMG] [--json]",
                                   o, E_COUNT, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) return rc;
  recon_source src;
  if ((rc = parse_recon_source(ctx, o, E_COUNT, 1024, &src)) != PINET_EXIT_OK) return rc;
  const uint32_t size = src.size, views = src.views, bins = src.bins, pes = src.pes;
  const uint32_t threads = src.threads, dets = src.dets;
  const unsigned geom = src.geom, ph = src.phantom;
  const double noise = src.noise;
  const uint64_t seed = src.seed;
  uint32_t iters = 10, subsets = 1;
  unsigned part = 1;
  if ((rc = parse_u32_opt(ctx, o, E_COUNT, "iters", &iters, 1, 100000)) != PINET_EXIT_OK) return rc;
  if ((rc = parse_u32_opt(ctx, o, E_COUNT, "subsets", &subsets, 1, 4096)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_optional_choice(ctx, o, E_COUNT, "partition", k_parts, &part)) != PINET_EXIT_OK) return rc;
  if (subsets > 1 && (pes != 0 || o[E_FIXED].present)) {
    return pinet_cli_usage_error(ctx, "--subsets (OSEM) runs sequentially in floating point only");
  }

  pinet_status st;
  pinet_sysmat *m = NULL;
  pinet_ring ring;
  pinet_pb_geom g;
  double img_center = (double)(size / 2u);
  {
    const double lines = geom == 1 ? (double)dets * (dets - 1) / 2.0 : (double)views * bins;
    if ((rc = pinet_cli_memory_check(ctx, em_memory_estimate(lines, size, geom == 1, pes),
                                     "EM of a %u x %u image from %.0f lines of response", size,
                                     size, lines)) != PINET_EXIT_OK) {
      return rc;
    }
  }
  double t_setup = now_s();
  if (geom == 1) {
    st = pinet_ring_init(&ring, size, dets);
    if (st == PINET_OK) st = pinet_sysmat_create_ring(&ring, &m);
    if (st != PINET_OK) return pinet_cli_fail(ctx, st, "ring of %u detectors (even, >= 4)", dets);
  } else {
    st = pinet_pb_geom_init(&g, size, views, bins);
    if (st == PINET_OK) st = pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m);
    if (st != PINET_OK) return pinet_cli_fail(ctx, st, "geometry %u x %u views x %u bins", size, views, bins);
  }
  t_setup = now_s() - t_setup;
  const uint32_t T = pinet_sysmat_tubes(m), B = pinet_sysmat_boxes(m);
  const size_t nlines = pinet_sysmat_lines(m), npix = (size_t)size * size;
  const uint32_t *tline = pinet_sysmat_tube_line(m);
  double *counts = malloc(((size_t)T + 1) * sizeof *counts);
  double *lam = malloc(((size_t)B + 1) * sizeof *lam);
  double *ll = malloc(((size_t)iters + 1) * sizeof *ll);
  float *img = malloc(npix * sizeof *img), *phimg = NULL;
  float *line_vals = malloc((nlines + 1) * sizeof *line_vals);
  int exit_code = PINET_EXIT_OK;
  pinet_em *em = NULL;
  if (!counts || !lam || !ll || !img || !line_vals) {
    exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "buffers");
    goto out;
  }
  if (o[E_SINO].present) {
    size_t actual = 0;
    if ((exit_code = pinet_cli_input_path(ctx, o[E_SINO].value)) != PINET_EXIT_OK) goto out;
    st = pinet_raw_read_f32(o[E_SINO].value, line_vals, nlines, &actual);
    if (st == PINET_ERR_MISMATCH) {
      (void)pinet_cli_fail(ctx, st, "'%s' holds %zu float32 values, expected %u views x %u bins = %zu",
                           PINET_CLI_Q(o[E_SINO].value), actual, views, bins, nlines);
      exit_code = PINET_EXIT_IO;
      goto out;
    }
    if (st == PINET_ERR_RANGE) {
      exit_code = fail_not_finite(ctx, o[E_SINO].value, line_vals, nlines, bins,
                                  "counts must be finite and >= 0");
      goto out;
    }
    if (st != PINET_OK) {
      exit_code = pinet_cli_fail(ctx, st, "cannot read '%s'", PINET_CLI_Q(o[E_SINO].value));
      goto out;
    }
    for (size_t i = 0; i < nlines; i++) {
      if (line_vals[i] < 0) {
        exit_code = pinet_cli_fail(ctx, PINET_ERR_RANGE, "'%s': negative count %g at view %zu bin %zu",
                                   PINET_CLI_Q(o[E_SINO].value), (double)line_vals[i], i / bins,
                                   i % bins);
        goto out;
      }
    }
  } else {
    const pinet_ellipse *ell;
    size_t nell;
    (void)pinet_phantom_by_name(k_phantoms[ph], &ell, &nell);
    phimg = malloc(npix * sizeof *phimg);
    if (phimg == NULL) {
      exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "phantom");
      goto out;
    }
    (void)pinet_phantom_rasterize(ell, nell, size, img_center, 4, phimg);
    /* exact line integrals per source line (no inverse crime) */
    for (size_t l = 0; l < nlines; l++) {
      double th, s;
      if (geom == 1) {
        uint32_t i, j;
        pinet_ring_pair(&ring, l, &i, &j);
        pinet_ring_pair_coords(&ring, i, j, &th, &s);
      } else {
        th = 3.14159265358979323846 * (double)(l / bins) / views;
        s = (double)(l % bins) - g.bin_center;
      }
      line_vals[l] = (float)pinet_phantom_line_integral(ell, nell, size, th, s);
    }
    if (noise > 0) {
      pinet_rng rng;
      pinet_rng_seed(&rng, seed);
      (void)pinet_poisson_noise(&rng, line_vals, nlines, noise, line_vals);
    }
  }
  for (uint32_t t = 0; t < T; t++) counts[t] = line_vals[tline[t]];
  pinet_recon_arith arith = o[E_FIXED].present ? PINET_RECON_FIXED : PINET_RECON_FLOAT;
  if ((exit_code = check_subsets(ctx, m, subsets)) != PINET_EXIT_OK ||
      (exit_code = check_em_pes(ctx, m, pes, part)) != PINET_EXIT_OK) {
    goto out;
  }
  if (arith == PINET_RECON_FIXED) {
    double total = 0.0;
    for (uint32_t t = 0; t < T; t++) total += counts[t];
    if (!pinet_em_fixed_total_ok(total)) {
      exit_code = pinet_cli_fail(ctx, PINET_ERR_RANGE, "--fixed: the total count %g is outside the "
                                 "range of the fixed-point path", total);
      goto out;
    }
  }
  double elapsed;
  pinet_recon_comm comm;
  uint64_t work[64];
  double t0 = now_s();
  if (pes == 0) {
    pinet_em_opts eo = {subsets, arith, 0};
    st = pinet_em_create(m, counts, &eo, &em);
    if (st == PINET_OK) st = pinet_em_set_threads(em, threads);
    if (st != PINET_OK) {
      exit_code = pinet_cli_fail(ctx, st, "EM setup (--subsets %u)", subsets);
      goto out;
    }
    pinet_cli_progress prog;
    pinet_cli_progress_begin(&prog, ctx);
    for (uint32_t it = 0; it < iters && st == PINET_OK; it++) {
      st = pinet_em_iterate(em, &ll[it]);
      pinet_cli_progress_step(&prog, it + 1, iters, "iterations");
    }
    pinet_cli_progress_end(&prog);
    if (st == PINET_OK) memcpy(lam, pinet_em_image(em), (size_t)B * sizeof *lam);
  } else {
    const pinet_recon_par_opts po = {src.schedule, dist};
    st = pinet_em_parallel_opts(m, counts, iters, pes, (pinet_em_partition)part, arith, &po, lam,
                                ll, &comm, work);
  }
  elapsed = now_s() - t0;
  if (st != PINET_OK) {
    exit_code = st == PINET_ERR_ILLEGAL_STATE && src.schedule == PINET_SHUFFLE_FAST && dist != NULL
                    ? fail_fast_dist(ctx, st)
                    : pinet_cli_fail(ctx, st, "reconstruction");
    goto out;
  }
  if (dist != NULL && dist->pe != 0) goto out; /* another process's PE: PE 0's reports */
  if (noise > 0) for (uint32_t b = 0; b < B; b++) lam[b] /= noise;
  pinet_em_to_image(m, lam, img);
  if (o[E_OUT].present) {
    exit_code = write_image(ctx, o[E_OUT].value, img, size, img_center);
    if (exit_code != PINET_EXIT_OK) goto out;
  }
  double rmse = phimg ? pinet_rmse_disk(img, phimg, size, img_center) : NAN;
  if (o[E_JSON].present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "size");
    pinet_json_u64(&js, size);
    pinet_json_key(&js, "geometry");
    pinet_json_string(&js, k_geoms[geom]);
    pinet_json_key(&js, "views");
    pinet_json_u64(&js, geom == 1 ? dets : views);
    pinet_json_key(&js, "tubes");
    pinet_json_u64(&js, T);
    pinet_json_key(&js, "boxes");
    pinet_json_u64(&js, B);
    pinet_json_key(&js, "nnz");
    pinet_json_u64(&js, pinet_sysmat_by_box(m).nnz);
    pinet_json_key(&js, "iters");
    pinet_json_u64(&js, iters);
    pinet_json_key(&js, "subsets");
    pinet_json_u64(&js, subsets);
    pinet_json_key(&js, "arith");
    pinet_json_string(&js, arith == PINET_RECON_FIXED ? "fixed" : "float");
    pinet_json_key(&js, "setup_s");
    pinet_json_double(&js, t_setup);
    pinet_json_key(&js, "time_s");
    pinet_json_double(&js, elapsed);
    pinet_json_key(&js, "loglik");
    pinet_json_begin_array(&js);
    for (uint32_t it = 0; it < iters; it++) pinet_json_double(&js, ll[it]);
    pinet_json_end_array(&js);
    json_isa_threads(&js, em != NULL ? pinet_em_isa(em) : src.isa, em != NULL ? pinet_em_threads(em) : 1);
    if (phimg) {
      pinet_json_key(&js, "phantom");
      pinet_json_string(&js, k_phantoms[ph]);
      pinet_json_key(&js, "rmse");
      pinet_json_double(&js, rmse);
    }
    if (pes != 0) {
      pinet_json_key(&js, "partition");
      pinet_json_string(&js, k_parts[part]);
      json_comm(&js, &comm, work);
    }
    pinet_json_end_document(&js);
  } else {
    printf("EM %ux%u, %u tubes x %u boxes, %u iterations: %.4f s, log-likelihood %.6g -> %.6g", size,
           size, T, B, iters, elapsed, ll[0], ll[iters - 1]);
    if (phimg) printf(", rmse %.6f", rmse);
    printf("\n");
    if (pes != 0) text_comm(&comm, work);
  }
out:
  pinet_em_free(em);
  pinet_sysmat_free(m);
  free(counts);
  free(lam);
  free(ll);
  free(img);
  free(phimg);
  free(line_vals);
  return exit_code;
}

/* ---- sinogram ---------------------------------------------------------------------------------- */

enum { S_PHANTOM, S_SIZE, S_VIEWS, S_BINS, S_OVER, S_NOISE, S_SEED, S_OUT, S_PHOUT, S_CENTER,
       S_JSON, S_COUNT };

static int cmd_sinogram(int argc, char **argv) {
  const char *ctx = "recon sinogram";
  pinet_cli_opt o[S_COUNT] = {
      [S_PHANTOM] = {"phantom", 1, "NAME", "shepp-logan|disk", NULL, 0},
      [S_SIZE] = {"size", 1, "N", "image side (sets the phantom's scale)", NULL, 0},
      [S_VIEWS] = {"views", 1, "V", "views at k*180/V degrees", NULL, 0},
      [S_BINS] = {"bins", 1, "D", "bins per view (default --size)", NULL, 0},
      [S_OVER] = {"oversample", 1, "K", "exact line integrals per bin, averaged (default 4)", NULL, 0},
      [S_NOISE] = {"noise", 1, "S", "Poisson counts at S counts per unit (values are counts)", NULL, 0},
      [S_SEED] = {"seed", 1, "N", "noise seed (default 1)", NULL, 0},
      [S_OUT] = {"out", 1, "FILE", "raw float32 view-major sinogram (or .hv)", NULL, 0},
      [S_PHOUT] = {"phantom-out", 1, "IMG", "the rasterised phantom (raw float32 or .png/.pgm/.hv)", NULL, 0},
      [S_CENTER] = {"center", 1, "C", "rotation centre bin (default floor(D/2))", NULL, 0},
      [S_JSON] = {"json", 0, NULL, "JSON on stdout", NULL, 0}};
  int rc = pinet_cli_parse_or_help(ctx, "usage: pinet recon sinogram --phantom NAME --size N --views V --out FILE",
                                   o, S_COUNT, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) return rc;
  const char *tmp;
  uint32_t size = 0, views = 0, bins = 0, over = 4;
  unsigned ph = 0;
  if ((rc = pinet_cli_require(ctx, o, S_COUNT, "phantom", &tmp)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_parse_choice(ctx, "phantom", tmp, k_phantoms, &ph)) != PINET_EXIT_OK) return rc;
  if ((rc = require_u32(ctx, o, S_COUNT, "size", &size, 1, PINET_RECON_MAX_SIZE)) != PINET_EXIT_OK) return rc;
  if ((rc = require_u32(ctx, o, S_COUNT, "views", &views, 1, PINET_RECON_MAX_VIEWS)) != PINET_EXIT_OK) return rc;
  bins = size;
  if ((rc = parse_u32_opt(ctx, o, S_COUNT, "bins", &bins, 1, PINET_RECON_MAX_BINS)) != PINET_EXIT_OK) return rc;
  if ((rc = parse_u32_opt(ctx, o, S_COUNT, "oversample", &over, 1, 16)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_require(ctx, o, S_COUNT, "out", &tmp)) != PINET_EXIT_OK) return rc;
  double noise = 0;
  uint64_t seed = 1;
  if (o[S_NOISE].present && (rc = parse_noise(ctx, o[S_NOISE].value, &noise)) != PINET_EXIT_OK) return rc;
  if ((rc = pinet_cli_optional_u64(ctx, o, S_COUNT, "seed", &seed)) != PINET_EXIT_OK) return rc;
  pinet_pb_geom g;
  pinet_status st = pinet_pb_geom_init(&g, size, views, bins);
  if (st != PINET_OK) return pinet_cli_fail(ctx, st, "geometry");
  if (o[S_CENTER].present) {
    if ((rc = pinet_cli_parse_double(ctx, "center", o[S_CENTER].value, &g.bin_center)) != PINET_EXIT_OK) return rc;
    if ((st = pinet_pb_geom_check(&g)) != PINET_OK) return pinet_cli_fail(ctx, st, "--center");
  }
  const pinet_ellipse *ell;
  size_t nell;
  (void)pinet_phantom_by_name(k_phantoms[ph], &ell, &nell);
  size_t n = (size_t)views * bins;
  float *sino = malloc(n * sizeof *sino), *phimg = malloc((size_t)size * size * sizeof *phimg);
  int exit_code = PINET_EXIT_OK;
  if (sino == NULL || phimg == NULL) {
    exit_code = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "buffers");
    goto out;
  }
  st = pinet_phantom_sinogram(ell, nell, &g, over, sino);
  if (st == PINET_OK && noise > 0) {
    pinet_rng rng;
    pinet_rng_seed(&rng, seed);
    st = pinet_poisson_noise(&rng, sino, n, noise, sino);
  }
  if (st != PINET_OK) {
    exit_code = pinet_cli_fail(ctx, st, "sinogram");
    goto out;
  }
  const char *path = o[S_OUT].value;
  if (ends_with(path, ".hv")) {
    pinet_interfile h = {PINET_RECON_KIND_SINOGRAM, bins, views, g.bin_center, 180.0 / views};
    st = pinet_interfile_write(path, &h, sino);
  } else {
    st = pinet_raw_write_f32(path, sino, n);
  }
  if (st != PINET_OK) {
    exit_code = pinet_cli_fail(ctx, st, "cannot write '%s'", PINET_CLI_Q(path));
    goto out;
  }
  if (o[S_PHOUT].present) {
    (void)pinet_phantom_rasterize(ell, nell, size, g.img_center, 4, phimg);
    exit_code = write_image(ctx, o[S_PHOUT].value, phimg, size, g.img_center);
    if (exit_code != PINET_EXIT_OK) goto out;
  }
  if (o[S_JSON].present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "phantom");
    pinet_json_string(&js, k_phantoms[ph]);
    pinet_json_key(&js, "size");
    pinet_json_u64(&js, size);
    pinet_json_key(&js, "views");
    pinet_json_u64(&js, views);
    pinet_json_key(&js, "bins");
    pinet_json_u64(&js, bins);
    pinet_json_key(&js, "bin_center");
    pinet_json_double(&js, g.bin_center);
    pinet_json_key(&js, "out");
    pinet_json_string(&js, path);
    pinet_json_end_document(&js);
  }
out:
  free(sino);
  free(phimg);
  return exit_code;
}

/* ---- model ---------------------------------------------------------------------------------- */

static int cmd_model(int argc, char **argv) {
  const char *ctx = "recon model";
  pinet_cli_opt o[1] = {{"json", 0, NULL, "JSON on stdout", NULL, 0}};
  int rc = pinet_cli_parse_or_help(ctx, "usage: pinet recon model [--json]", o, 1, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) return rc;
  pinet_recon_model_fit f;
  pinet_recon_model_row rows[64];
  size_t n = 0;
  pinet_status st = pinet_recon_model_fit_paper(&f, rows, 64, &n);
  if (st != PINET_OK) return pinet_cli_fail(ctx, st, "fit");
  static const uint32_t sizes[4] = {64, 128, 256, 512};
  if (o[0].present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "fbp");
    pinet_json_begin_object(&js);
    pinet_json_key(&js, "alpha_2a_plus_b");
    pinet_json_double(&js, f.fbp_alpha);
    pinet_json_key(&js, "c");
    pinet_json_double(&js, f.fbp_c);
    pinet_json_key(&js, "rms_rel");
    pinet_json_double(&js, f.fbp_rms_rel);
    pinet_json_key(&js, "per_size");
    pinet_json_begin_array(&js);
    for (int s = 0; s < 4; s++) {
      pinet_json_begin_object(&js);
      pinet_json_key(&js, "size");
      pinet_json_u64(&js, sizes[s]);
      pinet_json_key(&js, "t0");
      pinet_json_double(&js, f.fbp_t0[s]);
      pinet_json_key(&js, "alpha_2a_plus_b");
      pinet_json_double(&js, f.fbp_alpha_size[s]);
      pinet_json_key(&js, "c");
      pinet_json_double(&js, f.fbp_c_size[s]);
      pinet_json_key(&js, "t_io");
      pinet_json_double(&js, f.fbp_tio[s]);
      pinet_json_end_object(&js);
    }
    pinet_json_end_array(&js);
    pinet_json_end_object(&js);
    pinet_json_key(&js, "em");
    pinet_json_begin_object(&js);
    pinet_json_key(&js, "t0_per_iter");
    pinet_json_double(&js, f.em_t0);
    pinet_json_key(&js, "alpha_2a_plus_b");
    pinet_json_double(&js, f.em_alpha);
    pinet_json_key(&js, "c");
    pinet_json_double(&js, f.em_c);
    pinet_json_key(&js, "t_io");
    pinet_json_double(&js, f.em_tio);
    pinet_json_key(&js, "m_tubes");
    pinet_json_u64(&js, 4560);
    pinet_json_key(&js, "rms_rel");
    pinet_json_double(&js, f.em_rms_rel);
    pinet_json_end_object(&js);
    pinet_json_key(&js, "rows");
    pinet_json_begin_array(&js);
    for (size_t i = 0; i < n; i++) {
      const pinet_recon_model_row *r = &rows[i];
      pinet_json_begin_object(&js);
      pinet_json_key(&js, "kernel");
      pinet_json_string(&js, r->kernel == 0 ? "fbp" : "em");
      pinet_json_key(&js, "size");
      pinet_json_u64(&js, r->size);
      pinet_json_key(&js, "iters");
      pinet_json_u64(&js, r->iters);
      pinet_json_key(&js, "pes");
      pinet_json_u64(&js, r->pes);
      pinet_json_key(&js, "paper_speedup_io");
      pinet_json_double(&js, r->paper_speedup_io);
      pinet_json_key(&js, "model_speedup_io");
      pinet_json_double(&js, r->model_speedup_io);
      pinet_json_key(&js, "paper_speedup_noio");
      pinet_json_double(&js, r->paper_speedup_noio);
      pinet_json_key(&js, "model_speedup_noio");
      pinet_json_double(&js, r->model_speedup_noio);
      pinet_json_key(&js, "paper_eff_io");
      pinet_json_double(&js, r->paper_eff_io);
      pinet_json_key(&js, "model_eff_io");
      pinet_json_double(&js, r->model_eff_io);
      pinet_json_key(&js, "paper_eff_noio");
      pinet_json_double(&js, r->paper_eff_noio);
      pinet_json_key(&js, "model_eff_noio");
      pinet_json_double(&js, r->model_eff_noio);
      pinet_json_end_object(&js);
    }
    pinet_json_end_array(&js);
    pinet_json_end_document(&js);
    return PINET_EXIT_OK;
  }
  printf("FBP, eq. (4): alpha = 2a+b = %.4g s/datum, c = %.4g s (all sizes; rms rel. residual %.3f)\n",
         f.fbp_alpha, f.fbp_c, f.fbp_rms_rel);
  for (int s = 0; s < 4; s++) {
    printf("  %3ux%-3u t0 %8.2f s  alpha %.4g  c %.4g  t_IO %.3f s\n", sizes[s], sizes[s], f.fbp_t0[s],
           f.fbp_alpha_size[s], f.fbp_c_size[s], f.fbp_tio[s]);
  }
  printf("EM, eq. (6), 64x64, 96 detectors (M = 4560 tubes): t0 %.3f s/iter, alpha %.4g s/datum, "
         "c %.4g s, t_IO %.3f s (rms rel. residual %.3f)\n\n",
         f.em_t0, f.em_alpha, f.em_c, f.em_tio, f.em_rms_rel);
  printf("kernel size iters  N | speedup +I/O paper model | -I/O paper model | eff. +I/O paper model | -I/O paper model\n");
  for (size_t i = 0; i < n; i++) {
    const pinet_recon_model_row *r = &rows[i];
    printf("%-6s %4u %5u %2u | %6.2f %6.2f | %6.2f %6.2f | %5.3f %5.3f | %5.3f %5.3f\n",
           r->kernel == 0 ? "fbp" : "em", r->size, r->iters, r->pes, r->paper_speedup_io,
           r->model_speedup_io, r->paper_speedup_noio, r->model_speedup_noio, r->paper_eff_io,
           r->model_eff_io, r->paper_eff_noio, r->model_eff_noio);
  }
  return PINET_EXIT_OK;
}

int pinet_cli_recon_run(int argc, char **argv, const pinet_recon_dist *dist) {
  if (argc >= 2 && strcmp(argv[1], "fbp") == 0) return cmd_fbp(argc, argv, dist);
  if (argc >= 2 && strcmp(argv[1], "em") == 0) return cmd_em(argc, argv, dist);
  return pinet_cli_usage_error("recon", "unknown command '%s' (fbp or em)",
                               PINET_CLI_Q(argc >= 2 ? argv[1] : ""));
}

int pinet_cli_recon(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    print_area_help(argc < 2 ? stderr : stdout);
    return argc < 2 ? PINET_EXIT_USAGE : PINET_EXIT_OK;
  }
  if (strcmp(argv[1], "fbp") == 0) return cmd_fbp(argc, argv, NULL);
  if (strcmp(argv[1], "em") == 0) return cmd_em(argc, argv, NULL);
  if (strcmp(argv[1], "sinogram") == 0) return cmd_sinogram(argc, argv);
  if (strcmp(argv[1], "model") == 0) return cmd_model(argc, argv);
  return pinet_cli_usage_error("recon", "unknown command '%s'", PINET_CLI_Q(argv[1]));
}
