/* cli_rta.c - `pinet rta ...`: the Recursive Torus Architecture model from the command line.
 *
 *   pinet rta stats    --dim 1|2 --pes N [--json]
 *   pinet rta distance --dim 1|2 --pes N --from S --to E [--json]   (2D: S and E as r,c)
 *   pinet rta route    [--dim 1|2] --pes N --bitmap HEX [--json]
 *   pinet rta reduce   --dim 1|2 --pes N --op sum|max|min|sort --input FILE [--json]
 *
 * The JSON keys are a contract used by outside checks: do not rename them. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pinet/rta.h"

int pinet_cli_rta(int argc, char **argv);
extern const char pinet_cli_rta_summary[];

const char pinet_cli_rta_summary[] =
    "Recursive Torus Architecture: distance statistics, shortest paths, routing, reduce";

static const char k_rta_usage[] =
    "usage: pinet rta <command> [options]\n\n"
    "commands:\n"
    "  stats      diameter, average distance and diameter pairs of a 1D/2D SRTA (Tables 1, 2)\n"
    "  distance   distance and one shortest path between two PEs (recursive algorithm, §3.3)\n"
    "  route      where every PE port leads for a switch bitmap (hex, bit 0 = switch 0)\n"
    "  reduce     basic parallel transfer to PE 0 with sum, max, min or sort (§3.4, §4.2)\n\n"
    "pinet rta <command> --help for the options of each command.";

static const char *const k_port_names[4] = {"L", "R", "U", "D"};

/* Every command's option rows: --dim and --pes (the geometry parse_command reads), the command's
 * own rows (at most RTA_OWN_OPTS), then --json. Returns the number of rows written to opts. */
enum { RTA_OWN_OPTS = 4, RTA_OPTS = RTA_OWN_OPTS + 3 };
static size_t command_opts(pinet_cli_opt opts[RTA_OPTS], const pinet_cli_opt *own, size_t n_own) {
  static const pinet_cli_opt geometry[2] = {
      {"dim", 1, "1|2", "1D ring or 2D torus (default 1)", NULL, 0},
      {"pes", 1, "N", "total number of PEs: 2^L in 1D, 4^L in 2D", NULL, 0}};
  memcpy(opts, geometry, sizeof geometry);
  if (n_own > 0) memcpy(opts + 2, own, n_own * sizeof *own);
  opts[2 + n_own] = (pinet_cli_opt){"json", 0, NULL, "machine-readable output", NULL, 0};
  return n_own + 3;
}

/* Parse a command's options and answer --help (pinet_cli_parse_or_help), then read --dim
 * (default 1) and --pes into a geometry. Returns PINET_CLI_CONTINUE, or an exit code after
 * printing the error. */
static int parse_command(const char *ctx, const char *usage, pinet_cli_opt *opts, size_t n,
                         int argc, char **argv, pinet_rta_geom *g) {
  int rc = pinet_cli_parse_or_help(ctx, usage, opts, n, argc, argv, 1);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  uint32_t dim = 1, pes = 0;
  if ((rc = pinet_cli_optional_u32(ctx, opts, n, "dim", &dim)) != PINET_EXIT_OK ||
      (rc = pinet_cli_required_u32(ctx, opts, n, "pes", &pes)) != PINET_EXIT_OK) {
    return rc;
  }
  pinet_status st = pinet_rta_geom_init(g, dim, pes);
  if (st == PINET_ERR_RANGE) {
    return pinet_cli_fail(ctx, st, "--dim %u: must be 1 or 2", dim);
  }
  if (st != PINET_OK) {
    return pinet_cli_fail(ctx, st,
                          dim == 1u ? "--pes %u: a 1D RTA needs 2^L PEs, 4 <= N <= 65536"
                                    : "--pes %u: a 2D RTA needs 4^L PEs, 16 <= N <= 1048576",
                          pes);
  }
  return PINET_CLI_CONTINUE;
}

/* ---- stats ------------------------------------------------------------------------------------ */

