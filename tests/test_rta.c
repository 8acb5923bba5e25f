/* test_rta.c - the Recursive Torus Architecture golden model (paper 004, SPEC §1).
 *
 * Every check compares against a computation written here from the definitions: the heap-numbered
 * switch tree walked recursively, an explicit graph of PE ports and switch terminals followed wire
 * by wire, breadth-first search on the union of the SRTA adjacencies, the ARTA closure rules checked
 * over whole subtrees, the paper's Table 1 / Table 2 formulas, the reduce schedule of SPEC §1.1, and
 * a reference controller. Random tests print their seed (override with PINET_TEST_SEED). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/pinet.h"
#include "test_support.h"

static uint64_t g_seed = 20240601u;

#define CHECK(cond, ...)                                                          \
  do {                                                                            \
    if (!(cond)) {                                                                \
      print_error(__VA_ARGS__);                                                   \
      print_error(" [seed %" PRIu64 "]\n", g_seed);                               \
      fail_msg("check failed: %s", #cond);                                        \
    }                                                                             \
  } while (0)

static uint32_t t_log2(uint32_t x) {
  uint32_t n = 0;
  while ((1u << n) < x) {
    n++;
  }
  return n;
}

/* ---- the switch tree, from its definition ---------------------------------------------------
 * Heap-numbered complete binary tree of M nodes; its in-order traversal gives the switch addresses
 * left to right; the root has level L, its children L-1, ..., the leaves 2. */
static void t_inorder(uint32_t j, uint32_t M, uint32_t *out, uint32_t *n) {
  if (j > M) {
    return;
  }
  t_inorder(2u * j, M, out, n);
  out[(*n)++] = j;
  t_inorder(2u * j + 1u, M, out, n);
}

typedef struct t_ring {
  uint32_t side, L, M;
  uint32_t *addr_of_pos; /* in-order list */
  uint32_t *pos_of_addr; /* index 1..M */
  uint32_t *level;       /* level of position p */
} t_ring;

static void t_ring_init(t_ring *r, uint32_t side) {
  r->side = side;
  r->L = t_log2(side);
  r->M = side / 2u - 1u;
  r->addr_of_pos = xmalloc(r->M * sizeof(uint32_t));
  r->pos_of_addr = xmalloc((r->M + 1u) * sizeof(uint32_t));
  r->level = xmalloc(r->M * sizeof(uint32_t));
  uint32_t n = 0;
  t_inorder(1, r->M, r->addr_of_pos, &n);
  assert_int_equal(n, r->M);
  for (uint32_t p = 0; p < r->M; p++) {
    uint32_t j = r->addr_of_pos[p], depth = 0;
    while ((2u << depth) <= j) {
      depth++;
    }
    r->pos_of_addr[j] = p;
    r->level[p] = r->L - depth;
  }
}

static void t_ring_free(t_ring *r) {
  free(r->addr_of_pos);
  free(r->pos_of_addr);
  free(r->level);
}

/* ---- the wires, from their definition -------------------------------------------------------
 * Endpoints of one ring: PE i's lo port (L or U) = 2i, hi port (R or D) = 2i+1; switch p's
 * terminal t (0..3 = paper 1..4) = 2S + 4p + t. Walk from a PE port along wires and through
 * switches until another PE port is reached. */
static uint32_t t_walk(uint32_t S, const uint8_t *sw, uint32_t start) {
  uint32_t M = S / 2u - 1u, base = 2u * S;
  uint32_t e = start;
  for (uint32_t guard = 0; guard < 4u * S + 8u; guard++) {
    uint32_t w; /* wire partner of e */
    if (e < base) {
      uint32_t pe = e / 2u, hi = e % 2u;
      if (hi && pe % 2u == 0u) {
        w = 2u * (pe + 1u); /* PE 2m R - PE 2m+1 L */
      } else if (!hi && pe % 2u == 1u) {
        w = 2u * (pe - 1u) + 1u;
      } else if (hi) { /* PE 2p+1 R - terminal 1 of switch p; PE S-1 R - terminal 4 of the last */
        w = pe == S - 1u ? base + 4u * (M - 1u) + 3u : base + 4u * ((pe - 1u) / 2u) + 0u;
      } else { /* PE 2p+2 L - terminal 2 of switch p; PE 0 L - terminal 3 of switch 0 */
        w = pe == 0u ? base + 2u : base + 4u * ((pe - 2u) / 2u) + 1u;
      }
    } else {
      uint32_t p = (e - base) / 4u, t = (e - base) % 4u;
      if (t == 0u) {
        w = 2u * (2u * p + 1u) + 1u;
      } else if (t == 1u) {
        w = 2u * (2u * p + 2u);
      } else if (t == 2u) {
        w = p == 0u ? 0u : base + 4u * (p - 1u) + 3u;
      } else {
        w = p == M - 1u ? 2u * (S - 1u) + 1u : base + 4u * (p + 1u) + 2u;
      }
    }
    if (w < base) {
      return w;
    }
    uint32_t p = (w - base) / 4u, t = (w - base) % 4u;
    static const uint32_t on_pair[4] = {1, 0, 3, 2}, off_pair[4] = {2, 3, 0, 1};
    e = base + 4u * p + (sw[p] ? on_pair[t] : off_pair[t]);
  }
  fail_msg("walk did not terminate");
  return 0;
}

/* Brute-force routing table in the library's layout. */
static void t_route(const pinet_rta_geom *g, const uint8_t *bits, pinet_rta_port_ref *peer) {
  uint32_t S = g->side, M = g->ring_switches, P = g->ports_per_pe;
  uint32_t rings = g->dim == 1u ? 1u : 2u * S;
  for (uint32_t k = 0; k < rings; k++) {
    const uint8_t *sw = bits + (size_t)k * M;
    int vertical = k >= S && g->dim == 2u;
    uint32_t ring = vertical ? k - S : k;
    for (uint32_t e = 0; e < 2u * S; e++) {
      uint32_t f = t_walk(S, sw, e);
      uint32_t i = e / 2u, j = f / 2u;
      uint32_t pi, pj, porti, portj;
      if (g->dim == 1u) {
        pi = i;
        pj = j;
      } else if (!vertical) {
        pi = ring * S + i;
        pj = ring * S + j;
      } else {
        pi = i * S + ring;
        pj = j * S + ring;
      }
      porti = (vertical ? 2u : 0u) + e % 2u;
      portj = (vertical ? 2u : 0u) + f % 2u;
      peer[(size_t)pi * P + porti].pe = pj;
      peer[(size_t)pi * P + porti].port = portj;
    }
  }
}

/* Test-side SRTA pattern of `level` from the tree levels. */
static void t_srta(const pinet_rta_geom *g, const t_ring *r, uint32_t level, uint8_t *bits) {
  uint32_t rings = g->dim == 1u ? 1u : 2u * g->side;
  for (uint32_t k = 0; k < rings; k++) {
    for (uint32_t p = 0; p < r->M; p++) {
      bits[(size_t)k * r->M + p] = (uint8_t)(r->level[p] <= level);
    }
  }
}

/* ---- 2D classes, from their definition ------------------------------------------------------
 * Walk the quadtree from the root block until the block whose middle boundary holds the switch. */
static uint32_t t_class_of_bit(const pinet_rta_geom *g, const t_ring *r, uint32_t b,
                               uint32_t *level) {
  uint32_t S = g->side, M = g->ring_switches;
  int vertical = b >= S * M;
  uint32_t ring = (vertical ? b - S * M : b) / M, p = b % M;
  uint32_t boundary = 2u * (p + 1u); /* index of the PE right of / below the switch */
  uint32_t k = r->level[p];
  uint32_t across = ring; /* the coordinate along which the ring is one PE wide */
  uint32_t cls = 1, lev = r->L, o_along = 0, o_across = 0;
  while (lev > k) {
    uint32_t half = 1u << (lev - 1u);
    uint32_t h_along = boundary > o_along + half;
    uint32_t h_across = across >= o_across + half;
    uint32_t rowhalf = vertical ? h_along : h_across;
    uint32_t colhalf = vertical ? h_across : h_along;
    cls = 4u * cls - 2u + 2u * rowhalf + colhalf;
    o_along += h_along * half;
    o_across += h_across * half;
    lev--;
  }
  CHECK(boundary == o_along + (1u << (k - 1u)), "bit %u is not on its block's middle line", b);
  *level = k;
  return cls;
}

static int t_is_desc_or_self(uint32_t c, uint32_t anc) {
  while (c > anc) {
    c = (c + 2u) / 4u;
  }
  return c == anc;
}

