/* image.c - grayscale images: create/free, PGM (P2/P5) and PNG (libpng) decode and encode. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/image.h"

#ifdef PINET_HAVE_LIBPNG
#include <png.h>
#endif

static const uint8_t k_png_signature[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};

/* ---- create / free --------------------------------------------------------------------------- */

static pinet_status check_dims(uint64_t width, uint64_t height) {
  RETURN_ERROR_IF(width == 0 || height == 0, PINET_ERR_SIZE);
  RETURN_ERROR_IF(width > PINET_IMAGE_MAX_DIM || height > PINET_IMAGE_MAX_DIM, PINET_ERR_SIZE);
  RETURN_ERROR_IF(width * height > PINET_IMAGE_MAX_PIXELS, PINET_ERR_SIZE);
  return PINET_OK;
}

pinet_status pinet_image_create(pinet_image **out, uint32_t width, uint32_t height) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(check_dims(width, height));
  pinet_image *img = malloc(sizeof *img);
  RETURN_ERROR_IF(img == NULL, PINET_ERR_NOMEM);
  img->width = width;
  img->height = height;
  img->pixels = calloc((size_t)width * height, sizeof *img->pixels);
  if (img->pixels == NULL) {
    free(img);
    return PINET_ERR_NOMEM;
  }
  *out = img;
  return PINET_OK;
}

void pinet_image_free(pinet_image *img) {
  if (img != NULL) {
    free(img->pixels);
    free(img);
  }
}

int pinet_image_png_supported(void) {
#ifdef PINET_HAVE_LIBPNG
  return 1;
#else
  return 0;
#endif
}

pinet_image_format pinet_image_sniff(const uint8_t *data, size_t size) {
  if (data == NULL) {
    return PINET_IMAGE_FORMAT_AUTO;
  }
  if (size >= 2 && data[0] == 'P' && (data[1] == '2' || data[1] == '5')) {
    return PINET_IMAGE_FORMAT_PGM;
  }
  if (size >= sizeof k_png_signature && memcmp(data, k_png_signature, sizeof k_png_signature) == 0) {
    return PINET_IMAGE_FORMAT_PNG;
  }
  return PINET_IMAGE_FORMAT_AUTO;
}

/* ---- PGM decode ------------------------------------------------------------------------------ */

typedef struct pgm_reader {
  const uint8_t *data;
  size_t size;
  size_t pos;
} pgm_reader;

/* Skip white space and '#' comments (to the end of the line). */
static void pgm_skip_space(pgm_reader *rd) {
  while (rd->pos < rd->size) {
    uint8_t c = rd->data[rd->pos];
    if (c == '#') {
      while (rd->pos < rd->size && rd->data[rd->pos] != '\n' && rd->data[rd->pos] != '\r') {
        rd->pos++;
      }
    } else if (isspace(c)) {
      rd->pos++;
    } else {
      break;
    }
  }
}

/* One unsigned decimal number (at most `limit`), after optional white space and comments. A
 * number must end at white space, '#' or the end of the data. */
static pinet_status pgm_number(pgm_reader *rd, uint64_t limit, uint64_t *value) {
  pgm_skip_space(rd);
  RETURN_ERROR_IF(rd->pos >= rd->size || !isdigit(rd->data[rd->pos]), PINET_ERR_PARSE);
  uint64_t v = 0;
  while (rd->pos < rd->size && isdigit(rd->data[rd->pos])) {
    v = v * 10 + (uint64_t)(rd->data[rd->pos] - '0');
    RETURN_ERROR_IF(v > limit, PINET_ERR_PARSE);
    rd->pos++;
  }
  if (rd->pos < rd->size) {
    uint8_t c = rd->data[rd->pos];
    RETURN_ERROR_IF(!isspace(c) && c != '#', PINET_ERR_PARSE);
  }
  *value = v;
  return PINET_OK;
}