static int cmd_stats(int argc, char **argv) {
  const char *ctx = "rta stats";
  pinet_cli_opt opts[RTA_OPTS];
  size_t n = command_opts(opts, NULL, 0);
  pinet_rta_geom g;
  int rc = parse_command(ctx,
                         "usage: pinet rta stats --dim 1|2 --pes N [--json]\n\n"
                         "Distance statistics of the SRTA union graph by enumerating every pair.",
                         opts, n, argc, argv, &g);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  pinet_rta_stats s;
  pinet_status st = pinet_rta_stats_compute(&g, &s);
  if (st != PINET_OK) {
    return pinet_cli_fail(ctx, st, "side %u is too large to enumerate (at most 4096)", g.side);
  }
  if (pinet_cli_find(opts, n, "json")->present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "dim");
    pinet_json_u64(&js, g.dim);
    pinet_json_key(&js, "pes");
    pinet_json_u64(&js, g.pes);
    pinet_json_key(&js, "switches");
    pinet_json_u64(&js, g.switches);
    pinet_json_key(&js, "diameter");
    pinet_json_u64(&js, s.diameter);
    pinet_json_key(&js, "average");
    pinet_json_double(&js, s.average);
    pinet_json_key(&js, "diameter_pairs");
    pinet_json_u64(&js, s.diameter_pairs);
    pinet_json_end_document(&js);
    return PINET_EXIT_OK;
  }
  double N = (double)g.pes, lg = log2(N);
  double f_diam = g.dim == 1u ? 2.0 * lg - 2.0 : 4.0 * (lg / 2.0 - 1.0);
  double f_avg = g.dim == 1u ? (N * (2.0 * lg - 3.0) + 4.0) / (2.0 * (N - 1.0))
                             : (N * (lg - 3.0) + 4.0 * sqrt(N)) / (N - 1.0);
  printf("%uD SRTA: %u PEs (%u x %u), %u switches\n", g.dim, g.pes, g.dim == 1u ? g.pes : g.side,
         g.dim == 1u ? 1u : g.side, g.switches);
  printf("  diameter        %u   (paper Table %d: %.0f)\n", s.diameter, g.dim == 1u ? 1 : 2, f_diam);
  printf("  diameter pairs  %" PRIu64 "\n", s.diameter_pairs);
  printf("  average         %.6f   (paper Table %d: %.6f)\n", s.average, g.dim == 1u ? 1 : 2,
         f_avg);
  return PINET_EXIT_OK;
}

/* ---- distance --------------------------------------------------------------------------------- */

/* Parse a PE: an integer in 1D, "r,c" in 2D. */
static int parse_pe(const char *ctx, const char *name, const char *text, const pinet_rta_geom *g,
                    uint32_t *pe) {
  if (g->dim == 1u) {
    uint32_t v = 0;
    int rc = pinet_cli_parse_u32(ctx, name, text, &v);
    if (rc != PINET_EXIT_OK) {
      return rc;
    }
    if (v >= g->pes) {
      return pinet_cli_fail(ctx, PINET_ERR_RANGE, "--%s %u: PEs are 0..%u", name, v, g->pes - 1u);
    }
    *pe = v;
    return PINET_EXIT_OK;
  }
  unsigned long rc_v[2];
  const char *p = text;
  for (int k = 0; k < 2; k++) {
    if (!isdigit((unsigned char)*p)) {
      return pinet_cli_usage_error(ctx, "--%s: '%s' is not r,c", name, PINET_CLI_Q(text));
    }
    char *end = NULL;
    errno = 0;
    rc_v[k] = strtoul(p, &end, 10);
    if (errno == ERANGE || end == p || (k == 0 && *end != ',') || (k == 1 && *end != '\0')) {
      return pinet_cli_usage_error(ctx, "--%s: '%s' is not r,c", name, PINET_CLI_Q(text));
    }
    p = end + 1;
  }
  if (rc_v[0] >= g->side || rc_v[1] >= g->side) {
    return pinet_cli_fail(ctx, PINET_ERR_RANGE, "--%s %s: rows and columns are 0..%u", name,
                          PINET_CLI_Q(text), g->side - 1u);
  }
  *pe = (uint32_t)(rc_v[0] * g->side + rc_v[1]);
  return PINET_EXIT_OK;
}

/* Lowest SRTA level at which ring PEs a and b are adjacent. */
static uint32_t hop_level(const pinet_rta_geom *ring, uint32_t a, uint32_t b) {
  for (uint32_t l = 1; l <= ring->levels; l++) {
    int adj = 0;
    if (pinet_rta_adjacent(ring, a, b, l, &adj) == PINET_OK && adj) {
      return l;
    }
  }
  return 0;
}

