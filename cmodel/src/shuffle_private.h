/* shuffle_private.h - internals shared by the shuffle_*.c files (not installed). */
#ifndef PINET_SHUFFLE_PRIVATE_H
#define PINET_SHUFFLE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/shuffle.h"

struct pinet_shuffle_schedule {
  pinet_shuffle_op op;
  uint32_t pes;        /* N */
  uint32_t n;          /* log2 N */
  uint32_t words;      /* M (mem_words for ring-exchange and custom) */
  uint32_t mem_words;  /* per PE */
  uint32_t host_words; /* host memory, 0 = no host */
  pinet_shuffle_transfer *xf; /* every transfer, step by step */
  size_t nxf, cap_xf;
  uint32_t *step_begin; /* step s is xf[step_begin[s] .. step_begin[s+1]-1]; steps+1 entries */
  uint32_t steps, cap_steps;
  uint32_t *ch_stamp;   /* per channel: 1 + the step that last used it (add-time check) */
  uint64_t *step_start; /* B_s for s = 0..steps (B_steps = done cycle); set by finish */
  uint32_t *step_len;   /* L_s; set by finish */
  uint32_t *by_channel; /* per step, the transfer indices (into xf) sorted by channel; by finish */
  int finished;
};

/* Number of channels 4N + 2. */
static inline uint32_t shuffle_channels(uint32_t pes) { return 4u * pes + 2u; }

/* Ends of channel ch (no range check: ch < 4N + 2). */
void shuffle_channel_ends_raw(uint32_t pes, uint32_t ch, int32_t *src, int32_t *dst);

/* Empty schedule with its bookkeeping allocated. */
pinet_status shuffle_schedule_alloc(pinet_shuffle_schedule **out, pinet_shuffle_op op,
                                    uint32_t pes, uint32_t words, uint32_t mem_words,
                                    uint32_t host_words);

/* The end of every builder: with st = PINET_OK, finish s and hand it over in *out; otherwise (or
 * if finishing fails) free s (NULL is fine) and return the error. */
pinet_status shuffle_schedule_hand_over(pinet_shuffle_schedule *s, pinet_status st,
                                        pinet_shuffle_schedule **out);

/* The two channels of the ring edge a -> b (a's ring successor b; N = 2: links 1 and 2): one link per ring
 * edge, *to_next carries a -> b (its forward channel if a -> b is a shuffle edge, else the
 * backward one of b -> a), *to_prev the other direction of the same link. */
void shuffle_ring_edge_channels(uint32_t pes, uint32_t a, uint32_t b, uint32_t *to_next,
                                uint32_t *to_prev);

#endif /* PINET_SHUFFLE_PRIVATE_H */
