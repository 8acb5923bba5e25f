/* dpi_private.h - what the libpinet_dpi sources share (not installed). */
#ifndef PINET_DPI_PRIVATE_H
#define PINET_DPI_PRIVATE_H

#include "pinet/dpi.h"
#include "pinet/status.h"

/* Return `code` (a pinet_status) as the DPI int if `cond` holds. */
#define DPI_RETURN_IF(cond, code) \
  do {                            \
    if (cond) {                   \
      return (int)(code);         \
    }                             \
  } while (0)

/* Return a C-model status other than PINET_OK as the DPI int. */
#define DPI_FORWARD(expr)             \
  do {                                \
    pinet_status dpi_st_ = (expr);    \
    if (dpi_st_ != PINET_OK) {        \
      return (int)dpi_st_;            \
    }                                 \
  } while (0)

#endif /* PINET_DPI_PRIVATE_H */