static int cmd_distance(int argc, char **argv) {
  const char *ctx = "rta distance";
  static const pinet_cli_opt own[] = {
      {"from", 1, "S", "source PE: an address in 1D, r,c in 2D", NULL, 0},
      {"to", 1, "E", "destination PE: an address in 1D, r,c in 2D", NULL, 0},
  };
  pinet_cli_opt opts[RTA_OPTS];
  size_t n = command_opts(opts, own, sizeof own / sizeof own[0]);
  pinet_rta_geom g;
  int rc = parse_command(ctx,
                         "usage: pinet rta distance --dim 1|2 --pes N --from S --to E "
                         "[--json]\n\n"
                         "Distance in the union of all SRTA levels and one shortest path "
                         "(paper §3.3; 2D: row first, then column).",
                         opts, n, argc, argv, &g);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  const char *fs = NULL, *ts = NULL;
  uint32_t from = 0, to = 0;
  if ((rc = pinet_cli_require(ctx, opts, n, "from", &fs)) != PINET_EXIT_OK ||
      (rc = pinet_cli_require(ctx, opts, n, "to", &ts)) != PINET_EXIT_OK ||
      (rc = parse_pe(ctx, "from", fs, &g, &from)) != PINET_EXIT_OK ||
      (rc = parse_pe(ctx, "to", ts, &g, &to)) != PINET_EXIT_OK) {
    return rc;
  }
  uint32_t d = 0, path[80];
  size_t len = 0;
  pinet_status st = pinet_rta_distance(&g, from, to, &d, path, 80, &len);
  if (st != PINET_OK) {
    return pinet_cli_fail(ctx, st, "distance %u -> %u", from, to);
  }
  uint32_t S = g.side;
  if (pinet_cli_find(opts, n, "json")->present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "distance");
    pinet_json_u64(&js, d);
    pinet_json_key(&js, "path");
    pinet_json_begin_array(&js);
    for (size_t i = 0; i < len; i++) {
      if (g.dim == 1u) {
        pinet_json_u64(&js, path[i]);
      } else {
        pinet_json_begin_array(&js);
        pinet_json_u64(&js, path[i] / S);
        pinet_json_u64(&js, path[i] % S);
        pinet_json_end_array(&js);
      }
    }
    pinet_json_end_array(&js);
    pinet_json_end_document(&js);
    return PINET_EXIT_OK;
  }
  pinet_rta_geom ring;
  if (pinet_rta_geom_init(&ring, 1, S) != PINET_OK) {
    return pinet_cli_fail(ctx, PINET_ERR_RANGE, "internal geometry");
  }
  printf("distance %u\n", d);
  for (size_t i = 0; i < len; i++) {
    char here[32];
    if (g.dim == 1u) {
      snprintf(here, sizeof here, "%u", path[i]);
    } else {
      snprintf(here, sizeof here, "(%u,%u)", path[i] / S, path[i] % S);
    }
    if (i == 0) {
      printf("  %-12s start\n", here);
      continue;
    }
    uint32_t a = path[i - 1u], b = path[i];
    const char *axis = "";
    uint32_t lv;
    if (g.dim == 1u) {
      lv = hop_level(&ring, a, b);
    } else if (a / S == b / S) {
      axis = "horizontal, ";
      lv = hop_level(&ring, a % S, b % S);
    } else {
      axis = "vertical, ";
      lv = hop_level(&ring, a / S, b / S);
    }
    printf("  %-12s %slink of SRTA level %u\n", here, axis, lv);
  }
  return PINET_EXIT_OK;
}

/* ---- route ------------------------------------------------------------------------------------ */

static unsigned digits_of(uint32_t v) {
  unsigned d = 1;
  while (v >= 10u) {
    v /= 10u;
    d++;
  }
  return d;
}

