/* A reference-library user: checks status strings and one RTA fact against the paper's formula. */
#include <pinet/pinet.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  if (strcmp(pinet_status_name(PINET_OK), "ok") != 0) {
    fprintf(stderr, "consumer: unexpected status name\n");
    return 1;
  }
  pinet_rta_geom geom;
  if (pinet_rta_geom_init(&geom, 1, 64) != PINET_OK || geom.switches != 64 / 2 - 1) {
    fprintf(stderr, "consumer: 1D RTA of 64 PEs should have 31 switches\n");
    return 1;
  }
  if (pinet_rta_geom_init(&geom, 1, 48) != PINET_ERR_SIZE) {
    fprintf(stderr, "consumer: 48 PEs must be rejected\n");
    return 1;
  }
  printf("consumer: ok (%s)\n", pinet_version_string());
  return 0;
}
