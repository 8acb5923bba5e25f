/* pinet/image.h - grayscale images (PGM and PNG files) and hand-written SVG line charts.
 *
 * Shared by the histogram input (pinet/histogram.h) and the PET reconstruction kernels.
 *
 * Conventions
 * - A pinet_image holds width x height float samples, row-major, top row first:
 *   pixel (x, y) is pixels[y * width + x].
 * - Reading keeps the file's integer sample values, unscaled: an 8-bit file gives 0..255, a
 *   16-bit file 0..65535, a PGM with maxval 1000 gives 0..1000 (every value is exact in a float).
 *   pinet_image_info.maxval says what the top of the range was.
 * - Formats read: PGM P2 (ASCII) and P5 (binary, 8-bit for maxval <= 255, 16-bit big-endian
 *   otherwise), PNG when the build has libpng (pinet_image_png_supported()). PNG gray of 1, 2, 4,
 *   8, 16 bits is read unscaled; gray+alpha drops the alpha; RGB, RGBA and palette images are
 *   converted to gray by libpng's default weights (ITU-R BT.709: 0.2126 R + 0.7152 G + 0.0722 B)
 *   and info.converted is set. The format is chosen by the magic bytes, never by the name.
 * - Formats written: PGM P5 and PNG gray, 8-bit (or 16-bit on request), chosen from the
 *   extension (".pgm", ".png", any case) unless given. Floats map linearly from [lo, hi] to
 *   [0, maxval] with rounding and clamping; lo and hi are given or taken as the image min/max.
 * - Limits: width and height <= PINET_IMAGE_MAX_DIM, width * height <= PINET_IMAGE_MAX_PIXELS,
 *   files <= PINET_IMAGE_MAX_FILE_BYTES. A header that is well formed but asks for more is
 *   PINET_ERR_SIZE, decided before anything is allocated.
 * - Malformed or truncated data is PINET_ERR_PARSE; a file that cannot be opened, read or written
 *   is PINET_ERR_IO. Nothing here prints or aborts.
 */
#ifndef PINET_IMAGE_H
#define PINET_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PINET_IMAGE_MAX_DIM 65536u
#define PINET_IMAGE_MAX_PIXELS (1u << 26)
#define PINET_IMAGE_MAX_FILE_BYTES ((size_t)1 << 30)

typedef struct pinet_image {
  uint32_t width;
  uint32_t height;
  float *pixels; /* width * height samples, row-major, top row first */
} pinet_image;

typedef enum pinet_image_format {
  PINET_IMAGE_FORMAT_AUTO = 0, /* read: by magic bytes; write: by the path's extension */
  PINET_IMAGE_FORMAT_PGM = 1,
  PINET_IMAGE_FORMAT_PNG = 2
} pinet_image_format;

/* What a decoded file was. */
typedef struct pinet_image_info {
  pinet_image_format format; /* PGM or PNG */
  unsigned bit_depth;        /* bits per sample in the file: 1, 2, 4, 8 or 16 */
  uint32_t maxval;           /* largest possible sample value (PGM maxval, 2^bit_depth - 1 for PNG) */
  int ascii;                 /* 1 for PGM P2 */
  int converted;             /* 1 if colour (or palette) samples were converted to gray */
} pinet_image_info;

/* Options of pinet_image_write. A NULL options pointer means: autoscale, 8 bits. */
typedef struct pinet_image_write_opts {
  int autoscale;      /* 1: lo/hi are the image's min/max (NaN samples ignored); 0: use lo, hi */
  float lo, hi;       /* used when autoscale == 0; lo must be < hi */
  unsigned bit_depth; /* 8 (0 means 8) or 16 */
} pinet_image_write_opts;

/* A new zero-filled image. PINET_ERR_NULL if out is NULL; PINET_ERR_SIZE if a dimension is 0 or
 * above the limits; PINET_ERR_NOMEM. On error *out is NULL. */
pinet_status pinet_image_create(pinet_image **out, uint32_t width, uint32_t height);

/* Free an image; NULL is accepted. */
void pinet_image_free(pinet_image *img);

/* 1 if this build reads and writes PNG (libpng found), else 0. */
int pinet_image_png_supported(void);

/* The format whose magic bytes start `data` (PGM "P2"/"P5", the PNG signature), or AUTO if none. */
pinet_image_format pinet_image_sniff(const uint8_t *data, size_t size);

