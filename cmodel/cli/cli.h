/* cli.h - what every `pinet <area>` subcommand shares: exit codes, option parsing, a streaming
 * JSON writer and input-file readers. Each area lives in cli_<area>.c and defines
 *   int pinet_cli_<area>(int argc, char **argv);   argv[0] is the area name
 *   extern const char pinet_cli_<area>_summary[];  one line for `pinet --help`          */
#ifndef PINET_CLI_H
#define PINET_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pinet/exit_codes.h" /* PINET_EXIT_*: docs/exit_codes.md */
#include "pinet/image.h"
#include "pinet/quote.h"
#include "pinet/recon.h"
#include "pinet/shuffle.h"
#include "pinet/status.h"

/* Map a library status to an exit code. */
int pinet_cli_exit_for(pinet_status st);

/* Print "pinet: <context>: <message>" on stderr (one line) and return the exit code for st. */
int pinet_cli_fail(const char *context, pinet_status st, const char *detail_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Print "pinet: <context>: <message>" on stderr and return PINET_EXIT_USAGE. */
int pinet_cli_usage_error(const char *context, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Every message that repeats text the user gave (an option value, a token of an input file, a
 * file name) prints it as PINET_CLI_Q(text): pinet_quote's form (pinet/quote.h), so no control
 * byte reaches the terminal, and a plain printable value prints as it is. The macro gives each
 * use its own buffer, which lives until the end of the enclosing block:
 *   return pinet_cli_usage_error(ctx, "--%s: '%s' is not an integer", name, PINET_CLI_Q(text));
 * tests/lint/check_quoting.py finds messages that forget it. */
const char *pinet_cli_quote(const char *text, char buf[PINET_QUOTE_SIZE]);
#define PINET_CLI_Q(text) pinet_cli_quote((text), (char[PINET_QUOTE_SIZE]){0})

/* ---- options --------------------------------------------------------------------------------
 * Long options only: `--name value`, `--name=value`, or a flag `--name`. Unknown options and
 * repeated options are errors. `--help` is always accepted and sets *help. */
typedef struct pinet_cli_opt {
  const char *name;   /* without the leading "--" */
  int takes_value;    /* 1: needs a value; 0: a flag */
  const char *metavar;
  const char *help;
  const char *value;  /* out: the value, or NULL if absent */
  int present;        /* out: 1 if given */
} pinet_cli_opt;

/* Parse argv[first..argc-1]. Positional arguments are rejected. Returns PINET_EXIT_OK or
 * PINET_EXIT_USAGE (after printing the error). */
int pinet_cli_parse(const char *context, pinet_cli_opt *opts, size_t n_opts, int argc, char **argv,
                    int first, int *help);

/* Print `usage` then one line per option. */
void pinet_cli_print_help(FILE *out, const char *usage, const pinet_cli_opt *opts, size_t n_opts);

/* What pinet_cli_parse_or_help returns when the command should go on (no exit code is < 0). */
enum { PINET_CLI_CONTINUE = -1 };

/* pinet_cli_parse, then answer --help with pinet_cli_print_help(stdout, usage, ...). Returns
 * PINET_CLI_CONTINUE to run the command, PINET_EXIT_OK after the help, or PINET_EXIT_USAGE. */
int pinet_cli_parse_or_help(const char *context, const char *usage, pinet_cli_opt *opts,
                            size_t n_opts, int argc, char **argv, int first);

/* Find an option by name (NULL if the table has no such option). */
pinet_cli_opt *pinet_cli_find(pinet_cli_opt *opts, size_t n_opts, const char *name);

/* Require option `name`; parse its value. Each returns PINET_EXIT_OK or an exit code after
 * printing a one-line error naming the option. */
int pinet_cli_require(const char *context, pinet_cli_opt *opts, size_t n_opts, const char *name,
                      const char **value);
int pinet_cli_parse_u32(const char *context, const char *name, const char *text, uint32_t *out);
int pinet_cli_parse_u64(const char *context, const char *name, const char *text, uint64_t *out);
int pinet_cli_parse_i64(const char *context, const char *name, const char *text, int64_t *out);
int pinet_cli_parse_double(const char *context, const char *name, const char *text, double *out);
/* Match `text` against a NULL-terminated list of names; *index receives its position. */
int pinet_cli_parse_choice(const char *context, const char *name, const char *text,
                           const char *const *choices, unsigned *index);

/* Optional options: if option `name` was given, parse its value into *out as the parsers above
 * do; if not, leave *out (the default) alone. PINET_EXIT_OK or the parser's exit code. */
int pinet_cli_optional_u32(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint32_t *out);
int pinet_cli_optional_u64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint64_t *out);
int pinet_cli_optional_i64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, int64_t *out);
int pinet_cli_optional_double(const char *context, pinet_cli_opt *opts, size_t n_opts,
                              const char *name, double *out);
