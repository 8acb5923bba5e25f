/* pinet/exit_codes.h - the exit status of every pinet program: the `pinet` CLI, `pinet-mpi` and
 * the co-simulations (cosim/). One table, documented in docs/exit_codes.md; the values are
 * pinned (scripts and CI read them), so never renumber. The library itself returns pinet_status
 * (pinet/status.h); a program maps it to one of these. */
#ifndef PINET_EXIT_CODES_H
#define PINET_EXIT_CODES_H

enum {
  PINET_EXIT_OK = 0,       /* success */
  PINET_EXIT_FAIL = 1,     /* the run completed and a check failed (a cosim mismatch) */
  PINET_EXIT_USAGE = 2,    /* unknown subcommand or option, missing or malformed argument */
  PINET_EXIT_INPUT = 3,    /* arguments parse but the request is invalid (size, range, legality) */
  PINET_EXIT_IO = 4,       /* a file could not be read or written, or is malformed */
  PINET_EXIT_INTERNAL = 5  /* out of memory or an internal error */
};

#endif /* PINET_EXIT_CODES_H */
