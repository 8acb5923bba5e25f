/* pinet/shuffle.h - the static perfect-shuffle network and its data-sharing modes (paper 000,
 * SPEC §2): topology, step schedules for the four data-sharing modes plus gather/upload and the
 * embedded ring, ONE schedule engine for 32-bit integers, float and double, a cost model with the
 * Table 1 bounds, lower bounds from link capacities, and the cycle-level contract that the RTL
 * (ps_router / ps_network) copies; fast cut-through broadcasts at the bound (issue 11).
 * Full description with examples: docs/shuffle.md.
 *
 * Topology
 * - N = 2^n PEs, n = 1..10. PE i has successors 2i mod N and 2i+1 mod N, predecessors floor(j/2)
 *   and floor(j/2) + N/2 (binary de Bruijn graph). PE 0 and PE N-1 have a self-loop.
 * - Physical link l (0 <= l < 2N) joins PE floor(l/2) to PE l mod N (the shuffle edge
 *   i -> 2i+b is link 2i+b). Every link is bidirectional, so it gives two directed channels:
 *     channel l        (0 <= l < 2N)  forward:  floor(l/2) -> l mod N
 *     channel 2N + l                  backward: l mod N -> floor(l/2)
 *     channel 4N                      host -> PE 0  (the host link, down)
 *     channel 4N + 1                  PE 0 -> host  (the host link, up)
 *   4N + 2 channels in all. A self-loop (links 0 and 2N-1) is a channel like the others: data sent
 *   on it stays in the PE, and it counts as a busy link (the paper's "all four links busy").
 * - Ports of PE j (what the RTL router has): out 0 = channel 2j, out 1 = channel 2j+1 (to the
 *   successors), out 2 = channel 2N+j, out 3 = channel 3N+j (back to the predecessors floor(j/2)
 *   and floor(j/2)+N/2); in 0 = channel j, in 1 = channel j+N (from the predecessors), in 2 =
 *   channel 2N+2j, in 3 = channel 2N+2j+1 (back from the successors). PE 0 also has the host port.
 *   A PE number -1 (PINET_SHUFFLE_HOST) stands for the host everywhere.
 *
 * Schedules and the engine
 * - A schedule is a list of steps; a step is a list of transfers {src, dst, channel, src_offset,
 *   dst_offset, words, combine} over per-PE word memories (mem_words elements each) and one host
 *   memory (host_words elements). It depends only on (op, N, M): build it once, execute it on any
 *   element type (int32 with wrap-around sums, float, double) through pinet_shuffle_execute.
 * - Every built-in schedule uses GLOBAL ADDRESSING: each memory (PE or host) is an image of the
 *   M shared words, word w always lives at address w, and every transfer has src_offset ==
 *   dst_offset. Segment j (of N) is the words [j M/N, (j+1) M/N). So "PE j ends with segment j"
 *   means PE j's memory holds it at offset j M/N.
 * - Every transfer has a `start` (its cycle offset in the step, below). start = 0 is
 *   store-and-forward: every built-in paper schedule has only such transfers. start >= 1 is
 *   cut-through: a PE may forward in cycle c + 1 a word it received in cycle c of the same step
 *   (pinet_shuffle_build_fast).
 * - Step semantics (the engine, and exactly what the cycle model does when the schedule is
 *   valid), when every start of the step is 0: every transfer reads its source words as they were
 *   before the step; then every COPY transfer writes its words; then every ADD transfer adds its
 *   words into the destination (int32: modulo 2^32; float/double: IEEE, in list order).
 *   Integration uses COPY from the predecessor floor(j/2) and ADD from floor(j/2)+N/2, so the
 *   result is exactly a + b. When some start is not 0 the engine runs the step cycle by cycle as
 *   the contract below says: in each cycle the words crossing then are read, then the COPYs land,
 *   then the ADDs are added (list order within the cycle).
 * - Validity (checked by pinet_shuffle_schedule_finish, needed to execute): every step has at
 *   least one transfer; words >= 1; start + words < 2^32; src/dst are the channel's two ends;
 *   ranges lie inside the memories; a channel carries at most one transfer per step; and no
 *   same-step hazard under the cycle contract below. A read of address a in cycle c by a
 *   transfer with start = 0 is legal only if every write of a in the step is in a cycle >= c
 *   (the read sees the value before the step; a write in cycle c lands at its end). A read by a
 *   transfer with start >= 1 is legal only if every write of a in the step is in a cycle < c (it
 *   sees the value after them: cut-through) or every one is in a cycle > c (a write in cycle c
 *   itself is refused: an off-by-one start). Two COPYs must not write the same address; a COPY
 *   must not land after an ADD on the same address.
 *   With every start 0 these are exactly the rules of the paper schedules (a word must not be
 *   read in a later cycle than a write to it). Hence engine result == cycle-model result, bit for
 *   bit, and no read depends on the order the transfers are listed in (only several float ADDs
 *   into one address do: list order in a store-and-forward step, cycle order in a cut-through one).
 *
 * Step counts (what `steps` and the CLI "steps" count: every step of the schedule)
 *   bcast       2n - 1   one-to-all broadcast from PE 0 (Proposition 1); the data start in PE 0
 *                        (the host has loaded PE 0 beforehand; that download is not part of it)
 *   bcast-host  2n       the same pipeline fed by the host: host -> PE 0 is one more stage
 *   scatter     n + 1    host -> PE 0 included (step 1 is host only; Proposition 2 counts n)
 *   integrate   n        reduce-scatter: PE j ends with segment j summed over all PEs (Prop. 3)
 *   allgather   n        all-to-all broadcast, the reverse pattern of integrate (Prop. 4)
 *   gather      n        the reverse of scatter's tree, to PE 0 (no host)
 *   upload      n + 1    gather pipelined with PE 0 -> host (the last step is host only)
 *   ring-exchange 1      every PE sends to its ring successor and predecessor at once
 * `pe_steps` in the report counts the steps that have a PE-to-PE transfer (scatter: n,
 * bcast-host: 2n - 1, upload: n): those are the counts of Propositions 1-4. The fast broadcasts
 * (pinet_shuffle_build_fast) are one cut-through step each.
 *
 * Cycle-level contract (one word per channel per cycle; store-and-forward when start = 0)
 * - Cycle 0 is the first cycle of the run (the RTL: the cycle after the edge that samples start).
 * - Step s occupies cycles B_s .. B_s + L_s, L_s = max (start + words) of a transfer in step s.
 *   B_0 = 0, B_{s+1} = B_s + 1 + L_s. Cycle B_s is the SETUP cycle: no channel carries a word.
 * - Word i (0-based) of a transfer of step s crosses its channel in cycle B_s + 1 + start + i,
 *   words in ascending address order (source address src_offset + i, destination
 *   dst_offset + i). The channel is idle before and after its transfer's words. A channel is
 *   valid only when it carries a word. (The RTL runs start = 0 only, for now: issue 11.)
 * - Reads see the memory as it is at the start of the cycle; writes take effect at the end of the
 *   cycle (the closing clock edge): COPY writes the word, ADD writes (word after that cycle's COPY,
 *   or the old word) + the incoming word; two words to one address in one cycle are summed by one
 *   adder (integration: the words on channels j and j+N meet in PE j's adder).
 * - done is high in cycle T = B_S (S = number of steps), i.e. the cycle after the last word of the
 *   last step, and stays high. T = S + sum_s L_s = the cost model with c = 1, a = 1, b = 0
 *   (link_time = sum_s L_s counts the starts too).
 */
