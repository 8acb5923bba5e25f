/* pinet/recon_geom.h - data and geometry for the PET reconstruction kernels (paper 000 §2, SPEC §6).
 *
 * Phantoms (sums of uniform ellipses), their exact (analytic) parallel-beam sinograms, a
 * ray-driven forward projector (Joseph's method), Poisson noise, the PET ring of detectors and
 * the sparse system matrix p(b, t) computed by exact intersection lengths (Siddon).
 *
 * Conventions (docs/recon.md has pictures in words)
 * - Image: size x size pixels, row-major, row 0 on top. Pixel pitch 1 (all lengths are in pixels).
 *   Pixel (r, c) has its centre at x = c - img_center, y = img_center - r (y points up). The
 *   default img_center is floor(size / 2), scikit-image's convention.
 * - Parallel beam: views k = 0 .. V-1 at theta_k = k * pi / V; detector bin b (0 .. D-1, pitch 1)
 *   has coordinate s = b - bin_center; a point (x, y) projects to s = x cos(theta) + y sin(theta).
 *   Sinograms are view-major: sino[k * D + b]. Default bin_center = floor(D / 2), which makes
 *   pinet's radon(circle) match scikit-image's radon(circle=True) sample for sample.
 * - Reconstruction disk: pixels with (r - c0)^2 + (c - c0)^2 <= floor(size/2)^2, c0 = img_center.
 * - Phantom ellipses are given in normalised coordinates: the unit is size / 2 pixels, so the
 *   modified Shepp-Logan head fits in the unit disk whatever the image size.
 * - PET ring: `detectors` detectors evenly on a circle of radius `radius` (pixels) centred on the
 *   image centre, detector i at angle 2 pi i / detectors. A tube is an unordered detector pair
 *   (i < j), modelled by the line through the two detectors.
 */
#ifndef PINET_RECON_GEOM_H
#define PINET_RECON_GEOM_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/rng.h"
#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits accepted by every recon function. */
#define PINET_RECON_MAX_SIZE 4096u   /* image side */
#define PINET_RECON_MAX_VIEWS 16384u
#define PINET_RECON_MAX_BINS 16384u
#define PINET_RECON_MAX_DETECTORS 4096u

/* ---- parallel-beam geometry ------------------------------------------------------------------ */

typedef struct pinet_pb_geom {
  uint32_t size;      /* image side N (1 .. PINET_RECON_MAX_SIZE) */
  uint32_t views;     /* V (1 .. PINET_RECON_MAX_VIEWS), theta_k = k pi / V */
  uint32_t bins;      /* D (1 .. PINET_RECON_MAX_BINS) */
  double img_center;  /* see the header comment */
  double bin_center;
} pinet_pb_geom;

/* Fill *g with the scikit-image conventions (centres floor(size/2) and floor(bins/2)).
 * Returns PINET_ERR_NULL, or PINET_ERR_RANGE when a count is 0 or above its limit. */
pinet_status pinet_pb_geom_init(pinet_pb_geom *g, uint32_t size, uint32_t views, uint32_t bins);

/* Check a filled geometry (counts in range, centres finite and inside [0, size] / [0, bins]). */
pinet_status pinet_pb_geom_check(const pinet_pb_geom *g);

/* Radius in pixels of the reconstruction disk: floor(size / 2). */
uint32_t pinet_pb_disk_radius(const pinet_pb_geom *g);

/* ---- phantoms -------------------------------------------------------------------------------- */

typedef struct pinet_ellipse {
  double value;    /* added inside the ellipse */
  double a, b;     /* semi-axes along the rotated x and y axes (normalised units) */
  double x0, y0;   /* centre (normalised units, y up) */
  double phi_deg;  /* counter-clockwise rotation of the a axis from the x axis */
} pinet_ellipse;

/* The modified Shepp-Logan head (Toft's contrasts, 10 ellipses): *count = 10, *ellipses points to
 * a constant table. */
void pinet_phantom_shepp_logan(const pinet_ellipse **ellipses, size_t *count);

/* A centred disk of `value` and normalised radius `radius` as one ellipse. */
pinet_ellipse pinet_phantom_disk(double value, double radius);

