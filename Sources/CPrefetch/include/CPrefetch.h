#ifndef GEOQ_CPREFETCH_H
#define GEOQ_CPREFETCH_H
// A hint that `address` will be read soon: the one CPU instruction Swift does not expose.
static inline void geoq_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
#endif