static int t_is_desc_or_self_1d(uint32_t j, uint32_t anc) {
  while (j > anc) {
    j /= 2u;
  }
  return j == anc;
}

/* Brute-force legality: mode 0 SRTA, 1 ARTA, 2 RTA. cls: class of each bit (2D) or NULL. */
static int t_legal(const pinet_rta_geom *g, const t_ring *r, const uint32_t *cls, int mode,
                   const uint8_t *bits) {
  uint32_t n = g->switches;
  if (mode == 2) {
    return 1;
  }
  if (mode == 0) {
    uint8_t *pat = xmalloc(n);
    int any = 0;
    for (uint32_t l = 1; l <= r->L && !any; l++) {
      t_srta(g, r, l, pat);
      any = memcmp(pat, bits, n) == 0;
    }
    free(pat);
    return any;
  }
  if (g->dim == 1u) { /* every descendant of an ON switch is ON */
    for (uint32_t p = 0; p < n; p++) {
      if (!bits[p]) {
        continue;
      }
      for (uint32_t q = 0; q < n; q++) {
        if (t_is_desc_or_self_1d(r->addr_of_pos[q], r->addr_of_pos[p]) && !bits[q]) {
          return 0;
        }
      }
    }
    return 1;
  }
  /* 2D: every class uniform; every class below an ON class ON */
  int *st = xmalloc((g->nodes + 1u) * sizeof(int));
  for (uint32_t c = 0; c <= g->nodes; c++) {
    st[c] = -1;
  }
  int ok = 1;
  for (uint32_t b = 0; b < n && ok; b++) {
    if (st[cls[b]] < 0) {
      st[cls[b]] = bits[b];
    }
    ok = st[cls[b]] == bits[b];
  }
  for (uint32_t a = 1; a <= g->nodes && ok; a++) {
    for (uint32_t c = 1; c <= g->nodes && ok; c++) {
      ok = !(st[a] == 1 && t_is_desc_or_self(c, a) && st[c] != 1);
    }
  }
  free(st);
  return ok;
}

/* Random legal ARTA state: a node may be ON only if all its children are ON. */
static void t_random_arta(const pinet_rta_geom *g, const t_ring *r, const uint32_t *cls,
                          pinet_rng *rng, double p_on, uint8_t *bits) {
  uint32_t nodes = g->nodes;
  uint8_t *on = xmalloc(nodes + 1u);
  uint32_t fan = g->dim == 1u ? 2u : 4u;
  for (uint32_t j = nodes; j >= 1u; j--) {
    int ok = pinet_rng_unit(rng) < p_on;
    for (uint32_t c = 0; c < fan; c++) {
      uint32_t child = g->dim == 1u ? 2u * j + c : 4u * j - 2u + c;
      if (child <= nodes && !on[child]) {
        ok = 0;
      }
    }
    on[j] = (uint8_t)ok;
  }
  for (uint32_t b = 0; b < g->switches; b++) {
    bits[b] = g->dim == 1u ? on[r->addr_of_pos[b]] : on[cls[b]];
  }
  free(on);
}

static uint32_t *t_class_table(const pinet_rta_geom *g, const t_ring *r) {
  uint32_t *cls = xmalloc(g->switches * sizeof(uint32_t));
  for (uint32_t b = 0; b < g->switches; b++) {
    uint32_t lv;
    cls[b] = g->dim == 2u ? t_class_of_bit(g, r, b, &lv) : r->addr_of_pos[b];
  }
  return cls;
}

/* Node c (heap address in 1D, class in 2D) is anc or lies in anc's subtree. */
static int t_node_in_subtree(unsigned dim, uint32_t c, uint32_t anc) {
  return dim == 1u ? t_is_desc_or_self_1d(c, anc) : t_is_desc_or_self(c, anc);
}

static void t_random_bits(pinet_rng *rng, uint8_t *bits, uint32_t n) {
  for (uint32_t b = 0; b < n; b++) {
    bits[b] = (uint8_t)pinet_rng_below(rng, 2);
  }
}

/* The 1D ring of `side` PEs or the 2D torus of side x side PEs. */
static void t_geom(pinet_rta_geom *g, unsigned dim, uint32_t side) {
  assert_int_equal(pinet_rta_geom_init(g, dim, dim == 1u ? side : side * side), PINET_OK);
}

typedef void (*t_case_fn)(const pinet_rta_geom *g, pinet_rng *rng);

/* Runs one case per size: 1D rings of 4, 8, ..., max1 PEs, then 2D tori of side 4, 8, ..., max2. */
static void t_sweep(uint32_t max1, uint32_t max2, pinet_rng *rng, t_case_fn run_case) {
  for (unsigned dim = 1; dim <= 2u; dim++) {
    for (uint32_t side = 4; side <= (dim == 1u ? max1 : max2); side *= 2u) {
      pinet_rta_geom g;
      t_geom(&g, dim, side);
      run_case(&g, rng);
    }
  }
}

/* ================================================================================================
 * geometry and addressing */

static void test_rta_geometry_sizes(void **state) {
  (void)state;
  pinet_rta_geom g;
  for (uint32_t L = 2; L <= 16; L++) {
    uint32_t N = 1u << L;
    assert_int_equal(pinet_rta_geom_init(&g, 1, N), PINET_OK);
    assert_int_equal(g.dim, 1);
    assert_int_equal(g.pes, N);
    assert_int_equal(g.side, N);
    assert_int_equal(g.levels, L);
    assert_int_equal(g.switches, N / 2 - 1); /* M = N/2 - 1 */
    assert_int_equal(g.ring_switches, N / 2 - 1);
    assert_int_equal(g.nodes, N / 2 - 1);
    assert_int_equal(g.ports_per_pe, 2);
  }
  for (uint32_t L = 2; L <= 10; L++) {
    uint32_t side = 1u << L, N = side * side;
    assert_int_equal(pinet_rta_geom_init(&g, 2, N), PINET_OK);
    assert_int_equal(g.side, side);
    assert_int_equal(g.levels, L);
    assert_int_equal(g.switches, side * (side - 2u)); /* paper: sqrt(N)(sqrt(N) - 2) */
    uint32_t nodes = 0;
    for (uint32_t d = 0; d + 2u <= L; d++) {
      nodes += 1u << (2u * d); /* complete quadtree over levels 2..L */
    }
    assert_int_equal(g.nodes, nodes);
    assert_int_equal(g.nodes, ((1u << (2u * (L - 1u))) - 1u) / 3u);
    assert_int_equal(g.ports_per_pe, 4);
  }
  const uint32_t bad1[] = {0, 1, 2, 3, 6, 12, 48, 100, 131072, 0x80000000u, 0xffffffffu};
  for (size_t i = 0; i < sizeof bad1 / sizeof bad1[0]; i++) {
    CHECK(pinet_rta_geom_init(&g, 1, bad1[i]) == PINET_ERR_SIZE, "1D size %u", bad1[i]);
  }
  const uint32_t bad2[] = {0, 1, 4, 8, 32, 128, 48, 64u * 64u * 2u, 2048u * 2048u, 1u << 30};
  for (size_t i = 0; i < sizeof bad2 / sizeof bad2[0]; i++) {
    CHECK(pinet_rta_geom_init(&g, 2, bad2[i]) == PINET_ERR_SIZE, "2D size %u", bad2[i]);
  }
  assert_int_equal(pinet_rta_geom_init(&g, 3, 64), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_geom_init(&g, 0, 64), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_geom_init(NULL, 1, 64), PINET_ERR_NULL);
}

static void test_rta_switch_addressing(void **state) {
  (void)state;
  for (uint32_t L = 2; L <= 16; L++) {
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, 1, 1u << L), PINET_OK);
    t_ring r;
    t_ring_init(&r, 1u << L);
    for (uint32_t p = 0; p < r.M; p++) {
      uint32_t lv = 0, addr = 0, pos = 0;
      assert_int_equal(pinet_rta_switch_level(&g, p, &lv), PINET_OK);
      CHECK(lv == r.level[p], "N=%u pos %u level %u, tree says %u", 1u << L, p, lv, r.level[p]);
      uint32_t m = p + 1u, tz = 0;
      while (m % 2u == 0u) {
        m /= 2u;
        tz++;
      }
      CHECK(lv == tz + 2u, "N=%u pos %u: level != tz + 2", 1u << L, p);
      assert_int_equal(pinet_rta_switch_address(&g, p, &addr), PINET_OK);
      CHECK(addr == r.addr_of_pos[p], "N=%u pos %u addr %u, in-order says %u", 1u << L, p, addr,
            r.addr_of_pos[p]);
      assert_int_equal(pinet_rta_switch_position(&g, addr, &pos), PINET_OK);
      CHECK(pos == p, "N=%u addr %u", 1u << L, addr);
    }
    uint32_t x;
    assert_int_equal(pinet_rta_switch_level(&g, r.M, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_switch_address(&g, r.M, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_switch_position(&g, 0, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_switch_position(&g, r.M + 1u, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_class_of_bit(&g, 0, &x), PINET_ERR_UNSUPPORTED);
    t_ring_free(&r);
  }
  /* N = 16: the paper's Fig. 3 tree, in-order 4 2 5 1 6 3 7. */
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, 1, 16), PINET_OK);
  const uint32_t fig3[7] = {4, 2, 5, 1, 6, 3, 7};
  for (uint32_t p = 0; p < 7; p++) {
    uint32_t addr = 0;
    assert_int_equal(pinet_rta_switch_address(&g, p, &addr), PINET_OK);
    assert_int_equal(addr, fig3[p]);
  }
}

