/* test_image.c - grayscale image I/O (PGM P2/P5, PNG) and the SVG chart writer. PNG inputs are
 * built here byte by byte (stored deflate blocks, our own CRC-32 and Adler-32), so decoding is
 * checked against data libpng did not write. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pinet/image.h"
#include "pinet/rng.h"
#include "test_support.h"

#define SEED 0x1a6eu

/* ---- a tiny byte buffer ------------------------------------------------------------------ */

typedef struct bytes {
  uint8_t *d;
  size_t n, cap;
} bytes;

static void put(bytes *b, const void *src, size_t n) {
  if (b->n + n > b->cap) {
    b->cap = (b->n + n) * 2 + 64;
    b->d = xrealloc(b->d, b->cap);
    assert_non_null(b->d);
  }
  memcpy(b->d + b->n, src, n);
  b->n += n;
}
static void put8(bytes *b, uint8_t v) { put(b, &v, 1); }
static void put32be(bytes *b, uint32_t v) {
  uint8_t t[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
  put(b, t, 4);
}

/* ---- hand-made PNG ----------------------------------------------------------------------- */

static uint32_t crc32_of(const uint8_t *p, size_t n) {
  uint32_t c = 0xffffffffu;
  for (size_t i = 0; i < n; i++) {
    c ^= p[i];
    for (int k = 0; k < 8; k++) {
      c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
    }
  }
  return c ^ 0xffffffffu;
}

static void chunk(bytes *png, const char *type, const uint8_t *data, size_t n) {
  put32be(png, (uint32_t)n);
  bytes body = {NULL, 0, 0};
  put(&body, type, 4);
  if (n > 0) {
    put(&body, data, n);
  }
  put(png, body.d, body.n);
  put32be(png, crc32_of(body.d, body.n));
  free(body.d);
}

/* zlib stream of stored blocks. */
static bytes zlib_stored(const uint8_t *raw, size_t n) {
  bytes z = {NULL, 0, 0};
  put8(&z, 0x78);
  put8(&z, 0x01);
  size_t pos = 0;
  do {
    size_t len = n - pos > 65535 ? 65535 : n - pos;
    put8(&z, pos + len == n ? 1 : 0);
    uint8_t hdr[4] = {(uint8_t)len, (uint8_t)(len >> 8), (uint8_t)~len, (uint8_t)(~len >> 8)};
    put(&z, hdr, 4);
    put(&z, raw + pos, len);
    pos += len;
  } while (pos < n);
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < n; i++) {
    a = (a + raw[i]) % 65521u;
    b = (b + a) % 65521u;
  }
  put32be(&z, (b << 16) | a);
  return z;
}

/* A PNG with the given IHDR fields, optional palette, and already-filtered scanline bytes. */
static bytes make_png(uint32_t w, uint32_t h, uint8_t depth, uint8_t colour, uint8_t interlace,
                      const uint8_t *plte, size_t plte_n, const uint8_t *raw, size_t raw_n) {
  static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a};
  bytes png = {NULL, 0, 0};
  put(&png, sig, 8);
  bytes ihdr = {NULL, 0, 0};
  put32be(&ihdr, w);
  put32be(&ihdr, h);
  uint8_t rest[5] = {depth, colour, 0, 0, interlace};
  put(&ihdr, rest, 5);
  chunk(&png, "IHDR", ihdr.d, ihdr.n);
  free(ihdr.d);
  if (plte != NULL) {
    chunk(&png, "PLTE", plte, plte_n);
  }
  bytes z = zlib_stored(raw, raw_n);
  chunk(&png, "IDAT", z.d, z.n);
  free(z.d);
  chunk(&png, "IEND", NULL, 0);
  return png;
}

