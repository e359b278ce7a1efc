#include "CMemory.h"

#include <malloc.h>

int ingest_keep_freed_memory(int arenas) {
    int kept = mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 256 << 20)
        && mallopt(M_ARENA_MAX, arenas > 0 ? arenas : 1);
    return kept ? 0 : -1;
}

void ingest_release_freed_memory(void) { malloc_trim(0); }