static void test_rta_classes(void **state) {
  (void)state;
  for (uint32_t side = 4; side <= 64; side *= 2u) {
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, 2, side * side), PINET_OK);
    t_ring r;
    t_ring_init(&r, side);
    uint32_t *count = xcalloc(g.nodes + 1u, sizeof(uint32_t));
    assert_non_null(count);
    uint32_t *lv_of = xcalloc(g.nodes + 1u, sizeof(uint32_t));
    assert_non_null(lv_of);
    for (uint32_t b = 0; b < g.switches; b++) {
      uint32_t lv = 0, cls = 0, want_lv = 0;
      uint32_t want = t_class_of_bit(&g, &r, b, &want_lv);
      assert_int_equal(pinet_rta_class_of_bit(&g, b, &cls), PINET_OK);
      CHECK(cls == want, "side %u bit %u class %u, quadtree walk says %u", side, b, cls, want);
      assert_int_equal(pinet_rta_class_level(&g, cls, &lv), PINET_OK);
      CHECK(lv == want_lv, "side %u class %u level %u want %u", side, cls, lv, want_lv);
      count[cls]++;
      lv_of[cls] = lv;
    }
    for (uint32_t c = 1; c <= g.nodes; c++) { /* every class owns 2^(k+1) switches */
      CHECK(count[c] == (2u << lv_of[c]), "side %u class %u owns %u switches", side, c, count[c]);
    }
    uint32_t x;
    assert_int_equal(pinet_rta_class_of_bit(&g, g.switches, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_class_level(&g, 0, &x), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_class_level(&g, g.nodes + 1u, &x), PINET_ERR_RANGE);
    free(count);
    free(lv_of);
    t_ring_free(&r);
  }
  /* side 8: the root class owns the middle row/column switches (position 1 of every ring). */
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, 2, 64), PINET_OK);
  uint32_t cls = 0;
  assert_int_equal(pinet_rta_class_of_bit(&g, 0 * 3 + 1, &cls), PINET_OK);
  assert_int_equal(cls, 1);
  /* row 5's leftmost switch (columns 1|2) is in the bottom-left level-2 class, heap number 4. */
  assert_int_equal(pinet_rta_class_of_bit(&g, 5 * 3 + 0, &cls), PINET_OK);
  assert_int_equal(cls, 4);
  /* column 6's lowest switch (rows 5|6) is in the bottom-right class, heap number 5. */
  assert_int_equal(pinet_rta_class_of_bit(&g, 8 * 3 + 6 * 3 + 2, &cls), PINET_OK);
  assert_int_equal(cls, 5);
}

/* ================================================================================================
 * routing */

static void check_route(const pinet_rta_geom *g, const uint8_t *bits, pinet_rta_port_ref *got,
                        pinet_rta_port_ref *want, const char *what) {
  size_t n = (size_t)g->pes * g->ports_per_pe;
  assert_int_equal(pinet_rta_route(g, bits, got), PINET_OK);
  t_route(g, bits, want);
  for (size_t i = 0; i < n; i++) {
    CHECK(got[i].pe == want[i].pe && got[i].port == want[i].port,
          "%s dim %u pes %u: port %zu -> %u.%u, walk says %u.%u", what, g->dim, g->pes, i,
          got[i].pe, got[i].port, want[i].pe, want[i].port);
    size_t back = (size_t)got[i].pe * g->ports_per_pe + got[i].port;
    CHECK(back != i && got[back].pe * g->ports_per_pe + got[back].port == i,
          "%s: not a fixed-point-free involution at port %zu", what, i);
  }
}

static void run_route_random_case(const pinet_rta_geom *g, pinet_rng *rng) {
  size_t n = (size_t)g->pes * g->ports_per_pe;
  pinet_rta_port_ref *got = xmalloc(n * sizeof *got), *want = xmalloc(n * sizeof *want);
  uint8_t *bits = xmalloc(g->switches);
  for (int trial = 0; trial < 40; trial++) {
    double p_on = trial == 0 ? 0.0 : trial == 1 ? 1.0 : pinet_rng_unit(rng);
    for (uint32_t b = 0; b < g->switches; b++) {
      bits[b] = (uint8_t)(pinet_rng_unit(rng) < p_on);
    }
    char what[64];
    snprintf(what, sizeof what, "random bitmap %d", trial);
    check_route(g, bits, got, want, what);
  }
  free(got);
  free(want);
  free(bits);
}

static void test_rta_route_random_bitmaps(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x1111u);
  t_sweep(256, 16, &rng, run_route_random_case);
}

/* SRTA level l on a 1D ring: rings of 2^l consecutive PEs whose neighbours are exactly
 * neighbor(A, l), and adjacent() agrees with the wires. */
static void check_srta_ring_1d(const pinet_rta_geom *g, uint32_t l, const uint8_t *bits,
                               const pinet_rta_port_ref *peer) {
  uint32_t N = g->pes, size = 1u << l;
  for (uint32_t a = 0; a < N; a++) {
    uint32_t q = a - a % size;
    uint32_t right = q + (a + 1u) % size, left = q + (a + size - 1u) % size;
    CHECK(peer[2u * a + 1u].pe == right && peer[2u * a + 1u].port == PINET_RTA_PORT_L,
          "N=%u l=%u PE %u R", N, l, a);
    CHECK(peer[2u * a].pe == left && peer[2u * a].port == PINET_RTA_PORT_R, "N=%u l=%u PE %u L",
          N, l, a);
    uint32_t nb[2], cnt = 0;
    assert_int_equal(pinet_rta_neighbors(g, a, l, nb, &cnt), PINET_OK);
    /* the library's neighbor() against the brute-force walk */
    uint32_t w1 = t_walk(N, bits, 2u * a) / 2u, w2 = t_walk(N, bits, 2u * a + 1u) / 2u;
    uint32_t lo = w1 < w2 ? w1 : w2, hi = w1 < w2 ? w2 : w1;
    CHECK(cnt == (lo == hi ? 1u : 2u) && nb[0] == lo && (cnt == 1u || nb[1] == hi),
          "N=%u l=%u neighbors(%u)", N, l, a);
    for (uint32_t b = 0; b < N; b++) {
      int adj = -1;
      assert_int_equal(pinet_rta_adjacent(g, a, b, l, &adj), PINET_OK);
      CHECK(adj == (b == w1 || b == w2), "N=%u l=%u adjacent(%u,%u)", N, l, a, b);
    }
  }
}

/* 2D SRTA: every row and every column is a 1D SRTA ring of the same level. */
static void check_srta_torus_2d(const pinet_rta_geom *g, uint32_t l,
                                const pinet_rta_port_ref *peer) {
  uint32_t side = g->side, size = 1u << l;
  for (uint32_t pe = 0; pe < g->pes; pe++) {
    uint32_t rr = pe / side, c = pe % side;
    uint32_t qc = c - c % size, qr = rr - rr % size;
    CHECK(peer[4u * pe + 1u].pe == rr * side + qc + (c + 1u) % size &&
              peer[4u * pe + 1u].port == PINET_RTA_PORT_L,
          "side %u l=%u PE %u R", side, l, pe);
    CHECK(peer[4u * pe + 3u].pe == (qr + (rr + 1u) % size) * side + c &&
              peer[4u * pe + 3u].port == PINET_RTA_PORT_U,
          "side %u l=%u PE %u D", side, l, pe);
  }
}

/* All ON: one ring of side PEs in address order; all OFF: rings {2k, 2k+1}; SRTA level l: rings of
 * 2^l consecutive PEs. The library's SRTA pattern is checked against the tree levels first. */
