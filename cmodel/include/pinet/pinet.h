/* pinet/pinet.h - umbrella header of libpinet, the golden C model of pinet.
 * Include this, or only the area headers you use. */
#ifndef PINET_PINET_H
#define PINET_PINET_H

#include "pinet/status.h"
#include "pinet/rng.h"
#include "pinet/rta.h"
#include "pinet/shuffle.h"
#include "pinet/histogram.h"
#include "pinet/hostscatter.h"
#include "pinet/image.h"
#include "pinet/otis.h"
#include "pinet/recon.h"
#include "pinet/quote.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library version, "MAJOR.MINOR.PATCH". */
const char *pinet_version_string(void);

#ifdef __cplusplus
}
#endif
#endif /* PINET_PINET_H */
