#ifndef INGEST_CMEMORY_H
#define INGEST_CMEMORY_H

/* Makes glibc keep freed blocks of up to 32 MB in the heap for reuse instead of returning them
 * to the kernel at once (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD), in at most `arenas` heaps
 * (M_ARENA_MAX). Returns 0, or -1 if refused. */
int ingest_keep_freed_memory(int arenas);

/* Gives the freed memory every heap keeps back to the kernel (malloc_trim). */
void ingest_release_freed_memory(void);

#endif