#ifndef PINET_SHUFFLE_H
#define PINET_SHUFFLE_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PINET_SHUFFLE_MIN_PES 2u
#define PINET_SHUFFLE_MAX_PES 1024u        /* n = 1..10 */
#define PINET_SHUFFLE_MAX_WORDS (1u << 28) /* per memory */
#define PINET_SHUFFLE_HOST (-1)            /* the host as a transfer end */

/* Channel numbers (see the header comment). `pes` is N. */
#define PINET_SHUFFLE_CH_FWD(pes, link) ((uint32_t)(link))
#define PINET_SHUFFLE_CH_BWD(pes, link) (2u * (uint32_t)(pes) + (uint32_t)(link))
#define PINET_SHUFFLE_CH_HOST_DOWN(pes) (4u * (uint32_t)(pes))
#define PINET_SHUFFLE_CH_HOST_UP(pes) (4u * (uint32_t)(pes) + 1u)
#define PINET_SHUFFLE_CHANNELS(pes) (4u * (uint32_t)(pes) + 2u)

/* ---- topology ---------------------------------------------------------------------------- */

/* n = log2(pes). PINET_ERR_SIZE unless pes is a power of two in [2, 1024]; PINET_ERR_NULL. */
pinet_status pinet_shuffle_log2(uint32_t pes, uint32_t *n);

/* out[0] = 2 pe mod N, out[1] = (2 pe + 1) mod N. PINET_ERR_SIZE (pes), PINET_ERR_RANGE (pe). */
pinet_status pinet_shuffle_successors(uint32_t pes, uint32_t pe, uint32_t out[2]);

/* out[0] = floor(pe/2), out[1] = floor(pe/2) + N/2. Errors as pinet_shuffle_successors. */
pinet_status pinet_shuffle_predecessors(uint32_t pes, uint32_t pe, uint32_t out[2]);

/* *has = 1 if pe has a self-loop (pe == 0 or pe == N-1). Errors as pinet_shuffle_successors. */
pinet_status pinet_shuffle_self_loop(uint32_t pes, uint32_t pe, int *has);

/* The two ends of channel `ch` (-1 = host). PINET_ERR_RANGE if ch >= 4N + 2. */
pinet_status pinet_shuffle_channel_ends(uint32_t pes, uint32_t ch, int32_t *src, int32_t *dst);