/* Phantom names for CLIs: "shepp-logan", "disk" (value 1, radius 0.5). PINET_ERR_RANGE if unknown. */
pinet_status pinet_phantom_by_name(const char *name, const pinet_ellipse **ellipses, size_t *count);

/* Rasterise: img[r * size + c] = mean over oversample^2 sub-points of the pixel of the sum of the
 * values of the ellipses containing the point. oversample in 1 .. 16.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (bad geometry or oversample). */
pinet_status pinet_phantom_rasterize(const pinet_ellipse *ellipses, size_t count, uint32_t size,
                                     double img_center, unsigned oversample, float *img);

/* Root-mean-square difference of two size x size images over the reconstruction disk (pixels
 * with (r - c0)^2 + (c - c0)^2 <= floor(size/2)^2, c0 = img_center); 0 if the disk is empty. */
double pinet_rmse_disk(const float *a, const float *b, uint32_t size, double img_center);

/* Exact line integral through the phantom along the line at angle theta, signed offset s
 * (pixels), for an image of side `size` (sets the normalised unit). */
double pinet_phantom_line_integral(const pinet_ellipse *ellipses, size_t count, uint32_t size,
                                   double theta, double s);

/* Analytic sinogram: sino[k * bins + b] = mean over `oversample` evenly spaced offsets inside
 * bin b of the exact line integral (oversample 1: at the bin centre). oversample in 1 .. 16.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE. */
pinet_status pinet_phantom_sinogram(const pinet_ellipse *ellipses, size_t count,
                                    const pinet_pb_geom *g, unsigned oversample, float *sino);

/* ---- forward projection and noise ------------------------------------------------------------ */

/* Ray-driven forward projection of img (size x size) with Joseph's method: along each ray, one
 * sample per pixel column (or row, whichever is the major direction), linear interpolation across
 * the other axis, weighted by the step length. Pixels outside the image count as 0.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (geometry). */
pinet_status pinet_project_joseph(const pinet_pb_geom *g, const float *img, float *sino);

/* out[i] = Poisson(scale * mean[i]) drawn with `rng` (mean[i] * scale clamped at 0 below).
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (scale not finite or <= 0, a mean not finite). */
pinet_status pinet_poisson_noise(pinet_rng *rng, const float *mean, size_t n, double scale,
                                 float *out);

/* ---- lines, Siddon and the system matrix ----------------------------------------------------- */

/* A line segment in image coordinates (pixels, y up). */
typedef struct pinet_line {
  double x1, y1, x2, y2;
} pinet_line;

/* Siddon: the exact lengths of the segment inside each pixel of the size x size image centred at
 * img_center. Calls emit(ctx, pixel index r*size+c, length) once per pixel with length > 0,
 * in order along the segment. Returns PINET_OK, PINET_ERR_NULL, PINET_ERR_RANGE, or the first
 * non-OK status returned by emit. */
typedef pinet_status (*pinet_siddon_emit)(void *ctx, uint32_t pixel, double length);
pinet_status pinet_siddon(const pinet_line *line, uint32_t size, double img_center,
                          pinet_siddon_emit emit, void *ctx);

/* The sparse system matrix p(b, t): T tubes (rows) x B boxes (columns), held in CSR both by tube
 * and by box. Boxes are the pixels of the reconstruction disk (or all pixels), in raster order;
 * tubes with no box are dropped. */
typedef struct pinet_sysmat pinet_sysmat;

/* A compressed sparse view: row i has entries ptr[i] .. ptr[i+1]-1 of idx (column) and val. */
typedef struct pinet_csr {
  uint32_t rows, cols;
  uint64_t nnz;
  const uint64_t *ptr;
  const uint32_t *idx;
  const float *val;
} pinet_csr;

typedef enum pinet_box_set {
  PINET_BOXES_DISK = 0, /* pixels of the reconstruction disk */
  PINET_BOXES_ALL = 1   /* every pixel */
} pinet_box_set;

/* Build from explicit lines; line i becomes tube i unless it meets no box. `view_of_line` (may be
 * NULL: all 0) tags each line with a view number used to form OSEM subsets.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE, PINET_ERR_NOMEM. */