static void run_srta_rings_case(const pinet_rta_geom *g, pinet_rng *rng) {
  (void)rng;
  t_ring r;
  t_ring_init(&r, g->side);
  pinet_rta_port_ref *peer = xmalloc((size_t)g->pes * g->ports_per_pe * sizeof *peer);
  uint8_t *bits = xmalloc(g->switches), *mine = xmalloc(g->switches);
  for (uint32_t l = 1; l <= r.L; l++) {
    assert_int_equal(pinet_rta_srta_bitmap(g, l, bits), PINET_OK);
    t_srta(g, &r, l, mine);
    CHECK(memcmp(bits, mine, g->switches) == 0, "%s%u SRTA level %u pattern",
          g->dim == 1u ? "N=" : "side ", g->side, l);
    assert_int_equal(pinet_rta_route(g, bits, peer), PINET_OK);
    if (g->dim == 1u) {
      check_srta_ring_1d(g, l, bits, peer);
    } else {
      check_srta_torus_2d(g, l, peer);
    }
  }
  if (g->dim == 1u) {
    uint32_t nb[2], cnt;
    assert_int_equal(pinet_rta_neighbors(g, g->pes, 1, nb, &cnt), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_neighbors(g, 0, 0, nb, &cnt), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_neighbors(g, 0, r.L + 1u, nb, &cnt), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_srta_bitmap(g, 0, bits), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_srta_bitmap(g, r.L + 1u, bits), PINET_ERR_RANGE);
  }
  free(peer);
  free(bits);
  free(mine);
  t_ring_free(&r);
}

static void test_rta_route_srta_rings(void **state) {
  (void)state;
  t_sweep(1024, 32, NULL, run_srta_rings_case);
}

/* rta_ring / rta_torus2d model: out[port] = in[peer[port]], and rta_switch_eval's pairs. */
static void test_rta_fabric_eval(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x2222u);
  for (int dim = 1; dim <= 2; dim++) {
    pinet_rta_geom g;
    t_geom(&g, (unsigned)dim, dim == 1 ? 64u : 16u); /* 64 PEs, 16 x 16 PEs */
    size_t n = (size_t)g.pes * g.ports_per_pe;
    pinet_rta_port_ref *peer = xmalloc(n * sizeof *peer);
    uint32_t *in = xmalloc(n * sizeof *in), *out = xmalloc(n * sizeof *out);
    uint8_t *bits = xmalloc(g.switches);
    for (int trial = 0; trial < 20; trial++) {
      t_random_bits(&rng, bits, g.switches);
      for (size_t i = 0; i < n; i++) {
        in[i] = (uint32_t)pinet_rng_next(&rng);
      }
      t_route(&g, bits, peer);
      assert_int_equal(pinet_rta_fabric_eval(&g, peer, in, out), PINET_OK);
      for (size_t i = 0; i < n; i++) {
        CHECK(out[i] == in[(size_t)peer[i].pe * g.ports_per_pe + peer[i].port],
              "dim %d trial %d port %zu", dim, trial, i);
      }
    }
    peer[0].pe = g.pes;
    assert_int_equal(pinet_rta_fabric_eval(&g, peer, in, out), PINET_ERR_RANGE);
    free(peer);
    free(in);
    free(out);
    free(bits);
  }
  const uint32_t in4[4] = {10, 20, 30, 40};
  uint32_t o[4];
  pinet_rta_switch_eval(1, in4, o);
  assert_true(o[0] == 20 && o[1] == 10 && o[2] == 40 && o[3] == 30);
  pinet_rta_switch_eval(0, in4, o);
  assert_true(o[0] == 30 && o[2] == 10 && o[1] == 40 && o[3] == 20);
}

/* ================================================================================================
 * distance */

/* Union graph of one ring: u ~ v if some SRTA level connects them (found by walking the wires),
 * with BFS scratch for the `pes` PEs of the 1D ring or 2D torus built from such rings. */
typedef struct t_union {
  uint32_t side, deg_max;
  uint32_t *adj; /* side * deg_max */
  uint32_t *deg;
  uint32_t *dist, *queue; /* pes each */
} t_union;

static void t_union_init(t_union *u, uint32_t side, uint32_t pes) {
  t_ring r;
  t_ring_init(&r, side);
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, 1, side), PINET_OK);
  u->side = side;
  u->deg_max = 2u * r.L;
  u->adj = xmalloc((size_t)side * u->deg_max * sizeof(uint32_t));
  u->deg = xcalloc(side, sizeof(uint32_t));
  assert_non_null(u->deg);
  uint8_t *bits = xmalloc(g.switches);
  for (uint32_t l = 1; l <= r.L; l++) {
    t_srta(&g, &r, l, bits);
    for (uint32_t e = 0; e < 2u * side; e++) {
      uint32_t a = e / 2u, b = t_walk(side, bits, e) / 2u;
      int seen = 0;
      for (uint32_t i = 0; i < u->deg[a]; i++) {
        seen |= u->adj[(size_t)a * u->deg_max + i] == b;
      }
      if (!seen) {
        assert_true(u->deg[a] < u->deg_max);
        u->adj[(size_t)a * u->deg_max + u->deg[a]++] = b;
      }
    }
  }
  free(bits);
  t_ring_free(&r);
  u->dist = xmalloc(pes * sizeof(uint32_t));
  u->queue = xmalloc(pes * sizeof(uint32_t));
}

static void t_union_free(t_union *u) {
  free(u->adj);
  free(u->deg);
  free(u->dist);
  free(u->queue);
}

static int t_union_adjacent(const t_union *u, uint32_t a, uint32_t b) {
  for (uint32_t i = 0; i < u->deg[a]; i++) {
    if (u->adj[(size_t)a * u->deg_max + i] == b) {
      return 1;
    }
  }
  return 0;
}

/* 1D or 2D (pe = r*side + c; row and column unions) adjacency. */
static int t_adjacent(const t_union *u, unsigned dim, uint32_t a, uint32_t b) {
  if (dim == 1u) {
    return t_union_adjacent(u, a, b);
  }
  uint32_t S = u->side;
  if (a / S == b / S && t_union_adjacent(u, a % S, b % S)) {
    return 1;
  }
  return a % S == b % S && t_union_adjacent(u, a / S, b / S);
}

/* Hop counts from src into u->dist. */
static void t_bfs(t_union *u, unsigned dim, uint32_t src) {
  uint32_t S = u->side, n = dim == 1u ? S : S * S;
  uint32_t *dist = u->dist, *queue = u->queue;
  for (uint32_t i = 0; i < n; i++) {
    dist[i] = UINT32_MAX;
  }
  uint32_t head = 0, tail = 0;
  dist[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    uint32_t a = queue[head++];
    uint32_t nb[2][64], nn[2] = {0, 0};
    if (dim == 1u) {
      for (uint32_t i = 0; i < u->deg[a]; i++) {
        nb[0][nn[0]++] = u->adj[(size_t)a * u->deg_max + i];
      }
    } else {
      uint32_t r = a / S, c = a % S;
      for (uint32_t i = 0; i < u->deg[c]; i++) {
        nb[0][nn[0]++] = r * S + u->adj[(size_t)c * u->deg_max + i];
      }
      for (uint32_t i = 0; i < u->deg[r]; i++) {
        nb[1][nn[1]++] = u->adj[(size_t)r * u->deg_max + i] * S + c;
      }
    }
    for (int k = 0; k < 2; k++) {
      for (uint32_t i = 0; i < nn[k]; i++) {
        uint32_t b = nb[k][i];
        if (dist[b] == UINT32_MAX) {
          dist[b] = dist[a] + 1u;
          queue[tail++] = b;
        }
      }
    }
  }
}

static void check_distances_from(const pinet_rta_geom *g, t_union *u, uint32_t src) {
  t_bfs(u, g->dim, src);
  const uint32_t *dist = u->dist;
  uint32_t path[80];
  for (uint32_t dst = 0; dst < g->pes; dst++) {
    uint32_t d = 0;
    size_t len = 0;
    assert_int_equal(pinet_rta_distance(g, src, dst, &d, path, 80, &len), PINET_OK);
    CHECK(d == dist[dst], "dim %u pes %u: distance(%u, %u) = %u, BFS says %u", g->dim, g->pes, src,
          dst, d, dist[dst]);
    CHECK(len == (size_t)d + 1u && path[0] == src && path[len - 1u] == dst,
          "dim %u pes %u: path %u -> %u ends/length", g->dim, g->pes, src, dst);
    for (size_t i = 0; i + 1u < len; i++) {
      CHECK(t_adjacent(u, g->dim, path[i], path[i + 1u]),
            "dim %u pes %u: path %u -> %u hop %zu (%u, %u) not a link", g->dim, g->pes, src, dst, i,
            path[i], path[i + 1u]);
    }
  }
}