static pinet_status pgm_decode(const uint8_t *data, size_t size, pinet_image **out,
                               pinet_image_info *info, pinet_image_diag *diag) {
  pgm_reader rd = {data, size, 2};
  int ascii = data[1] == '2';
  /* Dimensions beyond 2^32 are parse errors; above the image limits, size errors. */
  uint64_t width = 0, height = 0, maxval = 0;
  FORWARD_IF_ERROR(pgm_number(&rd, UINT32_MAX, &width));
  FORWARD_IF_ERROR(pgm_number(&rd, UINT32_MAX, &height));
  FORWARD_IF_ERROR(pgm_number(&rd, 65535, &maxval));
  RETURN_ERROR_IF(width == 0 || height == 0 || maxval == 0, PINET_ERR_PARSE);
  FORWARD_IF_ERROR(check_dims(width, height));
  size_t n = (size_t)(width * height);
  size_t bytes_per = maxval > 255 ? 2 : 1;
  if (!ascii) {
    /* Exactly one white-space byte separates maxval from the raster. */
    RETURN_ERROR_IF(rd.pos >= rd.size || !isspace(rd.data[rd.pos]), PINET_ERR_PARSE);
    rd.pos++;
    RETURN_ERROR_IF(rd.size - rd.pos < n * bytes_per, PINET_ERR_PARSE); /* truncated */
  } else {
    /* Every ASCII sample needs at least two bytes ("0 "): reject obviously short files early. */
    RETURN_ERROR_IF((rd.size - rd.pos) / 2 + 1 < n, PINET_ERR_PARSE);
  }
  pinet_image *img = NULL;
  FORWARD_IF_ERROR(pinet_image_create(&img, (uint32_t)width, (uint32_t)height));
  pinet_status st = PINET_OK;
  for (size_t i = 0; i < n && st == PINET_OK; i++) {
    uint64_t v = 0;
    if (ascii) {
      st = pgm_number(&rd, UINT32_MAX, &v);
    } else if (bytes_per == 1) {
      v = rd.data[rd.pos++];
    } else {
      v = ((uint64_t)rd.data[rd.pos] << 8) | rd.data[rd.pos + 1];
      rd.pos += 2;
    }
    if (st == PINET_OK && v > maxval) {
      st = PINET_ERR_PARSE;
      if (diag != NULL) {
        diag->fault = PINET_IMAGE_FAULT_ABOVE_MAXVAL;
        diag->x = (uint32_t)(i % width);
        diag->y = (uint32_t)(i / width);
        diag->value = v;
        diag->maxval = (uint32_t)maxval;
      }
    }
    img->pixels[i] = (float)v;
  }
  if (st != PINET_OK) {
    pinet_image_free(img);
    return st;
  }
  if (info != NULL) {
    info->format = PINET_IMAGE_FORMAT_PGM;
    info->bit_depth = bytes_per == 2 ? 16 : 8;
    info->maxval = (uint32_t)maxval;
    info->ascii = ascii;
    info->converted = 0;
  }
  *out = img;
  return PINET_OK;
}

/* ---- PNG decode / encode (libpng) ------------------------------------------------------------ */

#ifdef PINET_HAVE_LIBPNG

/* Everything a libpng call may leave behind lives here, reached through a pointer that libpng
 * also holds, so nothing is lost when png_error longjmps back. */
typedef struct png_ctx {
  jmp_buf jmp;
  pinet_status fail;  /* status to return after a longjmp */
  const uint8_t *src; /* decode: input */
  size_t src_size;
  size_t src_pos;
  uint8_t *dst; /* encode: output */
  size_t dst_size;
  size_t dst_cap;
  uint8_t *raster;
  png_bytep *rows;
  pinet_image *img;
} png_ctx;

static void png_ctx_error(png_structp png, png_const_charp msg) {
  (void)msg;
  png_ctx *ctx = png_get_error_ptr(png);
  if (ctx->fail == PINET_OK) {
    ctx->fail = PINET_ERR_PARSE;
  }
  longjmp(ctx->jmp, 1);
}

static void png_ctx_warning(png_structp png, png_const_charp msg) {
  (void)png;
  (void)msg;
}

static void png_ctx_read(png_structp png, png_bytep out, size_t len) {
  png_ctx *ctx = png_get_io_ptr(png);
  if (ctx->src_size - ctx->src_pos < len) {
    ctx->fail = PINET_ERR_PARSE; /* truncated */
    png_error(png, "truncated");
  }
  memcpy(out, ctx->src + ctx->src_pos, len);
  ctx->src_pos += len;
}