pinet_status pinet_sysmat_create_lines(const pinet_line *lines, const uint32_t *view_of_line,
                                       size_t n_lines, uint32_t size, double img_center,
                                       pinet_box_set boxes, pinet_sysmat **out);

/* Parallel beam: one tube per (view, bin), the line at offset s = b - bin_center, views tagged k.
 * Tubes keep the view-major order (empty ones are dropped). */
pinet_status pinet_sysmat_create_parallel(const pinet_pb_geom *g, pinet_box_set boxes,
                                          pinet_sysmat **out);

void pinet_sysmat_free(pinet_sysmat *m);

/* T x B CSR by tube and B x T CSR by box (the transpose, same values). */
pinet_csr pinet_sysmat_by_tube(const pinet_sysmat *m);
pinet_csr pinet_sysmat_by_box(const pinet_sysmat *m);
uint32_t pinet_sysmat_tubes(const pinet_sysmat *m);
/* The by-tube column indices as 16-bit values (same order as pinet_sysmat_by_tube's idx) when the
 * matrix has at most 65535 boxes, else NULL: the EM sweeps read them to move fewer bytes. */
const uint16_t *pinet_sysmat_by_tube_idx16(const pinet_sysmat *m);
uint32_t pinet_sysmat_boxes(const pinet_sysmat *m);
uint32_t pinet_sysmat_size(const pinet_sysmat *m);
/* box -> pixel index (r*size+c), tube -> index of its source line, tube -> view tag. */
const uint32_t *pinet_sysmat_box_pixel(const pinet_sysmat *m);
const uint32_t *pinet_sysmat_tube_line(const pinet_sysmat *m);
const uint32_t *pinet_sysmat_tube_view(const pinet_sysmat *m);
/* Number of source lines the matrix was built from (tubes + dropped ones). */
size_t pinet_sysmat_lines(const pinet_sysmat *m);

/* ---- PET ring ---------------------------------------------------------------------------------- */

typedef struct pinet_ring {
  uint32_t size;       /* image side */
  uint32_t detectors;  /* detectors on the ring (>= 4, even) */
  double radius;       /* ring radius in pixels; must exceed size/sqrt(2) so that it encloses the image */
  double img_center;
} pinet_ring;

/* Paper setup: 64 x 64 image, one ring of 96 detectors (radius size/sqrt(2) + 2). */
void pinet_ring_paper(pinet_ring *ring);
/* A ring for another size: radius size/sqrt(2) + 2, img_center floor(size/2).
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE. */
pinet_status pinet_ring_init(pinet_ring *ring, uint32_t size, uint32_t detectors);

/* Number of detector pairs D(D-1)/2 and the pair of pair index p (pairs listed i < j, i major). */
size_t pinet_ring_pairs(const pinet_ring *ring);
void pinet_ring_pair(const pinet_ring *ring, size_t p, uint32_t *i, uint32_t *j);
/* The line of pair (i, j), and its parallel-beam coordinates: theta in [0, pi), s (pixels). */
pinet_line pinet_ring_line(const pinet_ring *ring, uint32_t i, uint32_t j);
void pinet_ring_pair_coords(const pinet_ring *ring, uint32_t i, uint32_t j, double *theta,
                            double *s);

/* The ring's system matrix over the disk boxes: one source line per pair (line index = pair
 * index), views tagged (i + j) mod detectors. Errors: PINET_ERR_NULL, PINET_ERR_RANGE, NOMEM. */
pinet_status pinet_sysmat_create_ring(const pinet_ring *ring, pinet_sysmat **out);

/* Rebin per-pair data (one value per pair, pinet_ring_pairs() of them) to a parallel-beam sinogram
 * of `detectors` views (theta_k = k pi / detectors) and g->bins bins: for each view the pairs with
 * (i + j) mod detectors == k give samples at their s, linearly interpolated onto the bin centres
 * (0 outside the sampled range). g must have views == detectors and size == ring->size.
 * Errors: PINET_ERR_NULL, PINET_ERR_MISMATCH, PINET_ERR_NOMEM. */
pinet_status pinet_ring_rebin(const pinet_ring *ring, const float *pair_values,
                              const pinet_pb_geom *g, float *sino);

#ifdef __cplusplus
}
#endif
#endif /* PINET_RECON_GEOM_H */
