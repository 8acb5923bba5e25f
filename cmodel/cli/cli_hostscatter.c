/* cli_hostscatter.c - `pinet hostscatter`: host-to-hypercube distribution (paper 003), Figs 1-2. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pinet/hostscatter.h"
#include "pinet/image.h"

int pinet_cli_hostscatter(int argc, char **argv);
extern const char pinet_cli_hostscatter_summary[];
const char pinet_cli_hostscatter_summary[] =
    "host-to-hypercube data distribution: decremental scattering and others (paper 003); curves";

static const char k_ctx[] = "hostscatter";
static const char *const k_strategies[] = {"sequential", "scatter", "seqscatter", "decremental", NULL};

static const char k_usage[] =
    "usage: pinet hostscatter --dim d --points M [--overlap K] [--strategy S]\n"
    "                         [--beta B --tau T --sigma S] [--x X] [--json]\n"
    "       pinet hostscatter curves [--out DIR] [--json]\n\n"
    "Event-driven simulation of a host loading 2^d hypercube nodes, node i needing the window\n"
    "of M points starting at i*(M-K) (consecutive windows overlap in K points). Strategies:\n"
    "sequential (eq. 6), scatter (eq. 7), seqscatter (eq. 8, best x), decremental (eqs. 9-10,\n"
    "best x). Host messages cost sigma*beta + n*tau, node messages beta + n*tau; times are in the\n"
    "unit of beta and tau. JSON: {\"time\",\"x\",\"formula_time\",\"formula_holds\",\"sets_ok\", ...};\n"
    "x is null for sequential and scatter. Exit 1 if a node did not end with its set.\n"
    "`curves` regenerates Figures 1-2 (M = 100, beta = 800; M = 500, beta = 6500; sigma = 1.5,\n"
    "tau = 8) as CSV and SVG.";

/* Parse a non-negative finite parameter. */
static int parse_param(pinet_cli_opt *opt, double fallback, double *out) {
  *out = fallback;
  if (!opt->present) {
    return PINET_EXIT_OK;
  }
  int rc = pinet_cli_parse_double(k_ctx, opt->name, opt->value, out);
  if (rc != PINET_EXIT_OK) {
    return rc;
  }
  if (*out < 0.0) {
    return pinet_cli_fail(k_ctx, PINET_ERR_RANGE, "--%s must be >= 0 (got %s)", opt->name,
                          PINET_CLI_Q(opt->value));
  }
  return PINET_EXIT_OK;
}

static int run_one(const pinet_hostscatter_params *prm, pinet_hostscatter_strategy s, int32_t x,
                   pinet_hostscatter_outcome *out, int32_t *formula_x, double *formula_best) {
  pinet_hostscatter_run *run = NULL;
  pinet_status st = pinet_hostscatter_simulate(prm, s, x, &run);
  if (st != PINET_OK) {
    return (int)st;
  }
  pinet_hostscatter_run_outcome(run, out);
  pinet_hostscatter_run_free(run);
  return (int)pinet_hostscatter_formula(prm, s, x, formula_best, formula_x);
}

/* ---- curves ---------------------------------------------------------------------------------- */

#define CURVE_DMAX 10
#define N_SERIES 6

typedef struct fig_def {
  const char *stem;
  uint32_t points;
  double beta;
} fig_def;

