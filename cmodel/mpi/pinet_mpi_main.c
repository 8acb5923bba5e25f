/* pinet_mpi_main.c - `mpirun -np N pinet-mpi shuffle run ...` and `... pinet-mpi recon fbp|em
 * ...`: the pinet commands with their schedules executed on N MPI ranks, one per PE
 * (libpinet_mpi, docs/mpi.md).
 *
 * Every rank runs the same command (same arguments, same input file), so that every rank builds
 * the same schedules; only rank 0 prints (the other ranks' stdout and stderr go to /dev/null).
 * shuffle run: each rank executes with its own PE's memory only (the others are overwritten with
 * a poison pattern first), and after the run rank 0 collects every rank's memory for the report.
 * recon: each rank allocates its own PE's memories only (pinet_recon_dist); rank 0 writes --out.
 *
 * No rank may wait for one that has stopped: the ranks meet at two points, A (every rank has its
 * schedule and input, just before the first message) and B (the end), each an MPI_Allreduce of
 * the exit codes so far. A rank that fails before A joins A from main, the others then stop
 * before sending anything, and B gives every rank the same exit code. In recon, A is the first
 * of the reconstruction's own meetings (recon_mpi.h), one before every schedule: the same
 * MPI_Allreduce, so a rank that stopped early meets them from main. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "pinet/recon_mpi.h"
#include "pinet/shuffle_mpi.h"

typedef struct {
  MPI_Comm comm;
  int rank;
  int reached_a; /* this rank has taken part in meeting point A */
} mpi_run;

/* Meeting point A: the largest exit code so far over all ranks. */
static int meet(mpi_run *run, int code) {
  int all = PINET_EXIT_INTERNAL;
  run->reached_a = 1;
  MPI_Allreduce(&code, &all, 1, MPI_INT, MPI_MAX, run->comm);
  return all;
}

static pinet_status mpi_exec(void *exec_ctx, const pinet_shuffle_schedule *s,
                             pinet_shuffle_elem elem, void *const *pe_mem, void *host_mem) {
  mpi_run *run = exec_ctx;
  if (meet(run, PINET_EXIT_OK) != PINET_EXIT_OK) {
    return PINET_ERR_ILLEGAL_STATE; /* another rank failed before the run */
  }
  const uint32_t pes = pinet_shuffle_schedule_pes(s);
  const size_t bytes = (size_t)pinet_shuffle_schedule_mem_words(s) * pinet_shuffle_elem_size(elem);
  for (uint32_t j = 0; j < pes; j++) { /* this rank holds PE `rank` only */
    if ((int)j != run->rank) memset(pe_mem[j], 0xA5, bytes);
  }
  pinet_status st = pinet_shuffle_mpi_execute(s, elem, pe_mem[run->rank],
                                              run->rank == 0 ? host_mem : NULL, run->comm);
  if (st != PINET_OK) return st; /* the same status on every rank */
  /* The report: every PE's memory to rank 0 (in place for its own). */
  unsigned char *all = run->rank == 0 ? malloc(bytes * pes) : NULL;
  int ok = run->rank != 0 || all != NULL, all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, run->comm);
  if (!all_ok) {
    free(all);
    return PINET_ERR_NOMEM;
  }
  MPI_Gather(pe_mem[run->rank], (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, 0, run->comm);
  if (run->rank == 0) {
    for (uint32_t j = 0; j < pes; j++) memcpy(pe_mem[j], all + (size_t)j * bytes, bytes);
  }
  free(all);
  return PINET_OK;
}

static void usage(FILE *out) {
  fprintf(out,
          "usage: mpirun -np N pinet-mpi shuffle run --op OP --words M [--input FILE] [--type T] "
          "[--json] [--summary]\n"
          "       mpirun -np N pinet-mpi recon fbp|em <the options of pinet recon fbp|em>\n\n"
          "`pinet shuffle run --pes N` and `pinet recon fbp|em --pes N` with one PE per MPI rank\n"
          "(N = the number of ranks, a power of two: shuffle 2..1024, recon 1..64); messages only\n"
          "along the network's links, rank 0 the host. Same options and output as pinet; every\n"
          "rank reads the input files; only rank 0 prints and writes --out. docs/mpi.md.\n");
}

/* argv[1..] with "--pes <ranks>" appended (pinet-mpi's N is the number of ranks). Returns the
 * exit code; *args (to free) holds *n arguments on success. */