/* Every channel that goes from `src` to `dst` (-1 = host), ascending, into out[0..*count-1]
 * (at most 4; *count = 0 if the two are not adjacent). PINET_ERR_RANGE if an end is not -1..N-1. */
pinet_status pinet_shuffle_channels_between(uint32_t pes, int32_t src, int32_t dst,
                                            uint32_t out[4], size_t *count);

/* The channels on PE `pe`'s ports, out_ch[p] / in_ch[p] for p = 0..3 (see the header comment). */
pinet_status pinet_shuffle_pe_ports(uint32_t pes, uint32_t pe, uint32_t out_ch[4],
                                    uint32_t in_ch[4]);

/* ---- operations, element types, transfers ------------------------------------------------ */

typedef enum pinet_shuffle_op {
  PINET_SHUFFLE_OP_BCAST = 0,         /* one-to-all broadcast from PE 0, 2n-1 steps */
  PINET_SHUFFLE_OP_BCAST_HOST = 1,    /* one-to-all broadcast fed by the host, 2n steps */
  PINET_SHUFFLE_OP_SCATTER = 2,       /* host -> PE j gets segment j, n+1 steps */
  PINET_SHUFFLE_OP_INTEGRATE = 3,     /* reduce-scatter, n steps */
  PINET_SHUFFLE_OP_ALLGATHER = 4,     /* all-to-all broadcast, n steps */
  PINET_SHUFFLE_OP_GATHER = 5,        /* segment j of PE j -> PE 0, n steps */
  PINET_SHUFFLE_OP_UPLOAD = 6,        /* gather pipelined into the host, n+1 steps */
  PINET_SHUFFLE_OP_RING_EXCHANGE = 7, /* neighbour exchange along a ring, 1 step */
  PINET_SHUFFLE_OP_CUSTOM = 8         /* built transfer by transfer */
} pinet_shuffle_op;
#define PINET_SHUFFLE_OP_COUNT 9

/* "bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload",
 * "ring-exchange", "custom"; NULL for an unknown value. */
const char *pinet_shuffle_op_name(pinet_shuffle_op op);
/* The op named `name`. PINET_ERR_RANGE if no op has that name; PINET_ERR_NULL. */
pinet_status pinet_shuffle_op_from_name(const char *name, pinet_shuffle_op *op);

typedef enum pinet_shuffle_elem {
  PINET_SHUFFLE_I32 = 0, /* int32_t (or uint32_t) storage, sums wrap modulo 2^32 (the RTL) */
  PINET_SHUFFLE_F32 = 1, /* float */
  PINET_SHUFFLE_F64 = 2  /* double */
} pinet_shuffle_elem;

/* Bytes per element (4, 4, 8); 0 for an unknown type. */
size_t pinet_shuffle_elem_size(pinet_shuffle_elem elem);

typedef enum pinet_shuffle_combine {
  PINET_SHUFFLE_COPY = 0, /* destination word = incoming word */
  PINET_SHUFFLE_ADD = 1   /* destination word += incoming word */
} pinet_shuffle_combine;

typedef struct pinet_shuffle_transfer {
  int32_t src;         /* sending PE, or -1 = host */
  int32_t dst;         /* receiving PE, or -1 = host */
  uint32_t channel;    /* the directed channel it uses (its ends are src and dst) */
  uint32_t src_offset; /* first source address */
  uint32_t dst_offset; /* first destination address */
  uint32_t words;      /* >= 1; word i goes src_offset + i -> dst_offset + i */
  pinet_shuffle_combine combine;
  uint32_t start;      /* cycle offset in its step: word i crosses in cycle B_s + 1 + start + i.
                        * 0 = store-and-forward (every paper schedule); >= 1 = cut-through, may
                        * forward words received earlier in the same step (see the rules above) */
} pinet_shuffle_transfer;

/* ---- schedules --------------------------------------------------------------------------- */

typedef struct pinet_shuffle_schedule pinet_shuffle_schedule;

/* M must be a positive multiple of *quantum for `op` on `pes` PEs: N for scatter, integrate,
 * allgather, gather, upload; n = log2 N (packets of M/n words) for bcast and bcast-host.
 * PINET_ERR_SIZE (pes); PINET_ERR_RANGE if op has no built-in (ring-exchange, custom) or is unknown. */
pinet_status pinet_shuffle_words_quantum(pinet_shuffle_op op, uint32_t pes, uint32_t *quantum);

/* Build the schedule of `op` (bcast .. upload) for N = `pes` PEs and M = `words` shared words.
 * Memories: every PE M words; the host M words for bcast-host, scatter and upload, else 0.
 * The result is finished (validated). Free it with pinet_shuffle_schedule_free.
 * PINET_ERR_NULL; PINET_ERR_SIZE (pes); PINET_ERR_RANGE if op is unknown, ring-exchange or
 * custom, or words is 0 or above PINET_SHUFFLE_MAX_WORDS; PINET_ERR_MISMATCH if words is not a
 * multiple of the quantum; PINET_ERR_NOMEM. */
