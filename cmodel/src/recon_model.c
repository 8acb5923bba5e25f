/* recon_model.c - the paper's efficiency models, eqs. (4) and (6), fitted by least squares to its
 * transputer measurements (Tables 2-7) (pinet/recon.h). */
#include <math.h>
#include <stddef.h>

#include "error_private.h"
#include "pinet/recon.h"

/* ---- paper data ------------------------------------------------------------------------------ */

static const uint32_t k_pes[6] = {1, 2, 4, 8, 16, 32};
static const uint32_t k_fbp_sizes[4] = {64, 128, 256, 512};

/* Table 2: execution time including I/O, and I/O time, [size][pes]. The OCR gives 4.91 for the
 * single-PE 128 x 128 time; Table 3 (1.96 x 25.02 = 49.0) shows it is 49.1. */
static const double k_fbp_exec[4][6] = {{6.17, 3.18, 1.70, 1.04, 0.59, 0.37},
                                        {49.1, 25.02, 13.02, 7.73, 4.12, 2.29},
                                        {394.0, 198.77, 102.33, 59.91, 31.03, 16.42},
                                        {3130.7, 1584.95, 811.89, 471.98, 241.40, 124.73}};
static const double k_fbp_io[4][6] = {{0, 0.02, 0.03, 0.03, 0.03, 0.03},
                                      {0, 0.08, 0.10, 0.10, 0.10, 0.11},
                                      {0, 0.34, 0.37, 0.39, 0.40, 0.41},
                                      {0, 1.34, 1.47, 1.56, 1.59, 1.61}};
/* Table 3: speedups +I/O, -I/O, [size][pes 2..32] */
static const double k_fbp_speedup[4][5][2] = {
    {{1.94, 1.95}, {3.63, 3.69}, {5.93, 6.11}, {10.46, 11.02}, {16.68, 18.15}},
    {{1.96, 1.97}, {3.77, 3.8}, {6.35, 6.44}, {11.92, 12.21}, {21.44, 22.52}},
    {{1.98, 1.99}, {3.85, 3.86}, {6.58, 6.62}, {12.70, 12.86}, {24.00, 24.61}},
    {{1.98, 1.98}, {3.86, 3.86}, {6.63, 6.66}, {12.97, 13.05}, {25.10, 25.43}}};

static const uint32_t k_em_iters[6] = {1, 2, 4, 8, 16, 32};
/* Table 5: [pes][iters][+I/O, -I/O] */
static const double k_em_exec[6][6][2] = {
    {{5.17, 5.17}, {10.34, 10.34}, {20.68, 20.68}, {41.36, 41.36}, {82.00, 82.00}, {162.4, 162.4}},
    {{6.35, 2.82}, {9.15, 5.62}, {14.74, 11.21}, {25.92, 22.39}, {48.29, 44.76}, {93.02, 89.49}},
    {{4.3, 1.66}, {5.77, 3.13}, {8.75, 6.11}, {14.66, 12.02}, {26.45, 23.81}, {50.08, 47.44}},
    {{3.46, 1.29}, {4.43, 2.26}, {6.38, 4.21}, {10.28, 8.11}, {18.09, 15.92}, {33.62, 31.45}},
    {{2.97, 0.8}, {3.57, 1.40}, {4.77, 2.60}, {7.17, 5.00}, {11.94, 9.77}, {21.50, 19.33}},
    {{2.80, 0.49}, {3.20, 0.89}, {4.00, 1.69}, {5.60, 3.29}, {8.80, 6.49}, {15.17, 12.86}}};
/* Table 4: I/O time per pes */
static const double k_em_io[6] = {0, 3.53, 2.64, 2.17, 2.17, 2.34};
/* Table 6: speedups [pes 2..32][iters][+I/O, -I/O] */
static const double k_em_speedup[5][6][2] = {
    {{0.81, 1.83}, {1.13, 1.84}, {1.40, 1.84}, {1.60, 1.85}, {1.70, 1.83}, {1.75, 1.81}},
    {{1.20, 3.11}, {1.79, 3.30}, {2.36, 3.38}, {2.82, 3.44}, {3.1, 3.44}, {3.24, 3.42}},
    {{1.49, 4.00}, {2.33, 4.58}, {3.24, 4.91}, {4.02, 5.10}, {4.53, 5.15}, {4.83, 5.16}},
    {{1.74, 6.46}, {2.90, 7.39}, {4.34, 7.59}, {5.77, 8.27}, {6.87, 8.39}, {7.55, 8.40}},
    {{1.85, 10.55}, {3.23, 11.63}, {5.17, 12.24}, {7.39, 12.57}, {9.32, 12.63}, {10.70, 12.63}}};
