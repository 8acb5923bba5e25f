/* image_plot.c - hand-written SVG line charts: axes, ticks, labels, a legend. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/image.h"

/* Page and plot-area geometry (SVG user units = CSS pixels). */
/* The page grows to the right to fit the legend. */
enum { PAGE_H = 560, AREA_L = 90, AREA_R = 680, AREA_T = 60, AREA_B = 480 };

static const char *const k_colours[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
                                        "#9467bd", "#8c564b", "#e377c2", "#17becf"};
static const char *const k_dashes[] = {"", "8,4", "2,3", "10,3,2,3"};

typedef struct sbuf {
  char *s;
  size_t len;
  size_t cap;
  int nomem;
} sbuf;

static void sb_printf(sbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_printf(sbuf *sb, const char *fmt, ...) {
  if (sb->nomem) {
    return;
  }
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    if (need < 0) {
      sb->nomem = 1;
      return;
    }
    if ((size_t)need < sb->cap - sb->len) {
      sb->len += (size_t)need;
      return;
    }
    size_t cap = sb->cap * 2 + (size_t)need + 1;
    char *grown = realloc(sb->s, cap);
    if (grown == NULL) {
      sb->nomem = 1;
      return;
    }
    sb->s = grown;
    sb->cap = cap;
  }
}

static void sb_escaped(sbuf *sb, const char *text) {
  for (const char *p = text ? text : ""; *p; p++) {
    switch (*p) {
      case '&': sb_printf(sb, "&amp;"); break;
      case '<': sb_printf(sb, "&lt;"); break;
      case '>': sb_printf(sb, "&gt;"); break;
      case '"': sb_printf(sb, "&quot;"); break;
      default: sb_printf(sb, "%c", *p);
    }
  }
}

typedef struct axis {
  int log;
  double lo, hi;        /* axis range (log10 units on a log axis) */
  double ticks[64];     /* tick positions in data units */
  int n_ticks;
  double minor[256];    /* minor ticks (log axes only) */
  int n_minor;
} axis;

static double nice_step(double range) {
  double raw = range / 6.0;
  double mag = pow(10.0, floor(log10(raw)));
  double norm = raw / mag;
  double f = norm < 1.5 ? 1.0 : norm < 3.0 ? 2.0 : norm < 7.0 ? 5.0 : 10.0;
  return f * mag;
}

static void axis_setup(axis *ax, int log_axis, double mn, double mx) {
  memset(ax, 0, sizeof *ax);
  ax->log = log_axis;
  if (log_axis) {
    double a = floor(log10(mn)), b = ceil(log10(mx));
    if (b <= a) {
      b = a + 1.0;
    }
    ax->lo = a;
    ax->hi = b;
    double stride = ceil((b - a) / 10.0);
    for (double e = a; e <= b + 1e-9 && ax->n_ticks < 64; e += stride) {
      ax->ticks[ax->n_ticks++] = pow(10.0, e);
    }
    if (b - a <= 8) {
      for (double e = a; e < b - 1e-9; e += 1.0) {
        for (int m = 2; m <= 9 && ax->n_minor < 256; m++) {
          ax->minor[ax->n_minor++] = m * pow(10.0, e);
        }
      }
    }
    return;
  }
  if (!(mx > mn)) {
    double pad = mn == 0.0 ? 1.0 : fabs(mn) * 0.1;
    mn -= pad;
    mx += pad;
  }
  double step = nice_step(mx - mn);
  ax->lo = floor(mn / step + 1e-9) * step;
  ax->hi = ceil(mx / step - 1e-9) * step;
  for (double t = ax->lo; t <= ax->hi + step * 1e-6 && ax->n_ticks < 64; t += step) {
    ax->ticks[ax->n_ticks++] = fabs(t) < step * 1e-9 ? 0.0 : t;
  }
}

/* Fraction 0..1 of `v` along the axis. */
static double axis_frac(const axis *ax, double v) {
  double u = ax->log ? log10(v) : v;
  return (u - ax->lo) / (ax->hi - ax->lo);
}

static double px_x(const axis *ax, double v) { return AREA_L + axis_frac(ax, v) * (AREA_R - AREA_L); }
static double px_y(const axis *ax, double v) { return AREA_B - axis_frac(ax, v) * (AREA_B - AREA_T); }

static void tick_label(char *buf, size_t n, double v) {
  snprintf(buf, n, "%g", v);
}

static int point_ok(const pinet_plot *plot, double x, double y) {
  if (!isfinite(x) || !isfinite(y)) {
    return 0;
  }
  return !((plot->xlog && x <= 0.0) || (plot->ylog && y <= 0.0));
}