pinet_status pinet_shuffle_build(pinet_shuffle_schedule **out, pinet_shuffle_op op, uint32_t pes,
                                 uint32_t words);

/* The fast schedule of `op` (issue 11; docs/shuffle.md section 13), mostly cut-through transfers
 * (start >= 1: a PE forwards a word one cycle after it landed). n = log2 N, S = M/N, tree F =
 * PE 0 -> 1, p -> 2p, 2p+1 on forward channels, depth(q) = floor(log2 q) + 1; packet d >= 1 =
 * the segments of the depth-d PEs, addresses P_d = [2^(d-1) S, 2^d S).
 *   bcast       one step over two arc-disjoint spanning trees rooted at PE 0, both of depth n:
 *               F carries [0, ceil(M/2)), B on backward channels (F mirrored by bit reversal:
 *               0 -> N/2, y -> floor(y/2), floor(y/2) + N/2) the rest; a transfer into a
 *               depth-d PE starts at d - 1. T = ceil(M/2) + n, the bound.
 *   bcast-host  one step: host -> PE 0 (start 0), then tree F with starts shifted by 1.
 *               T = M + n + 1, the bound.
 *   scatter     n + 1 steps: packets d = n .. 1, then segment 0. Step d: host -> PE 0 carries
 *               P_d from cycle 0, and word i of it crosses tree hop t in cycle i + t.
 *               T = (n + 1) + M + n(n+1)/2 (bound M + 1).
 *   upload      n + 1 steps, the mirror: segment 0 (PE 0 -> host), then packets d = 1 .. n up
 *               tree F's backward channels (word i leaves depth t in cycle i + d - t), PE 0 ->
 *               host one cycle after PE 1 -> 0. Same T; PE 0 also ends with [0, M).
 *   gather      n steps, d = 1 .. n, over both of PE 0's useful in-channels: 2N + 1 (from
 *               PE 1) and N (from PE N/2, which relays from PE 1 on 3N + 1). Step 1: PE 1's
 *               segment, ceil(S/2) words direct, the rest relayed; step d >= 2: the two halves
 *               of P_d climb tree F into PE 1 side by side, then one goes direct, one relayed.
 *               T = M/2 - ceil(S/2) + n(n+3)/2 for N >= 4 (bound ceil((M - S)/2) + 1);
 *               N = 2: one step, PE 1 -> 0 on channels 5 and 2, T = ceil(S/2) + 1, the bound.
 *   allgather   N/2 steps around the ring (pinet_shuffle_ring; N = 2: 0, 1), both ways: in step
 *               t < N/2 the PE at ring position r passes on ring[r - t + 1]'s segment to its
 *               successor and ring[r + t - 1]'s to its predecessor; step N/2 moves the halves of
 *               ring[r + N/2]'s. Store-and-forward (start 0). T = ceil((M - S)/2) + N/2
 *               (bound ceil((M - S)/2) + 1).
 *   integrate   exactly pinet_shuffle_build's: a faster schedule that keeps the paper's sum
 *               tree is not known, and this schedule may run on floats (see
 *               pinet_shuffle_build_fast_typed for int32 data).
 * M: any 1 .. PINET_SHUFFLE_MAX_WORDS for bcast and bcast-host (no packet quantum); the other
 * ops as pinet_shuffle_build (a multiple of N). Memories, input and output regions and errors as
 * pinet_shuffle_build; the words a schedule leaves outside the output regions may differ. */
pinet_status pinet_shuffle_build_fast(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                      uint32_t pes, uint32_t words);

/* The fast schedule of `op` for data of type `elem`: pinet_shuffle_build_fast's, except integrate
 * on PINET_SHUFFLE_I32 (what ps_router adds), which runs around the ring, the fast allgather
 * backwards:
 *   integrate   N/2 steps, both ways, every transfer an ADD into the receiver's copy. In step 1
 *   (i32)       the PE at ring position r sends the first ceil(S/2) words of ring[r + N/2]'s
 *               segment to its successor and the rest to its predecessor; in step t >= 2 it
 *               passes on ring[r + N/2 - t + 1]'s whole segment to its successor and
 *               ring[r + N/2 + t - 1]'s to its predecessor; in step N/2 the two partial sums of
 *               its own segment arrive together (two ADDs on one address). Store-and-forward.
 *               T = ceil((M - S)/2) + N/2 (bound ceil((M - S)/2) + 1).
 * A word is summed in ring order, which equals the paper's tree (p + (p + N/2) first, then by
 * the next bit) only for an associative, commutative add: int32 modulo 2^32 gives exactly the
 * paper's result, floats would not, so for f32 and f64 integrate is the paper's schedule. Errors
 * as pinet_shuffle_build_fast; PINET_ERR_RANGE for an unknown elem. */
pinet_status pinet_shuffle_build_fast_typed(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                            uint32_t pes, uint32_t words,
                                            pinet_shuffle_elem elem);