static void png_ctx_write(png_structp png, png_bytep in, size_t len) {
  png_ctx *ctx = png_get_io_ptr(png);
  if (ctx->dst_cap - ctx->dst_size < len) {
    size_t cap = ctx->dst_cap ? ctx->dst_cap : 4096;
    while (cap - ctx->dst_size < len) {
      cap *= 2;
    }
    uint8_t *grown = realloc(ctx->dst, cap);
    if (grown == NULL) {
      ctx->fail = PINET_ERR_NOMEM;
      png_error(png, "out of memory");
    }
    ctx->dst = grown;
    ctx->dst_cap = cap;
  }
  memcpy(ctx->dst + ctx->dst_size, in, len);
  ctx->dst_size += len;
}

static void png_ctx_flush(png_structp png) { (void)png; }

/* The body of png_decode after setjmp: on any libpng error control returns to png_decode. */
static void png_decode_body(png_structp png, png_infop pinfo, png_ctx *ctx, pinet_image_info *info) {
  png_read_info(png, pinfo);
  png_uint_32 width = 0, height = 0;
  int depth = 0, color = 0, interlace = 0;
  png_get_IHDR(png, pinfo, &width, &height, &depth, &color, &interlace, NULL, NULL);
  pinet_status st = check_dims(width, height);
  if (st != PINET_OK) {
    ctx->fail = st;
    png_error(png, "dimensions beyond the limits");
  }
  /* Deflate expands at most about 1032:1: a header asking for far more scanline bytes than the
   * rest of the file could hold is truncated or forged; say so before allocating anything. */
  size_t file_rowbytes = png_get_rowbytes(png, pinfo);
  double needed = ((double)file_rowbytes + 1.0) * (double)height;
  if (needed > (double)(ctx->src_size - ctx->src_pos) * 1100.0 + 4096.0) {
    ctx->fail = PINET_ERR_PARSE;
    png_error(png, "image data cannot fit in the file");
  }
  int converted = 0;
  unsigned file_depth = (unsigned)depth;
  if (color == PNG_COLOR_TYPE_PALETTE) {
    png_set_palette_to_rgb(png);
  }
  if (color & PNG_COLOR_MASK_ALPHA) {
    png_set_strip_alpha(png);
  }
  if (color == PNG_COLOR_TYPE_PALETTE || (color & PNG_COLOR_MASK_COLOR)) {
    png_set_rgb_to_gray(png, PNG_ERROR_ACTION_NONE, -1.0, -1.0);
    converted = 1;
  }
  if (depth < 8) {
    png_set_packing(png); /* one byte per sample, values kept in 0 .. 2^depth - 1 */
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, pinfo);
  if (png_get_channels(png, pinfo) != 1) {
    ctx->fail = PINET_ERR_UNSUPPORTED;
    png_error(png, "not reducible to one gray channel");
  }
  int out_depth = png_get_bit_depth(png, pinfo);
  size_t rowbytes = png_get_rowbytes(png, pinfo);
  size_t bytes_per = out_depth == 16 ? 2 : 1;
  if (rowbytes < (size_t)width * bytes_per) {
    ctx->fail = PINET_ERR_UNSUPPORTED;
    png_error(png, "unexpected row layout");
  }
  st = pinet_image_create(&ctx->img, width, height);
  if (st != PINET_OK) {
    ctx->fail = st;
    png_error(png, "allocation");
  }
  ctx->raster = malloc(rowbytes * height);
  ctx->rows = malloc(height * sizeof *ctx->rows);
  if (ctx->raster == NULL || ctx->rows == NULL) {
    ctx->fail = PINET_ERR_NOMEM;
    png_error(png, "allocation");
  }
  for (png_uint_32 y = 0; y < height; y++) {
    ctx->rows[y] = ctx->raster + (size_t)y * rowbytes;
  }
  png_read_image(png, ctx->rows);
  png_read_end(png, NULL);
  float *px = ctx->img->pixels;
  for (png_uint_32 y = 0; y < height; y++) {
    const uint8_t *row = ctx->rows[y];
    for (png_uint_32 x = 0; x < width; x++) {
      unsigned v = bytes_per == 2 ? ((unsigned)row[2 * x] << 8) | row[2 * x + 1] : row[x];
      px[(size_t)y * width + x] = (float)v;
    }
  }
  if (info != NULL) {
    unsigned eff = converted ? (unsigned)out_depth : file_depth;
    info->format = PINET_IMAGE_FORMAT_PNG;
    info->bit_depth = file_depth;
    info->maxval = (uint32_t)((1u << eff) - 1u);
    info->ascii = 0;
    info->converted = converted;
  }
}

