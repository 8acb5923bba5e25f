/* pinet/rta.h - the Recursive Torus Architecture (paper 004, SPEC §1).
 *
 * Topology, switch addressing, SRTA/ARTA/RTA switch states, routing of any bitmap, the recursive
 * distance algorithm, the basic parallel transfer (reduce to PE 0), and the cycle-level models of
 * the RTL blocks rta_switch, rta_ring / rta_torus2d and rta_bitmap_ctrl.
 *
 * Conventions
 * - A 1D RTA is a ring of `side` = N = 2^L PEs (L >= 2). A 2D RTA is side x side PEs, side = 2^L,
 *   N = side^2; PE (r, c) has the scalar number r*side + c. Every row and every column is a 1D RTA.
 * - Switch position p (0-based, left to right) sits between PE 2p+1 and PE 2p+2 of its ring; a
 *   ring has M = side/2 - 1 switches. Its switching level is tz(p+1) + 2 (tz = trailing zeros).
 *   Its paper address [j] is the heap number (root 1, children 2j, 2j+1) of the complete binary
 *   tree whose in-order traversal lists the positions left to right.
 * - A bitmap is an array of uint8_t, one entry (0 = OFF, 1 = ON) per switch. Bit b of the bitmap:
 *   1D: b = p. 2D: horizontal rings first (row r's switches at b = r*M + p), then vertical rings
 *   (column c's at b = side*M + c*M + p, p counted from the top).
 * - Ports: PE ports are numbered pe * ports_per_pe + port, port 0 = L, 1 = R (and in 2D 2 = U,
 *   3 = D). Along a vertical ring U plays the role of L and D the role of R.
 * - A switch's terminals 1..4 are indices 0..3: 1 to PE 2p+1 (its R port), 2 to PE 2p+2 (its L
 *   port), 3 to the left switch's terminal 4 (PE 0's L port for the leftmost), 4 to the right
 *   switch's terminal 3 (PE side-1's R port for the rightmost). PE 2m's R port is wired straight
 *   to PE 2m+1's L port. ON joins 1<->2 and 3<->4; OFF joins 1<->3 and 2<->4.
 * - 2D switching classes are numbered as the heap of a complete quadtree (root 1, the children of
 *   class k are 4k-2 .. 4k+1 in the order top-left, top-right, bottom-left, bottom-right). The class
 *   of level k (2..L) for a 2^k x 2^k block owns the vertical-ring switches on the block's middle
 *   row boundary and the horizontal-ring switches on its middle column boundary inside the block.
 */
#ifndef PINET_RTA_H
#define PINET_RTA_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest ring accepted by pinet_rta_geom_init: 1D N <= 2^16 PEs, 2D side <= 2^10. */
#define PINET_RTA_MAX_SIDE_1D 65536u
#define PINET_RTA_MAX_SIDE_2D 1024u

typedef enum pinet_rta_mode {
  PINET_RTA_MODE_SRTA = 0, /* only whole SRTA levels */
  PINET_RTA_MODE_ARTA = 1, /* ON set closed under descendants (1D tree / 2D class quadtree) */
  PINET_RTA_MODE_RTA = 2   /* any bitmap */
} pinet_rta_mode;

typedef enum pinet_rta_port {
  PINET_RTA_PORT_L = 0,
  PINET_RTA_PORT_R = 1,
  PINET_RTA_PORT_U = 2,
  PINET_RTA_PORT_D = 3
} pinet_rta_port;

/* Geometry of a 1D or 2D RTA. Filled by pinet_rta_geom_init; read-only afterwards. */
typedef struct pinet_rta_geom {
  unsigned dim;           /* 1 or 2 */
  uint32_t pes;           /* total PEs N */
  uint32_t side;          /* PEs per ring: N in 1D, sqrt(N) in 2D */
  uint32_t levels;        /* L = log2(side) */
  uint32_t ring_switches; /* M = side/2 - 1 */
  uint32_t switches;      /* bitmap width: M in 1D, 2*side*M in 2D */
  uint32_t nodes;         /* ARTA tree nodes: M switches in 1D, (4^(L-1)-1)/3 classes in 2D */
  uint32_t ports_per_pe;  /* 2 in 1D, 4 in 2D */
} pinet_rta_geom;