/* The quantum of M for pinet_shuffle_build_fast: 1 for bcast and bcast-host (no packets),
 * pinet_shuffle_words_quantum's (N) for the other ops. Errors as
 * pinet_shuffle_words_quantum. */
pinet_status pinet_shuffle_fast_words_quantum(pinet_shuffle_op op, uint32_t pes,
                                              uint32_t *quantum);

/* 1 if some transfer of the schedule has start != 0 (cut-through), else 0 (also for NULL). An
 * executor that runs a step as "all reads, then all writes" (MPI) must refuse such a schedule. */
int pinet_shuffle_schedule_cut_through(const pinet_shuffle_schedule *sched);

/* Which builder a caller wants (values pinned: the CLI's --schedule index). */
typedef enum pinet_shuffle_kind {
  PINET_SHUFFLE_PAPER = 0, /* pinet_shuffle_build: the paper's store-and-forward schedules */
  PINET_SHUFFLE_FAST = 1   /* pinet_shuffle_build_fast (docs/shuffle.md 13; ps_router's
                              cmd_fast_i runs them too) */
} pinet_shuffle_kind;

/* pinet_shuffle_build (PAPER) or pinet_shuffle_build_fast (FAST), with that builder's result and
 * errors. Another kind: PINET_ERR_RANGE with *out = NULL. PINET_ERR_NULL if out is NULL. */
pinet_status pinet_shuffle_build_kind(pinet_shuffle_schedule **out, pinet_shuffle_kind kind,
                                      pinet_shuffle_op op, uint32_t pes, uint32_t words);

/* The same for data of one element type: pinet_shuffle_build (PAPER, any type) or
 * pinet_shuffle_build_fast_typed (FAST). pinet_shuffle_build_kind is this with
 * PINET_SHUFFLE_F64 (a schedule that may run on any type). An unknown kind or elem:
 * PINET_ERR_RANGE with *out = NULL. */
pinet_status pinet_shuffle_build_kind_typed(pinet_shuffle_schedule **out, pinet_shuffle_kind kind,
                                            pinet_shuffle_op op, uint32_t pes, uint32_t words,
                                            pinet_shuffle_elem elem);

/* Ring exchange layout: in one step PE ring[r] sends `words` words from next_src to ring[r+1]'s
 * next_dst, and `words` words from prev_src to ring[r-1]'s prev_dst, with `combine`. */
typedef struct pinet_shuffle_ring_xchg {
  uint32_t mem_words; /* memory size of every PE */
  uint32_t words;     /* words sent each way */
  uint32_t next_src, next_dst, prev_src, prev_dst;
  pinet_shuffle_combine combine;
} pinet_shuffle_ring_xchg;

/* The default layout for blocks of `words` words: mem_words = 4 words; [0,w) goes to the ring
 * successor, [w,2w) to the predecessor, [2w,3w) receives from the predecessor, [3w,4w) from the
 * successor; COPY. (For a boundary exchange-and-add use next_src = prev_dst and
 * prev_src = next_dst with PINET_SHUFFLE_ADD.) */
pinet_shuffle_ring_xchg pinet_shuffle_ring_xchg_default(uint32_t words);

/* Build the one-step neighbour exchange along `ring` (N PEs; NULL = pinet_shuffle_ring's ring).
 * Each ring edge uses one link: the forward channel if ring[r] -> ring[r+1] is a shuffle edge,
 * else the backward one; the other direction uses the same link the other way.
 * PINET_ERR_SIZE if pes < 4 or not a power of two; PINET_ERR_ILLEGAL_STATE if `ring` is not a
 * Hamiltonian cycle; PINET_ERR_RANGE if a region leaves the memory or words is 0;
 * PINET_ERR_ILLEGAL_MOVE if the layout makes a same-step hazard; PINET_ERR_NULL; PINET_ERR_NOMEM. */
pinet_status pinet_shuffle_build_ring_exchange(pinet_shuffle_schedule **out, uint32_t pes,
                                               const uint32_t *ring,
                                               const pinet_shuffle_ring_xchg *layout);

/* The ring exchange the RTL router runs as its op ring-exchange (rtl/ps_router.sv), for
 * M = `words` = 4W words per PE: the default layout for W words (pinet_shuffle_ring_xchg_default)
 * along pinet_shuffle_ring's ring for N >= 4; for N = 2 along the ring 0, 1, where each PE is the
 * other's successor and predecessor and the four transfers take the four channels joining them
 * (PE 0 -> 1: channels 1, 2N + 2; PE 1 -> 0: channels 2, 2N + 1). One step, L = W.
 * PINET_ERR_NULL; PINET_ERR_SIZE (pes); PINET_ERR_RANGE if words is 0 or above
 * PINET_SHUFFLE_MAX_WORDS; PINET_ERR_MISMATCH if words is not a multiple of 4; PINET_ERR_NOMEM. */
pinet_status pinet_shuffle_build_ring_exchange_default(pinet_shuffle_schedule **out, uint32_t pes,
                                                       uint32_t words);

