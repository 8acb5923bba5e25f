/* rng.c - splitmix64 (Steele, Lea, Flood 2014). */
#include "pinet/rng.h"

void pinet_rng_seed(pinet_rng *rng, uint64_t seed) { rng->state = seed; }

uint64_t pinet_rng_next(pinet_rng *rng) {
  uint64_t z = (rng->state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t pinet_rng_below(pinet_rng *rng, uint64_t bound) {
  if (bound == 0) {
    return 0;
  }
  /* Reject the top partial block so every residue is equally likely. */
  uint64_t limit = UINT64_MAX - (UINT64_MAX % bound);
  uint64_t x;
  do {
    x = pinet_rng_next(rng);
  } while (x >= limit);
  return x % bound;
}

double pinet_rng_unit(pinet_rng *rng) {
  return (double)(pinet_rng_next(rng) >> 11) * (1.0 / 9007199254740992.0);
}