/* Scanlines (filter type 0) of samples packed at `depth` bits, `spp` samples per pixel. */
static bytes scanlines(const uint32_t *samples, uint32_t w, uint32_t h, unsigned spp, unsigned depth) {
  bytes raw = {NULL, 0, 0};
  for (uint32_t y = 0; y < h; y++) {
    put8(&raw, 0);
    uint32_t acc = 0, bits = 0;
    for (uint32_t i = 0; i < w * spp; i++) {
      uint32_t v = samples[y * w * spp + i];
      if (depth == 16) {
        put8(&raw, (uint8_t)(v >> 8));
        put8(&raw, (uint8_t)v);
      } else if (depth == 8) {
        put8(&raw, (uint8_t)v);
      } else {
        acc = (acc << depth) | v;
        bits += depth;
        if (bits == 8) {
          put8(&raw, (uint8_t)acc);
          acc = bits = 0;
        }
      }
    }
    if (bits > 0) {
      put8(&raw, (uint8_t)(acc << (8 - bits)));
    }
  }
  return raw;
}

static pinet_image *decode_ok(const bytes *b, pinet_image_info *info, const char *what) {
  pinet_image *img = NULL;
  pinet_status st = pinet_image_decode(b->d, b->n, &img, info);
  if (st != PINET_OK) {
    fail_msg("%s: decode failed: %s", what, pinet_status_str(st));
  }
  return img;
}

static void expect_pixels(const pinet_image *img, uint32_t w, uint32_t h, const uint32_t *want,
                          const char *what) {
  assert_int_equal(img->width, w);
  assert_int_equal(img->height, h);
  for (uint32_t i = 0; i < w * h; i++) {
    if (img->pixels[i] != (float)want[i]) {
      fail_msg("%s: pixel %u is %g, want %u", what, i, (double)img->pixels[i], want[i]);
    }
  }
}

/* ---- tests ------------------------------------------------------------------------------- */

static void test_image_create_free_limits(void **state) {
  (void)state;
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_create(&img, 3, 2), PINET_OK);
  assert_int_equal(img->width, 3);
  for (int i = 0; i < 6; i++) {
    assert_true(img->pixels[i] == 0.0f);
  }
  pinet_image_free(img);
  pinet_image_free(NULL);
  assert_int_equal(pinet_image_create(&img, 0, 2), PINET_ERR_SIZE);
  assert_null(img);
  assert_int_equal(pinet_image_create(&img, PINET_IMAGE_MAX_DIM + 1, 1), PINET_ERR_SIZE);
  assert_int_equal(pinet_image_create(&img, 65536, 65536), PINET_ERR_SIZE);
  assert_int_equal(pinet_image_create(NULL, 1, 1), PINET_ERR_NULL);
}

/* Hand-written PGM files, ASCII and binary, 8 and 16 bit, with comments. */
static void test_image_pgm_decode(void **state) {
  (void)state;
  const char p2[] = "P2\n# a comment\n3 2 # trailing\n# another\n1000\n0 128 1000\n1\t2   3\n";
  pinet_image *img = NULL;
  pinet_image_info info;
  assert_int_equal(pinet_image_decode((const uint8_t *)p2, strlen(p2), &img, &info), PINET_OK);
  uint32_t want2[6] = {0, 128, 1000, 1, 2, 3};
  expect_pixels(img, 3, 2, want2, "P2");
  assert_int_equal(info.format, PINET_IMAGE_FORMAT_PGM);
  assert_int_equal(info.maxval, 1000);
  assert_int_equal(info.bit_depth, 16);
  assert_true(info.ascii);
  pinet_image_free(img);

  const uint8_t p5[] = {'P', '5', ' ', '2', ' ', '2', '\n', '2', '5', '5', '\n', 0, 7, 200, 255};
  assert_int_equal(pinet_image_decode(p5, sizeof p5, &img, &info), PINET_OK);
  uint32_t want5[4] = {0, 7, 200, 255};
  expect_pixels(img, 2, 2, want5, "P5 8-bit");
  assert_int_equal(info.bit_depth, 8);
  assert_false(info.ascii);
  pinet_image_free(img);

  const uint8_t p16[] = {'P', '5', '\n', '2', ' ', '1', '\n', '6', '5', '5', '3', '5', '\n', 0x01, 0x02, 0xff, 0xff};
  assert_int_equal(pinet_image_decode(p16, sizeof p16, &img, &info), PINET_OK);
  uint32_t want16[2] = {258, 65535};
  expect_pixels(img, 2, 1, want16, "P5 16-bit");
  assert_int_equal(info.maxval, 65535);
  pinet_image_free(img);
}

