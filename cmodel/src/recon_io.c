/* recon_io.c - raw little-endian float32 and Interfile-style headers (pinet/recon_io.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/image.h"
#include "pinet/recon_io.h"

static void f32_to_le(float v, unsigned char out[4]) {
  uint32_t u;
  memcpy(&u, &v, 4);
  out[0] = (unsigned char)(u & 0xffu);
  out[1] = (unsigned char)((u >> 8) & 0xffu);
  out[2] = (unsigned char)((u >> 16) & 0xffu);
  out[3] = (unsigned char)((u >> 24) & 0xffu);
}

static float le_to_f32(const unsigned char in[4]) {
  uint32_t u = (uint32_t)in[0] | ((uint32_t)in[1] << 8) | ((uint32_t)in[2] << 16) |
               ((uint32_t)in[3] << 24);
  float v;
  memcpy(&v, &u, 4);
  return v;
}

pinet_status pinet_raw_write_f32(const char *path, const float *data, size_t n) {
  RETURN_ERROR_IF(path == NULL || (data == NULL && n > 0), PINET_ERR_NULL);
  FILE *f = fopen(path, "wb");
  RETURN_ERROR_IF(f == NULL, PINET_ERR_IO);
  unsigned char buf[4096];
  size_t i = 0;
  int ok = 1;
  while (i < n && ok) {
    size_t chunk = 0;
    for (; chunk < sizeof buf / 4 && i < n; chunk++, i++) f32_to_le(data[i], buf + 4 * chunk);
    ok = fwrite(buf, 4, chunk, f) == chunk;
  }
  if (fclose(f) != 0) ok = 0;
  return ok ? PINET_OK : PINET_ERR_IO;
}

pinet_status pinet_raw_read_f32(const char *path, float *data, size_t n, size_t *actual) {
  RETURN_ERROR_IF(path == NULL || (data == NULL && n > 0), PINET_ERR_NULL);
  FILE *f = fopen(path, "rb");
  RETURN_ERROR_IF(f == NULL, PINET_ERR_IO);
  /* A directory opens on POSIX systems, fails to read, and ftell gives it an absurd size. */
  if ((fgetc(f) == EOF && ferror(f)) || fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    return PINET_ERR_IO;
  }
  long len = ftell(f);
  if (len < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    return PINET_ERR_IO;
  }
  if (actual != NULL) *actual = (size_t)len / 4u;
  if ((unsigned long)len != (unsigned long)n * 4ul || (size_t)len / 4u != n) {
    fclose(f);
    return PINET_ERR_MISMATCH;
  }
  unsigned char buf[4096];
  size_t i = 0;
  pinet_status st = PINET_OK;
  while (i < n) { /* every value is read, so that the caller can find a non-finite one */
    size_t want = n - i < sizeof buf / 4 ? n - i : sizeof buf / 4;
    if (fread(buf, 4, want, f) != want) {
      st = PINET_ERR_IO;
      break;
    }
    for (size_t k = 0; k < want; k++, i++) {
      data[i] = le_to_f32(buf + 4 * k);
      if (!isfinite(data[i])) st = PINET_ERR_RANGE;
    }
  }
  fclose(f);
  return st;
}

/* ---- Interfile ----------------------------------------------------------------------------- */

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* "dir/X.hv" -> data path "dir/X.v" and the bare name "X.v". */
static pinet_status data_names(const char *header_path, char **full, const char **base) {
  size_t n = strlen(header_path);
  RETURN_ERROR_IF(!ends_with(header_path, ".hv") || n <= 3, PINET_ERR_RANGE);
  char *p = malloc(n);
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NOMEM);
  memcpy(p, header_path, n - 3);
  strcpy(p + n - 3, ".v");
  *full = p;
  const char *slash = strrchr(p, '/');
  *base = slash ? slash + 1 : p;
  return PINET_OK;
}

