/* version.c - the library version string, set by CMake. */
#include "pinet/pinet.h"

const char *pinet_version_string(void) { return PINET_VERSION; }
