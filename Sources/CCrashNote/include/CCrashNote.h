#ifndef INGEST_CRASH_NOTE_H
#define INGEST_CRASH_NOTE_H

/// A note of the signal that ends the process: written by a handler of the signals a crash raises
/// (SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS) to a file opened beforehand, so the
/// next process can tell which photos were being read when a library aborted. The handler does
/// nothing else: it hands the signal on to the handler it found (Swift's backtracer, a sanitizer)
/// or to the default action, so the process ends as it would have.

/// Installs the handlers, once per process; later calls do nothing.
void ingest_crash_note_install(void);

/// Where the handler writes the signal's number: an open descriptor, or -1 for nowhere.
void ingest_crash_note_set(int fd);

#endif