pinet_status pinet_interfile_write(const char *header_path, const pinet_interfile *hdr,
                                   const float *data) {
  RETURN_ERROR_IF(header_path == NULL || hdr == NULL || data == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(hdr->dim1 == 0 || hdr->dim2 == 0, PINET_ERR_RANGE);
  RETURN_ERROR_IF(hdr->kind != PINET_RECON_KIND_IMAGE && hdr->kind != PINET_RECON_KIND_SINOGRAM,
                  PINET_ERR_RANGE);
  char *full = NULL;
  const char *base = NULL;
  FORWARD_IF_ERROR(data_names(header_path, &full, &base));
  FILE *f = fopen(header_path, "w");
  if (f == NULL) {
    free(full);
    return PINET_ERR_IO;
  }
  fprintf(f, "!INTERFILE :=\n");
  fprintf(f, "!name of data file := %s\n", base);
  fprintf(f, "!number format := float\n");
  fprintf(f, "!number of bytes per pixel := 4\n");
  fprintf(f, "imagedata byte order := LITTLEENDIAN\n");
  fprintf(f, "number of dimensions := 2\n");
  fprintf(f, "!matrix size [1] := %u\n", hdr->dim1);
  fprintf(f, "!matrix size [2] := %u\n", hdr->dim2);
  fprintf(f, "scaling factor (mm/pixel) [1] := 1\n");
  fprintf(f, "scaling factor (mm/pixel) [2] := 1\n");
  fprintf(f, "pinet data kind := %s\n", hdr->kind == PINET_RECON_KIND_IMAGE ? "image" : "sinogram");
  if (isfinite(hdr->center1)) fprintf(f, "pinet centre [1] := %.17g\n", hdr->center1);
  if (hdr->kind == PINET_RECON_KIND_SINOGRAM && isfinite(hdr->view_step_deg)) {
    fprintf(f, "pinet view step (degrees) := %.17g\n", hdr->view_step_deg);
  }
  fprintf(f, "!END OF INTERFILE :=\n");
  int ok = !ferror(f);
  if (fclose(f) != 0) ok = 0;
  pinet_status st = ok ? pinet_raw_write_f32(full, data, (size_t)hdr->dim1 * hdr->dim2)
                       : PINET_ERR_IO;
  free(full);
  return st;
}

/* Normalise a key: drop a leading '!', lower-case, collapse blanks, trim. */
static void norm_key(const char *in, size_t len, char *out, size_t cap) {
  size_t o = 0;
  size_t i = 0;
  while (i < len && (isspace((unsigned char)in[i]) || in[i] == '!')) i++;
  int space = 0;
  for (; i < len && o + 1 < cap; i++) {
    unsigned char ch = (unsigned char)in[i];
    if (isspace(ch)) {
      space = 1;
      continue;
    }
    if (space && o > 0) out[o++] = ' ';
    space = 0;
    if (o + 1 < cap) out[o++] = (char)tolower(ch);
  }
  out[o] = '\0';
}

static void trim(char *s) {
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
  size_t i = 0;
  while (s[i] && isspace((unsigned char)s[i])) i++;
  if (i) memmove(s, s + i, strlen(s + i) + 1);
}

static int parse_u32(const char *s, uint32_t *out) {
  char *end = NULL;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s || *end != '\0' || v == 0 || v > 0xfffffffful || s[0] == '-') return 0;
  *out = (uint32_t)v;
  return 1;
}

