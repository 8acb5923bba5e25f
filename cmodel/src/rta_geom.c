/* rta_geom.c - RTA geometry, switch addressing, SRTA adjacency, legal switch states (SRTA / ARTA /
 * RTA), ARTA edits and the hexadecimal bitmap format (paper 004 §2-§4, SPEC §1). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "error_private.h"
#include "pinet/rta.h"

/* ---- small helpers ----------------------------------------------------------------------- */

/* Trailing zeros of x (x != 0). */
static uint32_t rta_tz(uint32_t x) {
  uint32_t n = 0;
  while ((x & 1u) == 0u) {
    x >>= 1;
    n++;
  }
  return n;
}

/* floor(log2(x)) for x != 0. */
static uint32_t rta_log2(uint32_t x) {
  uint32_t n = 0;
  while (x > 1u) {
    x >>= 1;
    n++;
  }
  return n;
}

/* Level of ring position p: tz(p+1) + 2. In 2D every bit's ring position is bit % M. */
static uint32_t pos_level(uint32_t p) { return rta_tz(p + 1u) + 2u; }

static uint32_t bit_level(const pinet_rta_geom *g, uint32_t bit) {
  return pos_level(bit % g->ring_switches);
}

/* ---- geometry ---------------------------------------------------------------------------- */