static int curves_vs_dim(pinet_cli_files *fl, const fig_def *fig) {
  const uint32_t ov[3] = {0, fig->points / 2, fig->points - 1};
  double xs[CURVE_DMAX], ys[N_SERIES][CURVE_DMAX];
  char path[4096];
  snprintf(path, sizeof path, "%s/%s.csv", fl->dir, fig->stem);
  FILE *f = pinet_cli_files_open(k_ctx, path);
  if (f == NULL) {
    return PINET_EXIT_IO;
  }
  fprintf(f, "d,nodes,sequential_sim,sequential_eq6,scatter_sim,scatter_eq7,seqscatter_sim,"
             "seqscatter_eq8,seqscatter_x");
  for (int j = 0; j < 3; j++) {
    fprintf(f, ",decremental_ov%u_sim,decremental_ov%u_eq10,decremental_ov%u_x", ov[j], ov[j], ov[j]);
  }
  fprintf(f, "\n");
  for (uint32_t d = 1; d <= CURVE_DMAX; d++) {
    pinet_hostscatter_params prm = {d, fig->points, 0, fig->beta, 8.0, 1.5};
    xs[d - 1] = d;
    fprintf(f, "%u,%u", d, 1u << d);
    for (int s = 0; s < N_SERIES; s++) {
      pinet_hostscatter_strategy strat = s < 3 ? (pinet_hostscatter_strategy)s : PINET_HOSTSCATTER_DECREMENTAL;
      prm.overlap = s < 3 ? 0 : ov[s - 3];
      pinet_hostscatter_outcome o;
      int32_t fx = -1;
      double ft = 0.0;
      int st = run_one(&prm, strat, PINET_HOSTSCATTER_BEST_X, &o, &fx, &ft);
      if (st != PINET_OK) {
        fclose(f);
        return pinet_cli_fail(k_ctx, (pinet_status)st, "curves: d = %u", d);
      }
      ys[s][d - 1] = o.time;
      fprintf(f, ",%.10g,%.10g", o.time, ft);
      if (s >= 2) {
        fprintf(f, ",%d", o.x);
      }
    }
    fprintf(f, "\n");
  }
  int rc = pinet_cli_files_close(fl, k_ctx, f, path);
  if (rc != PINET_EXIT_OK) {
    return rc;
  }
  char labels[N_SERIES][64];
  snprintf(labels[0], 64, "sequential loading (6)");
  snprintf(labels[1], 64, "data scattering (7)");
  snprintf(labels[2], 64, "sequential/scattering, best x (8)");
  for (int j = 0; j < 3; j++) {
    snprintf(labels[3 + j], 64, "decremental (DS), overlap %u", ov[j]);
  }
  pinet_plot_series series[N_SERIES];
  for (int s = 0; s < N_SERIES; s++) {
    series[s] = (pinet_plot_series){labels[s], xs, ys[s], CURVE_DMAX, PINET_PLOT_LINE_MARKERS};
  }
  char title[128];
  snprintf(title, sizeof title, "Distribution time, M = %u, beta = %g, sigma = 1.5, tau = 8",
           fig->points, fig->beta);
  pinet_plot plot = {title, "hypercube dimension d (2^d nodes)", "time (unit of beta, tau)",
                     0, 1, series, N_SERIES};
  snprintf(path, sizeof path, "%s/%s.svg", fl->dir, fig->stem);
  return pinet_cli_files_svg(fl, k_ctx, path, &plot);
}

