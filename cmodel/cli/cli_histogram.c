/* cli_histogram.c - `pinet histogram`: butterfly histograms (paper 001) and Figures 1-3. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pinet/histogram.h"
#include "pinet/image.h"
#include "pinet/rng.h"

int pinet_cli_histogram(int argc, char **argv);
extern const char pinet_cli_histogram_summary[];
const char pinet_cli_histogram_summary[] =
    "histograms by butterfly all-to-all reduction on a hypercube (paper 001); curves";

static const char k_ctx[] = "histogram";
static const char *const k_algos[] = {"independent", "dependent1", "dependent2", NULL};
static const char *const k_rules[] = {"eq6", "eq3", NULL};
static const char *const k_generators[] = {"random", "worst", NULL};

static const char k_usage[] =
    "usage: pinet histogram --pes M --bins B (--input FILE | --generate random|worst --pixels N)\n"
    "                       [--algo independent|dependent1|dependent2] [--r-rule eq6|eq3]\n"
    "                       [--seed S] [--json]\n"
    "       pinet histogram curves [--out DIR] [--json]\n\n"
    "Simulates M processors computing a B-bin histogram by butterfly all-to-all reduction.\n"
    "FILE holds one pixel value a line (values 0..B-1) or is a PGM/PNG image whose samples are\n"
    "integers in 0..B-1; processor i holds pixels i*N/M .. (i+1)*N/M - 1 (row-major for images).\n"
    "--generate random draws N uniform values (seeded); worst builds the worst case for the\n"
    "data-dependent algorithms with N/M pixels per processor.\n"
    "JSON: {\"histogram\":[...],\"transfers_max\",\"additions_max\",\"steps\", ...}.\n"
    "`curves` writes histogram_curves.csv and histogram_fig{1,2,3}.svg (B = 256, p = 1..64).";

static int is_pow2_u32(uint32_t v) { return v != 0 && (v & (v - 1)) == 0; }

/* Load the pixel values of FILE: an image (by magic bytes) or one integer a line. */
static int load_input(const char *path, uint32_t bins, uint32_t **values, size_t *count) {
  if (pinet_cli_input_path(k_ctx, path) != PINET_EXIT_OK) {
    return PINET_EXIT_IO;
  }
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    return pinet_cli_fail(k_ctx, PINET_ERR_IO, "%s: cannot open: %s", PINET_CLI_Q(path),
                          strerror(errno));
  }
  uint8_t head[8] = {0};
  size_t got = fread(head, 1, sizeof head, f);
  fclose(f);
  if (pinet_image_sniff(head, got) != PINET_IMAGE_FORMAT_AUTO) {
    pinet_image *img = NULL;
    pinet_image_info info;
    pinet_image_diag diag;
    pinet_status st = pinet_image_read_diag(path, &img, &info, &diag);
    if (st == PINET_ERR_UNSUPPORTED) {
      return pinet_cli_fail(k_ctx, st, "%s: PNG input needs a build with libpng",
                            PINET_CLI_Q(path));
    }
    if (st != PINET_OK && diag.fault == PINET_IMAGE_FAULT_ABOVE_MAXVAL) {
      return pinet_cli_fail(k_ctx, st, "%s: pixel (%" PRIu32 ", %" PRIu32 ") = %" PRIu64
                            " is above the maxval %" PRIu32 " of the PGM header",
                            PINET_CLI_Q(path), diag.x, diag.y, diag.value, diag.maxval);
    }
    if (st != PINET_OK) {
      return pinet_cli_fail(k_ctx, st, "%s: cannot read the image", PINET_CLI_Q(path));
    }
    size_t bad = 0;
    st = pinet_histogram_values_from_image(img, bins, values, count, &bad);
    if (st == PINET_ERR_RANGE) {
      uint64_t need = 2;
      while (need < (uint64_t)info.maxval + 1) {
        need *= 2;
      }
      int rc = pinet_cli_fail(k_ctx, st, "%s: pixel (%zu, %zu) = %g is not an integer in 0..%u "
                              "(the image's samples go up to %u; use --bins %" PRIu64 " or more)",
                              PINET_CLI_Q(path), bad % img->width, bad / img->width,
                              (double)img->pixels[bad],
                              bins - 1, info.maxval, need);
      pinet_image_free(img);
      return rc;
    }
    pinet_image_free(img);
    if (st != PINET_OK) {
      return pinet_cli_fail(k_ctx, st, "%s: cannot convert the image", PINET_CLI_Q(path));
    }
    return PINET_EXIT_OK;
  }
  int64_t *raw = NULL;
  size_t n = 0, bad_line = 0;
  pinet_status st = pinet_cli_read_i64_file(path, &raw, &n, &bad_line);
  if (st == PINET_ERR_PARSE) {
    return pinet_cli_fail(k_ctx, st, "%s: line %zu: not an integer", PINET_CLI_Q(path), bad_line);
  }
  if (st != PINET_OK) {
    return pinet_cli_fail(k_ctx, st, "%s: cannot read", PINET_CLI_Q(path));
  }
  if (n == 0) {
    free(raw);
    return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "%s: no pixel values", PINET_CLI_Q(path));
  }
  uint32_t *out = malloc(n * sizeof *out);
  if (out == NULL) {
    free(raw);
    return pinet_cli_fail(k_ctx, PINET_ERR_NOMEM, "%s", PINET_CLI_Q(path));
  }
  for (size_t i = 0; i < n; i++) {
    if (raw[i] < 0 || raw[i] >= (int64_t)bins) {
      int rc = pinet_cli_fail(k_ctx, PINET_ERR_RANGE, "%s: value #%zu (%" PRId64 ") is outside 0..%u",
                              PINET_CLI_Q(path), i + 1, raw[i], bins - 1);
      free(raw);
      free(out);
      return rc;
    }
    out[i] = (uint32_t)raw[i];
  }
  free(raw);
  *values = out;
  *count = n;
  return PINET_EXIT_OK;
}

