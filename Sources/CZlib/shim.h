// zlib, for gzip-encoded answers (see GeoqServer/Gzip.swift).
#include <zlib.h>