/* Every destination, from every source (rng NULL) or from PE 0 and two random sources. */
static void run_distance_case(const pinet_rta_geom *g, pinet_rng *rng) {
  t_union u;
  t_union_init(&u, g->side, g->pes);
  uint32_t sources = rng == NULL ? g->pes : 3u;
  for (uint32_t k = 0; k < sources; k++) {
    uint32_t src = rng == NULL || k == 0u ? k : (uint32_t)pinet_rng_below(rng, g->pes);
    check_distances_from(g, &u, src);
  }
  t_union_free(&u);
}

static void test_rta_distance_vs_bfs(void **state) {
  (void)state;
  t_sweep(256, 16, NULL, run_distance_case);
}

/* Large sizes: a few random sources, every destination. */
static void test_rta_distance_large_sampled(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x3333u);
  const uint32_t sides[2][2] = {{4096, 65536}, {64, 256}}; /* 1D, 2D */
  for (unsigned dim = 1; dim <= 2u; dim++) {
    for (int i = 0; i < 2; i++) {
      pinet_rta_geom g;
      t_geom(&g, dim, sides[dim - 1u][i]);
      run_distance_case(&g, &rng);
    }
  }
}

static void test_rta_distance_errors(void **state) {
  (void)state;
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, 1, 16), PINET_OK);
  uint32_t d = 0, path[8];
  size_t len = 0;
  assert_int_equal(pinet_rta_distance(&g, 16, 0, &d, NULL, 0, NULL), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_distance(&g, 0, 16, &d, NULL, 0, NULL), PINET_ERR_RANGE);
  /* a path of distance d needs d + 1 entries */
  assert_int_equal(pinet_rta_distance(&g, 1, 10, &d, NULL, 0, &len), PINET_OK);
  assert_int_equal(pinet_rta_distance(&g, 1, 10, &d, path, (size_t)d, &len), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_distance(&g, 1, 10, &d, path, (size_t)d + 1u, &len), PINET_OK);
  assert_int_equal(pinet_rta_distance(&g, 5, 5, &d, path, 1, &len), PINET_OK);
  assert_int_equal(d, 0);
  assert_int_equal(len, 1);
  assert_int_equal(pinet_rta_distance(NULL, 0, 1, &d, NULL, 0, NULL), PINET_ERR_NULL);
}

/* Table 1 / Table 2 of the paper. */
static void test_rta_stats_formulas(void **state) {
  (void)state;
  for (uint32_t L = 2; L <= 12; L++) {
    uint32_t N = 1u << L;
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, 1, N), PINET_OK);
    pinet_rta_stats s;
    assert_int_equal(pinet_rta_stats_compute(&g, &s), PINET_OK);
    double avg = ((double)N * (2.0 * L - 3.0) + 4.0) / (2.0 * (N - 1.0));
    CHECK(s.diameter == 2u * L - 2u, "1D N=%u diameter %u", N, s.diameter);
    CHECK(fabs(s.average - avg) < 1e-9 * avg, "1D N=%u average %.12f want %.12f", N, s.average, avg);
    if (N <= 256) { /* diameter pairs from BFS */
      t_union u;
      t_union_init(&u, N, N);
      uint64_t pairs = 0;
      for (uint32_t a = 0; a < N; a++) {
        t_bfs(&u, 1, a);
        for (uint32_t b = a + 1u; b < N; b++) {
          pairs += u.dist[b] == 2u * L - 2u;
        }
      }
      CHECK(s.diameter_pairs == pairs, "1D N=%u diameter pairs %" PRIu64 " BFS %" PRIu64, N,
            s.diameter_pairs, pairs);
      t_union_free(&u);
    }
  }
  for (uint32_t L = 2; L <= 10; L++) {
    uint32_t side = 1u << L;
    double N = (double)side * side;
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, 2, side * side), PINET_OK);
    pinet_rta_stats s;
    assert_int_equal(pinet_rta_stats_compute(&g, &s), PINET_OK);
    double avg = (N * (2.0 * L - 3.0) + 4.0 * side) / (N - 1.0);
    CHECK(s.diameter == 4u * (L - 1u), "2D side %u diameter %u", side, s.diameter);
    CHECK(s.diameter_pairs == 8u, "2D side %u diameter pairs %" PRIu64, side, s.diameter_pairs);
    CHECK(fabs(s.average - avg) < 1e-9 * avg, "2D side %u average %.12f want %.12f", side,
          s.average, avg);
  }
  pinet_rta_geom g;
  pinet_rta_stats s;
  assert_int_equal(pinet_rta_geom_init(&g, 1, 8192), PINET_OK);
  assert_int_equal(pinet_rta_stats_compute(&g, &s), PINET_ERR_RANGE);
}

/* ================================================================================================
 * switch states */

/* The library's verdict on bits in `mode` (0 SRTA, 1 ARTA, 2 RTA). */
static int t_lib_legal(const pinet_rta_geom *g, int mode, const uint8_t *bits) {
  int legal = -1;
  assert_int_equal(pinet_rta_bitmap_is_legal(g, (pinet_rta_mode)mode, bits, &legal), PINET_OK);
  return legal;
}

static void run_legality_case(const pinet_rta_geom *g, pinet_rng *rng) {
  uint32_t side = g->side;
  t_ring r;
  t_ring_init(&r, side);
  uint32_t *cls = t_class_table(g, &r);
  uint8_t *bits = xmalloc(g->switches);
  int seen[3][2] = {{0, 0}, {0, 0}, {0, 0}};
  for (int trial = 0; trial < 300; trial++) {
    int kind = trial % 5;
    if (kind == 4 && g->nodes >= 2u) {
      /* Every switch ON but those of one non-root node, whose parent stays ON: illegal in ARTA
       * whichever child it is (a check that skips one of a node's 2 or 4 children would pass
       * it); the random states above almost never produce this. */
      uint32_t off = 2u + (uint32_t)pinet_rng_below(rng, g->nodes - 1u);
      for (uint32_t b = 0; b < g->switches; b++) {
        bits[b] = cls[b] != off;
      }
      CHECK(t_legal(g, &r, cls, 1, bits) == 0, "dim %u side %u node %u OFF under an ON parent",
            g->dim, side, off);
    } else if (kind == 0 || kind == 4) { /* uniform random */
      t_random_bits(rng, bits, g->switches);
    } else if (kind == 1) {
      assert_int_equal(pinet_rta_srta_bitmap(g, 1u + (uint32_t)pinet_rng_below(rng, r.L), bits),
                       PINET_OK);
    } else {
      t_random_arta(g, &r, cls, rng, pinet_rng_unit(rng), bits);
      if (kind == 3) { /* one flipped switch */
        uint32_t b = (uint32_t)pinet_rng_below(rng, g->switches);
        bits[b] ^= 1u;
      }
    }
    for (int mode = 0; mode <= 2; mode++) {
      int legal = t_lib_legal(g, mode, bits);
      int want = t_legal(g, &r, cls, mode, bits);
      CHECK(legal == want, "dim %u side %u trial %d mode %d: legal %d, brute force %d", g->dim,
            side, trial, mode, legal, want);
      seen[mode][legal]++;
    }
    uint32_t lv = 0;
    pinet_status st = pinet_rta_srta_level_of(g, bits, &lv);
    CHECK((st == PINET_OK) == t_legal(g, &r, cls, 0, bits), "dim %u side %u trial %d level_of",
          g->dim, side, trial);
    if (st == PINET_OK) {
      uint8_t *pat = xmalloc(g->switches);
      t_srta(g, &r, lv, pat);
      CHECK(memcmp(pat, bits, g->switches) == 0, "dim %u side %u level_of %u", g->dim, side, lv);
      free(pat);
    } else {
      assert_int_equal(st, PINET_ERR_ILLEGAL_STATE);
    }
  }
  /* the generator reaches both answers in SRTA and ARTA mode (with one switch every state is
   * legal) */
  CHECK(g->switches == 1u || (seen[0][0] && seen[0][1] && seen[1][0] && seen[1][1]),
        "dim %u side %u coverage", g->dim, side);
  for (uint32_t l = 1; l <= r.L; l++) { /* SRTA patterns are legal in every mode */
    t_srta(g, &r, l, bits);
    for (int mode = 0; mode <= 2; mode++) {
      CHECK(t_lib_legal(g, mode, bits) == 1, "dim %u side %u SRTA level %u mode %d", g->dim, side,
            l, mode);
    }
  }
  int legal = 0;
  assert_int_equal(pinet_rta_bitmap_is_legal(g, (pinet_rta_mode)3, bits, &legal), PINET_ERR_RANGE);
  bits[0] = 2;
  assert_int_equal(pinet_rta_bitmap_is_legal(g, PINET_RTA_MODE_RTA, bits, &legal), PINET_ERR_RANGE);
  free(bits);
  free(cls);
  t_ring_free(&r);
}