int pinet_cli_optional_choice(const char *context, pinet_cli_opt *opts, size_t n_opts,
                              const char *name, const char *const *choices, unsigned *index);

/* Required options: pinet_cli_require, then parse the value into *out. PINET_EXIT_OK or the
 * exit code of the first error. */
int pinet_cli_required_u32(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint32_t *out);
int pinet_cli_required_u64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint64_t *out);
int pinet_cli_required_i64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, int64_t *out);

/* ---- input files ----------------------------------------------------------------------------- */

/* Check a path given to an input option before it is read: PINET_EXIT_OK, or PINET_EXIT_IO after
 * the one line "pinet: <context>: 'PATH' is a directory (...)" (a directory opens on POSIX systems
 * and then reads as an error, or as a file of absurd size). "-" (stdin) and paths that cannot be
 * examined are left to the reader and its own message. */
int pinet_cli_input_path(const char *context, const char *path);

/* ---- progress ----------------------------------------------------------------------------------
 * Long commands report progress on stderr, one line rewritten in place ("\r"), once they have run
 * for a second and only when stderr is a terminal, so that logs and pipes stay clean. The
 * environment variable PINET_PROGRESS=1 forces it (from the first step, also into a pipe: tests),
 * PINET_PROGRESS=0 turns it off. The line is erased when the command ends. */
typedef struct pinet_cli_progress {
  const char *context;
  double start;   /* seconds, monotonic */
  double shown;   /* when the line was last written (0: never) */
  int mode;       /* 0 off, 1 on a terminal after a second, 2 forced */
} pinet_cli_progress;

void pinet_cli_progress_begin(pinet_cli_progress *p, const char *context);
/* Step `done` of `total` finished; `what` names it (may be NULL). At most ten lines a second. */
void pinet_cli_progress_step(pinet_cli_progress *p, uint64_t done, uint64_t total,
                             const char *what);
/* Erase the progress line, if one was written. */
void pinet_cli_progress_end(pinet_cli_progress *p);

/* ---- memory ------------------------------------------------------------------------------------
 * A command estimates what it will allocate before it allocates it, and refuses a request that
 * would not fit instead of being killed by the kernel's OOM killer. The limit is the environment
 * variable PINET_MAX_MEMORY (bytes, or with a K/M/G/T suffix, powers of 1024) if set, else the
 * machine's available memory (MemAvailable of /proc/meminfo); without either there is no limit. */

/* The limit in bytes (0: none known). PINET_EXIT_OK, or PINET_EXIT_USAGE after a one-line error
 * if PINET_MAX_MEMORY is malformed. */
int pinet_cli_memory_limit(const char *context, uint64_t *limit);

/* PINET_EXIT_OK if `bytes` fits the limit, else PINET_EXIT_INPUT after the one line
 * "pinet: <context>: <what> needs about 1.2 GiB, more than the 800.0 MiB <of which limit>"; `what` is
 * formatted printf-style. A malformed PINET_MAX_MEMORY is PINET_EXIT_USAGE. */
