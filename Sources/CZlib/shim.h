// zlib, for gzip (see GeoqGzip/Gzip.swift).
#include <zlib.h>