static void test_rta_legality_vs_brute_force(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x4444u);
  t_sweep(128, 16, &rng, run_legality_case);
}

static void run_arta_apply_case(const pinet_rta_geom *g, pinet_rng *rng) {
  uint32_t side = g->side;
  t_ring r;
  t_ring_init(&r, side);
  uint32_t *cls = t_class_table(g, &r); /* node of each bit: address (1D) or class (2D) */
  uint8_t *bits = xmalloc(g->switches), *before = xmalloc(g->switches);
  for (int trial = 0; trial < 200; trial++) {
    t_random_arta(g, &r, cls, rng, pinet_rng_unit(rng), bits);
    memcpy(before, bits, g->switches);
    uint32_t node = 1u + (uint32_t)pinet_rng_below(rng, g->nodes);
    int on = (int)pinet_rng_below(rng, 2);
    assert_int_equal(pinet_rta_arta_apply(g, node, on, bits), PINET_OK);
    for (uint32_t b = 0; b < g->switches; b++) {
      /* ON: exactly the node's subtree is added; OFF: exactly the node and its ancestors are
       * removed - the least change that makes the edit (every legal state with the node ON
       * holds its subtree, every legal state with it OFF lacks its ancestors). */
      int in_sub = t_node_in_subtree(g->dim, cls[b], node);
      int is_anc = t_node_in_subtree(g->dim, node, cls[b]);
      uint8_t want = on ? (uint8_t)(before[b] | in_sub) : (uint8_t)(before[b] && !is_anc);
      CHECK(bits[b] == want, "dim %u side %u trial %d node %u on %d bit %u", g->dim, side, trial,
            node, on, b);
    }
    CHECK(t_legal(g, &r, cls, 1, bits), "dim %u side %u trial %d: result illegal", g->dim, side,
          trial);
  }
  assert_int_equal(pinet_rta_arta_apply(g, 0, 1, bits), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_arta_apply(g, g->nodes + 1u, 0, bits), PINET_ERR_RANGE);
  free(bits);
  free(before);
  free(cls);
  t_ring_free(&r);
}

static void test_rta_arta_apply_minimal(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x5555u);
  t_sweep(128, 16, &rng, run_arta_apply_case);
}

/* ================================================================================================
 * hexadecimal bitmaps */

static void test_rta_hex_round_trip(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x6666u);
  const uint32_t sizes[][2] = {{1, 4}, {1, 8}, {1, 16}, {1, 32}, {1, 64}, {1, 1024}, {2, 16}, {2, 64}};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, sizes[s][0], sizes[s][1]), PINET_OK);
    size_t width = (g.switches + 3u) / 4u;
    uint8_t *bits = xmalloc(g.switches), *back = xmalloc(g.switches);
    char *hex = xmalloc(width + 1u), *want = xmalloc(width + 1u), *buf = xmalloc(width + 8u);
    for (int trial = 0; trial < 50; trial++) {
      t_random_bits(&rng, bits, g.switches);
      /* expected text: digit i from the right holds bits 4i .. 4i+3 */
      for (size_t i = 0; i < width; i++) {
        unsigned v = 0;
        for (unsigned k = 0; k < 4; k++) {
          if (4u * i + k < g.switches) {
            v += (unsigned)bits[4u * i + k] << k;
          }
        }
        want[width - 1u - i] = "0123456789abcdef"[v];
      }
      want[width] = '\0';
      assert_int_equal(pinet_rta_bitmap_to_hex(&g, bits, hex, width + 1u), PINET_OK);
      CHECK(strcmp(hex, want) == 0, "pes %u trial %d: %s want %s", g.pes, trial, hex, want);
      assert_int_equal(pinet_rta_bitmap_from_hex(&g, hex, back), PINET_OK);
      CHECK(memcmp(bits, back, g.switches) == 0, "pes %u trial %d round trip", g.pes, trial);
      snprintf(buf, width + 8u, "0X%s", hex); /* prefix and upper case digits */
      for (char *c = buf; *c; c++) {
        if (*c >= 'a' && *c <= 'f') {
          *c = (char)(*c - 'a' + 'A');
        }
      }
      memset(back, 7, g.switches);
      assert_int_equal(pinet_rta_bitmap_from_hex(&g, buf, back), PINET_OK);
      CHECK(memcmp(bits, back, g.switches) == 0, "pes %u trial %d upper case", g.pes, trial);
    }
    /* one digit too many, even a leading zero */
    snprintf(buf, width + 8u, "0%s", hex);
    assert_int_equal(pinet_rta_bitmap_from_hex(&g, buf, back), PINET_ERR_RANGE);
    assert_int_equal(pinet_rta_bitmap_to_hex(&g, bits, hex, width), PINET_ERR_RANGE);
    free(bits);
    free(back);
    free(hex);
    free(want);
    free(buf);
  }
  pinet_rta_geom g;
  uint8_t bits[8];
  assert_int_equal(pinet_rta_geom_init(&g, 1, 8), PINET_OK); /* 3 switches, 1 digit */
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "5", bits), PINET_OK);
  assert_true(bits[0] == 1 && bits[1] == 0 && bits[2] == 1);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "8", bits), PINET_ERR_RANGE);  /* bit 3 */
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "10", bits), PINET_ERR_RANGE); /* width */
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "g", bits), PINET_ERR_PARSE);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "", bits), PINET_ERR_PARSE);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "0x", bits), PINET_ERR_PARSE);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, " 1", bits), PINET_ERR_PARSE);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "-1", bits), PINET_ERR_PARSE);
  assert_int_equal(pinet_rta_geom_init(&g, 1, 32), PINET_OK); /* 15 switches, 4 digits */
  uint8_t b15[15];
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "7fff", b15), PINET_OK);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "8000", b15), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_bitmap_from_hex(&g, "1", b15), PINET_OK); /* short is zero-extended */
  assert_true(b15[0] == 1 && b15[14] == 0);
}

/* ================================================================================================
 * reduce */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void test_rta_reduce_spec_schedule(void **state) {
  (void)state;
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, 1, 8), PINET_OK);
  int64_t v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  pinet_rta_reduce *red = NULL;
  assert_int_equal(pinet_rta_reduce_create(&red, &g, PINET_RTA_OP_SUM, v), PINET_OK);
  /* SPEC §1.1: level 1: 1->0, 2->3, 5->4, 6->7; level 2: 3->0, 4->7; level 3: 7->0. */
  const uint32_t want[3][4][2] = {{{1, 0}, {2, 3}, {5, 4}, {6, 7}}, {{3, 0}, {4, 7}}, {{7, 0}}};
  const size_t nwant[3] = {4, 2, 1};
  assert_int_equal(pinet_rta_reduce_step_count(red), 3);
  for (uint32_t s = 0; s < 3; s++) {
    uint32_t level = 0, axis = 9;
    const pinet_rta_transfer *tr = NULL;
    size_t n = 0;
    assert_int_equal(pinet_rta_reduce_step_info(red, s, &level, &axis, &tr, &n), PINET_OK);
    assert_int_equal(level, s + 1u);
    assert_int_equal(axis, 0);
    assert_int_equal(n, nwant[s]);
    for (size_t i = 0; i < n; i++) {
      assert_int_equal(tr[i].src, want[s][i][0]);
      assert_int_equal(tr[i].dst, want[s][i][1]);
      int right = tr[i].dst < tr[i].src ? 1 : 0; /* sends right wrap to the ring's first PE */
      assert_int_equal(tr[i].src_port, right ? PINET_RTA_PORT_R : PINET_RTA_PORT_L);
      assert_int_equal(tr[i].dst_port, right ? PINET_RTA_PORT_L : PINET_RTA_PORT_R);
    }
  }
  assert_int_equal(pinet_rta_reduce_run(red), PINET_OK);
  const int64_t *vals = NULL;
  size_t n = 0;
  assert_int_equal(pinet_rta_reduce_pe_values(red, 0, &vals, &n), PINET_OK);
  assert_int_equal(n, 1);
  assert_int_equal(vals[0], 36);
  assert_int_equal(pinet_rta_reduce_step(red), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_reduce_step_info(red, 3, NULL, NULL, NULL, NULL), PINET_ERR_RANGE);
  assert_int_equal(pinet_rta_reduce_pe_values(red, 8, &vals, &n), PINET_ERR_RANGE);
  pinet_rta_reduce_free(red);
  pinet_rta_reduce_free(NULL);
  assert_int_equal(pinet_rta_reduce_create(&red, &g, (pinet_rta_op)4, v), PINET_ERR_RANGE);
}