/* Fill `geom` for a `dim`-dimensional RTA of `pes` PEs in total.
 * Returns PINET_ERR_RANGE if dim is not 1 or 2; PINET_ERR_SIZE if pes is not 2^L (1D) or 4^L
 * (2D) with L >= 2, or exceeds the maxima above; PINET_ERR_NULL if geom is NULL. */
pinet_status pinet_rta_geom_init(pinet_rta_geom *geom, unsigned dim, uint32_t pes);

/* ---- switch addressing ------------------------------------------------------------------- */

/* Switching level (2..L) of ring position `pos` (0..M-1). PINET_ERR_RANGE if pos >= M. */
pinet_status pinet_rta_switch_level(const pinet_rta_geom *geom, uint32_t pos, uint32_t *level);
/* Paper address [j] (heap number 1..M) of ring position `pos`, and its inverse. */
pinet_status pinet_rta_switch_address(const pinet_rta_geom *geom, uint32_t pos, uint32_t *addr);
pinet_status pinet_rta_switch_position(const pinet_rta_geom *geom, uint32_t addr, uint32_t *pos);
/* 2D: the switching class (heap number 1..nodes) that bitmap bit `bit` belongs to, and the level
 * (2..L) of class `cls`. PINET_ERR_UNSUPPORTED in 1D. */
pinet_status pinet_rta_class_of_bit(const pinet_rta_geom *geom, uint32_t bit, uint32_t *cls);
pinet_status pinet_rta_class_level(const pinet_rta_geom *geom, uint32_t cls, uint32_t *level);

/* ---- SRTA adjacency ---------------------------------------------------------------------- */

/* neighbor(A, l) on one ring of geom->side PEs: writes the distinct members (1 at level 1, else 2)
 * to out[0..*count-1], ascending. PINET_ERR_RANGE if a >= side or level not in 1..L. */
pinet_status pinet_rta_neighbors(const pinet_rta_geom *geom, uint32_t a, uint32_t level,
                                 uint32_t out[2], uint32_t *count);
/* ADJACENT_l(a, b) on one ring: *adjacent = 1 if b in neighbor(a, l) or a in neighbor(b, l). */
pinet_status pinet_rta_adjacent(const pinet_rta_geom *geom, uint32_t a, uint32_t b, uint32_t level,
                                int *adjacent);

/* ---- switch states ----------------------------------------------------------------------- */

/* Write the SRTA pattern of `level` (1..L): switches of level <= `level` ON, the others OFF. */
pinet_status pinet_rta_srta_bitmap(const pinet_rta_geom *geom, uint32_t level, uint8_t *bits);
/* The SRTA level whose pattern `bits` is; PINET_ERR_ILLEGAL_STATE if it is none. */
pinet_status pinet_rta_srta_level_of(const pinet_rta_geom *geom, const uint8_t *bits,
                                     uint32_t *level);
/* *legal = 1 if `bits` is a legal state in `mode`, 0 otherwise. An entry other than 0/1 is
 * PINET_ERR_RANGE; an unknown mode PINET_ERR_RANGE. */
pinet_status pinet_rta_bitmap_is_legal(const pinet_rta_geom *geom, pinet_rta_mode mode,
                                       const uint8_t *bits, int *legal);
/* ARTA edit in place: turn_on = 0 turns node `node` OFF with all its ancestors; turn_on = 1 turns
 * it ON with all its descendants. node is a switch address [j] in 1D, a class in 2D.
 * PINET_ERR_RANGE if node is not in 1..geom->nodes. */
pinet_status pinet_rta_arta_apply(const pinet_rta_geom *geom, uint32_t node, int turn_on,
                                  uint8_t *bits);

/* Parse a hexadecimal bitmap (optional 0x, most significant digit first, bit 0 = LSB) into
 * bits[0..switches-1]. PINET_ERR_PARSE on a non-hex character or an empty string;
 * PINET_ERR_RANGE if it has more digits than ceil(switches/4) or sets a bit >= switches. */
pinet_status pinet_rta_bitmap_from_hex(const pinet_rta_geom *geom, const char *hex, uint8_t *bits);
/* Format bits as ceil(switches/4) lower-case hex digits plus NUL into `hex` (capacity hex_cap).
 * PINET_ERR_RANGE if hex_cap is too small. */
pinet_status pinet_rta_bitmap_to_hex(const pinet_rta_geom *geom, const uint8_t *bits, char *hex,
                                     size_t hex_cap);