/* Time against overlap 0..M-1 at one dimension. */
static int curves_vs_overlap(pinet_cli_files *fl, const fig_def *fig, uint32_t d) {
  uint32_t m = fig->points;
  double *buf = malloc((size_t)m * 5 * sizeof *buf);
  if (buf == NULL) {
    return pinet_cli_fail(k_ctx, PINET_ERR_NOMEM, "curves");
  }
  double *xs = buf, *y[4] = {buf + m, buf + 2 * m, buf + 3 * m, buf + 4 * m};
  char path[4096];
  snprintf(path, sizeof path, "%s/%s_overlap.csv", fl->dir, fig->stem);
  FILE *f = pinet_cli_files_open(k_ctx, path);
  if (f == NULL) {
    free(buf);
    return PINET_EXIT_IO;
  }
  fprintf(f, "overlap,delta,sequential_sim,scatter_sim,seqscatter_sim,decremental_sim,decremental_eq10,"
             "decremental_x\n");
  for (uint32_t k = 0; k < m; k++) {
    pinet_hostscatter_params prm = {d, m, k, fig->beta, 8.0, 1.5};
    xs[k] = k;
    double ft = 0.0;
    for (int s = 0; s < 4; s++) {
      pinet_hostscatter_outcome o;
      int32_t fx = -1;
      int st = run_one(&prm, (pinet_hostscatter_strategy)s, PINET_HOSTSCATTER_BEST_X, &o, &fx, &ft);
      if (st != PINET_OK) {
        fclose(f);
        free(buf);
        return pinet_cli_fail(k_ctx, (pinet_status)st, "curves: overlap %u", k);
      }
      y[s][k] = o.time;
      if (s == 3) {
        fprintf(f, "%u,%u,%.10g,%.10g,%.10g,%.10g,%.10g,%d\n", k, m - k, y[0][k], y[1][k], y[2][k],
                o.time, ft, o.x);
      }
    }
  }
  int rc = pinet_cli_files_close(fl, k_ctx, f, path);
  if (rc != PINET_EXIT_OK) {
    free(buf);
    return rc;
  }
  pinet_plot_series series[4] = {
      {"sequential loading (6)", xs, y[0], m, PINET_PLOT_LINE},
      {"data scattering (7)", xs, y[1], m, PINET_PLOT_LINE},
      {"sequential/scattering, best x (8)", xs, y[2], m, PINET_PLOT_LINE},
      {"decremental scattering, best x (10)", xs, y[3], m, PINET_PLOT_LINE},
  };
  char title[128];
  snprintf(title, sizeof title, "Distribution time vs overlap, d = %u, M = %u, beta = %g", d, m,
           fig->beta);
  pinet_plot plot = {title, "overlap M - Delta (points shared by consecutive nodes)",
                     "time (unit of beta, tau)", 0, 1, series, 4};
  snprintf(path, sizeof path, "%s/%s_overlap.svg", fl->dir, fig->stem);
  rc = pinet_cli_files_svg(fl, k_ctx, path, &plot);
  free(buf);
  return rc;
}

static const char k_curves_usage[] =
    "usage: pinet hostscatter curves [--out DIR] [--json]\n\n"
    "Regenerates the paper's Figures 1-2 (sigma = 1.5, tau = 8): for M = 100,\n"
    "beta = 800 (hostscatter_fig1) and M = 500, beta = 6500 (hostscatter_fig2),\n"
    "the simulated times of all four strategies for d = 1..10, decremental\n"
    "scattering at overlaps 0, M/2, M-1 (<stem>.csv/.svg), and the times against\n"
    "the overlap 0..M-1 at d = 6 (<stem>_overlap.csv/.svg). The CSVs also hold\n"
    "the paper's equations and the x chosen.";

