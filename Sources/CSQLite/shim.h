#include <sqlite3.h>

#ifdef __linux__
// Linux's sync_file_range, which glibc declares only for _GNU_SOURCE (the system module is built
// without it): starts writing a file's dirty pages to the disk without waiting for them.
int sync_file_range(int fd, long long offset, long long count, unsigned int flags);
static const unsigned int GEOQ_SYNC_FILE_RANGE_WRITE = 2;
#endif