static void run_reduce_case(const pinet_rta_geom *g, pinet_rta_op op, pinet_rng *rng) {
  uint32_t N = g->pes, S = g->side, P = g->ports_per_pe;
  t_ring r;
  t_ring_init(&r, S);
  int64_t *v = xmalloc(N * sizeof *v);
  int full = pinet_rng_below(rng, 2) != 0;
  for (uint32_t i = 0; i < N; i++) {
    v[i] = full ? (int64_t)pinet_rng_next(rng) : (int64_t)pinet_rng_below(rng, 2001) - 1000;
  }
  pinet_rta_reduce *red = NULL;
  assert_int_equal(pinet_rta_reduce_create(&red, g, op, v), PINET_OK);
  uint32_t steps = pinet_rta_reduce_step_count(red);
  CHECK(steps == r.L * g->dim, "dim %u pes %u: %u steps", g->dim, N, steps);
  uint8_t *holds = xmalloc(N), *sends = xmalloc(N), *bits = xmalloc(g->switches);
  memset(holds, 1, N);
  pinet_rta_port_ref *peer = xmalloc((size_t)N * P * sizeof *peer);
  uint64_t sum_all = 0;
  for (uint32_t i = 0; i < N; i++) {
    sum_all += (uint64_t)v[i];
  }
  for (uint32_t s = 0; s < steps; s++) {
    assert_int_equal(pinet_rta_reduce_steps_done(red), s);
    uint32_t level = 0, axis = 0;
    const pinet_rta_transfer *tr = NULL;
    size_t n = 0;
    assert_int_equal(pinet_rta_reduce_step_info(red, s, &level, &axis, &tr, &n), PINET_OK);
    uint32_t want_level = g->dim == 1u ? s + 1u : s / 2u + 1u, want_axis = g->dim == 1u ? 0u : s % 2u;
    CHECK(level == want_level && axis == want_axis, "dim %u pes %u step %u level/axis", g->dim, N, s);
    t_srta(g, &r, level, bits);
    t_route(g, bits, peer);
    /* expected senders: holders on terminal 1 (hi port) / terminal 2 (lo port) of every
     * level-(l+1) switch of every ring of this axis; at level L the ring's last PE (hi port). */
    memset(sends, 0, N);
    size_t expect = 0;
    for (uint32_t pe = 0; pe < N; pe++) {
      uint32_t i = g->dim == 1u ? pe : (axis == 0u ? pe % S : pe / S);
      int port = -1; /* 0 lo, 1 hi */
      if (level == r.L) {
        port = i == S - 1u ? 1 : -1;
      } else if (i % 2u == 1u && i + 1u < S && r.level[(i - 1u) / 2u] == level + 1u) {
        port = 1; /* PE 2p+1 of switch p */
      } else if (i % 2u == 0u && i >= 2u && r.level[(i - 2u) / 2u] == level + 1u) {
        port = 0; /* PE 2p+2 of switch p */
      }
      if (port >= 0 && holds[pe]) {
        sends[pe] = (uint8_t)(port + 1);
        expect++;
      }
    }
    CHECK(n == expect, "dim %u pes %u step %u: %zu transfers, expected %zu", g->dim, N, s, n, expect);
    for (size_t k = 0; k < n; k++) {
      const pinet_rta_transfer *t = &tr[k];
      CHECK(t->src < N && sends[t->src], "dim %u pes %u step %u: PE %u should not send", g->dim, N,
            s, t->src);
      CHECK(k == 0 || tr[k - 1].src < t->src, "dim %u pes %u step %u: not ordered by src", g->dim,
            N, s);
      uint32_t want_port = (axis ? 2u : 0u) + (uint32_t)(sends[t->src] - 1);
      CHECK(t->src_port == want_port, "dim %u pes %u step %u: PE %u port", g->dim, N, s, t->src);
      const pinet_rta_port_ref *w = &peer[(size_t)t->src * P + t->src_port];
      CHECK(t->dst == w->pe && t->dst_port == w->port,
            "dim %u pes %u step %u: %u -> %u.%u, wires say %u.%u", g->dim, N, s, t->src, t->dst,
            t->dst_port, w->pe, w->port);
      CHECK(holds[t->dst] && !sends[t->dst], "dim %u pes %u step %u: receiver %u", g->dim, N, s,
            t->dst);
    }
    assert_int_equal(pinet_rta_reduce_step(red), PINET_OK);
    /* holders: senders are empty now; the values are conserved */
    uint64_t sum_now = 0;
    size_t total = 0;
    for (uint32_t pe = 0; pe < N; pe++) {
      if (sends[pe]) {
        holds[pe] = 0;
      }
      const int64_t *vals = NULL;
      size_t cnt = 0;
      assert_int_equal(pinet_rta_reduce_pe_values(red, pe, &vals, &cnt), PINET_OK);
      CHECK((cnt > 0) == (holds[pe] != 0), "dim %u pes %u step %u: PE %u holds %zu", g->dim, N, s,
            pe, cnt);
      for (size_t k = 0; k < cnt; k++) {
        sum_now += (uint64_t)vals[k];
      }
      total += cnt;
    }
    if (op == PINET_RTA_OP_SORT) {
      CHECK(total == N && sum_now == sum_all, "dim %u pes %u step %u: values lost", g->dim, N, s);
    } else if (op == PINET_RTA_OP_SUM) {
      CHECK(sum_now == sum_all, "dim %u pes %u step %u: sum not conserved", g->dim, N, s);
    }
  }
  assert_int_equal(pinet_rta_reduce_step(red), PINET_ERR_RANGE);
  for (uint32_t pe = 1; pe < N; pe++) {
    CHECK(!holds[pe], "dim %u pes %u: PE %u still holds data", g->dim, N, pe);
  }
  const int64_t *vals = NULL;
  size_t cnt = 0;
  assert_int_equal(pinet_rta_reduce_pe_values(red, 0, &vals, &cnt), PINET_OK);
  int64_t mx = v[0], mn = v[0];
  for (uint32_t i = 1; i < N; i++) {
    mx = v[i] > mx ? v[i] : mx;
    mn = v[i] < mn ? v[i] : mn;
  }
  switch (op) {
    case PINET_RTA_OP_SUM: CHECK(cnt == 1 && (uint64_t)vals[0] == sum_all, "sum pes %u", N); break;
    case PINET_RTA_OP_MAX: CHECK(cnt == 1 && vals[0] == mx, "max pes %u", N); break;
    case PINET_RTA_OP_MIN: CHECK(cnt == 1 && vals[0] == mn, "min pes %u", N); break;
    default:
      qsort(v, N, sizeof *v, cmp_i64);
      CHECK(cnt == N && memcmp(vals, v, N * sizeof *v) == 0, "sort dim %u pes %u", g->dim, N);
  }
  pinet_rta_reduce_free(red);
  free(v);
  free(holds);
  free(sends);
  free(bits);
  free(peer);
  t_ring_free(&r);
}

static void run_reduce_ops_case(const pinet_rta_geom *g, pinet_rng *rng) {
  for (int op = 0; op < 4; op++) {
    run_reduce_case(g, (pinet_rta_op)op, rng);
  }
}

static void test_rta_reduce_ops(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x7777u);
  t_sweep(4096, 64, &rng, run_reduce_ops_case);
}

/* ================================================================================================
 * controller */

typedef struct t_ctrl {
  uint8_t bits[1024];
  int mode;
  unsigned err;
} t_ctrl;

static void t_ctrl_clock(t_ctrl *c, const pinet_rta_geom *g, const t_ring *r, const uint32_t *cls,
                         unsigned opcode, uint32_t arg, const uint8_t *raw) {
  opcode %= 8u;
  arg %= 65536u;
  switch (opcode) {
    case 0: c->err = 0; break;
    case 1:
      if (arg > 2u) {
        c->err = 6;
      } else if (!t_legal(g, r, cls, (int)arg, c->bits)) {
        c->err = 5;
      } else {
        c->mode = (int)arg;
        c->err = 0;
      }
      break;
    case 2:
      if (arg >= 1u && arg <= r->L) {
        t_srta(g, r, arg, c->bits);
        c->err = 0;
      } else {
        c->err = 2;
      }
      break;
    case 3:
    case 4:
      if (c->mode == 0) {
        c->err = 4;
      } else if (arg < 1u || arg > g->nodes) {
        c->err = 3;
      } else {
        for (uint32_t b = 0; b < g->switches; b++) {
          int in_sub = t_node_in_subtree(g->dim, cls[b], arg);
          int is_anc = t_node_in_subtree(g->dim, arg, cls[b]);
          if (opcode == 4 && in_sub) {
            c->bits[b] = 1;
          }
          if (opcode == 3 && is_anc) {
            c->bits[b] = 0;
          }
        }
        c->err = 0;
      }
      break;
    case 5:
      if (t_legal(g, r, cls, c->mode, raw)) {
        memcpy(c->bits, raw, g->switches);
        c->err = 0;
      } else {
        c->err = 5;
      }
      break;
    default: c->err = 1;
  }
}