static pinet_status png_decode(const uint8_t *data, size_t size, pinet_image **out,
                               pinet_image_info *info) {
  png_ctx *ctx = calloc(1, sizeof *ctx);
  RETURN_ERROR_IF(ctx == NULL, PINET_ERR_NOMEM);
  ctx->src = data;
  ctx->src_size = size;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, png_ctx_error, png_ctx_warning);
  png_infop pinfo = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || pinfo == NULL) {
    png_destroy_read_struct(png ? &png : NULL, NULL, NULL);
    free(ctx);
    return PINET_ERR_NOMEM;
  }
  png_set_read_fn(png, ctx, png_ctx_read);
  png_set_user_limits(png, 0x7fffffffu, 0x7fffffffu); /* our own limits decide, as PINET_ERR_SIZE */
  pinet_status st = PINET_OK;
  if (setjmp(ctx->jmp) == 0) {
    png_decode_body(png, pinfo, ctx, info);
  } else {
    st = ctx->fail != PINET_OK ? ctx->fail : PINET_ERR_PARSE;
  }
  png_destroy_read_struct(&png, &pinfo, NULL);
  free(ctx->rows);
  free(ctx->raster);
  if (st == PINET_OK) {
    *out = ctx->img;
  } else {
    pinet_image_free(ctx->img);
  }
  free(ctx);
  return st;
}

static void png_encode_body(png_structp png, png_infop pinfo, png_ctx *ctx, const pinet_image *img,
                            const uint16_t *q, unsigned depth) {
  png_set_IHDR(png, pinfo, img->width, img->height, (int)depth, PNG_COLOR_TYPE_GRAY,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, pinfo);
  size_t bytes_per = depth == 16 ? 2 : 1;
  ctx->raster = malloc((size_t)img->width * bytes_per);
  if (ctx->raster == NULL) {
    ctx->fail = PINET_ERR_NOMEM;
    png_error(png, "allocation");
  }
  for (uint32_t y = 0; y < img->height; y++) {
    const uint16_t *src = q + (size_t)y * img->width;
    for (uint32_t x = 0; x < img->width; x++) {
      if (bytes_per == 2) {
        ctx->raster[2 * x] = (uint8_t)(src[x] >> 8);
        ctx->raster[2 * x + 1] = (uint8_t)(src[x] & 0xff);
      } else {
        ctx->raster[x] = (uint8_t)src[x];
      }
    }
    png_write_row(png, ctx->raster);
  }
  png_write_end(png, NULL);
}

static pinet_status png_encode(const pinet_image *img, const uint16_t *q, unsigned depth,
                               uint8_t **data, size_t *size) {
  png_ctx *ctx = calloc(1, sizeof *ctx);
  RETURN_ERROR_IF(ctx == NULL, PINET_ERR_NOMEM);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, ctx, png_ctx_error, png_ctx_warning);
  png_infop pinfo = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || pinfo == NULL) {
    png_destroy_write_struct(png ? &png : NULL, NULL);
    free(ctx);
    return PINET_ERR_NOMEM;
  }
  png_set_write_fn(png, ctx, png_ctx_write, png_ctx_flush);
  pinet_status st = PINET_OK;
  if (setjmp(ctx->jmp) == 0) {
    png_encode_body(png, pinfo, ctx, img, q, depth);
  } else {
    /* Encoding our own well-formed image fails only for lack of memory. */
    st = ctx->fail == PINET_ERR_PARSE || ctx->fail == PINET_OK ? PINET_ERR_NOMEM : ctx->fail;
  }
  png_destroy_write_struct(&png, &pinfo);
  free(ctx->raster);
  if (st == PINET_OK) {
    *data = ctx->dst;
    *size = ctx->dst_size;
  } else {
    free(ctx->dst);
  }
  free(ctx);
  return st;
}