/* Bad headers, out-of-range samples, huge or zero dimensions: PARSE or SIZE, never a crash. */
static void test_image_pgm_malformed(void **state) {
  (void)state;
  struct {
    const char *text;
    pinet_status want;
  } cases[] = {
      {"P2 2 2 255 1 2 3", PINET_ERR_PARSE},      /* too few samples */
      {"P2 2 1 255\n1 300\n", PINET_ERR_PARSE},   /* sample above maxval */
      {"P2 2 1 255\n1 -2\n", PINET_ERR_PARSE},    /* negative sample */
      {"P2 2 1 255\n1 x\n", PINET_ERR_PARSE},     /* garbage sample */
      {"P5 2 2 0\n1234", PINET_ERR_PARSE},        /* maxval 0 */
      {"P5 2 2 70000\n12345678", PINET_ERR_PARSE}, /* maxval above 65535 */
      {"P5 0 2 255\n", PINET_ERR_PARSE},          /* zero width */
      {"P5 2 2 255", PINET_ERR_PARSE},            /* no raster, no separator */
      {"P5 2x2 255\n", PINET_ERR_PARSE},          /* bad number */
      {"P5 2 2\n", PINET_ERR_PARSE},              /* missing maxval */
      {"P3 1 1 255\n1 2 3\n", PINET_ERR_PARSE},   /* colour PPM: not PGM */
      {"hello", PINET_ERR_PARSE},
      {"", PINET_ERR_PARSE},
      {"P5 100000 100000 255\n", PINET_ERR_SIZE},   /* beyond PINET_IMAGE_MAX_DIM */
      {"P5 65536 65536 255\n", PINET_ERR_SIZE},     /* beyond PINET_IMAGE_MAX_PIXELS */
      {"P5 99999999999 1 255\n", PINET_ERR_PARSE},  /* not even a 32-bit number */
      {"P5 4096 4096 255\n", PINET_ERR_PARSE},      /* within limits, but truncated */
      {"P2 4096 4096 255\n1 2 3\n", PINET_ERR_PARSE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    pinet_image *img = (pinet_image *)1;
    pinet_status st = pinet_image_decode((const uint8_t *)cases[i].text, strlen(cases[i].text), &img, NULL);
    if (st != cases[i].want) {
      fail_msg("case %zu '%s': %s, want %s", i, cases[i].text, pinet_status_name(st),
               pinet_status_name(cases[i].want));
    }
    assert_null(img);
  }
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_decode(NULL, 5, &img, NULL), PINET_ERR_NULL);
}

/* Every strict prefix of a valid file fails cleanly (P5 and PNG; P2 up to its last sample). */
static void test_image_truncated_files(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED);
  printf("test_image_truncated_files: seed %u\n", SEED);
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_create(&img, 7, 5), PINET_OK);
  for (int i = 0; i < 35; i++) {
    img->pixels[i] = (float)pinet_rng_below(&rng, 256);
  }
  pinet_image_write_opts opts = {0, 0.0f, 255.0f, 8};
  int formats[2] = {PINET_IMAGE_FORMAT_PGM, PINET_IMAGE_FORMAT_PNG};
  for (int f = 0; f < 2; f++) {
    if (formats[f] == PINET_IMAGE_FORMAT_PNG && !pinet_image_png_supported()) {
      continue;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    assert_int_equal(pinet_image_encode(img, (pinet_image_format)formats[f], &opts, &data, &size), PINET_OK);
    for (size_t cut = 0; cut < size; cut++) {
      pinet_image *out = (pinet_image *)1;
      pinet_status st = pinet_image_decode(data, cut, &out, NULL);
      if (st != PINET_ERR_PARSE) {
        fail_msg("format %d cut at %zu of %zu: %s", formats[f], cut, size, pinet_status_name(st));
      }
      assert_null(out);
    }
    /* One flipped byte in the PNG header chunk fails its CRC. */
    if (formats[f] == PINET_IMAGE_FORMAT_PNG) {
      data[17] ^= 0x40;
      pinet_image *out = NULL;
      assert_int_equal(pinet_image_decode(data, size, &out, NULL), PINET_ERR_PARSE);
    }
    free(data);
  }
  const char p2[] = "P2\n2 2\n255\n10 20\n30 255\n";
  size_t last = strlen(p2) - 4; /* where "255\n" starts */
  for (size_t cut = 0; cut < last; cut++) {
    pinet_image *out = NULL;
    if (pinet_image_decode((const uint8_t *)p2, cut, &out, NULL) != PINET_ERR_PARSE) {
      fail_msg("P2 cut at %zu accepted", cut);
    }
  }
  pinet_image_free(img);
}