/* ---- routing (general RTA) --------------------------------------------------------------- */

typedef struct pinet_rta_port_ref {
  uint32_t pe;
  uint32_t port; /* pinet_rta_port */
} pinet_rta_port_ref;

/* For every PE port (pes * ports_per_pe entries, index pe*ports_per_pe + port), the PE port it
 * reaches through the switches of `bits` (any bitmap). The result is an involution without
 * fixed points. */
pinet_status pinet_rta_route(const pinet_rta_geom *geom, const uint8_t *bits,
                             pinet_rta_port_ref *peer);

/* ---- distance (SRTA union graph, paper §3.3) ---------------------------------------------- */

/* Distance between PEs `from` and `to` (scalar numbers) with the paper's recursive algorithm
 * (theorems 1-3; in 2D theorem 6: horizontal first, then vertical). If `path` is not NULL it
 * receives the distance + 1 PEs of one shortest path, from `from` to `to`; path_cap must be at
 * least distance + 1, else PINET_ERR_RANGE. *path_len may be NULL. */
pinet_status pinet_rta_distance(const pinet_rta_geom *geom, uint32_t from, uint32_t to,
                                uint32_t *distance, uint32_t *path, size_t path_cap,
                                size_t *path_len);

typedef struct pinet_rta_stats {
  uint32_t diameter;
  double average;          /* over ordered pairs from != to */
  uint64_t diameter_pairs; /* unordered pairs at the diameter */
} pinet_rta_stats;

/* Diameter, average distance and number of diameter pairs, by enumerating every pair with
 * pinet_rta_distance. PINET_ERR_RANGE if side > 4096 (too long to enumerate). */
pinet_status pinet_rta_stats_compute(const pinet_rta_geom *geom, pinet_rta_stats *stats);

/* ---- basic parallel transfer (reduce to PE 0, paper §3.4, §4.2) ----------------------------- */

typedef enum pinet_rta_op {
  PINET_RTA_OP_SUM = 0,
  PINET_RTA_OP_MAX = 1,
  PINET_RTA_OP_MIN = 2,
  PINET_RTA_OP_SORT = 3 /* merge of sorted lists: PE 0 ends with all values ascending */
} pinet_rta_op;

typedef struct pinet_rta_transfer {
  uint32_t src;      /* sending PE */
  uint32_t src_port; /* port it sends out of (pinet_rta_port) */
  uint32_t dst;      /* receiving PE */
  uint32_t dst_port; /* port the data arrives on */
} pinet_rta_transfer;

typedef struct pinet_rta_reduce pinet_rta_reduce;

/* Start a reduce of values[0..pes-1] (one per PE, scalar numbering) with `op`. Steps: L in 1D,
 * 2L in 2D (each level: horizontal step, then vertical step). Sums wrap modulo 2^64.
 * PINET_ERR_RANGE on an unknown op; PINET_ERR_NOMEM. */
pinet_status pinet_rta_reduce_create(pinet_rta_reduce **out, const pinet_rta_geom *geom,
                                     pinet_rta_op op, const int64_t *values);
void pinet_rta_reduce_free(pinet_rta_reduce *red); /* accepts NULL */

/* Total number of steps, and the number executed so far. */
uint32_t pinet_rta_reduce_step_count(const pinet_rta_reduce *red);
uint32_t pinet_rta_reduce_steps_done(const pinet_rta_reduce *red);

/* Execute the next step. PINET_ERR_RANGE if every step is done. */
pinet_status pinet_rta_reduce_step(pinet_rta_reduce *red);

/* Run the remaining steps. */
pinet_status pinet_rta_reduce_run(pinet_rta_reduce *red);

/* Step `step` (0-based): the SRTA level set for it, its axis (0 = horizontal / the 1D ring,
 * 1 = vertical) and its transfers that carry data, ordered by src. Valid for every step, executed
 * or not: the schedule does not depend on the data. */
pinet_status pinet_rta_reduce_step_info(const pinet_rta_reduce *red, uint32_t step,
                                        uint32_t *level, uint32_t *axis,
                                        const pinet_rta_transfer **transfers, size_t *count);

/* The values PE `pe` holds now (ascending for SORT; a sender holds nothing after its send). */
pinet_status pinet_rta_reduce_pe_values(const pinet_rta_reduce *red, uint32_t pe,
                                        const int64_t **values, size_t *count);

