/* Links the installed libpinet_dpi: one perfect-shuffle model, one refused command. */
#include <pinet/dpi.h>
#include <stdio.h>

int main(void) {
  void *h = NULL;
  unsigned err = 0;
  if (pinet_dpi_ps_create(&h, 8, 64) != 0 || pinet_dpi_ps_collective(h, 3, 9, 0, &err) != 0 ||
      err != PINET_DPI_PS_ERR_QUANTUM) {
    fprintf(stderr, "dpi_consumer: unexpected answer\n");
    pinet_dpi_ps_free(h);
    return 1;
  }
  pinet_dpi_ps_free(h);
  printf("dpi_consumer: ok (%s)\n", pinet_dpi_status_str(0));
  return 0;
}
