/* dpi_status.c - libpinet_dpi: status names. */
#include "dpi_private.h"

const char *pinet_dpi_status_str(int status) {
  if (status < 0 || status > PINET_STATUS_MAX) {
    return "unknown status";
  }
  return pinet_status_str((pinet_status)status);
}
