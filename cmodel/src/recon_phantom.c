/* recon_phantom.c - parallel-beam geometry, ellipse phantoms, analytic sinograms, Joseph's
 * ray-driven projector and Poisson noise (pinet/recon_geom.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon_geom.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

pinet_status pinet_pb_geom_init(pinet_pb_geom *g, uint32_t size, uint32_t views, uint32_t bins) {
  RETURN_ERROR_IF(g == NULL, PINET_ERR_NULL);
  g->size = size;
  g->views = views;
  g->bins = bins;
  g->img_center = (double)(size / 2u);
  g->bin_center = (double)(bins / 2u);
  return pinet_pb_geom_check(g);
}

pinet_status pinet_pb_geom_check(const pinet_pb_geom *g) {
  RETURN_ERROR_IF(g == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(g->size == 0 || g->size > PINET_RECON_MAX_SIZE, PINET_ERR_RANGE);
  RETURN_ERROR_IF(g->views == 0 || g->views > PINET_RECON_MAX_VIEWS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(g->bins == 0 || g->bins > PINET_RECON_MAX_BINS, PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(g->img_center) || g->img_center < 0 || g->img_center > g->size,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(g->bin_center) || g->bin_center < 0 || g->bin_center > g->bins,
                  PINET_ERR_RANGE);
  return PINET_OK;
}

uint32_t pinet_pb_disk_radius(const pinet_pb_geom *g) { return g->size / 2u; }

/* ---- phantoms -------------------------------------------------------------------------------- */

/* Modified Shepp-Logan (Toft 1996): the original geometry with contrasts raised for display. */
static const pinet_ellipse k_shepp_logan[10] = {
    {1.0, 0.69, 0.92, 0.0, 0.0, 0.0},          {-0.8, 0.6624, 0.874, 0.0, -0.0184, 0.0},
    {-0.2, 0.11, 0.31, 0.22, 0.0, -18.0},      {-0.2, 0.16, 0.41, -0.22, 0.0, 18.0},
    {0.1, 0.21, 0.25, 0.0, 0.35, 0.0},         {0.1, 0.046, 0.046, 0.0, 0.1, 0.0},
    {0.1, 0.046, 0.046, 0.0, -0.1, 0.0},       {0.1, 0.046, 0.023, -0.08, -0.605, 0.0},
    {0.1, 0.023, 0.023, 0.0, -0.606, 0.0},     {0.1, 0.023, 0.046, 0.06, -0.605, 0.0}};

static const pinet_ellipse k_disk[1] = {{1.0, 0.5, 0.5, 0.0, 0.0, 0.0}};

void pinet_phantom_shepp_logan(const pinet_ellipse **ellipses, size_t *count) {
  if (ellipses != NULL) *ellipses = k_shepp_logan;
  if (count != NULL) *count = 10;
}

pinet_ellipse pinet_phantom_disk(double value, double radius) {
  pinet_ellipse e = {value, radius, radius, 0.0, 0.0, 0.0};
  return e;
}

pinet_status pinet_phantom_by_name(const char *name, const pinet_ellipse **ellipses,
                                   size_t *count) {
  RETURN_ERROR_IF(name == NULL || ellipses == NULL || count == NULL, PINET_ERR_NULL);
  if (strcmp(name, "shepp-logan") == 0) {
    pinet_phantom_shepp_logan(ellipses, count);
    return PINET_OK;
  }
  if (strcmp(name, "disk") == 0) {
    *ellipses = k_disk;
    *count = 1;
    return PINET_OK;
  }
  return PINET_ERR_RANGE;
}

static int ellipses_ok(const pinet_ellipse *e, size_t count) {
  for (size_t i = 0; i < count; i++) {
    if (!(e[i].a > 0) || !(e[i].b > 0) || !isfinite(e[i].a) || !isfinite(e[i].b) ||
        !isfinite(e[i].x0) || !isfinite(e[i].y0) || !isfinite(e[i].phi_deg) ||
        !isfinite(e[i].value)) {
      return 0;
    }
  }
  return 1;
}