/* Table 7: efficiencies in % [pes 2..32][iters][+I/O, -I/O] */
static const double k_em_eff[5][6][2] = {
    {{40.1, 91.5}, {56.5, 92.0}, {70.0, 92.0}, {80.0, 92.5}, {85.0, 91.5}, {87.5, 90.5}},
    {{30.0, 77.8}, {44.8, 82.5}, {59.0, 84.5}, {70.5, 86.0}, {77.5, 86.0}, {81.0, 85.5}},
    {{18.6, 50.5}, {29.0, 57.3}, {40.5, 61.4}, {50.3, 63.8}, {56.6, 64.4}, {60.4, 64.5}},
    {{10.9, 40.4}, {18.1, 46.2}, {27.1, 49.7}, {36.1, 51.7}, {42.9, 52.4}, {47.2, 52.5}},
    {{5.8, 33.0}, {10.1, 36.3}, {16.2, 38.3}, {23.0, 39.3}, {29.1, 39.5}, {33.4, 39.5}}};

#define EM_TUBES 4560.0 /* one ring of 96 detectors: 96 * 95 / 2 tubes */

/* ---- models ---------------------------------------------------------------------------------- */

double pinet_recon_model_eff_fbp(double t0, double alpha, double c, double tio, double m,
                                 uint32_t pes) {
  double n = pes;
  double denom = t0 + alpha * (n - 1.0) * m + 2.0 * c * n * log2(n) + (pes > 1 ? n * tio : 0.0);
  return denom > 0 ? t0 / denom : NAN;
}

double pinet_recon_model_eff_em(double t0, double alpha, double c, double tio, double m,
                                uint32_t pes, uint32_t iters) {
  double n = pes, ni = iters;
  double denom = ni * t0 + ni * (alpha * (n - 1.0) * m + 2.0 * c * n * log2(n)) +
                 (pes > 1 ? n * tio : 0.0);
  return denom > 0 ? ni * t0 / denom : NAN;
}

/* Weighted least squares for y = p1 x1 + p2 x2 (weights w). */
static void lsq2(const double *y, const double *x1, const double *x2, const double *w, size_t n,
                 double *p1, double *p2) {
  double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0;
  for (size_t i = 0; i < n; i++) {
    a11 += w[i] * x1[i] * x1[i];
    a12 += w[i] * x1[i] * x2[i];
    a22 += w[i] * x2[i] * x2[i];
    b1 += w[i] * x1[i] * y[i];
    b2 += w[i] * x2[i] * y[i];
  }
  double det = a11 * a22 - a12 * a12;
  if (fabs(det) < 1e-300) {
    *p1 = a11 > 0 ? b1 / a11 : 0;
    *p2 = 0;
    return;
  }
  *p1 = (b1 * a22 - b2 * a12) / det;
  *p2 = (a11 * b2 - a12 * b1) / det;
}

/* The same with p1, p2 >= 0 (a negative link-setup or transfer time has no meaning): when the
 * free solution has a negative parameter, refit the other one alone. */
static void nnlsq2(const double *y, const double *x1, const double *x2, const double *w, size_t n,
                   double *p1, double *p2) {
  lsq2(y, x1, x2, w, n, p1, p2);
  if (*p1 >= 0 && *p2 >= 0) return;
  double a = 0, b = 0;
  if (*p2 < 0) { /* alpha alone */
    for (size_t i = 0; i < n; i++) { a += w[i] * x1[i] * x1[i]; b += w[i] * x1[i] * y[i]; }
    *p1 = a > 0 && b > 0 ? b / a : 0;
    *p2 = 0;
  } else { /* c alone */
    for (size_t i = 0; i < n; i++) { a += w[i] * x2[i] * x2[i]; b += w[i] * x2[i] * y[i]; }
    *p2 = a > 0 && b > 0 ? b / a : 0;
    *p1 = 0;
  }
}

static double rms_rel(const double *y, const double *x1, const double *x2, const double *w,
                      size_t n, double p1, double p2) {
  double ss = 0;
  for (size_t i = 0; i < n; i++) {
    double r = (y[i] - p1 * x1[i] - p2 * x2[i]) * sqrt(w[i]);
    ss += r * r;
  }
  return n ? sqrt(ss / n) : 0;
}