/* 1D picture, 16 PEs a line: "0 - 1 = 2 - 3 | 4 ..." with the switch levels below. */
static void print_ring_picture(const pinet_rta_geom *g, const uint8_t *bits) {
  unsigned w = digits_of(g->side - 1u);
  printf("legend: '-' direct link, '=' switch ON (joins its two PEs), '|' switch OFF (the ring is\n"
         "        cut here; the PEs on either side turn onto the bypass); levels below switches\n\n");
  for (uint32_t start = 0; start < g->side; start += 16u) {
    uint32_t end = start + 16u < g->side ? start + 16u : g->side;
    char levels[256];
    size_t lp = 0;
    printf("  ");
    for (uint32_t pe = start; pe < end; pe++) {
      printf("%*u", (int)w, pe);
      for (unsigned k = 0; k < w && lp + 1u < sizeof levels; k++) {
        levels[lp++] = ' ';
      }
      if (pe + 1u < end) {
        char sep = '-';
        char lv = ' ';
        if (pe % 2u == 1u) {
          uint32_t p = (pe - 1u) / 2u, level = 0;
          sep = bits[p] ? '=' : '|';
          if (pinet_rta_switch_level(g, p, &level) == PINET_OK) {
            lv = level < 10u ? (char)('0' + level) : (char)('a' + level - 10u);
          }
        }
        printf(" %c ", sep);
        if (lp + 4u < sizeof levels) {
          levels[lp++] = ' ';
          levels[lp++] = lv;
          levels[lp++] = ' ';
        }
      }
    }
    levels[lp] = '\0';
    printf("\n  %s\n", levels);
    if (end < g->side) { /* the switch between two picture lines */
      uint32_t p = (end - 1u) / 2u, level = 0;
      pinet_rta_switch_level(g, p, &level);
      printf("  ... switch %u (level %u) %s ...\n", p, level, bits[p] ? "ON" : "OFF");
    }
  }
  /* rings: intervals between OFF switches, found by following R ports */
  printf("\nrings:");
  uint32_t first = 0;
  for (uint32_t p = 0; p <= g->ring_switches; p++) {
    if (p == g->ring_switches || !bits[p]) {
      uint32_t last = p == g->ring_switches ? g->side - 1u : 2u * p + 1u;
      printf(" [%u..%u]", first, last);
      first = last + 1u;
    }
  }
  printf("\n");
}

/* 2D picture (side <= 32): PEs 'o'; horizontal '-' direct, '=' ON, ' ' OFF; vertical '|' direct,
 * 'H' ON, ' ' OFF. */
static void print_torus_picture(const pinet_rta_geom *g, const uint8_t *bits) {
  uint32_t S = g->side, M = g->ring_switches;
  if (S > 32u) {
    printf("(no picture for sides above 32)\n");
    return;
  }
  printf("legend: 'o' PE; '-' '|' direct links; '=' 'H' switch ON; blank: switch OFF (cut)\n\n");
  for (uint32_t r = 0; r < S; r++) {
    printf("  ");
    for (uint32_t c = 0; c < S; c++) {
      printf("o");
      if (c + 1u < S) {
        char sep = c % 2u == 0u ? '-' : (bits[r * M + (c - 1u) / 2u] ? '=' : ' ');
        printf("%c", sep);
      }
    }
    printf("\n");
    if (r + 1u < S) {
      printf("  ");
      for (uint32_t c = 0; c < S; c++) {
        char sep = r % 2u == 0u ? '|' : (bits[S * M + c * M + (r - 1u) / 2u] ? 'H' : ' ');
        printf("%c%s", sep, c + 1u < S ? " " : "");
      }
      printf("\n");
    }
  }
}