/* Decode an image held in memory. `info` may be NULL. Returns PINET_ERR_NULL (data NULL with
 * size > 0, or out NULL), PINET_ERR_PARSE (unknown magic, malformed or truncated data),
 * PINET_ERR_SIZE (dimensions beyond the limits), PINET_ERR_UNSUPPORTED (PNG without libpng),
 * PINET_ERR_NOMEM. On error *out is NULL. */
pinet_status pinet_image_decode(const uint8_t *data, size_t size, pinet_image **out,
                                pinet_image_info *info);

/* Read and decode the file at `path`: pinet_image_decode's errors, plus PINET_ERR_IO if the file
 * cannot be opened or read and PINET_ERR_SIZE if it is larger than PINET_IMAGE_MAX_FILE_BYTES. */
pinet_status pinet_image_read(const char *path, pinet_image **out, pinet_image_info *info);

/* What made a decode fail, where the decoder can say more than its status. Kinds may be added. */
typedef enum pinet_image_fault {
  PINET_IMAGE_FAULT_NONE = 0,         /* success, or an error without details */
  PINET_IMAGE_FAULT_ABOVE_MAXVAL = 1  /* PINET_ERR_PARSE: a PGM sample above the header's maxval */
} pinet_image_fault;

typedef struct pinet_image_diag {
  pinet_image_fault fault;
  uint32_t x, y;   /* ABOVE_MAXVAL: the first such pixel (x, y), sample y * width + x */
  uint64_t value;  /* ABOVE_MAXVAL: its value */
  uint32_t maxval; /* ABOVE_MAXVAL: the header's maxval */
} pinet_image_diag;

/* pinet_image_decode and pinet_image_read, with the fault described in *diag (may be NULL; set
 * to all zeros, fault NONE, unless the decoder names the cause). Same statuses. */
pinet_status pinet_image_decode_diag(const uint8_t *data, size_t size, pinet_image **out,
                                     pinet_image_info *info, pinet_image_diag *diag);
pinet_status pinet_image_read_diag(const char *path, pinet_image **out, pinet_image_info *info,
                                   pinet_image_diag *diag);

/* Encode `img` into a new malloc'ed buffer (*data, *size; free() it). `format` must be PGM or
 * PNG. Returns PINET_ERR_NULL, PINET_ERR_RANGE (format AUTO or unknown, bit depth not 8/16,
 * lo >= hi or not finite), PINET_ERR_SIZE (empty image), PINET_ERR_UNSUPPORTED (PNG without
 * libpng), PINET_ERR_NOMEM. */
pinet_status pinet_image_encode(const pinet_image *img, pinet_image_format format,
                                const pinet_image_write_opts *opts, uint8_t **data, size_t *size);

/* Write `img` to `path`. With format AUTO the extension decides (".pgm" or ".png", any case;
 * anything else is PINET_ERR_RANGE). pinet_image_encode's errors, plus PINET_ERR_IO. */
pinet_status pinet_image_write(const pinet_image *img, const char *path, pinet_image_format format,
                               const pinet_image_write_opts *opts);

/* ---- SVG line charts (hand-written SVG, no plotting library) -------------------------------- */

typedef enum pinet_plot_style {
  PINET_PLOT_LINE = 0,        /* a polyline through the points */
  PINET_PLOT_MARKERS = 1,     /* a marker at each point */
  PINET_PLOT_LINE_MARKERS = 2 /* both */
} pinet_plot_style;

typedef struct pinet_plot_series {
  const char *label; /* legend text */
  const double *x;
  const double *y;
  size_t n;
  pinet_plot_style style;
} pinet_plot_series;

typedef struct pinet_plot {
  const char *title;
  const char *xlabel;
  const char *ylabel;
  int xlog, ylog; /* 1: logarithmic axis (base 10 ticks); every value on it must be > 0 */
  const pinet_plot_series *series;
  size_t n_series;
} pinet_plot;

/* Render `plot` as a standalone SVG document (axes, ticks, tick labels, axis labels, title and a
 * legend) into a new NUL-terminated malloc'ed string (*svg; free() it). Non-finite points are
 * skipped. Returns PINET_ERR_NULL, PINET_ERR_RANGE (no series, a series with no finite point, a
 * non-positive value on a log axis), PINET_ERR_NOMEM. */
pinet_status pinet_image_plot_svg(const pinet_plot *plot, char **svg);

/* pinet_image_plot_svg written to `path`; plus PINET_ERR_IO. */
pinet_status pinet_image_plot_svg_write(const pinet_plot *plot, const char *path);

#ifdef __cplusplus
}
#endif
#endif /* PINET_IMAGE_H */