int pinet_cli_memory_check(const char *context, double bytes, const char *what_fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Read every white-space-separated integer of `path` ("-" = stdin) into a new array (free() it).
 * A token that is not a decimal integer is PINET_ERR_PARSE with *bad_line set to its line. */
pinet_status pinet_cli_read_i64_file(const char *path, int64_t **values, size_t *count,
                                     size_t *bad_line);

/* ---- JSON writer ------------------------------------------------------------------------------
 * Streaming, compact, commas handled: begin/end pairs nest up to 32 deep. */
typedef struct pinet_json {
  FILE *out;
  int depth;
  int need_comma[32];
  int after_key;
} pinet_json;

void pinet_json_init(pinet_json *js, FILE *out);
void pinet_json_begin_object(pinet_json *js);
void pinet_json_end_object(pinet_json *js);
void pinet_json_begin_array(pinet_json *js);
void pinet_json_end_array(pinet_json *js);
void pinet_json_key(pinet_json *js, const char *key);
void pinet_json_string(pinet_json *js, const char *s);
void pinet_json_i64(pinet_json *js, int64_t v);
void pinet_json_u64(pinet_json *js, uint64_t v);
void pinet_json_double(pinet_json *js, double v); /* non-finite values are written as null */
void pinet_json_bool(pinet_json *js, int v);
void pinet_json_null(pinet_json *js);
/* End the document with a newline. */
void pinet_json_finish(pinet_json *js);
/* A document that is one object: pinet_json_init + begin_object; end_object + finish. */
void pinet_json_begin_document(pinet_json *js, FILE *out);
void pinet_json_end_document(pinet_json *js);

/* ---- output files (`<area> curves`: files written into --out DIR) ---------------------------- */
typedef struct pinet_cli_files {
  const char *dir; /* --out DIR, "." by default */
  int json;        /* --json: list the files written as {"files":[...]} on stdout */
  pinet_json js;
} pinet_cli_files;

/* Parse `[--out DIR] [--json]` from argv[first..] into *fl and answer --help with `usage`;
 * returns as pinet_cli_parse_or_help. */
int pinet_cli_files_parse(pinet_cli_files *fl, const char *context, const char *usage, int argc,
                          char **argv, int first);
/* Start the report on stdout: with --json, open {"files":[. */
void pinet_cli_files_begin(pinet_cli_files *fl);
/* Report a file written: a JSON string with --json, else the line "wrote PATH". */
void pinet_cli_files_add(pinet_cli_files *fl, const char *path);
/* End the report: with --json, close the list and the object and end the line. */
void pinet_cli_files_end(pinet_cli_files *fl);
/* fopen(path, "w"); NULL after printing "pinet: <context>: PATH: cannot write: <reason>", an
 * error whose exit code is PINET_EXIT_IO. */
FILE *pinet_cli_files_open(const char *context, const char *path);
/* fclose(f), then report `path`. PINET_EXIT_OK, or PINET_EXIT_IO after "PATH: cannot write". */
int pinet_cli_files_close(pinet_cli_files *fl, const char *context, FILE *f, const char *path);
/* Write `plot` as SVG to `path`, then report it. PINET_EXIT_OK, or the exit code after
 * "PATH: cannot write". */
int pinet_cli_files_svg(pinet_cli_files *fl, const char *context, const char *path,
                        const pinet_plot *plot);

/* ---- shuffle run with another executor ------------------------------------------------------
 * `pinet shuffle run` parses, reads its input, places it, executes the schedule and reports; the
 * executor is pinet_shuffle_execute, or (pinet-mpi) one that runs the schedule on MPI ranks and
 * leaves every memory in pe_mem / host_mem as pinet_shuffle_execute would. argv[0] is "shuffle",
 * argv[1] "run"; exec NULL = pinet_shuffle_execute. Returns the exit code. */
typedef pinet_status (*pinet_cli_shuffle_exec)(void *exec_ctx, const pinet_shuffle_schedule *s,
                                               pinet_shuffle_elem elem, void *const *pe_mem,
                                               void *host_mem);
int pinet_cli_shuffle_run(int argc, char **argv, pinet_cli_shuffle_exec exec, void *exec_ctx);

/* ---- recon fbp|em with one PE per process -----------------------------------------------------
 * `pinet recon fbp|em ... --pes P` with PE dist->pe in this process and the others reached
 * through dist's hooks (pinet-mpi): the same parsing, input and checks in every process; only
 * the process of PE 0 writes --out and reports. argv[0] is "recon", argv[1] "fbp" or "em"; dist
 * NULL = pinet recon. Returns the exit code (the same in every process unless writing or
 * reporting fails on PE 0's). */
int pinet_cli_recon_run(int argc, char **argv, const pinet_recon_dist *dist);

#endif /* PINET_CLI_H */