static int cmd_route(int argc, char **argv) {
  const char *ctx = "rta route";
  static const pinet_cli_opt own[] = {
      {"bitmap", 1, "HEX", "switch states, hex, bit b = switch b (1 = ON); at most ceil(M/4) digits",
       NULL, 0},
  };
  pinet_cli_opt opts[RTA_OPTS];
  size_t n = command_opts(opts, own, sizeof own / sizeof own[0]);
  pinet_rta_geom g;
  int rc = parse_command(ctx,
                         "usage: pinet rta route [--dim 1|2] --pes N --bitmap HEX "
                         "[--json]\n\n"
                         "Where every PE port leads through the switches (any bitmap). "
                         "Bits: 1D switch p = bit p; 2D rows first (r*M + p), then "
                         "columns (side*M + c*M + p).",
                         opts, n, argc, argv, &g);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  const char *hex = NULL;
  if ((rc = pinet_cli_require(ctx, opts, n, "bitmap", &hex)) != PINET_EXIT_OK) {
    return rc;
  }
  size_t nports = (size_t)g.pes * g.ports_per_pe;
  uint8_t *bits = malloc(g.switches);
  pinet_rta_port_ref *peer = malloc(nports * sizeof *peer);
  if (bits == NULL || peer == NULL) {
    free(bits);
    free(peer);
    return pinet_cli_fail(ctx, PINET_ERR_NOMEM, "out of memory");
  }
  pinet_status st = pinet_rta_bitmap_from_hex(&g, hex, bits);
  if (st != PINET_OK) {
    free(bits);
    free(peer);
    /* a malformed argument is a usage error, not a malformed file */
    fprintf(stderr, "pinet: %s: --bitmap '%s': %s\n", ctx, PINET_CLI_Q(hex),
            st == PINET_ERR_PARSE ? "not a hexadecimal number"
                                  : "wider than the switch count (too many digits or a bit "
                                    "beyond the last switch)");
    return st == PINET_ERR_PARSE ? PINET_EXIT_USAGE : PINET_EXIT_INPUT;
  }
  st = pinet_rta_route(&g, bits, peer);
  if (st != PINET_OK) {
    free(bits);
    free(peer);
    return pinet_cli_fail(ctx, st, "routing");
  }
  if (pinet_cli_find(opts, n, "json")->present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "ports");
    pinet_json_begin_array(&js);
    for (size_t i = 0; i < nports; i++) {
      pinet_json_begin_object(&js);
      pinet_json_key(&js, "pe");
      pinet_json_u64(&js, i / g.ports_per_pe);
      pinet_json_key(&js, "port");
      pinet_json_string(&js, k_port_names[i % g.ports_per_pe]);
      pinet_json_key(&js, "peer_pe");
      pinet_json_u64(&js, peer[i].pe);
      pinet_json_key(&js, "peer_port");
      pinet_json_string(&js, k_port_names[peer[i].port & 3u]);
      pinet_json_end_object(&js);
    }
    pinet_json_end_array(&js);
    pinet_json_end_document(&js);
  } else {
    printf("%uD RTA, %u PEs, %u switches, bitmap %s\n\n", g.dim, g.pes, g.switches, hex);
    if (g.dim == 1u) {
      print_ring_picture(&g, bits);
    } else {
      print_torus_picture(&g, bits);
    }
    printf("\nports:\n");
    for (size_t i = 0; i < nports; i++) {
      uint32_t pe = (uint32_t)(i / g.ports_per_pe);
      if (g.dim == 1u) {
        printf("  %6u.%s -> %u.%s\n", pe, k_port_names[i % g.ports_per_pe], peer[i].pe,
               k_port_names[peer[i].port & 3u]);
      } else {
        printf("  (%u,%u).%s -> (%u,%u).%s\n", pe / g.side, pe % g.side,
               k_port_names[i % g.ports_per_pe], peer[i].pe / g.side, peer[i].pe % g.side,
               k_port_names[peer[i].port & 3u]);
      }
    }
  }
  free(bits);
  free(peer);
  return PINET_EXIT_OK;
}

/* ---- reduce ----------------------------------------------------------------------------------- */

