/* pinet/status.h - status codes shared by every pinet function.
 *
 * Every public function returns a pinet_status (PINET_OK on success) and writes its results
 * through pointers; the library never touches errno and never prints. The numeric values are
 * pinned: they appear in CLI exit codes and in the RTL error registers, so never renumber. */
#ifndef PINET_STATUS_H
#define PINET_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum pinet_status {
  PINET_OK = 0,
  PINET_ERR_NULL = 1,          /* a required pointer argument is NULL */
  PINET_ERR_NOMEM = 2,         /* an allocation failed */
  PINET_ERR_SIZE = 3,          /* a size is not a power of two (or of four), too small or too large */
  PINET_ERR_RANGE = 4,         /* an index, level or parameter is out of range */
  PINET_ERR_ILLEGAL_STATE = 5, /* a switch state / bitmap is not legal in the current mode */
  PINET_ERR_PARSE = 6,         /* malformed text input (file or argument) */
  PINET_ERR_IO = 7,            /* a file could not be opened, read or written */
  PINET_ERR_MISMATCH = 8,      /* data do not fit together (wrong count, wrong length) */
  PINET_ERR_UNSUPPORTED = 9,   /* a valid request this build or model does not support */
  PINET_ERR_ILLEGAL_MOVE = 10  /* a simulated machine step breaks the machine's rules */
} pinet_status;

/* The largest pinned status value; pinet_status_str() is defined for 0..PINET_STATUS_MAX. */
#define PINET_STATUS_MAX 10

/* A short, constant, human-readable description of `status`. Never NULL: an unknown value
 * gives "unknown status". */
const char *pinet_status_str(pinet_status status);

/* The stable lower-case identifier of `status` ("ok", "size", ...), as used in JSON output. */
const char *pinet_status_name(pinet_status status);

#ifdef __cplusplus
}
#endif
#endif /* PINET_STATUS_H */