/* Random byte flips and splices of valid files: decoding returns a status, never crashes (run
 * under ASan/UBSan by the sanitizer build). */
static void test_image_mutated_files(void **state) {
  (void)state;
  uint64_t seed = SEED + 7;
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  printf("test_image_mutated_files: seed %llu\n", (unsigned long long)seed);
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_create(&img, 9, 6), PINET_OK);
  for (int i = 0; i < 54; i++) {
    img->pixels[i] = (float)pinet_rng_below(&rng, 65536);
  }
  for (int f = 1; f <= 2; f++) {
    for (unsigned depth = 8; depth <= 16; depth += 8) {
      if (f == PINET_IMAGE_FORMAT_PNG && !pinet_image_png_supported()) {
        continue;
      }
      pinet_image_write_opts opts = {1, 0.0f, 0.0f, depth};
      uint8_t *data = NULL;
      size_t size = 0;
      assert_int_equal(pinet_image_encode(img, (pinet_image_format)f, &opts, &data, &size), PINET_OK);
      uint8_t *copy = xmalloc(size);
      assert_non_null(copy);
      for (int trial = 0; trial < 1500; trial++) {
        memcpy(copy, data, size);
        size_t flips = 1 + pinet_rng_below(&rng, 4);
        for (size_t k = 0; k < flips; k++) {
          copy[pinet_rng_below(&rng, size)] = (uint8_t)pinet_rng_next(&rng);
        }
        size_t len = trial % 3 == 0 ? pinet_rng_below(&rng, size + 1) : size;
        pinet_image *out = NULL;
        pinet_status st = pinet_image_decode(copy, len, &out, NULL);
        if (st != PINET_OK && st != PINET_ERR_PARSE && st != PINET_ERR_SIZE && st != PINET_ERR_UNSUPPORTED) {
          fail_msg("seed %llu format %d depth %u trial %d: %s", (unsigned long long)seed, f, depth,
                   trial, pinet_status_name(st));
        }
        if (st == PINET_OK) {
          assert_non_null(out);
          assert_true(out->width >= 1 && out->height >= 1);
        } else {
          assert_null(out);
        }
        pinet_image_free(out);
      }
      free(copy);
      free(data);
    }
  }
  pinet_image_free(img);
}

