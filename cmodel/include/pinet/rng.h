/* pinet/rng.h - the deterministic PRNG shared by tests, cosims and testbench stimulus.
 *
 * splitmix64: one 64-bit state, no global state. Verilator's and Icarus's $urandom streams
 * differ, so every random stimulus in pinet comes from this generator and a printed seed. */
#ifndef PINET_RNG_H
#define PINET_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pinet_rng {
  uint64_t state;
} pinet_rng;

/* Seed the generator; every seed (0 included) gives a distinct, valid stream. */
void pinet_rng_seed(pinet_rng *rng, uint64_t seed);

/* Next 64 random bits. */
uint64_t pinet_rng_next(pinet_rng *rng);

/* Uniform integer in [0, bound) without modulo bias; returns 0 when bound == 0. */
uint64_t pinet_rng_below(pinet_rng *rng, uint64_t bound);

/* Uniform double in [0, 1). */
double pinet_rng_unit(pinet_rng *rng);

#ifdef __cplusplus
}
#endif
#endif /* PINET_RNG_H */