static void print_json(const pinet_histogram_result *res, pinet_histogram_algo algo,
                       pinet_histogram_r_rule rule) {
  pinet_histogram_summary s;
  const uint64_t *hist = NULL;
  pinet_histogram_result_summary(res, &s);
  pinet_histogram_result_histogram(res, &hist);
  pinet_json js;
  pinet_json_begin_document(&js, stdout);
  pinet_json_key(&js, "histogram");
  pinet_json_begin_array(&js);
  for (uint32_t b = 0; b < s.bins; b++) {
    pinet_json_u64(&js, hist[b]);
  }
  pinet_json_end_array(&js);
  pinet_json_key(&js, "transfers_max");
  pinet_json_u64(&js, s.transfers_max);
  pinet_json_key(&js, "additions_max");
  pinet_json_u64(&js, s.additions_max);
  pinet_json_key(&js, "steps");
  pinet_json_u64(&js, s.steps);
  pinet_json_key(&js, "algo");
  pinet_json_string(&js, pinet_histogram_algo_name(algo));
  pinet_json_key(&js, "r_rule");
  pinet_json_string(&js, k_rules[rule]);
  pinet_json_key(&js, "pes");
  pinet_json_u64(&js, s.pes);
  pinet_json_key(&js, "bins");
  pinet_json_u64(&js, s.bins);
  pinet_json_key(&js, "pixels");
  pinet_json_u64(&js, s.pixels);
  pinet_json_key(&js, "pixels_per_pe");
  pinet_json_u64(&js, s.pixels_per_pe);
  pinet_json_key(&js, "r");
  pinet_json_u64(&js, s.r);
  pinet_json_key(&js, "phase2_steps");
  pinet_json_u64(&js, s.phase2_steps);
  pinet_json_key(&js, "phase3_steps");
  pinet_json_u64(&js, s.phase3_steps);
  pinet_json_key(&js, "phase2_transfers_max");
  pinet_json_u64(&js, s.phase2_transfers_max);
  pinet_json_key(&js, "phase2_additions_max");
  pinet_json_u64(&js, s.phase2_additions_max);
  pinet_json_key(&js, "phase2_comparisons_max");
  pinet_json_u64(&js, s.phase2_comparisons_max);
  pinet_json_key(&js, "phase2_ops_max");
  pinet_json_u64(&js, s.phase2_ops_max);
  pinet_json_key(&js, "list_words_max");
  pinet_json_u64(&js, s.list_words_max);
  pinet_json_key(&js, "per_step");
  pinet_json_begin_array(&js);
  for (uint32_t k = 0; k <= s.steps; k++) {
    pinet_histogram_counters c;
    pinet_histogram_result_step_max(res, k, &c);
    pinet_json_begin_object(&js);
    pinet_json_key(&js, "step");
    pinet_json_u64(&js, k);
    pinet_json_key(&js, "phase");
    pinet_json_u64(&js, k == 0 ? 1 : (k <= s.phase2_steps ? 2 : 3));
    pinet_json_key(&js, "words_sent_max");
    pinet_json_u64(&js, c.words_sent);
    pinet_json_key(&js, "words_received_max");
    pinet_json_u64(&js, c.words_received);
    pinet_json_key(&js, "additions_max");
    pinet_json_u64(&js, c.additions);
    pinet_json_key(&js, "comparisons_max");
    pinet_json_u64(&js, c.comparisons);
    pinet_json_key(&js, "bookkeeping_max");
    pinet_json_u64(&js, c.bookkeeping);
    pinet_json_key(&js, "memory_words_max");
    pinet_json_u64(&js, c.memory_words);
    pinet_json_end_object(&js);
  }
  pinet_json_end_array(&js);
  pinet_json_end_document(&js);
}