/* PNGs built by hand: gray of 1, 4, 8, 16 bits, gray+alpha, RGB, RGBA, palette, interlaced. */
static void test_image_png_decode(void **state) {
  (void)state;
  pinet_image_info info;
  if (!pinet_image_png_supported()) {
    bytes b = make_png(1, 1, 8, 0, 0, NULL, 0, (const uint8_t[]){0, 5}, 2);
    pinet_image *img = NULL;
    assert_int_equal(pinet_image_decode(b.d, b.n, &img, &info), PINET_ERR_UNSUPPORTED);
    free(b.d);
    skip();
  }
  {
    uint32_t px[15] = {0, 1, 2, 3, 4, 100, 101, 102, 103, 104, 250, 251, 252, 253, 255};
    bytes raw = scanlines(px, 5, 3, 1, 8);
    bytes b = make_png(5, 3, 8, 0, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "gray8");
    expect_pixels(img, 5, 3, px, "gray8");
    assert_int_equal(info.format, PINET_IMAGE_FORMAT_PNG);
    assert_int_equal(info.maxval, 255);
    assert_false(info.converted);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    uint32_t px[8] = {0, 1, 256, 65535, 40000, 12345, 2, 65534};
    bytes raw = scanlines(px, 4, 2, 1, 16);
    bytes b = make_png(4, 2, 16, 0, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "gray16");
    expect_pixels(img, 4, 2, px, "gray16");
    assert_int_equal(info.bit_depth, 16);
    assert_int_equal(info.maxval, 65535);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    uint32_t px[18] = {1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0};
    bytes raw = scanlines(px, 9, 2, 1, 1);
    bytes b = make_png(9, 2, 1, 0, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "gray1");
    expect_pixels(img, 9, 2, px, "gray1");
    assert_int_equal(info.maxval, 1);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    uint32_t px[3] = {15, 0, 9};
    bytes raw = scanlines(px, 3, 1, 1, 4);
    bytes b = make_png(3, 1, 4, 0, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "gray4");
    expect_pixels(img, 3, 1, px, "gray4");
    assert_int_equal(info.maxval, 15);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    uint32_t ga[6] = {10, 255, 20, 0, 30, 128}; /* gray, alpha pairs */
    bytes raw = scanlines(ga, 3, 1, 2, 8);
    bytes b = make_png(3, 1, 8, 4, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "gray+alpha");
    expect_pixels(img, 3, 1, (const uint32_t[]){10, 20, 30}, "gray+alpha");
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  /* Colour: gray by 0.2126 R + 0.7152 G + 0.0722 B (libpng's fixed-point weights: +-1). */
  const uint32_t rgb[6][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {10, 20, 30}, {77, 77, 77}, {200, 100, 50}};
  for (int alpha = 0; alpha < 2; alpha++) {
    uint32_t s[24];
    unsigned spp = alpha ? 4 : 3;
    for (int i = 0; i < 6; i++) {
      for (unsigned c = 0; c < 3; c++) {
        s[i * spp + c] = rgb[i][c];
      }
      if (alpha) {
        s[i * spp + 3] = 17u * (uint32_t)i;
      }
    }
    bytes raw = scanlines(s, 3, 2, spp, 8);
    bytes b = make_png(3, 2, 8, alpha ? 6 : 2, 0, NULL, 0, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, alpha ? "rgba" : "rgb");
    assert_true(info.converted);
    for (int i = 0; i < 6; i++) {
      double want = 0.2126 * rgb[i][0] + 0.7152 * rgb[i][1] + 0.0722 * rgb[i][2];
      if (fabs(img->pixels[i] - want) > 1.0) {
        fail_msg("%s pixel %d: %g, want about %g", alpha ? "rgba" : "rgb", i, (double)img->pixels[i], want);
      }
    }
    assert_true(img->pixels[4] == 77.0f);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    const uint8_t plte[9] = {255, 0, 0, 0, 0, 0, 255, 255, 255};
    uint32_t idx[4] = {0, 1, 2, 1};
    bytes raw = scanlines(idx, 4, 1, 1, 2);
    bytes b = make_png(4, 1, 2, 3, 0, plte, sizeof plte, raw.d, raw.n);
    pinet_image *img = decode_ok(&b, &info, "palette");
    assert_true(info.converted);
    assert_true(fabs(img->pixels[0] - 0.2126 * 255) <= 1.0);
    assert_true(img->pixels[1] == 0.0f && img->pixels[2] == 255.0f && img->pixels[3] == 0.0f);
    pinet_image_free(img);
    free(raw.d);
    free(b.d);
  }
  {
    /* Adam7, 2 x 2: pass 1 holds (0,0), pass 6 (1,0), pass 7 row 1. */
    const uint8_t raw[] = {0, 11, 0, 22, 0, 33, 44};
    bytes b = make_png(2, 2, 8, 0, 1, NULL, 0, raw, sizeof raw);
    pinet_image *img = decode_ok(&b, &info, "interlaced");
    expect_pixels(img, 2, 2, (const uint32_t[]){11, 22, 33, 44}, "interlaced");
    pinet_image_free(img);
    free(b.d);
  }
}

/* Hand-made PNGs with bad headers: huge, zero, illegal depth. */
static void test_image_png_malformed(void **state) {
  (void)state;
  if (!pinet_image_png_supported()) {
    skip();
  }
  const uint8_t raw[2] = {0, 1};
  struct {
    uint32_t w, h;
    uint8_t depth, colour;
    pinet_status want;
  } cases[] = {
      {100000, 100000, 8, 0, PINET_ERR_SIZE},
      {70000, 1, 8, 0, PINET_ERR_SIZE},
      {8192, 8193, 8, 0, PINET_ERR_SIZE},  /* one row above PINET_IMAGE_MAX_PIXELS */
      {8192, 8192, 8, 0, PINET_ERR_PARSE}, /* at the limit, but far more data than the file holds */
      {0, 1, 8, 0, PINET_ERR_PARSE},
      {1, 1, 3, 0, PINET_ERR_PARSE},       /* gray depth 3 does not exist */
      {1, 1, 8, 5, PINET_ERR_PARSE},       /* colour type 5 does not exist */
      {1, 1, 8, 3, PINET_ERR_PARSE},       /* palette image without PLTE */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    bytes b = make_png(cases[i].w, cases[i].h, cases[i].depth, cases[i].colour, 0, NULL, 0, raw, 2);
    pinet_image *img = (pinet_image *)1;
    pinet_status st = pinet_image_decode(b.d, b.n, &img, NULL);
    pinet_status want = cases[i].want;
    if (st != want) {
      fail_msg("PNG case %zu (%ux%u depth %u colour %u): %s, want %s", i, cases[i].w, cases[i].h,
               cases[i].depth, cases[i].colour, pinet_status_name(st), pinet_status_name(want));
    }
    assert_null(img);
    free(b.d);
  }
  /* Not a PNG after the signature. */
  const uint8_t junk[] = {0x89, 'P', 'N', 'G', 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3};
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_decode(junk, sizeof junk, &img, NULL), PINET_ERR_PARSE);
}