/* ---- cycle-level models of the RTL blocks ------------------------------------------------- */

/* rta_switch: out[t] for terminals t = 0..3 (paper terminals 1..4) from in[] and the state. */
void pinet_rta_switch_eval(int on, const uint32_t in[4], uint32_t out[4]);

/* rta_ring / rta_torus2d: combinational; out[port] = in[peer[port]] for every PE port, where
 * peer is pinet_rta_route's table for the current bitmap. */
pinet_status pinet_rta_fabric_eval(const pinet_rta_geom *geom, const pinet_rta_port_ref *peer,
                                   const uint32_t *in, uint32_t *out);

/* rta_bitmap_ctrl commands (3-bit opcode) and error codes (3-bit err_o); values pinned, shared
 * with rtl/rta_pkg.sv. */
typedef enum pinet_rta_cmd {
  PINET_RTA_CMD_NOP = 0,
  PINET_RTA_CMD_SET_MODE = 1,  /* arg = pinet_rta_mode */
  PINET_RTA_CMD_SET_LEVEL = 2, /* arg = SRTA level 1..L, allowed in every mode */
  PINET_RTA_CMD_ARTA_OFF = 3,  /* arg = node; not allowed in SRTA mode */
  PINET_RTA_CMD_ARTA_ON = 4,   /* arg = node; not allowed in SRTA mode */
  PINET_RTA_CMD_WRITE_RAW = 5  /* raw bitmap, validated against the current mode */
} pinet_rta_cmd;

typedef enum pinet_rta_ctrl_err {
  PINET_RTA_CTRL_OK = 0,
  PINET_RTA_CTRL_BAD_OPCODE = 1, /* opcode 6 or 7 */
  PINET_RTA_CTRL_BAD_LEVEL = 2,  /* SET_LEVEL outside 1..L */
  PINET_RTA_CTRL_BAD_NODE = 3,   /* ARTA node outside 1..nodes */
  PINET_RTA_CTRL_WRONG_MODE = 4, /* ARTA edit while in SRTA mode */
  PINET_RTA_CTRL_ILLEGAL = 5,    /* raw bitmap, or the bitmap under SET_MODE, illegal in mode */
  PINET_RTA_CTRL_BAD_MODE = 6    /* SET_MODE argument not 0..2 */
} pinet_rta_ctrl_err;

/* Number of command/error names, and their names ("NOP", "SET_MODE", ...; "OK", "BAD_OPCODE", ...)
 * as used by waveform filters and CLI output; NULL for an unknown value. */
const char *pinet_rta_cmd_name(unsigned cmd);
const char *pinet_rta_ctrl_err_name(unsigned err);

typedef struct pinet_rta_ctrl pinet_rta_ctrl;

/* The controller's cycle model. Reset state: SRTA mode, level L (all switches ON), error OK.
 * Latency contract: a command presented with cmd_valid = 1 is taken at a rising clock edge;
 * after that edge bitmap, mode and error reflect it (one cycle). With cmd_valid = 0 nothing
 * changes. Every taken command updates the error register (OK or its error code); an illegal
 * command leaves bitmap and mode unchanged. */
pinet_status pinet_rta_ctrl_create(pinet_rta_ctrl **out, const pinet_rta_geom *geom);
void pinet_rta_ctrl_free(pinet_rta_ctrl *ctrl); /* accepts NULL */
void pinet_rta_ctrl_reset(pinet_rta_ctrl *ctrl);
/* One rising clock edge. `arg` is the command argument (ArgWidth = 16 bits in RTL: the model
 * takes arg & 0xffff); raw_bits (switches entries) is read only for WRITE_RAW and may be NULL
 * otherwise; opcode is taken modulo 8. */
pinet_status pinet_rta_ctrl_clock(pinet_rta_ctrl *ctrl, int cmd_valid, unsigned opcode,
                                  uint32_t arg, const uint8_t *raw_bits);
const uint8_t *pinet_rta_ctrl_bitmap(const pinet_rta_ctrl *ctrl);
pinet_rta_mode pinet_rta_ctrl_mode(const pinet_rta_ctrl *ctrl);
unsigned pinet_rta_ctrl_error(const pinet_rta_ctrl *ctrl);

#ifdef __cplusplus
}
#endif
#endif /* PINET_RTA_H */