static void print_text(const pinet_histogram_result *res, pinet_histogram_algo algo) {
  pinet_histogram_summary s;
  const uint64_t *hist = NULL;
  pinet_histogram_result_summary(res, &s);
  pinet_histogram_result_histogram(res, &hist);
  printf("histogram: %s, M = %u processors, B = %u bins, N = %" PRIu64 " pixels (p = %" PRIu64
         " per processor), r = %u\n",
         pinet_histogram_algo_name(algo), s.pes, s.bins, s.pixels, s.pixels_per_pe, s.r);
  printf("steps %u (phase 2: %u, phase 3: %u)\n", s.steps, s.phase2_steps, s.phase3_steps);
  printf("transfers (sum over steps of the busiest processor's words): %" PRIu64
         " (phase 2: %" PRIu64 ")\n", s.transfers_max, s.phase2_transfers_max);
  printf("additions: %" PRIu64 "; phase-2 operations: %" PRIu64 " (comparisons %" PRIu64
         "); list words: %" PRIu64 "\n",
         s.additions_max, s.phase2_ops_max, s.phase2_comparisons_max, s.list_words_max);
  printf("%-8s %-5s %10s %10s %10s %10s %10s\n", "step", "phase", "sent", "additions", "compares",
         "bookkeep", "memory");
  for (uint32_t k = 0; k <= s.steps; k++) {
    pinet_histogram_counters c;
    pinet_histogram_result_step_max(res, k, &c);
    printf("%-8u %-5u %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n", k,
           k == 0 ? 1u : (k <= s.phase2_steps ? 2u : 3u), c.words_sent, c.additions, c.comparisons,
           c.bookkeeping, c.memory_words);
  }
  printf("non-empty bins (bin count):\n");
  for (uint32_t b = 0; b < s.bins; b++) {
    if (hist[b] != 0) {
      printf("%u %" PRIu64 "\n", b, hist[b]);
    }
  }
}

/* ---- curves ---------------------------------------------------------------------------------- */

#define CURVE_B 256u
#define CURVE_P 64u

typedef struct curve_row {
  double p;
  pinet_histogram_model eq6, eq3;
  pinet_histogram_summary sim_ind, sim_d1, sim_d2;
} curve_row;

static pinet_status simulate_worst(uint32_t p, pinet_histogram_algo algo, pinet_histogram_summary *s) {
  uint32_t *values = NULL;
  size_t n = 0;
  pinet_status st = pinet_histogram_worst_case(CURVE_B, CURVE_B, p, PINET_HISTOGRAM_R_EQ6, &values, &n);
  if (st != PINET_OK) {
    return st;
  }
  pinet_histogram_config cfg = {CURVE_B, CURVE_B, algo, PINET_HISTOGRAM_R_EQ6};
  pinet_histogram_result *res = NULL;
  st = pinet_histogram_run(&cfg, values, n, &res);
  free(values);
  if (st == PINET_OK) {
    pinet_histogram_result_summary(res, s);
  }
  pinet_histogram_result_free(res);
  return st;
}

static const char k_curves_usage[] =
    "usage: pinet histogram curves [--out DIR] [--json]\n\n"
    "Writes the data of the paper's Figures 1-3 (B = 256, p = 1..64 pixels per\n"
    "processor): histogram_curves.csv, histogram_fig1.svg (words transferred in\n"
    "phase 2), histogram_fig2.svg (approach 1 operations), histogram_fig3.svg\n"
    "(approach 2 operations). Lines are the paper's equations, markers the\n"
    "simulation on worst-case inputs with M = B = 256 processors.";

