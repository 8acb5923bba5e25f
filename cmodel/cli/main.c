/* main.c - `pinet <area> ...`: dispatch to one subcommand per C-model area. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

#define PINET_CLI_AREA(area)                          \
  int pinet_cli_##area(int argc, char **argv);        \
  extern const char pinet_cli_##area##_summary[];
#include "cli_areas.h"
#undef PINET_CLI_AREA

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} cli_area;

static const cli_area k_areas[] = {
#define PINET_CLI_AREA(area) {#area, pinet_cli_##area, pinet_cli_##area##_summary},
#include "cli_areas.h"
#undef PINET_CLI_AREA
    {NULL, NULL, NULL}};

static void print_usage(FILE *out) {
  fprintf(out,
          "usage: pinet <area> <command> [options]   (pinet <area> --help for each area)\n\n"
          "pinet is the golden C model of the pinet verification kit.\n"
          "Every command takes --json for machine-readable output.\n\nareas:\n");
  for (const cli_area *a = k_areas; a->name != NULL; a++) {
    fprintf(out, "  %-12s %s\n", a->name, a->summary);
  }
  fprintf(out, "\nexit codes: 0 ok, 1 check failed, 2 usage, 3 invalid input, 4 file error, "
               "5 internal error\n"
               "PINET_MAX_MEMORY=SIZE (bytes, K/M/G/T): the memory limit of the large commands "
               "(default: what the machine has available)\n"
               "PINET_PROGRESS=1|0: force or turn off the progress line of long commands "
               "(default: on a terminal, after a second)\n");
}

int main(int argc, char **argv) {
  if (argc < 2) {
    print_usage(stderr);
    return PINET_EXIT_USAGE;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    print_usage(stdout);
    return PINET_EXIT_OK;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("pinet %s\n", PINET_VERSION);
    return PINET_EXIT_OK;
  }
  for (const cli_area *a = k_areas; a->name != NULL; a++) {
    if (strcmp(argv[1], a->name) == 0) {
      return a->run(argc - 1, argv + 1);
    }
  }
  fprintf(stderr, "pinet: unknown area '%s' (try pinet --help)\n", PINET_CLI_Q(argv[1]));
  return PINET_EXIT_USAGE;
}