/* Reset state: SRTA, every switch ON, error OK. */
static void check_ctrl_reset_state(const pinet_rta_ctrl *ctrl, const pinet_rta_geom *g) {
  assert_int_equal(pinet_rta_ctrl_mode(ctrl), PINET_RTA_MODE_SRTA);
  assert_int_equal(pinet_rta_ctrl_error(ctrl), PINET_RTA_CTRL_OK);
  for (uint32_t b = 0; b < g->switches; b++) {
    assert_int_equal(pinet_rta_ctrl_bitmap(ctrl)[b], 1);
  }
}

static void test_rta_ctrl_random_streams(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0x8888u);
  const uint32_t cfg[][2] = {{1, 8}, {1, 16}, {1, 64}, {1, 256}, {2, 16}, {2, 64}, {2, 256}};
  for (size_t ci = 0; ci < sizeof cfg / sizeof cfg[0]; ci++) {
    pinet_rta_geom g;
    assert_int_equal(pinet_rta_geom_init(&g, cfg[ci][0], cfg[ci][1]), PINET_OK);
    assert_true(g.switches <= 1024u);
    t_ring r;
    t_ring_init(&r, g.side);
    uint32_t *cls = t_class_table(&g, &r);
    pinet_rta_ctrl *ctrl = NULL;
    assert_int_equal(pinet_rta_ctrl_create(&ctrl, &g), PINET_OK);
    t_ctrl ref;
    memset(&ref, 0, sizeof ref);
    t_srta(&g, &r, r.L, ref.bits);
    check_ctrl_reset_state(ctrl, &g);
    uint8_t raw[1024];
    unsigned err_seen = 0;
    for (int cyc = 0; cyc < 3000; cyc++) {
      int valid = pinet_rng_below(&rng, 8) != 0;
      unsigned op = (unsigned)pinet_rng_below(&rng, 8);
      if (pinet_rng_below(&rng, 16) == 0) {
        op += 8u * (unsigned)pinet_rng_below(&rng, 4); /* taken modulo 8 */
      }
      uint32_t arg;
      uint64_t kind = pinet_rng_below(&rng, 10);
      if (kind < 6) {
        arg = (uint32_t)pinet_rng_below(&rng, (op % 8u == 1u) ? 4u : g.nodes + 2u);
      } else if (kind < 8) {
        arg = (uint32_t)pinet_rng_below(&rng, r.L + 2u);
      } else if (kind < 9) {
        arg = (uint32_t)pinet_rng_below(&rng, 4u) + 65536u * (1u + (uint32_t)pinet_rng_below(&rng, 100));
      } else {
        arg = (uint32_t)pinet_rng_next(&rng);
      }
      uint64_t rk = pinet_rng_below(&rng, 3);
      if (rk == 0) {
        t_random_bits(&rng, raw, g.switches);
      } else if (rk == 1) {
        t_srta(&g, &r, 1u + (uint32_t)pinet_rng_below(&rng, r.L), raw);
      } else {
        t_random_arta(&g, &r, cls, &rng, pinet_rng_unit(&rng), raw);
      }
      uint8_t before[1024];
      memcpy(before, pinet_rta_ctrl_bitmap(ctrl), g.switches);
      pinet_rta_mode mode_before = pinet_rta_ctrl_mode(ctrl);
      unsigned err_before = pinet_rta_ctrl_error(ctrl);
      assert_int_equal(pinet_rta_ctrl_clock(ctrl, valid, op, arg, raw), PINET_OK);
      if (valid) {
        t_ctrl_clock(&ref, &g, &r, cls, op, arg, raw);
      }
      CHECK(memcmp(pinet_rta_ctrl_bitmap(ctrl), ref.bits, g.switches) == 0 &&
                (int)pinet_rta_ctrl_mode(ctrl) == ref.mode && pinet_rta_ctrl_error(ctrl) == ref.err,
            "cfg %zu cycle %d valid %d op %u arg %u: err %u want %u mode %d want %d", ci, cyc,
            valid, op, arg, pinet_rta_ctrl_error(ctrl), ref.err, (int)pinet_rta_ctrl_mode(ctrl),
            ref.mode);
      if (!valid || ref.err != 0u) { /* nothing taken, or an illegal command: state unchanged */
        CHECK(memcmp(before, pinet_rta_ctrl_bitmap(ctrl), g.switches) == 0 &&
                  pinet_rta_ctrl_mode(ctrl) == mode_before,
              "cfg %zu cycle %d: state changed", ci, cyc);
      }
      if (!valid) {
        CHECK(pinet_rta_ctrl_error(ctrl) == err_before, "cfg %zu cycle %d: err changed", ci, cyc);
      }
      /* ARTA mode always holds an ARTA-legal bitmap, SRTA mode an SRTA one */
      CHECK(t_legal(&g, &r, cls, (int)pinet_rta_ctrl_mode(ctrl), pinet_rta_ctrl_bitmap(ctrl)),
            "cfg %zu cycle %d: bitmap illegal in its mode", ci, cyc);
      err_seen |= 1u << pinet_rta_ctrl_error(ctrl);
    }
    CHECK(err_seen == 0x7fu, "cfg %zu: not every error code reached (mask %#x)", ci, err_seen);
    pinet_rta_ctrl_clock(ctrl, 1, PINET_RTA_CMD_SET_MODE, PINET_RTA_MODE_RTA, NULL);
    pinet_rta_ctrl_clock(ctrl, 1, 7, 0, NULL);
    pinet_rta_ctrl_reset(ctrl);
    check_ctrl_reset_state(ctrl, &g);
    assert_int_equal(pinet_rta_ctrl_clock(ctrl, 1, PINET_RTA_CMD_WRITE_RAW, 0, NULL), PINET_ERR_NULL);
    pinet_rta_ctrl_free(ctrl);
    free(cls);
    t_ring_free(&r);
  }
  pinet_rta_ctrl_free(NULL);
}

static void test_rta_ctrl_names(void **state) {
  (void)state;
  const char *cmds[] = {"NOP", "SET_MODE", "SET_LEVEL", "ARTA_OFF", "ARTA_ON", "WRITE_RAW"};
  const char *errs[] = {"OK",         "BAD_OPCODE", "BAD_LEVEL", "BAD_NODE",
                        "WRONG_MODE", "ILLEGAL",    "BAD_MODE"};
  for (unsigned i = 0; i < 6; i++) {
    assert_string_equal(pinet_rta_cmd_name(i), cmds[i]);
  }
  for (unsigned i = 0; i < 7; i++) {
    assert_string_equal(pinet_rta_ctrl_err_name(i), errs[i]);
  }
  assert_null(pinet_rta_cmd_name(6));
  assert_null(pinet_rta_cmd_name(7));
  assert_null(pinet_rta_ctrl_err_name(7));
  assert_int_equal(PINET_RTA_CMD_WRITE_RAW, 5);
  assert_int_equal(PINET_RTA_CTRL_BAD_MODE, 6);
}

int main(void) {
  g_seed = test_seed("test_rta", g_seed);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rta_geometry_sizes),
      cmocka_unit_test(test_rta_switch_addressing),
      cmocka_unit_test(test_rta_classes),
      cmocka_unit_test(test_rta_route_random_bitmaps),
      cmocka_unit_test(test_rta_route_srta_rings),
      cmocka_unit_test(test_rta_fabric_eval),
      cmocka_unit_test(test_rta_distance_vs_bfs),
      cmocka_unit_test(test_rta_distance_large_sampled),
      cmocka_unit_test(test_rta_distance_errors),
      cmocka_unit_test(test_rta_stats_formulas),
      cmocka_unit_test(test_rta_legality_vs_brute_force),
      cmocka_unit_test(test_rta_arta_apply_minimal),
      cmocka_unit_test(test_rta_hex_round_trip),
      cmocka_unit_test(test_rta_reduce_spec_schedule),
      cmocka_unit_test(test_rta_reduce_ops),
      cmocka_unit_test(test_rta_ctrl_random_streams),
      cmocka_unit_test(test_rta_ctrl_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