/* Encode then decode gives the same integer samples back (8 and 16 bits, both formats). */
static void test_image_round_trip(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED + 1);
  printf("test_image_round_trip: seed %u\n", SEED + 1);
  for (unsigned depth = 8; depth <= 16; depth += 8) {
    pinet_image *img = NULL;
    assert_int_equal(pinet_image_create(&img, 37, 23), PINET_OK);
    uint32_t maxv = (1u << depth) - 1;
    for (uint32_t i = 0; i < 37 * 23; i++) {
      img->pixels[i] = (float)pinet_rng_below(&rng, maxv + 1);
    }
    img->pixels[0] = 0.0f;
    img->pixels[1] = (float)maxv;
    pinet_image_write_opts opts = {0, 0.0f, (float)maxv, depth};
    for (int f = 1; f <= 2; f++) {
      if (f == PINET_IMAGE_FORMAT_PNG && !pinet_image_png_supported()) {
        continue;
      }
      uint8_t *data = NULL;
      size_t size = 0;
      assert_int_equal(pinet_image_encode(img, (pinet_image_format)f, &opts, &data, &size), PINET_OK);
      pinet_image *back = NULL;
      pinet_image_info info;
      assert_int_equal(pinet_image_decode(data, size, &back, &info), PINET_OK);
      assert_int_equal(info.format, f);
      assert_int_equal(info.maxval, maxv);
      assert_int_equal(back->width, 37);
      assert_int_equal(back->height, 23);
      assert_memory_equal(back->pixels, img->pixels, 37 * 23 * sizeof(float));
      pinet_image_free(back);
      free(data);
    }
    pinet_image_free(img);
  }
}

/* Scaling: autoscale maps min..max to 0..255; an explicit range clamps; NaN and a constant
 * image give zeros; bad options are rejected. */