static int cmd_reduce(int argc, char **argv) {
  const char *ctx = "rta reduce";
  static const pinet_cli_opt own[] = {
      {"op", 1, "OP", "sum | max | min | sort", NULL, 0},
      {"input", 1, "FILE", "N integers, one a line (row-major in 2D); - for stdin", NULL, 0},
  };
  pinet_cli_opt opts[RTA_OPTS];
  size_t n = command_opts(opts, own, sizeof own / sizeof own[0]);
  pinet_rta_geom g;
  int rc = parse_command(ctx,
                         "usage: pinet rta reduce --dim 1|2 --pes N --op sum|max|min|sort "
                         "--input FILE [--json]\n\n"
                         "The SRTA basic parallel transfer: log N steps in 1D, 2 per level "
                         "in 2D (horizontal, then vertical); the result lands in PE 0. "
                         "Sums wrap modulo 2^64.",
                         opts, n, argc, argv, &g);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  static const char *const op_names[] = {"sum", "max", "min", "sort", NULL};
  const char *ops = NULL, *path = NULL;
  unsigned op = 0;
  if ((rc = pinet_cli_require(ctx, opts, n, "op", &ops)) != PINET_EXIT_OK ||
      (rc = pinet_cli_parse_choice(ctx, "op", ops, op_names, &op)) != PINET_EXIT_OK ||
      (rc = pinet_cli_require(ctx, opts, n, "input", &path)) != PINET_EXIT_OK) {
    return rc;
  }
  if ((rc = pinet_cli_input_path(ctx, path)) != PINET_EXIT_OK) {
    return rc;
  }
  int64_t *vals = NULL;
  size_t count = 0, bad_line = 0;
  pinet_status st = pinet_cli_read_i64_file(path, &vals, &count, &bad_line);
  if (st == PINET_ERR_PARSE) {
    return pinet_cli_fail(ctx, st, "%s line %zu: not an integer", PINET_CLI_Q(path), bad_line);
  }
  if (st != PINET_OK) {
    return pinet_cli_fail(ctx, st, "%s: cannot read", PINET_CLI_Q(path));
  }
  if (count != g.pes) {
    free(vals);
    fprintf(stderr, "pinet: %s: %s: %zu values, expected %u (one per PE)\n", ctx,
            PINET_CLI_Q(path), count, g.pes);
    return PINET_EXIT_IO;
  }
  pinet_rta_reduce *red = NULL;
  st = pinet_rta_reduce_create(&red, &g, (pinet_rta_op)op, vals);
  free(vals);
  if (st == PINET_OK) {
    st = pinet_rta_reduce_run(red);
  }
  if (st != PINET_OK) {
    pinet_rta_reduce_free(red);
    return pinet_cli_fail(ctx, st, "reduce");
  }
  uint32_t steps = pinet_rta_reduce_step_count(red);
  const int64_t *res = NULL;
  size_t nres = 0;
  pinet_rta_reduce_pe_values(red, 0, &res, &nres);
  if (pinet_cli_find(opts, n, "json")->present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "result");
    if (op == PINET_RTA_OP_SORT) {
      pinet_json_begin_array(&js);
      for (size_t i = 0; i < nres; i++) {
        pinet_json_i64(&js, res[i]);
      }
      pinet_json_end_array(&js);
    } else {
      pinet_json_i64(&js, nres ? res[0] : 0);
    }
    pinet_json_key(&js, "steps");
    pinet_json_u64(&js, steps);
    pinet_json_key(&js, "transfers");
    pinet_json_begin_array(&js);
    for (uint32_t s = 0; s < steps; s++) {
      const pinet_rta_transfer *tr = NULL;
      size_t nt = 0;
      pinet_rta_reduce_step_info(red, s, NULL, NULL, &tr, &nt);
      pinet_json_begin_array(&js);
      for (size_t i = 0; i < nt; i++) {
        pinet_json_begin_array(&js);
        pinet_json_u64(&js, tr[i].src);
        pinet_json_u64(&js, tr[i].dst);
        pinet_json_end_array(&js);
      }
      pinet_json_end_array(&js);
    }
    pinet_json_end_array(&js);
    pinet_json_end_document(&js);
  } else {
    printf("%uD SRTA basic parallel transfer, %u PEs, op %s: %u steps\n\n", g.dim, g.pes,
           op_names[op], steps);
    printf("  step  level  axis        transfers (src->dst, ports)\n");
    for (uint32_t s = 0; s < steps; s++) {
      uint32_t level = 0, axis = 0;
      const pinet_rta_transfer *tr = NULL;
      size_t nt = 0;
      pinet_rta_reduce_step_info(red, s, &level, &axis, &tr, &nt);
      printf("  %4u  %5u  %-10s ", s + 1u, level, g.dim == 1u ? "ring" : axis ? "vertical" : "horizontal");
      for (size_t i = 0; i < nt; i++) {
        printf(" %u->%u(%s>%s)", tr[i].src, tr[i].dst, k_port_names[tr[i].src_port & 3u],
               k_port_names[tr[i].dst_port & 3u]);
      }
      printf("\n");
    }
    printf("\nresult at PE 0:");
    if (op == PINET_RTA_OP_SORT) {
      for (size_t i = 0; i < nres; i++) {
        printf(" %" PRId64, res[i]);
      }
      printf("\n");
    } else {
      printf(" %" PRId64 "\n", nres ? res[0] : 0);
    }
  }
  pinet_rta_reduce_free(red);
  return PINET_EXIT_OK;
}

/* ---- dispatch --------------------------------------------------------------------------------- */

int pinet_cli_rta(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "%s\n", k_rta_usage);
    return PINET_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    printf("%s\n", k_rta_usage);
    return PINET_EXIT_OK;
  }
  if (strcmp(cmd, "stats") == 0) {
    return cmd_stats(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "distance") == 0) {
    return cmd_distance(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "route") == 0) {
    return cmd_route(argc - 1, argv + 1);
  }
  if (strcmp(cmd, "reduce") == 0) {
    return cmd_reduce(argc - 1, argv + 1);
  }
  return pinet_cli_usage_error("rta", "unknown command '%s'", PINET_CLI_Q(cmd));
}
