// Only the reentrant (_r) GEOS C API is visible: every call names its context handle,
// so contexts can be confined one per thread (see GeoqGEOS/GEOSContext.swift).
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