#endif /* PINET_HAVE_LIBPNG */

/* ---- decode / read --------------------------------------------------------------------------- */

pinet_status pinet_image_decode(const uint8_t *data, size_t size, pinet_image **out,
                                pinet_image_info *info) {
  return pinet_image_decode_diag(data, size, out, info, NULL);
}

pinet_status pinet_image_decode_diag(const uint8_t *data, size_t size, pinet_image **out,
                                     pinet_image_info *info, pinet_image_diag *diag) {
  if (diag != NULL) {
    memset(diag, 0, sizeof *diag);
  }
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(data == NULL && size > 0, PINET_ERR_NULL);
  pinet_image_format fmt = pinet_image_sniff(data, size);
  if (fmt == PINET_IMAGE_FORMAT_PGM) {
    return pgm_decode(data, size, out, info, diag);
  }
  if (fmt == PINET_IMAGE_FORMAT_PNG) {
#ifdef PINET_HAVE_LIBPNG
    return png_decode(data, size, out, info);
#else
    return PINET_ERR_UNSUPPORTED;
#endif
  }
  return PINET_ERR_PARSE;
}

pinet_status pinet_image_read(const char *path, pinet_image **out, pinet_image_info *info) {
  return pinet_image_read_diag(path, out, info, NULL);
}

pinet_status pinet_image_read_diag(const char *path, pinet_image **out, pinet_image_info *info,
                                   pinet_image_diag *diag) {
  if (diag != NULL) {
    memset(diag, 0, sizeof *diag);
  }
  RETURN_ERROR_IF(out == NULL || path == NULL, PINET_ERR_NULL);
  *out = NULL;
  FILE *f = fopen(path, "rb");
  RETURN_ERROR_IF(f == NULL, PINET_ERR_IO);
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  pinet_status st = buf ? PINET_OK : PINET_ERR_NOMEM;
  while (st == PINET_OK) {
    if (n == cap) {
      if (cap >= PINET_IMAGE_MAX_FILE_BYTES) {
        st = PINET_ERR_SIZE;
        break;
      }
      uint8_t *grown = realloc(buf, cap * 2);
      if (grown == NULL) {
        st = PINET_ERR_NOMEM;
        break;
      }
      buf = grown;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      if (ferror(f)) {
        st = PINET_ERR_IO;
      }
      break;
    }
  }
  fclose(f);
  if (st == PINET_OK) {
    st = pinet_image_decode_diag(buf, n, out, info, diag);
  }
  free(buf);
  return st;
}

/* ---- encode / write -------------------------------------------------------------------------- */

/* Quantise the image into [0, 2^depth - 1] per the options. */
static pinet_status quantise(const pinet_image *img, const pinet_image_write_opts *opts,
                             unsigned depth, uint16_t **out) {
  size_t n = (size_t)img->width * img->height;
  float lo = 0.0f, hi = 0.0f;
  if (opts == NULL || opts->autoscale) {
    int any = 0;
    for (size_t i = 0; i < n; i++) {
      float v = img->pixels[i];
      if (!isfinite(v)) {
        continue;
      }
      if (!any || v < lo) {
        lo = v;
      }
      if (!any || v > hi) {
        hi = v;
      }
      any = 1;
    }
    if (!(hi > lo)) {
      hi = lo + 1.0f; /* a constant (or all-NaN) image is written as zeros */
    }
  } else {
    lo = opts->lo;
    hi = opts->hi;
    RETURN_ERROR_IF(!isfinite(lo) || !isfinite(hi) || !(hi > lo), PINET_ERR_RANGE);
  }
  double maxv = (double)((1u << depth) - 1u);
  uint16_t *q = malloc(n * sizeof *q);
  RETURN_ERROR_IF(q == NULL, PINET_ERR_NOMEM);
  double scale = maxv / ((double)hi - (double)lo);
  for (size_t i = 0; i < n; i++) {
    double v = img->pixels[i];
    double s = isnan(v) ? 0.0 : floor((v - lo) * scale + 0.5);
    if (s < 0.0) {
      s = 0.0;
    }
    if (s > maxv) {
      s = maxv;
    }
    q[i] = (uint16_t)s;
  }
  *out = q;
  return PINET_OK;
}

