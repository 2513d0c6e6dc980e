// Header-only: see include/CPrefetch.h.