/* A custom schedule: create, then add_step / add transfers, then finish. mem_words >= 1 per PE,
 * host_words may be 0 (then no transfer may touch the host). PINET_ERR_SIZE (pes),
 * PINET_ERR_RANGE (sizes above PINET_SHUFFLE_MAX_WORDS or mem_words 0), PINET_ERR_NULL, NOMEM. */
pinet_status pinet_shuffle_schedule_create(pinet_shuffle_schedule **out, uint32_t pes,
                                           uint32_t mem_words, uint32_t host_words);
/* Open a new, empty step. PINET_ERR_ILLEGAL_STATE if the schedule is finished. */
pinet_status pinet_shuffle_schedule_add_step(pinet_shuffle_schedule *sched);
/* Append `t` to the last step. PINET_ERR_ILLEGAL_STATE if finished or no step is open;
 * PINET_ERR_RANGE if the channel does not exist, src/dst are not its ends, words is 0, a range
 * leaves its memory, start + words >= 2^32 or the combine is unknown; PINET_ERR_ILLEGAL_MOVE if
 * the channel is already used in this step; PINET_ERR_NOMEM. */
pinet_status pinet_shuffle_schedule_add(pinet_shuffle_schedule *sched,
                                        const pinet_shuffle_transfer *t);
/* Check the whole schedule (an empty step, or no step at all, is PINET_ERR_ILLEGAL_STATE; a
 * same-step hazard is PINET_ERR_ILLEGAL_MOVE) and freeze it. Idempotent. */
pinet_status pinet_shuffle_schedule_finish(pinet_shuffle_schedule *sched);

void pinet_shuffle_schedule_free(pinet_shuffle_schedule *sched); /* accepts NULL */

/* Accessors (0 for a NULL schedule). words = M of a built-in (mem_words for ring/custom). */
pinet_shuffle_op pinet_shuffle_schedule_op(const pinet_shuffle_schedule *sched);
uint32_t pinet_shuffle_schedule_pes(const pinet_shuffle_schedule *sched);
uint32_t pinet_shuffle_schedule_words(const pinet_shuffle_schedule *sched);
uint32_t pinet_shuffle_schedule_mem_words(const pinet_shuffle_schedule *sched);
uint32_t pinet_shuffle_schedule_host_words(const pinet_shuffle_schedule *sched);
uint32_t pinet_shuffle_schedule_step_count(const pinet_shuffle_schedule *sched);

/* The transfers of step `step` (0-based), in schedule order. PINET_ERR_RANGE if step is beyond
 * the last; PINET_ERR_NULL. The pointer stays valid until the schedule is changed or freed. */
pinet_status pinet_shuffle_schedule_step(const pinet_shuffle_schedule *sched, uint32_t step,
                                         const pinet_shuffle_transfer **transfers, size_t *count);

/* Total words per channel over the run: totals[0 .. 4N+1]. */
pinet_status pinet_shuffle_schedule_channel_words(const pinet_shuffle_schedule *sched,
                                                  uint64_t *totals);

/* Where the input of `pe` (-1 = host) must be placed before execution, and where its result is
 * after: *offset / *words (words 0 = nothing). Built-ins (S = M/N, segment j at j S):
 *   op           input                               output
 *   bcast        PE 0 [0,M)                          every PE [0,M)
 *   bcast-host   host [0,M)                          every PE [0,M)
 *   scatter      host [0,M)                          PE j [jS,S)
 *   integrate    every PE [0,M) (its replicated copy) PE j [jS,S)
 *   allgather    PE j [jS,S)                         every PE [0,M)
 *   gather       PE j [jS,S)                         PE 0 [0,M)
 *   upload       PE j [jS,S)                         host [0,M) (PE 0 also holds [0,M))
 *   ring-exchange / custom: every memory in full, both ways.
 * PINET_ERR_RANGE if pe is not -1..N-1; PINET_ERR_NULL. */
pinet_status pinet_shuffle_schedule_input_region(const pinet_shuffle_schedule *sched, int32_t pe,
                                                 uint32_t *offset, uint32_t *words);
pinet_status pinet_shuffle_schedule_output_region(const pinet_shuffle_schedule *sched, int32_t pe,
                                                  uint32_t *offset, uint32_t *words);

/* ---- the engine -------------------------------------------------------------------------- */

/* Apply `count` incoming words at `src` to `dst` as the engine does: COPY copies them, ADD adds
 * them element by element (i32 wraps modulo 2^32). For executors outside this library (MPI,
 * testbenches), so that a combine means one thing everywhere. PINET_ERR_NULL;
 * PINET_ERR_RANGE (elem or combine unknown). */
pinet_status pinet_shuffle_apply(pinet_shuffle_elem elem, pinet_shuffle_combine combine,
                                 void *dst, const void *src, size_t count);

/* Execute every step of a finished schedule in place. pe_mem[i] (i < N) points to mem_words
 * elements of type `elem`; host_mem to host_words elements (may be NULL if host_words is 0).
 * Words outside the schedule's regions are left alone. PINET_ERR_NULL; PINET_ERR_RANGE (elem);
 * PINET_ERR_ILLEGAL_STATE if the schedule is not finished; PINET_ERR_NOMEM. On an error nothing
 * has been changed. */