pinet_status pinet_recon_model_fit_paper(pinet_recon_model_fit *fit, pinet_recon_model_row *rows,
                                         size_t max_rows, size_t *n_rows) {
  RETURN_ERROR_IF(fit == NULL || (rows == NULL && max_rows > 0), PINET_ERR_NULL);
  double y[40], x1[40], x2[40], w[40];
  size_t n = 0;
  /* FBP: T'_N - t0/N = alpha (1 - 1/N) M + c 2 log N, residuals relative to T'_N; one fit per
   * image size (Table 2 columns) and one over all sizes */
  for (int sz = 0; sz < 4; sz++) {
    double t0 = k_fbp_exec[sz][0], m = (double)k_fbp_sizes[sz] * k_fbp_sizes[sz];
    fit->fbp_t0[sz] = t0;
    double io = 0.0;
    size_t n0 = n;
    for (int i = 1; i < 6; i++) {
      double np = k_pes[i], tn = k_fbp_exec[sz][i] - k_fbp_io[sz][i];
      y[n] = tn - t0 / np;
      x1[n] = (1.0 - 1.0 / np) * m;
      x2[n] = 2.0 * log2(np);
      w[n] = 1.0 / (tn * tn);
      n++;
      io += k_fbp_io[sz][i];
    }
    fit->fbp_tio[sz] = io / 5.0;
    nnlsq2(y + n0, x1 + n0, x2 + n0, w + n0, 5, &fit->fbp_alpha_size[sz], &fit->fbp_c_size[sz]);
  }
  nnlsq2(y, x1, x2, w, n, &fit->fbp_alpha, &fit->fbp_c);
  fit->fbp_rms_rel = rms_rel(y, x1, x2, w, n, fit->fbp_alpha, fit->fbp_c);
  /* EM: t0 per iteration from the single PE row; T'(N, ni) = ni (t0/N + A (1-1/N) + 2 c log N) */
  double t0 = 0;
  for (int k = 0; k < 6; k++) t0 += k_em_exec[0][k][1] / k_em_iters[k];
  t0 /= 6.0;
  fit->em_t0 = t0;
  n = 0;
  double io = 0;
  for (int i = 1; i < 6; i++) {
    double np = k_pes[i];
    io += k_em_io[i];
    for (int k = 0; k < 6; k++) {
      double ni = k_em_iters[k], tn = k_em_exec[i][k][1];
      y[n] = tn - ni * t0 / np;
      x1[n] = ni * (1.0 - 1.0 / np) * EM_TUBES;
      x2[n] = ni * 2.0 * log2(np);
      w[n] = 1.0 / (tn * tn);
      n++;
    }
  }
  fit->em_tio = io / 5.0;
  nnlsq2(y, x1, x2, w, n, &fit->em_alpha, &fit->em_c);
  fit->em_rms_rel = rms_rel(y, x1, x2, w, n, fit->em_alpha, fit->em_c);

  size_t out = 0;
  for (int s = 0; s < 4; s++) {
    double m = (double)k_fbp_sizes[s] * k_fbp_sizes[s], t0s = fit->fbp_t0[s];
    for (int i = 1; i < 6; i++) {
      if (out >= max_rows) break;
      uint32_t np = k_pes[i];
      pinet_recon_model_row *r = &rows[out++];
      r->kernel = 0;
      r->size = k_fbp_sizes[s];
      r->iters = 1;
      r->pes = np;
      r->paper_speedup_io = k_fbp_speedup[s][i - 1][0];
      r->paper_speedup_noio = k_fbp_speedup[s][i - 1][1];
      r->paper_eff_io = r->paper_speedup_io / np;
      r->paper_eff_noio = r->paper_speedup_noio / np;
      r->model_eff_io = pinet_recon_model_eff_fbp(t0s, fit->fbp_alpha_size[s], fit->fbp_c_size[s], fit->fbp_tio[s], m, np);
      r->model_eff_noio = pinet_recon_model_eff_fbp(t0s, fit->fbp_alpha_size[s], fit->fbp_c_size[s], 0.0, m, np);
      r->model_speedup_io = r->model_eff_io * np;
      r->model_speedup_noio = r->model_eff_noio * np;
    }
  }
  for (int k = 0; k < 6; k++) {
    for (int i = 1; i < 6; i++) {
      if (out >= max_rows) break;
      uint32_t np = k_pes[i];
      pinet_recon_model_row *r = &rows[out++];
      r->kernel = 1;
      r->size = 64;
      r->iters = k_em_iters[k];
      r->pes = np;
      r->paper_speedup_io = k_em_speedup[i - 1][k][0];
      r->paper_speedup_noio = k_em_speedup[i - 1][k][1];
      r->paper_eff_io = k_em_eff[i - 1][k][0] / 100.0;
      r->paper_eff_noio = k_em_eff[i - 1][k][1] / 100.0;
      r->model_eff_io = pinet_recon_model_eff_em(fit->em_t0, fit->em_alpha, fit->em_c, fit->em_tio,
                                                 EM_TUBES, np, r->iters);
      r->model_eff_noio = pinet_recon_model_eff_em(fit->em_t0, fit->em_alpha, fit->em_c, 0.0,
                                                   EM_TUBES, np, r->iters);
      r->model_speedup_io = r->model_eff_io * np;
      r->model_speedup_noio = r->model_eff_noio * np;
    }
  }
  if (n_rows != NULL) *n_rows = out;
  return PINET_OK;
}
