#include "CMemory.h"

#include <malloc.h>

int ingest_keep_freed_memory(void) {
    int kept = mallopt(M_MMAP_THRESHOLD, 32 << 20) && mallopt(M_TRIM_THRESHOLD, 256 << 20);
    return kept ? 0 : -1;
}