pinet_status pinet_phantom_rasterize(const pinet_ellipse *ellipses, size_t count, uint32_t size,
                                     double img_center, unsigned oversample, float *img) {
  RETURN_ERROR_IF(img == NULL || (ellipses == NULL && count > 0), PINET_ERR_NULL);
  RETURN_ERROR_IF(size == 0 || size > PINET_RECON_MAX_SIZE || oversample == 0 || oversample > 16,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(img_center) || !ellipses_ok(ellipses, count), PINET_ERR_RANGE);
  const double unit = size / 2.0;
  const double inv_n = 1.0 / (oversample * oversample);
  for (uint32_t r = 0; r < size; r++) {
    for (uint32_t c = 0; c < size; c++) {
      double acc = 0.0;
      for (unsigned sr = 0; sr < oversample; sr++) {
        for (unsigned sc = 0; sc < oversample; sc++) {
          double x = ((double)c - img_center - 0.5 + (sc + 0.5) / oversample) / unit;
          double y = (img_center - (double)r + 0.5 - (sr + 0.5) / oversample) / unit;
          for (size_t k = 0; k < count; k++) {
            const pinet_ellipse *e = &ellipses[k];
            double ph = e->phi_deg * M_PI / 180.0;
            double dx = x - e->x0, dy = y - e->y0;
            double u = dx * cos(ph) + dy * sin(ph);
            double v = -dx * sin(ph) + dy * cos(ph);
            if ((u * u) / (e->a * e->a) + (v * v) / (e->b * e->b) <= 1.0) acc += e->value;
          }
        }
      }
      img[(size_t)r * size + c] = (float)(acc * inv_n);
    }
  }
  return PINET_OK;
}

double pinet_phantom_line_integral(const pinet_ellipse *ellipses, size_t count, uint32_t size,
                                   double theta, double s) {
  const double unit = size / 2.0;
  double sn = s / unit; /* in normalised units; the chord length scales back by unit */
  double total = 0.0;
  double ct = cos(theta), st = sin(theta);
  for (size_t k = 0; k < count; k++) {
    const pinet_ellipse *e = &ellipses[k];
    double ph = e->phi_deg * M_PI / 180.0;
    double sp = sn - (e->x0 * ct + e->y0 * st);
    double g = theta - ph;
    double a2 = e->a * e->a * cos(g) * cos(g) + e->b * e->b * sin(g) * sin(g);
    if (sp * sp < a2) {
      total += e->value * 2.0 * e->a * e->b * sqrt(a2 - sp * sp) / a2;
    }
  }
  return total * unit;
}

pinet_status pinet_phantom_sinogram(const pinet_ellipse *ellipses, size_t count,
                                    const pinet_pb_geom *g, unsigned oversample, float *sino) {
  RETURN_ERROR_IF(sino == NULL || (ellipses == NULL && count > 0), PINET_ERR_NULL);
  FORWARD_IF_ERROR(pinet_pb_geom_check(g));
  RETURN_ERROR_IF(oversample == 0 || oversample > 16 || !ellipses_ok(ellipses, count),
                  PINET_ERR_RANGE);
  for (uint32_t k = 0; k < g->views; k++) {
    double theta = M_PI * k / g->views;
    for (uint32_t b = 0; b < g->bins; b++) {
      double acc = 0.0;
      for (unsigned o = 0; o < oversample; o++) {
        double s = (double)b - g->bin_center - 0.5 + (o + 0.5) / oversample;
        acc += pinet_phantom_line_integral(ellipses, count, g->size, theta, s);
      }
      sino[(size_t)k * g->bins + b] = (float)(acc / oversample);
    }
  }
  return PINET_OK;
}

/* ---- Joseph's projector ----------------------------------------------------------------------
 * Ray: points with x cos + y sin = s. If |sin| >= |cos| the ray is closer to horizontal (it runs
 * along x): y = (s - x cos) / sin; sample at every pixel column centre, interpolate in y between
 * the two nearest rows, step length 1/|sin|. Otherwise sample per row. */
static double img_at(const float *img, uint32_t n, long r, long c) {
  if (r < 0 || c < 0 || r >= (long)n || c >= (long)n) return 0.0;
  return img[(size_t)r * n + (size_t)c];
}

