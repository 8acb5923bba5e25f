/* error_private.h - internal error-return helpers (not installed). */
#ifndef PINET_ERROR_PRIVATE_H
#define PINET_ERROR_PRIVATE_H

#include "pinet/status.h"

/* Return `code` from the enclosing function when `cond` holds. */
#define RETURN_ERROR_IF(cond, code) \
  do {                              \
    if (cond) {                     \
      return (code);                \
    }                               \
  } while (0)

/* Evaluate a pinet call and propagate a failure. */
#define FORWARD_IF_ERROR(expr)     \
  do {                             \
    pinet_status fwd_st_ = (expr); \
    if (fwd_st_ != PINET_OK) {     \
      return fwd_st_;              \
    }                              \
  } while (0)

#endif /* PINET_ERROR_PRIVATE_H */
