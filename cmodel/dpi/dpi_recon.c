/* dpi_recon.c - libpinet_dpi: the reconstruction kernels for image-level checks (pinet/dpi.h,
 * docs/dpi.md): FBP (float, and the fixed-point path with its int32 accumulators) and EM on the
 * parallel-beam system matrix, on pinet/recon.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dpi_private.h"
#include "pinet/recon.h"
#include "pinet/recon_geom.h"

/* ---- FBP ------------------------------------------------------------------------------------- */

typedef struct dpi_fbp {
  pinet_pb_geom g;
  pinet_fbp *p;
  float *sino;     /* views * bins */
  float *filtered; /* views * stride */
  float *img;      /* size * size */
  int32_t *acc;    /* size * size */
  int have_img, have_acc;
} dpi_fbp;

void pinet_dpi_fbp_free(void *handle) {
  dpi_fbp *f = handle;
  if (f == NULL) {
    return;
  }
  pinet_fbp_free(f->p);
  free(f->sino);
  free(f->filtered);
  free(f->img);
  free(f->acc);
  free(f);
}

int pinet_dpi_fbp_create(void **handle, unsigned int size, unsigned int views, unsigned int bins,
                         unsigned int filter) {
  DPI_RETURN_IF(handle == NULL, PINET_ERR_NULL);
  *handle = NULL;
  DPI_RETURN_IF(filter >= PINET_FILTER_COUNT, PINET_ERR_RANGE);
  pinet_pb_geom g;
  DPI_FORWARD(pinet_pb_geom_init(&g, size, views, bins));
  dpi_fbp *f = calloc(1, sizeof *f);
  DPI_RETURN_IF(f == NULL, PINET_ERR_NOMEM);
  f->g = g;
  pinet_status st = pinet_fbp_create(&f->g, (pinet_fbp_filter)filter, &f->p);
  if (st == PINET_OK) {
    const size_t npix = (size_t)size * size;
    f->sino = calloc((size_t)views * bins, sizeof *f->sino);
    f->filtered = calloc((size_t)views * pinet_fbp_filtered_stride(f->p), sizeof *f->filtered);
    f->img = calloc(npix, sizeof *f->img);
    f->acc = calloc(npix, sizeof *f->acc);
    if (f->sino == NULL || f->filtered == NULL || f->img == NULL || f->acc == NULL) {
      st = PINET_ERR_NOMEM;
    }
  }
  if (st != PINET_OK) {
    pinet_dpi_fbp_free(f);
    return (int)st;
  }
  *handle = f;
  return PINET_OK;
}