static int run_curves(int argc, char **argv) {
  pinet_cli_files fl;
  int rc = pinet_cli_files_parse(&fl, "histogram curves", k_curves_usage, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  curve_row *rows = calloc(CURVE_P, sizeof *rows);
  if (rows == NULL) {
    return pinet_cli_fail(k_ctx, PINET_ERR_NOMEM, "curves");
  }
  pinet_status st = PINET_OK;
  for (uint32_t p = 1; p <= CURVE_P && st == PINET_OK; p++) {
    curve_row *row = &rows[p - 1];
    row->p = p;
    st = pinet_histogram_model_eval(CURVE_B, p, PINET_HISTOGRAM_R_EQ6, &row->eq6);
    if (st == PINET_OK) {
      st = pinet_histogram_model_eval(CURVE_B, p, PINET_HISTOGRAM_R_EQ3, &row->eq3);
    }
    if (st == PINET_OK) {
      st = simulate_worst(p, PINET_HISTOGRAM_INDEPENDENT, &row->sim_ind);
    }
    if (st == PINET_OK) {
      st = simulate_worst(p, PINET_HISTOGRAM_DEPENDENT1, &row->sim_d1);
    }
    if (st == PINET_OK) {
      st = simulate_worst(p, PINET_HISTOGRAM_DEPENDENT2, &row->sim_d2);
    }
  }
  if (st != PINET_OK) {
    free(rows);
    return pinet_cli_fail(k_ctx, st, "curves: simulation failed");
  }
  pinet_cli_files_begin(&fl);
  char path[4096];
  snprintf(path, sizeof path, "%s/histogram_curves.csv", fl.dir);
  FILE *f = pinet_cli_files_open(k_ctx, path);
  if (f == NULL) {
    free(rows);
    return PINET_EXIT_IO;
  }
  fprintf(f, "p,r,transfers_independent_eq,transfers_independent_sim,transfers_dependent_eq,"
             "transfers_dependent_sim,ops_independent_eq,ops_independent_sim,ops_approach1_eq,"
             "ops_approach1_sim,ops_approach2_eq,ops_approach2_sim,list_words_eq,list_words_sim,"
             "r_eq3,transfers_dependent_eq3,ops_approach1_eq3,ops_approach2_eq3\n");
  for (uint32_t i = 0; i < CURVE_P; i++) {
    const curve_row *r = &rows[i];
    fprintf(f,
            "%u,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
            ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u,%" PRIu64 ",%" PRIu64
            ",%" PRIu64 "\n",
            i + 1, r->eq6.r, r->eq6.transfers_independent, r->sim_ind.phase2_transfers_max,
            r->eq6.transfers_dependent, r->sim_d1.phase2_transfers_max, r->eq6.ops_independent,
            r->sim_ind.phase2_ops_max, r->eq6.ops_approach1, r->sim_d1.phase2_ops_max,
            r->eq6.ops_approach2, r->sim_d2.phase2_ops_max, r->eq6.list_words,
            r->sim_d2.list_words_max, r->eq3.r, r->eq3.transfers_dependent, r->eq3.ops_approach1,
            r->eq3.ops_approach2);
  }
  rc = pinet_cli_files_close(&fl, k_ctx, f, path);
  if (rc != PINET_EXIT_OK) {
    free(rows);
    return rc;
  }

  double px[CURVE_P], y_ti[CURVE_P], y_td[CURVE_P], y_tds[CURVE_P], y_oi[CURVE_P], y_o1[CURVE_P],
      y_o1s[CURVE_P], y_o13[CURVE_P], y_o2[CURVE_P], y_o2s[CURVE_P], y_o23[CURVE_P], y_td3[CURVE_P];
  for (uint32_t i = 0; i < CURVE_P; i++) {
    const curve_row *r = &rows[i];
    px[i] = r->p;
    y_ti[i] = (double)r->eq6.transfers_independent;
    y_td[i] = (double)r->eq6.transfers_dependent;
    y_tds[i] = (double)r->sim_d1.phase2_transfers_max;
    y_td3[i] = (double)r->eq3.transfers_dependent;
    y_oi[i] = (double)r->eq6.ops_independent;
    y_o1[i] = (double)r->eq6.ops_approach1;
    y_o1s[i] = (double)r->sim_d1.phase2_ops_max;
    y_o13[i] = (double)r->eq3.ops_approach1;
    y_o2[i] = (double)r->eq6.ops_approach2;
    y_o2s[i] = (double)r->sim_d2.phase2_ops_max;
    y_o23[i] = (double)r->eq3.ops_approach2;
  }
  free(rows);
  pinet_plot_series s1[] = {
      {"data-independent, B - 1", px, y_ti, CURVE_P, PINET_PLOT_LINE},
      {"data-dependent, eqs (4)+(5)", px, y_td, CURVE_P, PINET_PLOT_LINE},
      {"data-dependent, simulated worst case", px, y_tds, CURVE_P, PINET_PLOT_MARKERS},
      {"data-dependent, r by strict (3)", px, y_td3, CURVE_P, PINET_PLOT_LINE},
  };
  pinet_plot_series s2[] = {
      {"data-independent, B - 1", px, y_oi, CURVE_P, PINET_PLOT_LINE},
      {"approach 1, eqs (8)+(9)+(10)", px, y_o1, CURVE_P, PINET_PLOT_LINE},
      {"approach 1, simulated worst case", px, y_o1s, CURVE_P, PINET_PLOT_MARKERS},
      {"approach 1, r by strict (3)", px, y_o13, CURVE_P, PINET_PLOT_LINE},
  };
  pinet_plot_series s3[] = {
      {"data-independent, B - 1", px, y_oi, CURVE_P, PINET_PLOT_LINE},
      {"approach 2, eqs (12)+(13)", px, y_o2, CURVE_P, PINET_PLOT_LINE},
      {"approach 2, simulated worst case", px, y_o2s, CURVE_P, PINET_PLOT_MARKERS},
      {"approach 2, r by strict (3)", px, y_o23, CURVE_P, PINET_PLOT_LINE},
  };
  pinet_plot plots[] = {
      {"Fig. 1: words transferred in phase 2 (B = 256, worst case)", "pixels per processor p",
       "data transfers (words)", 0, 0, s1, 4},
      {"Fig. 2: phase-2 operations, approach 1 (B = 256, worst case)", "pixels per processor p",
       "additions + comparisons", 0, 0, s2, 4},
      {"Fig. 3: phase-2 operations, approach 2 (B = 256, worst case)", "pixels per processor p",
       "arithmetic operations", 0, 0, s3, 4},
  };
  const char *names[] = {"histogram_fig1.svg", "histogram_fig2.svg", "histogram_fig3.svg"};
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", fl.dir, names[i]);
    rc = pinet_cli_files_svg(&fl, k_ctx, path, &plots[i]);
    if (rc != PINET_EXIT_OK) {
      return rc;
    }
  }
  pinet_cli_files_end(&fl);
  return PINET_EXIT_OK;
}

