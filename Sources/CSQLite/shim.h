#include <sqlite3.h>

#ifdef __linux__
// Linux's sync_file_range, which glibc declares only for _GNU_SOURCE (the system module is built
// without it): starts writing a file's dirty pages to the disk without waiting for them.
int sync_file_range(int fd, long long offset, long long count, unsigned int flags);
static const unsigned int GEOQ_SYNC_FILE_RANGE_WRITE = 2;
#endif

// sqlite3_config is variadic, which Swift cannot call: SQLite's own counts of the memory it
// allocates, kept up to date under a process-wide mutex on every allocation, switched off.
// Returns SQLITE_MISUSE once SQLite is initialised (the setting then stays as it was).
static inline int geoq_sqlite3_stop_counting_memory(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
