/* status.c - names and descriptions of the pinned status codes. */
#include "pinet/status.h"

#include <stddef.h>

typedef struct {
  const char *name;
  const char *text;
} status_entry;

/* Indexed by the pinned value; the table has exactly PINET_STATUS_MAX + 1 rows. */
static const status_entry k_status_table[PINET_STATUS_MAX + 1] = {
    [PINET_OK] = {"ok", "success"},
    [PINET_ERR_NULL] = {"null", "required argument is NULL"},
    [PINET_ERR_NOMEM] = {"nomem", "out of memory"},
    [PINET_ERR_SIZE] = {"size", "size is not a supported power of two or is out of range"},
    [PINET_ERR_RANGE] = {"range", "argument out of range"},
    [PINET_ERR_ILLEGAL_STATE] = {"illegal_state", "switch state or bitmap not legal in this mode"},
    [PINET_ERR_PARSE] = {"parse", "malformed input"},
    [PINET_ERR_IO] = {"io", "file could not be read or written"},
    [PINET_ERR_MISMATCH] = {"mismatch", "input sizes do not fit together"},
    [PINET_ERR_UNSUPPORTED] = {"unsupported", "not supported by this build or model"},
    [PINET_ERR_ILLEGAL_MOVE] = {"illegal_move", "move breaks the simulated machine's rules"},
};

const char *pinet_status_str(pinet_status status) {
  if ((int)status < 0 || (int)status > PINET_STATUS_MAX || k_status_table[status].text == NULL) {
    return "unknown status";
  }
  return k_status_table[status].text;
}

const char *pinet_status_name(pinet_status status) {
  if ((int)status < 0 || (int)status > PINET_STATUS_MAX || k_status_table[status].name == NULL) {
    return "unknown";
  }
  return k_status_table[status].name;
}