static void test_image_write_scaling(void **state) {
  (void)state;
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_create(&img, 5, 1), PINET_OK);
  const float v[5] = {-1.0f, 0.0f, 0.5f, 2.0f, 3.0f};
  memcpy(img->pixels, v, sizeof v);
  uint8_t *data = NULL;
  size_t size = 0;
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PGM, NULL, &data, &size), PINET_OK);
  pinet_image *back = NULL;
  assert_int_equal(pinet_image_decode(data, size, &back, NULL), PINET_OK);
  for (int i = 0; i < 5; i++) {
    double want = floor((v[i] + 1.0) / 4.0 * 255.0 + 0.5);
    assert_true(back->pixels[i] == (float)want);
  }
  pinet_image_free(back);
  free(data);
  pinet_image_write_opts opts = {0, 0.0f, 1.0f, 8};
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PGM, &opts, &data, &size), PINET_OK);
  assert_int_equal(pinet_image_decode(data, size, &back, NULL), PINET_OK);
  const float clamped[5] = {0.0f, 0.0f, 128.0f, 255.0f, 255.0f};
  assert_memory_equal(back->pixels, clamped, sizeof clamped);
  pinet_image_free(back);
  free(data);
  for (int i = 0; i < 5; i++) {
    img->pixels[i] = i == 2 ? NAN : 7.0f;
  }
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PGM, NULL, &data, &size), PINET_OK);
  assert_int_equal(pinet_image_decode(data, size, &back, NULL), PINET_OK);
  for (int i = 0; i < 5; i++) {
    assert_true(back->pixels[i] == 0.0f);
  }
  pinet_image_free(back);
  free(data);
  opts.lo = 1.0f;
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PGM, &opts, &data, &size), PINET_ERR_RANGE);
  opts.lo = 0.0f;
  opts.bit_depth = 12;
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PGM, &opts, &data, &size), PINET_ERR_RANGE);
  assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_AUTO, NULL, &data, &size), PINET_ERR_RANGE);
  if (!pinet_image_png_supported()) {
    assert_int_equal(pinet_image_encode(img, PINET_IMAGE_FORMAT_PNG, NULL, &data, &size), PINET_ERR_UNSUPPORTED);
  }
  pinet_image_free(img);
}

/* Files: the extension picks the format, the magic bytes decide on reading, errors are IO. */
static void test_image_files(void **state) {
  (void)state;
  char dir[] = "/tmp/pinet_test_image_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  pinet_image *img = NULL;
  assert_int_equal(pinet_image_create(&img, 4, 3), PINET_OK);
  for (int i = 0; i < 12; i++) {
    img->pixels[i] = (float)(i * 20);
  }
  pinet_image_write_opts opts = {0, 0.0f, 255.0f, 8};
  const char *names[2] = {"a.PGM", "b.png"};
  for (int i = 0; i < 2; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    pinet_status st = pinet_image_write(img, path, PINET_IMAGE_FORMAT_AUTO, &opts);
    if (i == 1 && !pinet_image_png_supported()) {
      assert_int_equal(st, PINET_ERR_UNSUPPORTED);
      continue;
    }
    assert_int_equal(st, PINET_OK);
    pinet_image *back = NULL;
    pinet_image_info info;
    assert_int_equal(pinet_image_read(path, &back, &info), PINET_OK);
    assert_int_equal(info.format, i == 0 ? PINET_IMAGE_FORMAT_PGM : PINET_IMAGE_FORMAT_PNG);
    assert_memory_equal(back->pixels, img->pixels, 12 * sizeof(float));
    pinet_image_free(back);
    remove(path);
  }
  /* A PGM named .png is still read as PGM (magic bytes win). */
  snprintf(path, sizeof path, "%s/c.png", dir);
  assert_int_equal(pinet_image_write(img, path, PINET_IMAGE_FORMAT_PGM, &opts), PINET_OK);
  pinet_image *back = NULL;
  pinet_image_info info;
  assert_int_equal(pinet_image_read(path, &back, &info), PINET_OK);
  assert_int_equal(info.format, PINET_IMAGE_FORMAT_PGM);
  pinet_image_free(back);
  remove(path);
  snprintf(path, sizeof path, "%s/d.jpg", dir);
  assert_int_equal(pinet_image_write(img, path, PINET_IMAGE_FORMAT_AUTO, &opts), PINET_ERR_RANGE);
  snprintf(path, sizeof path, "%s/missing/e.pgm", dir);
  assert_int_equal(pinet_image_write(img, path, PINET_IMAGE_FORMAT_AUTO, &opts), PINET_ERR_IO);
  assert_int_equal(pinet_image_read(path, &back, NULL), PINET_ERR_IO);
  assert_null(back);
  pinet_image_free(img);
  rmdir(dir);
  assert_int_equal(pinet_image_sniff((const uint8_t *)"P5", 2), PINET_IMAGE_FORMAT_PGM);
  assert_int_equal(pinet_image_sniff((const uint8_t *)"P6", 2), PINET_IMAGE_FORMAT_AUTO);
  assert_int_equal(pinet_image_sniff(NULL, 0), PINET_IMAGE_FORMAT_AUTO);
}