/* ---- main command ---------------------------------------------------------------------------- */

int pinet_cli_histogram(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "curves") == 0) {
    return run_curves(argc, argv);
  }
  pinet_cli_opt opts[] = {
      {"pes", 1, "M", "simulated processors (a power of two, 1..65536)", NULL, 0},
      {"bins", 1, "B", "histogram bins (a power of two, 2..65536)", NULL, 0},
      {"input", 1, "FILE", "pixel values: one integer a line, or a PGM/PNG image", NULL, 0},
      {"generate", 1, "KIND", "random|worst: generated pixel values instead of --input", NULL, 0},
      {"pixels", 1, "N", "pixel count for --generate", NULL, 0},
      {"seed", 1, "S", "seed for --generate random (default 1)", NULL, 0},
      {"algo", 1, "ALGO", "independent|dependent1|dependent2 (default independent)", NULL, 0},
      {"r-rule", 1, "RULE", "eq6 (r = floor(log(B/p)/2), default) | eq3 (strict inequality (3))",
       NULL, 0},
      {"json", 0, NULL, "machine-readable output", NULL, 0},
  };
  size_t n_opts = sizeof opts / sizeof opts[0];
  int rc = pinet_cli_parse_or_help(k_ctx, k_usage, opts, n_opts, argc, argv, 1);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  uint32_t pes = 0, bins = 0;
  if ((rc = pinet_cli_required_u32(k_ctx, opts, n_opts, "pes", &pes)) != PINET_EXIT_OK ||
      (rc = pinet_cli_required_u32(k_ctx, opts, n_opts, "bins", &bins)) != PINET_EXIT_OK) {
    return rc;
  }
  if (!is_pow2_u32(pes) || pes > PINET_HISTOGRAM_MAX_PES) {
    return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "--pes %u is not a power of two in 1..%u", pes,
                          PINET_HISTOGRAM_MAX_PES);
  }
  if (!is_pow2_u32(bins) || bins < 2 || bins > PINET_HISTOGRAM_MAX_BINS) {
    return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "--bins %u is not a power of two in 2..%u", bins,
                          PINET_HISTOGRAM_MAX_BINS);
  }
  if ((uint64_t)pes * bins > PINET_HISTOGRAM_MAX_WORDS) {
    return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "--pes * --bins = %" PRIu64 " exceeds %u words",
                          (uint64_t)pes * bins, PINET_HISTOGRAM_MAX_WORDS);
  }
  unsigned algo = 0, rule = 0, gen = 0;
  if ((rc = pinet_cli_optional_choice(k_ctx, opts, n_opts, "algo", k_algos, &algo)) !=
          PINET_EXIT_OK ||
      (rc = pinet_cli_optional_choice(k_ctx, opts, n_opts, "r-rule", k_rules, &rule)) !=
          PINET_EXIT_OK) {
    return rc;
  }
  if (opts[2].present == opts[3].present) {
    return pinet_cli_usage_error(k_ctx, "give exactly one of --input FILE and --generate KIND");
  }
  uint32_t *values = NULL;
  size_t n = 0;
  if (opts[2].present) {
    if (opts[4].present || opts[5].present) {
      return pinet_cli_usage_error(k_ctx, "--pixels and --seed go with --generate, not --input");
    }
    rc = load_input(opts[2].value, bins, &values, &n);
    if (rc != PINET_EXIT_OK) {
      return rc;
    }
  } else {
    uint64_t pixels = 0, seed = 1;
    if ((rc = pinet_cli_parse_choice(k_ctx, "generate", opts[3].value, k_generators, &gen)) !=
            PINET_EXIT_OK ||
        (rc = pinet_cli_required_u64(k_ctx, opts, n_opts, "pixels", &pixels)) != PINET_EXIT_OK ||
        (rc = pinet_cli_optional_u64(k_ctx, opts, n_opts, "seed", &seed)) != PINET_EXIT_OK) {
      return rc;
    }
    if (pixels == 0 || pixels > UINT32_MAX) {
      return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "--pixels %" PRIu64 " is not in 1..%u", pixels,
                            UINT32_MAX);
    }
    /* The pixel values (4 bytes each, measured peak 1.0x) and each processor's counts. */
    if ((rc = pinet_cli_memory_check(k_ctx, 4.0 * (double)pixels + 16.0 * pes * (double)bins,
                                     "--pixels %" PRIu64, pixels)) != PINET_EXIT_OK) {
      return rc;
    }
    if (gen == 0) {
      values = malloc((size_t)pixels * sizeof *values);
      if (values == NULL) {
        return pinet_cli_fail(k_ctx, PINET_ERR_NOMEM, "--pixels %" PRIu64, pixels);
      }
      pinet_rng rng;
      pinet_rng_seed(&rng, seed);
      for (uint64_t i = 0; i < pixels; i++) {
        values[i] = (uint32_t)pinet_rng_below(&rng, bins);
      }
      n = (size_t)pixels;
    } else {
      if (pixels % pes != 0) {
        return pinet_cli_fail(k_ctx, PINET_ERR_RANGE,
                              "--generate worst needs --pixels a multiple of --pes (%u)", pes);
      }
      pinet_status st = pinet_histogram_worst_case(pes, bins, pixels / pes, (pinet_histogram_r_rule)rule,
                                                   &values, &n);
      if (st != PINET_OK) {
        return pinet_cli_fail(k_ctx, st, "--generate worst: no worst case for p = %" PRIu64
                              " pixels per processor and B = %u", pixels / pes, bins);
      }
    }
  }
  pinet_histogram_config cfg = {pes, bins, (pinet_histogram_algo)algo, (pinet_histogram_r_rule)rule};
  pinet_histogram_result *res = NULL;
  pinet_status st = pinet_histogram_run(&cfg, values, n, &res);
  free(values);
  if (st != PINET_OK) {
    return pinet_cli_fail(k_ctx, st, "simulation of M = %u, B = %u, N = %zu", pes, bins, n);
  }
  if (opts[8].present) {
    print_json(res, (pinet_histogram_algo)algo, (pinet_histogram_r_rule)rule);
  } else {
    print_text(res, (pinet_histogram_algo)algo);
  }
  pinet_histogram_result_free(res);
  return PINET_EXIT_OK;
}
