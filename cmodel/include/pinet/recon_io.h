/* pinet/recon_io.h - images and sinograms on disk for the reconstruction kernels.
 *
 * Raw: little-endian IEEE-754 float32, no header, row-major (images: row 0 on top; sinograms:
 * view-major, `bins` values per view). The byte order on disk does not depend on the host.
 *
 * Interfile-style: a text header "X.hv" of `key := value` lines (one per line, keys case-
 * insensitive, a leading '!' ignored, `;` starts a comment) and the raw data in "X.v" (the name
 * is written in the header, relative to the header's directory). Keys written and understood
 * (docs/recon.md lists them):
 *   !INTERFILE :=                         first line
 *   !name of data file := X.v
 *   !number format := float
 *   !number of bytes per pixel := 4
 *   imagedata byte order := LITTLEENDIAN
 *   number of dimensions := 2
 *   !matrix size [1] := <columns | bins>  fastest-varying axis
 *   !matrix size [2] := <rows | views>
 *   scaling factor (mm/pixel) [1] := 1    pixel (or bin) pitch; pinet works in pixels
 *   scaling factor (mm/pixel) [2] := 1
 *   pinet data kind := image | sinogram
 *   pinet centre [1] := <img_center | bin_center>
 *   pinet view step (degrees) := 180/V    sinograms only: views at k * step
 *   !END OF INTERFILE :=
 * Reading accepts any order and ignores unknown keys; the required ones are the matrix sizes,
 * the number format (float, 4 bytes), the byte order (LITTLEENDIAN) and the data file name. */
#ifndef PINET_RECON_IO_H
#define PINET_RECON_IO_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Write n floats as raw little-endian float32. Errors: PINET_ERR_NULL, PINET_ERR_IO. */
pinet_status pinet_raw_write_f32(const char *path, const float *data, size_t n);

/* Read a raw float32 file that must hold exactly n values: PINET_ERR_MISMATCH (and *actual set
 * to the number of whole values in the file when actual != NULL) if its size is not 4n bytes;
 * PINET_ERR_RANGE if a value is not finite (data then holds all n values, to find it);
 * PINET_ERR_IO if it cannot be read (a directory included). */
pinet_status pinet_raw_read_f32(const char *path, float *data, size_t n, size_t *actual);

typedef enum pinet_recon_kind {
  PINET_RECON_KIND_IMAGE = 0,
  PINET_RECON_KIND_SINOGRAM = 1
} pinet_recon_kind;

typedef struct pinet_interfile {
  pinet_recon_kind kind;
  uint32_t dim1;     /* columns (image) or bins (sinogram) */
  uint32_t dim2;     /* rows (image) or views (sinogram) */
  double center1;    /* img_center or bin_center; NAN when absent on reading */
  double view_step_deg; /* sinograms: 180 / views; NAN when absent */
} pinet_interfile;

/* Write header `header_path` (must end in ".hv") and its data file (same name ending ".v").
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (bad name or sizes), PINET_ERR_IO. */
pinet_status pinet_interfile_write(const char *header_path, const pinet_interfile *hdr,
                                   const float *data);

/* Read a header and its data into a new array (free() it). Errors: PINET_ERR_NULL, PINET_ERR_IO,
 * PINET_ERR_PARSE (malformed or missing key, unsupported format), PINET_ERR_MISMATCH (data file
 * size), PINET_ERR_RANGE (non-finite value), PINET_ERR_NOMEM. */
pinet_status pinet_interfile_read(const char *header_path, pinet_interfile *hdr, float **data);

/* Write a size x size image by the path's extension (case-insensitive): ".png" / ".pgm" as an
 * autoscaled 8-bit picture (pinet_image_write), ".hv" as Interfile (header + ".v" data, centre
 * `center`), anything else as raw float32 - what `pinet recon ... --out` writes.
 * Errors: PINET_ERR_NULL, PINET_ERR_SIZE, PINET_ERR_UNSUPPORTED (PNG without libpng), PINET_ERR_IO. */
pinet_status pinet_recon_image_write(const char *path, const float *img, uint32_t size,
                                     double center);

#ifdef __cplusplus
}
#endif
#endif /* PINET_RECON_IO_H */
