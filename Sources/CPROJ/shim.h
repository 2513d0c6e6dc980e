// PROJ's public API plus Karney's geodesic routines (geod_init, geod_inverse, geod_direct).
#include <proj.h>
#include <geodesic.h>