pinet_status pinet_interfile_read(const char *header_path, pinet_interfile *hdr, float **data) {
  RETURN_ERROR_IF(header_path == NULL || hdr == NULL || data == NULL, PINET_ERR_NULL);
  *data = NULL;
  FILE *f = fopen(header_path, "r");
  RETURN_ERROR_IF(f == NULL, PINET_ERR_IO);
  pinet_interfile h = {PINET_RECON_KIND_IMAGE, 0, 0, NAN, NAN};
  char line[1024], key[256], name[1024] = "";
  int fmt_ok = 0, bytes_ok = 0, order_ok = 0, first = 1, bad = 0, ended = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    char *semi = strchr(line, ';');
    if (semi) *semi = '\0';
    char *sep = strstr(line, ":=");
    if (sep == NULL) {
      char tmp[8];
      norm_key(line, strlen(line), tmp, sizeof tmp);
      if (tmp[0] != '\0') bad = 1; /* a non-empty line without := */
      continue;
    }
    norm_key(line, (size_t)(sep - line), key, sizeof key);
    char *val = sep + 2;
    trim(val);
    if (first) {
      if (strcmp(key, "interfile") != 0) bad = 1;
      first = 0;
      continue;
    }
    if (strcmp(key, "name of data file") == 0) {
      snprintf(name, sizeof name, "%s", val);
    } else if (strcmp(key, "number format") == 0) {
      fmt_ok = strcmp(val, "float") == 0 || strcmp(val, "short float") == 0;
    } else if (strcmp(key, "number of bytes per pixel") == 0) {
      bytes_ok = strcmp(val, "4") == 0;
    } else if (strcmp(key, "imagedata byte order") == 0) {
      char v2[32];
      norm_key(val, strlen(val), v2, sizeof v2);
      order_ok = strcmp(v2, "littleendian") == 0;
    } else if (strcmp(key, "number of dimensions") == 0) {
      if (strcmp(val, "2") != 0) bad = 1;
    } else if (strcmp(key, "matrix size [1]") == 0) {
      if (!parse_u32(val, &h.dim1)) bad = 1;
    } else if (strcmp(key, "matrix size [2]") == 0) {
      if (!parse_u32(val, &h.dim2)) bad = 1;
    } else if (strcmp(key, "pinet data kind") == 0) {
      if (strcmp(val, "image") == 0) h.kind = PINET_RECON_KIND_IMAGE;
      else if (strcmp(val, "sinogram") == 0) h.kind = PINET_RECON_KIND_SINOGRAM;
      else bad = 1;
    } else if (strcmp(key, "pinet centre [1]") == 0 || strcmp(key, "pinet view step (degrees)") == 0) {
      char *end = NULL;
      double v = strtod(val, &end);
      if (end == val || *end != '\0' || !isfinite(v)) bad = 1;
      else if (key[6] == 'c') h.center1 = v;
      else h.view_step_deg = v;
    } else if (strcmp(key, "end of interfile") == 0) {
      ended = 1;
      break;
    }
  }
  fclose(f);
  if (first || bad || !ended || !fmt_ok || !bytes_ok || !order_ok || h.dim1 == 0 || h.dim2 == 0 ||
      name[0] == '\0' || (uint64_t)h.dim1 * h.dim2 > ((uint64_t)1 << 32)) {
    return PINET_ERR_PARSE;
  }
  /* data file relative to the header's directory */
  const char *slash = strrchr(header_path, '/');
  size_t dirlen = (name[0] == '/' || slash == NULL) ? 0 : (size_t)(slash - header_path) + 1;
  char *path = malloc(dirlen + strlen(name) + 1);
  RETURN_ERROR_IF(path == NULL, PINET_ERR_NOMEM);
  memcpy(path, header_path, dirlen);
  strcpy(path + dirlen, name);
  size_t n = (size_t)h.dim1 * h.dim2;
  float *buf = malloc(n * sizeof *buf);
  if (buf == NULL) {
    free(path);
    return PINET_ERR_NOMEM;
  }
  pinet_status st = pinet_raw_read_f32(path, buf, n, NULL);
  free(path);
  if (st != PINET_OK) {
    free(buf);
    return st;
  }
  *hdr = h;
  *data = buf;
  return PINET_OK;
}

/* ---- images by extension ------------------------------------------------------------------ */

static int path_ends_with(const char *s, const char *suf) {
  size_t a = strlen(s), b = strlen(suf);
  if (a < b) return 0;
  for (size_t i = 0; i < b; i++) {
    if (tolower((unsigned char)s[a - b + i]) != suf[i]) return 0;
  }
  return 1;
}

pinet_status pinet_recon_image_write(const char *path, const float *img, uint32_t size,
                                     double center) {
  RETURN_ERROR_IF(path == NULL || img == NULL, PINET_ERR_NULL);
  if (path_ends_with(path, ".png") || path_ends_with(path, ".pgm")) {
    pinet_image *im = NULL;
    pinet_status st = pinet_image_create(&im, size, size);
    if (st == PINET_OK) {
      memcpy(im->pixels, img, (size_t)size * size * sizeof(float));
      st = pinet_image_write(im, path, PINET_IMAGE_FORMAT_AUTO, NULL);
    }
    pinet_image_free(im);
    return st;
  }
  if (path_ends_with(path, ".hv")) {
    pinet_interfile h = {PINET_RECON_KIND_IMAGE, size, size, center, NAN};
    return pinet_interfile_write(path, &h, img);
  }
  return pinet_raw_write_f32(path, img, (size_t)size * size);
}
