// Tesseract 5's C API (Debian's libtesseract-dev), the one OpenMP call ingest makes of the
// libgomp that Debian's Tesseract is built with, and Leptonica's message switch (TextRecognizer.swift
// says why).
#include <tesseract/capi.h>

void omp_set_max_active_levels(int max_levels);

// Leptonica's (Tesseract's image library) messages: which are printed on stderr.
int setMsgSeverity(int newsev);
#define INGEST_LEPTONICA_SEVERITY_NONE 6

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

// Gives the calling thread alone the lowest priority (Linux's nice is a thread's): what reads text
// in the background yields to every other thread. Returns 0, or -1 with errno.
static inline int ingest_lower_this_thread(void) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
}