int pinet_dpi_fbp_set_sino(void *handle, unsigned int view, unsigned int bin, double value) {
  dpi_fbp *f = handle;
  DPI_RETURN_IF(f == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(view >= f->g.views || bin >= f->g.bins, PINET_ERR_RANGE);
  f->sino[(size_t)view * f->g.bins + bin] = (float)value;
  return PINET_OK;
}

int pinet_dpi_fbp_fixed_bits(void *handle, int *frac_bits) {
  dpi_fbp *f = handle;
  DPI_RETURN_IF(f == NULL || frac_bits == NULL, PINET_ERR_NULL);
  DPI_FORWARD(pinet_fbp_filter_views(f->p, NULL, f->sino, f->g.views, f->filtered));
  *frac_bits = pinet_fbp_fixed_bits(f->p, f->filtered);
  return PINET_OK;
}

int pinet_dpi_fbp_run(void *handle, unsigned char fixed, int frac_bits) {
  dpi_fbp *f = handle;
  DPI_RETURN_IF(f == NULL, PINET_ERR_NULL);
  f->have_img = 0;
  f->have_acc = 0;
  if (!fixed) {
    DPI_FORWARD(pinet_fbp_run(f->p, f->sino, f->img));
    f->have_img = 1;
    return PINET_OK;
  }
  /* pinet_fbp_run_fixed's three steps, keeping the accumulators. */
  memset(f->acc, 0, (size_t)f->g.size * f->g.size * sizeof *f->acc);
  DPI_FORWARD(pinet_fbp_filter_views(f->p, NULL, f->sino, f->g.views, f->filtered));
  DPI_FORWARD(pinet_fbp_backproject_fixed(f->p, f->filtered, 0, f->g.views, frac_bits, f->acc));
  DPI_FORWARD(pinet_fbp_finish_fixed(f->p, f->acc, frac_bits, f->img));
  f->have_img = 1;
  f->have_acc = 1;
  return PINET_OK;
}

int pinet_dpi_fbp_pixel(void *handle, unsigned int row, unsigned int col, double *value) {
  const dpi_fbp *f = handle;
  DPI_RETURN_IF(f == NULL || value == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(row >= f->g.size || col >= f->g.size, PINET_ERR_RANGE);
  DPI_RETURN_IF(!f->have_img, PINET_ERR_ILLEGAL_STATE);
  *value = f->img[(size_t)row * f->g.size + col];
  return PINET_OK;
}

int pinet_dpi_fbp_accum(void *handle, unsigned int row, unsigned int col, int *value) {
  const dpi_fbp *f = handle;
  DPI_RETURN_IF(f == NULL || value == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(row >= f->g.size || col >= f->g.size, PINET_ERR_RANGE);
  DPI_RETURN_IF(!f->have_acc, PINET_ERR_ILLEGAL_STATE);
  *value = f->acc[(size_t)row * f->g.size + col];
  return PINET_OK;
}

/* ---- EM -------------------------------------------------------------------------------------- */

typedef struct dpi_em {
  pinet_pb_geom g;
  pinet_sysmat *m;
  pinet_recon_arith arith;
  uint32_t tubes;
  int32_t *tube_of; /* views * bins: the tube of (view, bin), -1 if none */
  double *counts;   /* tubes */
  pinet_em *em;     /* NULL until the first iteration after a count changed */
  float *img;       /* size * size */
  int have_img;
} dpi_em;

void pinet_dpi_em_free(void *handle) {
  dpi_em *e = handle;
  if (e == NULL) {
    return;
  }
  pinet_em_free(e->em);
  pinet_sysmat_free(e->m);
  free(e->tube_of);
  free(e->counts);
  free(e->img);
  free(e);
}

int pinet_dpi_em_create(void **handle, unsigned int size, unsigned int views, unsigned int bins,
                        unsigned int fixed) {
  DPI_RETURN_IF(handle == NULL, PINET_ERR_NULL);
  *handle = NULL;
  DPI_RETURN_IF(fixed > PINET_RECON_FIXED, PINET_ERR_RANGE);
  pinet_pb_geom g;
  DPI_FORWARD(pinet_pb_geom_init(&g, size, views, bins));
  dpi_em *e = calloc(1, sizeof *e);
  DPI_RETURN_IF(e == NULL, PINET_ERR_NOMEM);
  e->g = g;
  e->arith = (pinet_recon_arith)fixed;
  pinet_status st = pinet_sysmat_create_parallel(&e->g, PINET_BOXES_DISK, &e->m);
  if (st == PINET_OK) {
    const size_t lines = (size_t)views * bins;
    e->tubes = pinet_sysmat_tubes(e->m);
    e->tube_of = malloc(lines * sizeof *e->tube_of);
    e->counts = calloc(e->tubes ? e->tubes : 1, sizeof *e->counts);
    e->img = calloc((size_t)size * size, sizeof *e->img);
    if (e->tube_of == NULL || e->counts == NULL || e->img == NULL) {
      st = PINET_ERR_NOMEM;
    } else if (pinet_sysmat_lines(e->m) != lines) {
      st = PINET_ERR_MISMATCH; /* one line per (view, bin), view-major: pinet_sysmat_create_parallel */
    } else {
      const uint32_t *line = pinet_sysmat_tube_line(e->m);
      for (size_t i = 0; i < lines; i++) {
        e->tube_of[i] = -1;
      }
      for (uint32_t t = 0; t < e->tubes; t++) {
        e->tube_of[line[t]] = (int32_t)t;
      }
    }
  }
  if (st != PINET_OK) {
    pinet_dpi_em_free(e);
    return (int)st;
  }
  *handle = e;
  return PINET_OK;
}

int pinet_dpi_em_set_count(void *handle, unsigned int view, unsigned int bin, double value) {
  dpi_em *e = handle;
  DPI_RETURN_IF(e == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(view >= e->g.views || bin >= e->g.bins, PINET_ERR_RANGE);
  DPI_RETURN_IF(!isfinite(value) || value < 0.0, PINET_ERR_RANGE);
  const int32_t t = e->tube_of[(size_t)view * e->g.bins + bin];
  if (t < 0) {
    return PINET_OK;
  }
  e->counts[t] = value;
  pinet_em_free(e->em);
  e->em = NULL;
  e->have_img = 0;
  return PINET_OK;
}

int pinet_dpi_em_iterate(void *handle, unsigned int iters, double *loglik) {
  dpi_em *e = handle;
  DPI_RETURN_IF(e == NULL || loglik == NULL, PINET_ERR_NULL);
  if (e->em == NULL) {
    const pinet_em_opts opts = {1, e->arith, 0};
    DPI_FORWARD(pinet_em_create(e->m, e->counts, &opts, &e->em));
  }
  *loglik = 0.0;
  for (unsigned int i = 0; i < iters; i++) {
    DPI_FORWARD(pinet_em_iterate(e->em, loglik));
  }
  pinet_em_to_image(e->m, pinet_em_image(e->em), e->img);
  e->have_img = 1;
  return PINET_OK;
}

int pinet_dpi_em_pixel(void *handle, unsigned int row, unsigned int col, double *value) {
  const dpi_em *e = handle;
  DPI_RETURN_IF(e == NULL || value == NULL, PINET_ERR_NULL);
  DPI_RETURN_IF(row >= e->g.size || col >= e->g.size, PINET_ERR_RANGE);
  DPI_RETURN_IF(!e->have_img, PINET_ERR_ILLEGAL_STATE);
  *value = e->img[(size_t)row * e->g.size + col];
  return PINET_OK;
}