static int run_curves(int argc, char **argv) {
  pinet_cli_files fl;
  int rc = pinet_cli_files_parse(&fl, "hostscatter curves", k_curves_usage, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  pinet_cli_files_begin(&fl);
  const fig_def figs[2] = {{"hostscatter_fig1", 100, 800.0}, {"hostscatter_fig2", 500, 6500.0}};
  for (int i = 0; i < 2; i++) {
    rc = curves_vs_dim(&fl, &figs[i]);
    if (rc == PINET_EXIT_OK) {
      rc = curves_vs_overlap(&fl, &figs[i], 6);
    }
    if (rc != PINET_EXIT_OK) {
      return rc;
    }
  }
  pinet_cli_files_end(&fl);
  return PINET_EXIT_OK;
}

/* ---- main command ---------------------------------------------------------------------------- */

int pinet_cli_hostscatter(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "curves") == 0) {
    return run_curves(argc, argv);
  }
  pinet_cli_opt opts[] = {
      {"dim", 1, "d", "hypercube dimension, 1..20 (2^d nodes)", NULL, 0},
      {"points", 1, "M", "points each node needs, >= 1", NULL, 0},
      {"overlap", 1, "K", "points shared by consecutive nodes, 0..M-1 (default 0); Delta = M - K",
       NULL, 0},
      {"strategy", 1, "S", "sequential|scatter|seqscatter|decremental (default decremental)", NULL, 0},
      {"beta", 1, "B", "node-to-node start-up time (default 800)", NULL, 0},
      {"tau", 1, "T", "time per word (default 8)", NULL, 0},
      {"sigma", 1, "S", "host start-up / node start-up (default 1.5)", NULL, 0},
      {"x", 1, "X", "force the subcube dimension x (seqscatter 0..d, decremental 0..d-1)", NULL, 0},
      {"json", 0, NULL, "machine-readable output", NULL, 0},
  };
  size_t n_opts = sizeof opts / sizeof opts[0];
  int rc = pinet_cli_parse_or_help(k_ctx, k_usage, opts, n_opts, argc, argv, 1);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  int64_t dim = 0, points = 0, overlap = 0, x = PINET_HOSTSCATTER_BEST_X;
  unsigned strat = PINET_HOSTSCATTER_DECREMENTAL;
  if ((rc = pinet_cli_required_i64(k_ctx, opts, n_opts, "dim", &dim)) != PINET_EXIT_OK ||
      (rc = pinet_cli_required_i64(k_ctx, opts, n_opts, "points", &points)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_i64(k_ctx, opts, n_opts, "overlap", &overlap)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_i64(k_ctx, opts, n_opts, "x", &x)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_choice(k_ctx, opts, n_opts, "strategy", k_strategies, &strat)) !=
          PINET_EXIT_OK) {
    return rc;
  }
  pinet_hostscatter_params prm;
  if ((rc = parse_param(&opts[4], 800.0, &prm.beta)) != PINET_EXIT_OK ||
      (rc = parse_param(&opts[5], 8.0, &prm.tau)) != PINET_EXIT_OK ||
      (rc = parse_param(&opts[6], 1.5, &prm.sigma)) != PINET_EXIT_OK) {
    return rc;
  }
  if (dim < 1 || dim > PINET_HOSTSCATTER_MAX_DIM) {
    return pinet_cli_fail(k_ctx, PINET_ERR_RANGE, "--dim %" PRId64 " is not in 1..%u", dim,
                          PINET_HOSTSCATTER_MAX_DIM);
  }
  if (points < 1 || points > UINT32_MAX) {
    return pinet_cli_fail(k_ctx, PINET_ERR_RANGE, "--points %" PRId64 " must be >= 1", points);
  }
  if (overlap < 0 || overlap >= points) {
    return pinet_cli_fail(k_ctx, PINET_ERR_RANGE,
                          "--overlap %" PRId64 " must be in 0..M-1 = 0..%" PRId64, overlap, points - 1);
  }
  if (((uint64_t)points << dim) > PINET_HOSTSCATTER_MAX_WORDS) {
    return pinet_cli_fail(k_ctx, PINET_ERR_SIZE, "--points * 2^--dim = %" PRIu64 " exceeds %u",
                          (uint64_t)points << dim, PINET_HOSTSCATTER_MAX_WORDS);
  }
  prm.dim = (uint32_t)dim;
  prm.points = (uint32_t)points;
  prm.overlap = (uint32_t)overlap;
  pinet_hostscatter_strategy s = (pinet_hostscatter_strategy)strat;
  if (opts[7].present) {
    if (s == PINET_HOSTSCATTER_SEQUENTIAL || s == PINET_HOSTSCATTER_SCATTER) {
      return pinet_cli_usage_error(k_ctx, "--x applies to seqscatter and decremental only");
    }
    int64_t hi = s == PINET_HOSTSCATTER_SEQSCATTER ? dim : dim - 1;
    if (x < 0 || x > hi) {
      return pinet_cli_fail(k_ctx, PINET_ERR_RANGE, "--x %" PRId64 " is not in 0..%" PRId64 " for %s",
                            x, hi, k_strategies[strat]);
    }
  }
  pinet_hostscatter_outcome o;
  int32_t fx = -1;
  double ft = 0.0;
  int st = run_one(&prm, s, (int32_t)x, &o, &fx, &ft);
  if (st != PINET_OK) {
    return pinet_cli_fail(k_ctx, (pinet_status)st, "simulation failed");
  }
  if (!isfinite(o.time) || !isfinite(o.formula_time) || (fx >= 0 && !isfinite(ft))) {
    return pinet_cli_fail(k_ctx, PINET_ERR_RANGE,
                          "the times overflow the double range (simulated %g, equation %g) with "
                          "--beta %g --tau %g --sigma %g", o.time, o.formula_time, prm.beta,
                          prm.tau, prm.sigma);
  }
  if (opts[8].present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "time");
    pinet_json_double(&js, o.time);
    pinet_json_key(&js, "x");
    if (o.x < 0) {
      pinet_json_null(&js);
    } else {
      pinet_json_i64(&js, o.x);
    }
    pinet_json_key(&js, "strategy");
    pinet_json_string(&js, k_strategies[strat]);
    pinet_json_key(&js, "dim");
    pinet_json_u64(&js, prm.dim);
    pinet_json_key(&js, "nodes");
    pinet_json_u64(&js, 1u << prm.dim);
    pinet_json_key(&js, "points");
    pinet_json_u64(&js, prm.points);
    pinet_json_key(&js, "overlap");
    pinet_json_u64(&js, prm.overlap);
    pinet_json_key(&js, "delta");
    pinet_json_u64(&js, prm.points - prm.overlap);
    pinet_json_key(&js, "beta");
    pinet_json_double(&js, prm.beta);
    pinet_json_key(&js, "tau");
    pinet_json_double(&js, prm.tau);
    pinet_json_key(&js, "sigma");
    pinet_json_double(&js, prm.sigma);
    pinet_json_key(&js, "formula_time");
    pinet_json_double(&js, o.formula_time);
    pinet_json_key(&js, "formula_holds");
    pinet_json_bool(&js, o.formula_holds);
    pinet_json_key(&js, "formula_best_time");
    pinet_json_double(&js, ft);
    pinet_json_key(&js, "formula_best_x");
    if (fx < 0) {
      pinet_json_null(&js);
    } else {
      pinet_json_i64(&js, fx);
    }
    pinet_json_key(&js, "sets_ok");
    pinet_json_bool(&js, o.sets_ok);
    pinet_json_key(&js, "messages");
    pinet_json_u64(&js, o.messages);
    pinet_json_key(&js, "host_messages");
    pinet_json_u64(&js, o.host_messages);
    pinet_json_key(&js, "host_words");
    pinet_json_u64(&js, o.host_words);
    pinet_json_key(&js, "node_words");
    pinet_json_u64(&js, o.node_words);
    pinet_json_end_document(&js);
  } else {
    printf("hostscatter: %s, d = %u (%u nodes), M = %u, overlap %u (Delta %u), beta %g, tau %g, "
           "sigma %g\n",
           k_strategies[strat], prm.dim, 1u << prm.dim, prm.points, prm.overlap,
           prm.points - prm.overlap, prm.beta, prm.tau, prm.sigma);
    if (o.x >= 0) {
      printf("x = %d\n", o.x);
    }
    printf("simulated time %.10g; paper's equation at this x %.10g (%s)\n", o.time, o.formula_time,
           o.formula_holds ? "equal" : "DIFFERENT: the equation's assumption fails here");
    if (fx >= 0) {
      printf("equation's own best: x = %d, time %.10g\n", fx, ft);
    }
    printf("messages %" PRIu64 " (host %" PRIu64 "), words from host %" PRIu64 ", between nodes %" PRIu64
           "; every node has its set: %s\n",
           o.messages, o.host_messages, o.host_words, o.node_words, o.sets_ok ? "yes" : "NO");
  }
  return o.sets_ok ? PINET_EXIT_OK : PINET_EXIT_FAIL;
}