static int with_pes(const char *ctx, int argc, char **argv, int size, char *pes_text,
                    size_t pes_size, char ***args, int *n) {
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--pes") == 0 || strncmp(argv[i], "--pes=", 6) == 0) {
      return pinet_cli_usage_error(ctx, "no --pes with pinet-mpi: N is the number of ranks "
                                   "(mpirun -np N)");
    }
  }
  *args = malloc(((size_t)argc + 2) * sizeof **args);
  if (*args == NULL) return pinet_cli_fail(ctx, PINET_ERR_NOMEM, "arguments");
  snprintf(pes_text, pes_size, "%d", size);
  *n = 0;
  for (int i = 1; i < argc; i++) (*args)[(*n)++] = argv[i];
  (*args)[(*n)++] = "--pes";
  (*args)[(*n)++] = pes_text;
  return PINET_EXIT_OK;
}

static int is_pow2_in(int size, int lo, int hi) {
  return size >= lo && size <= hi && (size & (size - 1)) == 0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpi_run run = {MPI_COMM_WORLD, 0, 0};
  int size = 0;
  MPI_Comm_rank(run.comm, &run.rank);
  MPI_Comm_size(run.comm, &size);
  if (run.rank != 0) { /* one voice: rank 0's */
    if (freopen("/dev/null", "w", stdout) == NULL || freopen("/dev/null", "w", stderr) == NULL) {
      MPI_Abort(run.comm, PINET_EXIT_INTERNAL);
    }
  }
  int rc = PINET_EXIT_OK;
  const int shuffle = argc >= 3 && strcmp(argv[1], "shuffle") == 0 && strcmp(argv[2], "run") == 0;
  const int recon = argc >= 3 && strcmp(argv[1], "recon") == 0 &&
                    (strcmp(argv[2], "fbp") == 0 || strcmp(argv[2], "em") == 0);
  char pes_text[16];
  char **args = NULL;
  int n = 0;
  pinet_recon_mpi state = {run.comm, PINET_OK, 0};
  if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    usage(stdout);
  } else if (!shuffle && !recon) {
    fprintf(stderr, "pinet-mpi: unknown command '%s%s%s' (pinet-mpi runs: shuffle run, recon fbp, "
            "recon em; try --help)\n", PINET_CLI_Q(argc > 1 ? argv[1] : ""), argc > 2 ? " " : "",
            PINET_CLI_Q(argc > 2 ? argv[2] : ""));
    rc = PINET_EXIT_USAGE;
  } else if (shuffle) {
    rc = with_pes("shuffle run", argc, argv, size, pes_text, sizeof pes_text, &args, &n);
    if (rc == PINET_EXIT_OK && !is_pow2_in(size, 2, (int)PINET_SHUFFLE_MAX_PES)) {
      rc = pinet_cli_fail("shuffle run", PINET_ERR_SIZE, "%d MPI ranks: the network needs a "
                          "power of two in [2, %u] (mpirun -np N)", size, PINET_SHUFFLE_MAX_PES);
    }
    if (rc == PINET_EXIT_OK) rc = pinet_cli_shuffle_run(n, args, mpi_exec, &run);
  } else {
    const char *ctx = strcmp(argv[2], "fbp") == 0 ? "recon fbp" : "recon em";
    pinet_recon_dist dist;
    rc = with_pes(ctx, argc, argv, size, pes_text, sizeof pes_text, &args, &n);
    if (rc == PINET_EXIT_OK && !is_pow2_in(size, 1, 64)) {
      rc = pinet_cli_fail(ctx, PINET_ERR_SIZE, "%d MPI ranks: the parallel reconstruction needs a "
                          "power of two in [1, 64] (mpirun -np N)", size);
    }
    pinet_status st = PINET_OK;
    if (rc == PINET_EXIT_OK && (st = pinet_recon_mpi_dist(&state, run.comm, &dist)) != PINET_OK) {
      rc = pinet_cli_fail(ctx, st, "MPI");
    }
    if (rc == PINET_EXIT_OK) rc = pinet_cli_recon_run(n, args, &dist);
    /* the reconstruction's hooks were this rank's meeting point A */
    run.reached_a = state.meetings > 0;
  }
  free(args);
  if (!run.reached_a) (void)meet(&run, rc == PINET_EXIT_OK ? PINET_EXIT_INTERNAL : rc);
  /* Meeting point B: every rank leaves with the largest exit code. */
  int all = rc;
  MPI_Allreduce(&rc, &all, 1, MPI_INT, MPI_MAX, run.comm);
  MPI_Finalize();
  return all;
}