static pinet_status pgm_encode(const pinet_image *img, const uint16_t *q, unsigned depth,
                               uint8_t **data, size_t *size) {
  char header[64];
  int hlen = snprintf(header, sizeof header, "P5\n%u %u\n%u\n", (unsigned)img->width,
                      (unsigned)img->height, (1u << depth) - 1u);
  size_t n = (size_t)img->width * img->height;
  size_t bytes_per = depth == 16 ? 2 : 1;
  size_t total = (size_t)hlen + n * bytes_per;
  uint8_t *buf = malloc(total);
  RETURN_ERROR_IF(buf == NULL, PINET_ERR_NOMEM);
  memcpy(buf, header, (size_t)hlen);
  uint8_t *p = buf + hlen;
  for (size_t i = 0; i < n; i++) {
    if (bytes_per == 2) {
      *p++ = (uint8_t)(q[i] >> 8);
      *p++ = (uint8_t)(q[i] & 0xff);
    } else {
      *p++ = (uint8_t)q[i];
    }
  }
  *data = buf;
  *size = total;
  return PINET_OK;
}

pinet_status pinet_image_encode(const pinet_image *img, pinet_image_format format,
                                const pinet_image_write_opts *opts, uint8_t **data, size_t *size) {
  RETURN_ERROR_IF(img == NULL || data == NULL || size == NULL, PINET_ERR_NULL);
  *data = NULL;
  *size = 0;
  RETURN_ERROR_IF(img->pixels == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_dims(img->width, img->height));
  RETURN_ERROR_IF(format != PINET_IMAGE_FORMAT_PGM && format != PINET_IMAGE_FORMAT_PNG,
                  PINET_ERR_RANGE);
  unsigned depth = (opts == NULL || opts->bit_depth == 0) ? 8u : opts->bit_depth;
  RETURN_ERROR_IF(depth != 8 && depth != 16, PINET_ERR_RANGE);
#ifndef PINET_HAVE_LIBPNG
  RETURN_ERROR_IF(format == PINET_IMAGE_FORMAT_PNG, PINET_ERR_UNSUPPORTED);
#endif
  uint16_t *q = NULL;
  FORWARD_IF_ERROR(quantise(img, opts, depth, &q));
  pinet_status st;
  if (format == PINET_IMAGE_FORMAT_PGM) {
    st = pgm_encode(img, q, depth, data, size);
  } else {
#ifdef PINET_HAVE_LIBPNG
    st = png_encode(img, q, depth, data, size);
#else
    st = PINET_ERR_UNSUPPORTED;
#endif
  }
  free(q);
  return st;
}

/* Case-insensitive "does `path` end in `ext`". */
static int has_extension(const char *path, const char *ext) {
  size_t lp = strlen(path), le = strlen(ext);
  if (lp < le) {
    return 0;
  }
  for (size_t i = 0; i < le; i++) {
    if (tolower((unsigned char)path[lp - le + i]) != tolower((unsigned char)ext[i])) {
      return 0;
    }
  }
  return 1;
}

pinet_status pinet_image_write(const pinet_image *img, const char *path, pinet_image_format format,
                               const pinet_image_write_opts *opts) {
  RETURN_ERROR_IF(img == NULL || path == NULL, PINET_ERR_NULL);
  if (format == PINET_IMAGE_FORMAT_AUTO) {
    if (has_extension(path, ".pgm")) {
      format = PINET_IMAGE_FORMAT_PGM;
    } else if (has_extension(path, ".png")) {
      format = PINET_IMAGE_FORMAT_PNG;
    } else {
      return PINET_ERR_RANGE;
    }
  }
  uint8_t *data = NULL;
  size_t size = 0;
  FORWARD_IF_ERROR(pinet_image_encode(img, format, opts, &data, &size));
  FILE *f = fopen(path, "wb");
  if (f == NULL) {
    free(data);
    return PINET_ERR_IO;
  }
  size_t put = fwrite(data, 1, size, f);
  int closed = fclose(f);
  free(data);
  RETURN_ERROR_IF(put != size || closed != 0, PINET_ERR_IO);
  return PINET_OK;
}