pinet_status pinet_image_plot_svg(const pinet_plot *plot, char **svg) {
  RETURN_ERROR_IF(plot == NULL || svg == NULL, PINET_ERR_NULL);
  *svg = NULL;
  RETURN_ERROR_IF(plot->series == NULL || plot->n_series == 0, PINET_ERR_RANGE);
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  for (size_t s = 0; s < plot->n_series; s++) {
    const pinet_plot_series *ser = &plot->series[s];
    RETURN_ERROR_IF(ser->n > 0 && (ser->x == NULL || ser->y == NULL), PINET_ERR_NULL);
    size_t good = 0;
    for (size_t i = 0; i < ser->n; i++) {
      double x = ser->x[i], y = ser->y[i];
      if (!isfinite(x) || !isfinite(y)) {
        continue;
      }
      RETURN_ERROR_IF((plot->xlog && x <= 0.0) || (plot->ylog && y <= 0.0), PINET_ERR_RANGE);
      xmin = fmin(xmin, x);
      xmax = fmax(xmax, x);
      ymin = fmin(ymin, y);
      ymax = fmax(ymax, y);
      good++;
    }
    RETURN_ERROR_IF(good == 0, PINET_ERR_RANGE);
  }
  if (!plot->ylog && ymin > 0.0) {
    ymin = 0.0; /* linear value axes start at zero */
  }
  axis ax, ay;
  axis_setup(&ax, plot->xlog, xmin, xmax);
  axis_setup(&ay, plot->ylog, ymin, ymax);

  size_t longest = 0;
  for (size_t s = 0; s < plot->n_series; s++) {
    size_t len = plot->series[s].label ? strlen(plot->series[s].label) : 0;
    longest = len > longest ? len : longest;
  }
  if (longest > 200) {
    longest = 200;
  }
  const int page_w = AREA_R + 20 + 42 + (int)(longest * 7.5) + 24;
  sbuf sb = {NULL, 0, 0, 0};
  sb.cap = 8192;
  sb.s = malloc(sb.cap);
  RETURN_ERROR_IF(sb.s == NULL, PINET_ERR_NOMEM);
  sb.s[0] = '\0';
  sb_printf(&sb,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"13\">\n"
            "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
            page_w, PAGE_H, page_w, PAGE_H, page_w, PAGE_H);
  sb_printf(&sb, "<text x=\"%d\" y=\"32\" text-anchor=\"middle\" font-size=\"17\">",
            (AREA_L + AREA_R) / 2);
  sb_escaped(&sb, plot->title);
  sb_printf(&sb, "</text>\n");

  /* Grid and ticks. */
  char label[64];
  sb_printf(&sb, "<g stroke=\"#dddddd\" stroke-width=\"1\">\n");
  for (int i = 0; i < ax.n_ticks; i++) {
    double x = px_x(&ax, ax.ticks[i]);
    sb_printf(&sb, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, AREA_T, x, AREA_B);
  }
  for (int i = 0; i < ay.n_ticks; i++) {
    double y = px_y(&ay, ay.ticks[i]);
    sb_printf(&sb, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>\n", AREA_L, y, AREA_R, y);
  }
  sb_printf(&sb, "</g>\n<g stroke=\"black\" stroke-width=\"1\">\n");
  for (int i = 0; i < ax.n_ticks; i++) {
    double x = px_x(&ax, ax.ticks[i]);
    sb_printf(&sb, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, AREA_B, x, AREA_B + 6);
  }
  for (int i = 0; i < ax.n_minor; i++) {
    double x = px_x(&ax, ax.minor[i]);
    sb_printf(&sb, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\"/>\n", x, AREA_B, x, AREA_B + 3);
  }
  for (int i = 0; i < ay.n_ticks; i++) {
    double y = px_y(&ay, ay.ticks[i]);
    sb_printf(&sb, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>\n", AREA_L - 6, y, AREA_L, y);
  }
  for (int i = 0; i < ay.n_minor; i++) {
    double y = px_y(&ay, ay.minor[i]);
    sb_printf(&sb, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\"/>\n", AREA_L - 3, y, AREA_L, y);
  }
  sb_printf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\"/>\n</g>\n",
            AREA_L, AREA_T, AREA_R - AREA_L, AREA_B - AREA_T);
  sb_printf(&sb, "<g fill=\"black\">\n");
  for (int i = 0; i < ax.n_ticks; i++) {
    tick_label(label, sizeof label, ax.ticks[i]);
    sb_printf(&sb, "<text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
              px_x(&ax, ax.ticks[i]), AREA_B + 22, label);
  }
  for (int i = 0; i < ay.n_ticks; i++) {
    tick_label(label, sizeof label, ay.ticks[i]);
    sb_printf(&sb, "<text x=\"%d\" y=\"%.2f\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
              AREA_L - 10, px_y(&ay, ay.ticks[i]), label);
  }
  sb_printf(&sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-size=\"15\">",
            (AREA_L + AREA_R) / 2, AREA_B + 50);
  sb_escaped(&sb, plot->xlabel);
  sb_printf(&sb, "</text>\n<text x=\"22\" y=\"%d\" text-anchor=\"middle\" font-size=\"15\" "
                 "transform=\"rotate(-90 22 %d)\">",
            (AREA_T + AREA_B) / 2, (AREA_T + AREA_B) / 2);
  sb_escaped(&sb, plot->ylabel);
  sb_printf(&sb, "</text>\n</g>\n");

  /* Series, clipped to the plot area. */
  sb_printf(&sb, "<defs><clipPath id=\"area\"><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
                 "</clipPath></defs>\n<g clip-path=\"url(#area)\" fill=\"none\" stroke-width=\"2\">\n",
            AREA_L - 4, AREA_T - 4, AREA_R - AREA_L + 8, AREA_B - AREA_T + 8);
  for (size_t s = 0; s < plot->n_series; s++) {
    const pinet_plot_series *ser = &plot->series[s];
    const char *colour = k_colours[s % (sizeof k_colours / sizeof k_colours[0])];
    const char *dash = k_dashes[(s / 2) % (sizeof k_dashes / sizeof k_dashes[0])];
    if (ser->style != PINET_PLOT_MARKERS) {
      sb_printf(&sb, "<polyline stroke=\"%s\"%s%s%s points=\"", colour, dash[0] ? " stroke-dasharray=\"" : "",
                dash, dash[0] ? "\"" : "");
      for (size_t i = 0; i < ser->n; i++) {
        if (point_ok(plot, ser->x[i], ser->y[i])) {
          sb_printf(&sb, "%.2f,%.2f ", px_x(&ax, ser->x[i]), px_y(&ay, ser->y[i]));
        }
      }
      sb_printf(&sb, "\"/>\n");
    }
    if (ser->style != PINET_PLOT_LINE) {
      for (size_t i = 0; i < ser->n; i++) {
        if (point_ok(plot, ser->x[i], ser->y[i])) {
          sb_printf(&sb, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                    px_x(&ax, ser->x[i]), px_y(&ay, ser->y[i]), colour);
        }
      }
    }
  }
  sb_printf(&sb, "</g>\n");

  /* Legend, to the right of the plot area. */
  int lx = AREA_R + 20, ly = AREA_T + 10;
  sb_printf(&sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"white\" stroke=\"#999999\"/>\n",
            lx - 8, ly - 14, page_w - lx - 4, (int)(22 * plot->n_series + 12));
  for (size_t s = 0; s < plot->n_series; s++) {
    const pinet_plot_series *ser = &plot->series[s];
    const char *colour = k_colours[s % (sizeof k_colours / sizeof k_colours[0])];
    const char *dash = k_dashes[(s / 2) % (sizeof k_dashes / sizeof k_dashes[0])];
    int y = ly + (int)(22 * s);
    if (ser->style != PINET_PLOT_MARKERS) {
      sb_printf(&sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"%s%s%s/>\n",
                lx, y, lx + 34, y, colour, dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
    }
    if (ser->style != PINET_PLOT_LINE) {
      sb_printf(&sb, "<circle cx=\"%d\" cy=\"%d\" r=\"3\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>\n",
                lx + 17, y, colour);
    }
    sb_printf(&sb, "<text x=\"%d\" y=\"%d\" dominant-baseline=\"middle\">", lx + 42, y);
    sb_escaped(&sb, ser->label);
    sb_printf(&sb, "</text>\n");
  }
  sb_printf(&sb, "</svg>\n");
  if (sb.nomem) {
    free(sb.s);
    return PINET_ERR_NOMEM;
  }
  *svg = sb.s;
  return PINET_OK;
}

pinet_status pinet_image_plot_svg_write(const pinet_plot *plot, const char *path) {
  RETURN_ERROR_IF(path == NULL, PINET_ERR_NULL);
  char *svg = NULL;
  FORWARD_IF_ERROR(pinet_image_plot_svg(plot, &svg));
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    free(svg);
    return PINET_ERR_IO;
  }
  size_t len = strlen(svg);
  size_t put = fwrite(svg, 1, len, f);
  int closed = fclose(f);
  free(svg);
  RETURN_ERROR_IF(put != len || closed != 0, PINET_ERR_IO);
  return PINET_OK;
}