pinet_status pinet_shuffle_execute(const pinet_shuffle_schedule *sched, pinet_shuffle_elem elem,
                                   void *const *pe_mem, void *host_mem);

/* Execute steps first .. first+count-1 only (to interleave computation). PINET_ERR_RANGE if they
 * are not all in the schedule; otherwise as pinet_shuffle_execute. */
pinet_status pinet_shuffle_execute_steps(const pinet_shuffle_schedule *sched,
                                         pinet_shuffle_elem elem, void *const *pe_mem,
                                         void *host_mem, uint32_t first, uint32_t count);

/* ---- cost model and report --------------------------------------------------------------- */

/* t = c * steps + a * (words over the busiest channel, per step, summed) + b * (words added by
 * the busiest PE, per step, summed). c: link setup per step; a: per word moved; b: per word summed. */
typedef struct pinet_shuffle_cost_params {
  double c, a, b;
} pinet_shuffle_cost_params;

typedef struct pinet_shuffle_report {
  uint32_t steps;            /* every step of the schedule */
  uint32_t pe_steps;         /* steps with at least one PE-to-PE transfer */
  uint64_t words_moved;      /* sum of all transfer lengths */
  uint64_t words_summed;     /* sum of all ADD transfer lengths (element additions) */
  uint64_t link_time;        /* sum over steps of L_s = max (start + words) of a transfer */
  uint64_t sum_time;         /* sum over steps of the most words one PE (or host) adds */
  uint64_t pe_link_time;     /* link_time with the host channels left out (start + words) */
  uint64_t max_channel_words; /* the largest per-channel total */
  uint64_t cycles;           /* the cycle model: the cycle in which done rises */
  double cost;               /* c steps + a link_time + b sum_time */
  double cost_pe;            /* c pe_steps + a pe_link_time + b sum_time (the propositions) */
  double bound_hypercube;    /* Table 1 with unit constants and the same c, a, b; NaN if none */
  double bound_mesh;         /* Table 1 (mesh column); NaN if none */
} pinet_shuffle_report;

/* Unit costs c = a = b = 1. */
pinet_shuffle_cost_params pinet_shuffle_cost_unit(void);

/* Fill `report` for a finished schedule; params NULL = unit costs. Table 1 (M = schedule words,
 * S1 = (1 - 1/N) M): hypercube c log N + a M (bcast), c log N + a S1 (scatter, gather, upload,
 * allgather), c log N + (a + b) S1 (integrate); mesh: the same with sqrt N in place of log N,
 * except bcast (c log N + a M, as the table gives). PINET_ERR_NULL; PINET_ERR_ILLEGAL_STATE. */
pinet_status pinet_shuffle_report_compute(const pinet_shuffle_schedule *sched,
                                          const pinet_shuffle_cost_params *params,
                                          pinet_shuffle_report *report);

/* ---- link-capacity lower bounds ---------------------------------------------------------- */

/* *cycles = a lower bound on the done cycle T of ANY schedule of `op` for N = `pes` PEs and
 * M = `words` words in the cycle model (first word crosses in cycle >= 1, one hop per cycle,
 * one word per directed channel per cycle, self-loops useless, done after the last crossing).
 * n = log2 N, S = M/N; proofs in docs/shuffle.md section 12:
 *   bcast          ceil(M/2) + n          PE 0 has 2 useful out-channels; PE N-1 is n hops away
 *   bcast-host     M + n + 1              the host link, then n + 1 hops to PE N-1
 *   scatter        M + 1                  every word crosses the host link down
 *   upload         M + 1                  every word crosses the host link up
 *   integrate      ceil((M - S)/2) + 1    PE 0 sends M - S words over 2 out-channels
 *   allgather      ceil((M - S)/2) + 1    PE 0 receives M - S words over 2 in-channels
 *   gather         ceil((M - S)/2) + 1    the same
 *   ring-exchange  M/4 + 1                PE 0 sends two blocks of W = M/4 over 2 out-channels
 * PINET_ERR_NULL; PINET_ERR_SIZE (pes); PINET_ERR_RANGE if op is custom or unknown, or words is
 * 0 or above PINET_SHUFFLE_MAX_WORDS; PINET_ERR_MISMATCH if words is not a multiple of the
 * quantum (pinet_shuffle_words_quantum; 4 for ring-exchange). */
pinet_status pinet_shuffle_link_bound(pinet_shuffle_op op, uint32_t pes, uint64_t words,
                                      uint64_t *cycles);

/* The same bound for the M that pinet_shuffle_build_fast takes: any M >= 1 for bcast and
 * bcast-host (no packet quantum), the other ops as above. Errors as pinet_shuffle_link_bound. */
pinet_status pinet_shuffle_link_bound_fast(pinet_shuffle_op op, uint32_t pes, uint64_t words,
                                           uint64_t *cycles);