pinet_status pinet_project_joseph(const pinet_pb_geom *g, const float *img, float *sino) {
  RETURN_ERROR_IF(img == NULL || sino == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(pinet_pb_geom_check(g));
  const uint32_t n = g->size;
  const double c0 = g->img_center;
  for (uint32_t k = 0; k < g->views; k++) {
    double theta = M_PI * k / g->views;
    double ct = cos(theta), st = sin(theta);
    for (uint32_t b = 0; b < g->bins; b++) {
      double s = (double)b - g->bin_center;
      double acc = 0.0;
      if (fabs(st) >= fabs(ct)) {
        double w = 1.0 / fabs(st);
        for (uint32_t c = 0; c < n; c++) {
          double x = (double)c - c0;
          double y = (s - x * ct) / st;
          double rf = c0 - y; /* fractional row */
          double r0 = floor(rf);
          double f = rf - r0;
          acc += w * ((1.0 - f) * img_at(img, n, (long)r0, (long)c) +
                      f * img_at(img, n, (long)r0 + 1, (long)c));
        }
      } else {
        double w = 1.0 / fabs(ct);
        for (uint32_t r = 0; r < n; r++) {
          double y = c0 - (double)r;
          double x = (s - y * st) / ct;
          double cf = x + c0;
          double cc0 = floor(cf);
          double f = cf - cc0;
          acc += w * ((1.0 - f) * img_at(img, n, (long)r, (long)cc0) +
                      f * img_at(img, n, (long)r, (long)cc0 + 1));
        }
      }
      sino[(size_t)k * g->bins + b] = (float)acc;
    }
  }
  return PINET_OK;
}

/* ---- Poisson noise ----------------------------------------------------------------------------
 * Small means: Knuth's product of uniforms. Large means (>= 10): Hoermann's transformed rejection
 * with squeeze (PTRS, 1993). */
static double poisson_draw(pinet_rng *rng, double lam) {
  if (lam <= 0.0) return 0.0;
  if (lam < 10.0) {
    double lim = exp(-lam), p = 1.0;
    double k = -1.0;
    do {
      k += 1.0;
      p *= pinet_rng_unit(rng);
    } while (p > lim);
    return k;
  }
  const double slam = sqrt(lam), loglam = log(lam);
  const double b = 0.931 + 2.53 * slam;
  const double a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const double vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    double u = pinet_rng_unit(rng) - 0.5;
    double v = pinet_rng_unit(rng);
    double us = 0.5 - fabs(u);
    double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (v <= 0.0) continue;
    if (log(v) + log(invalpha) - log(a / (us * us) + b) <= -lam + k * loglam - lgamma(k + 1.0)) {
      return k;
    }
  }
}

pinet_status pinet_poisson_noise(pinet_rng *rng, const float *mean, size_t n, double scale,
                                 float *out) {
  RETURN_ERROR_IF(rng == NULL || (n > 0 && (mean == NULL || out == NULL)), PINET_ERR_NULL);
  RETURN_ERROR_IF(!isfinite(scale) || !(scale > 0), PINET_ERR_RANGE);
  for (size_t i = 0; i < n; i++) RETURN_ERROR_IF(!isfinite(mean[i]), PINET_ERR_RANGE);
  for (size_t i = 0; i < n; i++) {
    double lam = (double)mean[i] * scale;
    out[i] = (float)poisson_draw(rng, lam > 0 ? lam : 0.0);
  }
  return PINET_OK;
}

double pinet_rmse_disk(const float *a, const float *b, uint32_t size, double img_center) {
  const double r = (double)(size / 2u);
  double se = 0.0;
  size_t cnt = 0;
  for (uint32_t i = 0; i < size; i++)
    for (uint32_t j = 0; j < size; j++) {
      const double dr = i - img_center, dc = j - img_center;
      if (dr * dr + dc * dc <= r * r) {
        const double d = (double)a[(size_t)i * size + j] - b[(size_t)i * size + j];
        se += d * d;
        cnt++;
      }
    }
  return cnt ? sqrt(se / cnt) : 0.0;
}