pinet_status pinet_rta_geom_init(pinet_rta_geom *geom, unsigned dim, uint32_t pes) {
  RETURN_ERROR_IF(geom == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(dim != 1u && dim != 2u, PINET_ERR_RANGE);
  RETURN_ERROR_IF(pes == 0u || (pes & (pes - 1u)) != 0u, PINET_ERR_SIZE);
  uint32_t lg = rta_log2(pes);
  uint32_t side = pes;
  if (dim == 2u) {
    RETURN_ERROR_IF((lg & 1u) != 0u, PINET_ERR_SIZE); /* not a power of four */
    side = 1u << (lg / 2u);
    RETURN_ERROR_IF(side > PINET_RTA_MAX_SIDE_2D, PINET_ERR_SIZE);
  } else {
    RETURN_ERROR_IF(side > PINET_RTA_MAX_SIDE_1D, PINET_ERR_SIZE);
  }
  RETURN_ERROR_IF(side < 4u, PINET_ERR_SIZE); /* L >= 2 */
  pinet_rta_geom g;
  memset(&g, 0, sizeof g);
  g.dim = dim;
  g.pes = pes;
  g.side = side;
  g.levels = rta_log2(side);
  g.ring_switches = side / 2u - 1u;
  if (dim == 1u) {
    g.switches = g.ring_switches;
    g.nodes = g.ring_switches;
    g.ports_per_pe = 2u;
  } else {
    g.switches = 2u * side * g.ring_switches;
    g.nodes = ((1u << (2u * (g.levels - 1u))) - 1u) / 3u;
    g.ports_per_pe = 4u;
  }
  *geom = g;
  return PINET_OK;
}

/* ---- switch addressing ------------------------------------------------------------------- */

pinet_status pinet_rta_switch_level(const pinet_rta_geom *geom, uint32_t pos, uint32_t *level) {
  RETURN_ERROR_IF(geom == NULL || level == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pos >= geom->ring_switches, PINET_ERR_RANGE);
  *level = pos_level(pos);
  return PINET_OK;
}

/* In-order position p with p+1 = (2t+1) 2^h sits at height h (level h+2), depth L-2-h, and is the
 * t-th node of its depth: heap number 2^depth + t. */
pinet_status pinet_rta_switch_address(const pinet_rta_geom *geom, uint32_t pos, uint32_t *addr) {
  RETURN_ERROR_IF(geom == NULL || addr == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(pos >= geom->ring_switches, PINET_ERR_RANGE);
  uint32_t h = rta_tz(pos + 1u);
  uint32_t t = (pos + 1u) >> (h + 1u);
  uint32_t depth = geom->levels - 2u - h;
  *addr = (1u << depth) + t;
  return PINET_OK;
}

pinet_status pinet_rta_switch_position(const pinet_rta_geom *geom, uint32_t addr, uint32_t *pos) {
  RETURN_ERROR_IF(geom == NULL || pos == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(addr == 0u || addr > geom->ring_switches, PINET_ERR_RANGE);
  uint32_t depth = rta_log2(addr);
  uint32_t t = addr - (1u << depth);
  uint32_t h = geom->levels - 2u - depth;
  *pos = ((2u * t + 1u) << h) - 1u;
  return PINET_OK;
}

/* 2D classes. Depth d (root 0) holds heap numbers first(d) = (4^d + 2)/3 .. first(d+1) - 1; the
 * offset t inside a depth interleaves the block coordinates (bit i of bc = bit 2i of t, bit i of
 * br = bit 2i+1 of t), which is the order TL, TR, BL, BR at every split. Level k = L - d. */
static uint32_t class_first(uint32_t depth) { return ((1u << (2u * depth)) + 2u) / 3u; }

static void class_decode(const pinet_rta_geom *g, uint32_t cls, uint32_t *level, uint32_t *br,
                         uint32_t *bc) {
  uint32_t d = 0;
  while (cls >= class_first(d + 1u)) {
    d++;
  }
  uint32_t t = cls - class_first(d);
  uint32_t r = 0, c = 0;
  for (uint32_t i = 0; i < d; i++) {
    c |= ((t >> (2u * i)) & 1u) << i;
    r |= ((t >> (2u * i + 1u)) & 1u) << i;
  }
  *level = g->levels - d;
  *br = r;
  *bc = c;
}

static uint32_t class_encode(const pinet_rta_geom *g, uint32_t level, uint32_t br, uint32_t bc) {
  uint32_t d = g->levels - level;
  uint32_t t = 0;
  for (uint32_t i = 0; i < d; i++) {
    t |= ((bc >> i) & 1u) << (2u * i);
    t |= ((br >> i) & 1u) << (2u * i + 1u);
  }
  return class_first(d) + t;
}

/* Bit `idx` (0 .. 2^(k+1)-1) of the class of level k at block (br, bc): first the horizontal
 * switches of the block's 2^k rows, then the vertical ones of its 2^k columns. */
static uint32_t class_bit(const pinet_rta_geom *g, uint32_t level, uint32_t br, uint32_t bc,
                          uint32_t idx) {
  uint32_t M = g->ring_switches;
  uint32_t size = 1u << level;
  if (idx < size) {
    uint32_t row = br * size + idx;
    uint32_t p = bc * (size / 2u) + size / 4u - 1u;
    return row * M + p;
  }
  uint32_t col = bc * size + (idx - size);
  uint32_t p = br * (size / 2u) + size / 4u - 1u;
  return g->side * M + col * M + p;
}

pinet_status pinet_rta_class_of_bit(const pinet_rta_geom *geom, uint32_t bit, uint32_t *cls) {
  RETURN_ERROR_IF(geom == NULL || cls == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(geom->dim != 2u, PINET_ERR_UNSUPPORTED);
  RETURN_ERROR_IF(bit >= geom->switches, PINET_ERR_RANGE);
  uint32_t M = geom->ring_switches;
  uint32_t p = bit % M;
  uint32_t k = pos_level(p);
  uint32_t boundary = 2u * (p + 1u); /* PE index right of (below) the switch */
  uint32_t ring = (bit / M) % geom->side;
  uint32_t br, bc;
  if (bit < geom->side * M) { /* horizontal ring `ring` = row */
    br = ring >> k;
    bc = boundary >> k;
  } else { /* vertical ring = column */
    br = boundary >> k;
    bc = ring >> k;
  }
  *cls = class_encode(geom, k, br, bc);
  return PINET_OK;
}

pinet_status pinet_rta_class_level(const pinet_rta_geom *geom, uint32_t cls, uint32_t *level) {
  RETURN_ERROR_IF(geom == NULL || level == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(geom->dim != 2u, PINET_ERR_UNSUPPORTED);
  RETURN_ERROR_IF(cls == 0u || cls > geom->nodes, PINET_ERR_RANGE);
  uint32_t br, bc;
  class_decode(geom, cls, level, &br, &bc);
  return PINET_OK;
}

/* ---- SRTA adjacency ---------------------------------------------------------------------- */

pinet_status pinet_rta_neighbors(const pinet_rta_geom *geom, uint32_t a, uint32_t level,
                                 uint32_t out[2], uint32_t *count) {
  RETURN_ERROR_IF(geom == NULL || out == NULL || count == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(a >= geom->side || level == 0u || level > geom->levels, PINET_ERR_RANGE);
  uint32_t size = 1u << level;
  uint32_t q = a - a % size;
  uint32_t lo = q + (a + size - 1u) % size; /* residue(A - 1, 2^l), non-negative */
  uint32_t hi = q + (a + 1u) % size;
  if (lo == hi) {
    out[0] = lo;
    *count = 1;
  } else {
    out[0] = lo < hi ? lo : hi;
    out[1] = lo < hi ? hi : lo;
    *count = 2;
  }
  return PINET_OK;
}

pinet_status pinet_rta_adjacent(const pinet_rta_geom *geom, uint32_t a, uint32_t b, uint32_t level,
                                int *adjacent) {
  RETURN_ERROR_IF(adjacent == NULL, PINET_ERR_NULL);
  uint32_t na[2], nb[2], ca = 0, cb = 0;
  FORWARD_IF_ERROR(pinet_rta_neighbors(geom, a, level, na, &ca));
  FORWARD_IF_ERROR(pinet_rta_neighbors(geom, b, level, nb, &cb));
  int adj = 0;
  for (uint32_t i = 0; i < ca; i++) {
    adj |= na[i] == b;
  }
  for (uint32_t i = 0; i < cb; i++) {
    adj |= nb[i] == a;
  }
  *adjacent = adj;
  return PINET_OK;
}

/* ---- switch states ----------------------------------------------------------------------- */

pinet_status pinet_rta_srta_bitmap(const pinet_rta_geom *geom, uint32_t level, uint8_t *bits) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(level == 0u || level > geom->levels, PINET_ERR_RANGE);
  for (uint32_t b = 0; b < geom->switches; b++) {
    bits[b] = (uint8_t)(bit_level(geom, b) <= level);
  }
  return PINET_OK;
}

static int bits_are_binary(const pinet_rta_geom *g, const uint8_t *bits) {
  for (uint32_t b = 0; b < g->switches; b++) {
    if (bits[b] > 1u) {
      return 0;
    }
  }
  return 1;
}

/* The SRTA level of bits, or 0 if it is none (bits known to be 0/1). */
static uint32_t srta_level(const pinet_rta_geom *g, const uint8_t *bits) {
  uint32_t level = 1;
  for (uint32_t b = 0; b < g->switches; b++) {
    uint32_t k = bit_level(g, b);
    if (bits[b] && k > level) {
      level = k;
    }
  }
  for (uint32_t b = 0; b < g->switches; b++) {
    if (bits[b] != (uint8_t)(bit_level(g, b) <= level)) {
      return 0;
    }
  }
  return level;
}

pinet_status pinet_rta_srta_level_of(const pinet_rta_geom *geom, const uint8_t *bits,
                                     uint32_t *level) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL || level == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!bits_are_binary(geom, bits), PINET_ERR_RANGE);
  uint32_t l = srta_level(geom, bits);
  RETURN_ERROR_IF(l == 0u, PINET_ERR_ILLEGAL_STATE);
  *level = l;
  return PINET_OK;
}

/* 1D ARTA: an ON switch needs both children ON. The children of position p (height h >= 1) are
 * p - 2^(h-1) and p + 2^(h-1). */
static int arta_legal_1d(const pinet_rta_geom *g, const uint8_t *bits) {
  for (uint32_t p = 0; p < g->ring_switches; p++) {
    uint32_t h = rta_tz(p + 1u);
    if (bits[p] && h >= 1u) {
      uint32_t half = 1u << (h - 1u);
      if (!bits[p - half] || !bits[p + half]) {
        return 0;
      }
    }
  }
  return 1;
}

/* State of class cls: 0 or 1 if uniform, -1 if mixed. */
static int class_state(const pinet_rta_geom *g, const uint8_t *bits, uint32_t cls) {
  uint32_t k, br, bc;
  class_decode(g, cls, &k, &br, &bc);
  uint32_t n = 2u << k;
  int s = bits[class_bit(g, k, br, bc, 0)];
  for (uint32_t i = 1; i < n; i++) {
    if (bits[class_bit(g, k, br, bc, i)] != s) {
      return -1;
    }
  }
  return s;
}

/* 2D ARTA: every class uniform, an ON class of level >= 3 needs its four children ON. */
static int arta_legal_2d(const pinet_rta_geom *g, const uint8_t *bits) {
  for (uint32_t cls = 1; cls <= g->nodes; cls++) {
    if (class_state(g, bits, cls) < 0) {
      return 0;
    }
  }
  for (uint32_t cls = 1; cls <= g->nodes; cls++) {
    uint32_t first_child = 4u * cls - 2u;
    if (first_child > g->nodes || class_state(g, bits, cls) == 0) {
      continue;
    }
    for (uint32_t c = first_child; c < first_child + 4u; c++) {
      if (class_state(g, bits, c) != 1) {
        return 0;
      }
    }
  }
  return 1;
}

pinet_status pinet_rta_bitmap_is_legal(const pinet_rta_geom *geom, pinet_rta_mode mode,
                                       const uint8_t *bits, int *legal) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL || legal == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(!bits_are_binary(geom, bits), PINET_ERR_RANGE);
  switch (mode) {
    case PINET_RTA_MODE_SRTA: *legal = srta_level(geom, bits) != 0u; return PINET_OK;
    case PINET_RTA_MODE_ARTA:
      *legal = geom->dim == 1u ? arta_legal_1d(geom, bits) : arta_legal_2d(geom, bits);
      return PINET_OK;
    case PINET_RTA_MODE_RTA: *legal = 1; return PINET_OK;
    default: return PINET_ERR_RANGE;
  }
}

static void class_fill(const pinet_rta_geom *g, uint32_t level, uint32_t br, uint32_t bc,
                       uint8_t v, uint8_t *bits) {
  uint32_t n = 2u << level;
  for (uint32_t i = 0; i < n; i++) {
    bits[class_bit(g, level, br, bc, i)] = v;
  }
}

pinet_status pinet_rta_arta_apply(const pinet_rta_geom *geom, uint32_t node, int turn_on,
                                  uint8_t *bits) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(node == 0u || node > geom->nodes, PINET_ERR_RANGE);
  if (geom->dim == 1u) {
    if (turn_on) { /* the subtree of p covers positions p - (2^h - 1) .. p + (2^h - 1) */
      uint32_t p = 0;
      FORWARD_IF_ERROR(pinet_rta_switch_position(geom, node, &p));
      uint32_t span = (1u << rta_tz(p + 1u)) - 1u;
      for (uint32_t q = p - span; q <= p + span; q++) {
        bits[q] = 1;
      }
    } else {
      for (uint32_t j = node; j >= 1u; j /= 2u) {
        uint32_t p = 0;
        FORWARD_IF_ERROR(pinet_rta_switch_position(geom, j, &p));
        bits[p] = 0;
      }
    }
    return PINET_OK;
  }
  uint32_t k, br, bc;
  class_decode(geom, node, &k, &br, &bc);
  if (turn_on) {
    /* The class and its descendants: every class of level 2..k inside its block. */
    for (uint32_t lv = 2; lv <= k; lv++) {
      uint32_t sub = k - lv;
      for (uint32_t r = 0; r < (1u << sub); r++) {
        for (uint32_t c = 0; c < (1u << sub); c++) {
          class_fill(geom, lv, (br << sub) + r, (bc << sub) + c, 1, bits);
        }
      }
    }
  } else {
    for (uint32_t lv = k; lv <= geom->levels; lv++) {
      class_fill(geom, lv, br >> (lv - k), bc >> (lv - k), 0, bits);
    }
  }
  return PINET_OK;
}

/* ---- hexadecimal bitmaps ----------------------------------------------------------------- */

static int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') {
    return ch - '0';
  }
  if (ch >= 'a' && ch <= 'f') {
    return ch - 'a' + 10;
  }
  if (ch >= 'A' && ch <= 'F') {
    return ch - 'A' + 10;
  }
  return -1;
}

