#ifndef CANOPY_CZLIB_SHIM_H
#define CANOPY_CZLIB_SHIM_H
#include <zlib.h>

/* inflateInit2 is a macro over inflateInit2_, which Swift cannot call. */
static inline int canopy_inflate_init2(z_stream *stream, int windowBits) {
    return inflateInit2(stream, windowBits);
}
#endif