static size_t count_of(const char *hay, const char *needle) {
  size_t n = 0;
  for (const char *p = strstr(hay, needle); p != NULL; p = strstr(p + 1, needle)) {
    n++;
  }
  return n;
}

/* The SVG chart: structure, escaping, skipped non-finite points, log axes, errors. */
static void test_image_plot_svg(void **state) {
  (void)state;
  const double x[5] = {1, 2, 3, 4, 5};
  const double y1[5] = {1000, 2000, NAN, 8000, 2e6};
  const double y2[5] = {5, 50, 500, 5000, 50000};
  pinet_plot_series s[2] = {{"one & <two>", x, y1, 5, PINET_PLOT_LINE},
                            {"markers", x, y2, 5, PINET_PLOT_MARKERS}};
  pinet_plot plot = {"Title \"q\"", "x axis", "y axis", 0, 1, s, 2};
  char *svg = NULL;
  assert_int_equal(pinet_image_plot_svg(&plot, &svg), PINET_OK);
  assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
  assert_non_null(strstr(svg, "</svg>"));
  assert_non_null(strstr(svg, "one &amp; &lt;two&gt;"));
  assert_non_null(strstr(svg, "Title &quot;q&quot;"));
  assert_non_null(strstr(svg, ">x axis<"));
  assert_non_null(strstr(svg, ">y axis<"));
  assert_non_null(strstr(svg, ">1000<"));
  assert_null(strstr(svg, "nan,")); /* no non-finite coordinates ("dominant" has "nan" in it) */
  assert_null(strstr(svg, ",nan"));
  assert_null(strstr(svg, "inf"));
  assert_int_equal(count_of(svg, "<polyline"), 1);
  assert_int_equal(count_of(svg, "<circle"), 5 + 1); /* 5 points and the legend sample */
  free(svg);
  /* Linear axes: ticks at multiples of a 1-2-5 step covering the data. */
  plot.ylog = 0;
  assert_int_equal(pinet_image_plot_svg(&plot, &svg), PINET_OK);
  assert_non_null(strstr(svg, ">0<"));
  free(svg);
  plot.ylog = 1;
  const double bad[2] = {0, 1};
  pinet_plot_series sb = {"bad", x, bad, 2, PINET_PLOT_LINE};
  pinet_plot pb = {"t", "x", "y", 0, 1, &sb, 1};
  assert_int_equal(pinet_image_plot_svg(&pb, &svg), PINET_ERR_RANGE);
  pb.n_series = 0;
  assert_int_equal(pinet_image_plot_svg(&pb, &svg), PINET_ERR_RANGE);
  const double nans[2] = {NAN, NAN};
  pinet_plot_series sn = {"nan", x, nans, 2, PINET_PLOT_LINE};
  pinet_plot pn = {"t", "x", "y", 0, 0, &sn, 1};
  assert_int_equal(pinet_image_plot_svg(&pn, &svg), PINET_ERR_RANGE);
  assert_int_equal(pinet_image_plot_svg_write(&plot, "/nonexistent-dir/x.svg"), PINET_ERR_IO);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_image_create_free_limits),
      cmocka_unit_test(test_image_pgm_decode),
      cmocka_unit_test(test_image_pgm_malformed),
      cmocka_unit_test(test_image_truncated_files),
      cmocka_unit_test(test_image_mutated_files),
      cmocka_unit_test(test_image_png_decode),
      cmocka_unit_test(test_image_png_malformed),
      cmocka_unit_test(test_image_round_trip),
      cmocka_unit_test(test_image_write_scaling),
      cmocka_unit_test(test_image_files),
      cmocka_unit_test(test_image_plot_svg),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