pinet_status pinet_rta_bitmap_from_hex(const pinet_rta_geom *geom, const char *hex, uint8_t *bits) {
  RETURN_ERROR_IF(geom == NULL || hex == NULL || bits == NULL, PINET_ERR_NULL);
  if (hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X')) {
    hex += 2;
  }
  size_t n = strlen(hex);
  RETURN_ERROR_IF(n == 0u, PINET_ERR_PARSE);
  for (size_t i = 0; i < n; i++) {
    RETURN_ERROR_IF(hex_value(hex[i]) < 0, PINET_ERR_PARSE);
  }
  size_t width = ((size_t)geom->switches + 3u) / 4u;
  RETURN_ERROR_IF(n > width, PINET_ERR_RANGE);
  /* Validate before writing: no bit at or above `switches`. */
  for (size_t i = 0; i < n; i++) {
    int v = hex_value(hex[n - 1u - i]);
    for (unsigned k = 0; k < 4u; k++) {
      size_t b = 4u * i + k;
      RETURN_ERROR_IF(((v >> k) & 1) && b >= geom->switches, PINET_ERR_RANGE);
    }
  }
  memset(bits, 0, geom->switches);
  for (size_t i = 0; i < n; i++) {
    int v = hex_value(hex[n - 1u - i]);
    for (unsigned k = 0; k < 4u; k++) {
      size_t b = 4u * i + k;
      if (b < geom->switches) {
        bits[b] = (uint8_t)((v >> k) & 1);
      }
    }
  }
  return PINET_OK;
}

pinet_status pinet_rta_bitmap_to_hex(const pinet_rta_geom *geom, const uint8_t *bits, char *hex,
                                     size_t hex_cap) {
  RETURN_ERROR_IF(geom == NULL || bits == NULL || hex == NULL, PINET_ERR_NULL);
  size_t width = ((size_t)geom->switches + 3u) / 4u;
  RETURN_ERROR_IF(hex_cap < width + 1u, PINET_ERR_RANGE);
  static const char digits[] = "0123456789abcdef";
  for (size_t i = 0; i < width; i++) {
    unsigned v = 0;
    for (unsigned k = 0; k < 4u; k++) {
      size_t b = 4u * i + k;
      if (b < geom->switches && bits[b]) {
        v |= 1u << k;
      }
    }
    hex[width - 1u - i] = digits[v];
  }
  hex[width] = '\0';
  return PINET_OK;
}
