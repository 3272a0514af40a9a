#ifndef CANOPY_CSQLITE_SHIM_H
#define CANOPY_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import as a macro. */
static inline void (*canopy_sqlite_transient(void))(void *) { return SQLITE_TRANSIENT; }
#endif