/* ---- the embedded ring ------------------------------------------------------------------- */

/* A Hamiltonian cycle of the de Bruijn graph, constructive (Martin's prefer-one de Bruijn
 * sequence: from x go to 2x+1 mod N if unvisited, else 2x mod N), so it is even a directed cycle
 * along forward channels. ring[0] = 0, ring[1] = 1; ring[N-1] = N/2. PINET_ERR_SIZE unless pes is
 * a power of two in [4, 1024]; PINET_ERR_NULL. */
pinet_status pinet_shuffle_ring(uint32_t pes, uint32_t *ring);

/* *valid = 1 if ring[0..len-1] is a Hamiltonian cycle of the undirected de Bruijn graph (len ==
 * N, every PE once, consecutive PEs and ring[len-1], ring[0] joined by a link). Entries >= N give
 * *valid = 0. PINET_ERR_SIZE unless pes is a power of two in [4, 1024]; PINET_ERR_NULL. */
pinet_status pinet_shuffle_ring_check(uint32_t pes, const uint32_t *ring, size_t len, int *valid);

/* ---- the cycle-level model --------------------------------------------------------------- */

/* The cycle in which done rises (T = B_S), and the setup cycle B_s of step `step`.
 * PINET_ERR_ILLEGAL_STATE if not finished; PINET_ERR_RANGE if step >= steps. */
pinet_status pinet_shuffle_cycle_total(const pinet_shuffle_schedule *sched, uint64_t *done_cycle);
pinet_status pinet_shuffle_cycle_step_start(const pinet_shuffle_schedule *sched, uint32_t step,
                                            uint64_t *cycle);

/* What crosses one channel in one cycle (data independent). */
typedef struct pinet_shuffle_word {
  int valid;         /* 1 if a word crosses the channel in this cycle */
  uint32_t step;     /* the step of `cycle` (steps count if at/after done) */
  uint32_t transfer; /* index of the transfer within its step (if valid) */
  uint32_t index;    /* word index within the transfer (if valid) */
  uint32_t src_addr; /* src_offset + index */
  uint32_t dst_addr; /* dst_offset + index */
} pinet_shuffle_word;

/* Fill `word` for channel `ch` in cycle `cycle` (any cycle, also past done: then not valid).
 * PINET_ERR_RANGE if ch >= 4N + 2; PINET_ERR_ILLEGAL_STATE if not finished; PINET_ERR_NULL. */
pinet_status pinet_shuffle_cycle_word(const pinet_shuffle_schedule *sched, uint64_t cycle,
                                      uint32_t ch, pinet_shuffle_word *word);

/* The cycle simulator with data (32-bit words, the RTL's width, sums modulo 2^32). It mirrors
 * the RTL: read outputs of the current cycle with pinet_shuffle_cycle_channel(s), then clock. */
typedef struct pinet_shuffle_cycle pinet_shuffle_cycle;

/* Start at cycle 0 with copies of the initial memories: pe_init[i] has mem_words words,
 * host_init host_words words (NULL pe_init or host_init = all zero). The
 * schedule must stay alive and unchanged while the simulator exists. PINET_ERR_NULL;
 * PINET_ERR_ILLEGAL_STATE if not finished; PINET_ERR_NOMEM. */
pinet_status pinet_shuffle_cycle_create(pinet_shuffle_cycle **out,
                                        const pinet_shuffle_schedule *sched,
                                        const uint32_t *const *pe_init, const uint32_t *host_init);
void pinet_shuffle_cycle_free(pinet_shuffle_cycle *sim); /* accepts NULL */

uint64_t pinet_shuffle_cycle_now(const pinet_shuffle_cycle *sim); /* the current cycle */
int pinet_shuffle_cycle_done(const pinet_shuffle_cycle *sim);     /* done output this cycle */

/* The word on channel `ch` in the current cycle (*data = 0 when not valid). PINET_ERR_RANGE. */
pinet_status pinet_shuffle_cycle_channel(const pinet_shuffle_cycle *sim, uint32_t ch, int *valid,
                                         uint32_t *data);
/* All channels at once: valid[ch], data[ch] for ch < 4N + 2. */
pinet_status pinet_shuffle_cycle_channels(const pinet_shuffle_cycle *sim, uint8_t *valid,
                                          uint32_t *data);

/* The closing clock edge of the current cycle: memory writes, then the next cycle. After done
 * only the cycle counter moves. PINET_ERR_NULL. */
pinet_status pinet_shuffle_cycle_clock(pinet_shuffle_cycle *sim);

/* Run until done (clock while not done). */
pinet_status pinet_shuffle_cycle_run(pinet_shuffle_cycle *sim);

/* The memory of `pe` (-1 = host) now; NULL if out of range. */
const uint32_t *pinet_shuffle_cycle_mem(const pinet_shuffle_cycle *sim, int32_t pe);

#ifdef __cplusplus
}
#endif
#endif /* PINET_SHUFFLE_H */
