#include "CCrashNote.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

static const int signals[] = { SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS };
#define SIGNAL_COUNT (sizeof signals / sizeof signals[0])

static struct sigaction previous[SIGNAL_COUNT];
static atomic_int note = -1;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

/// Writes `number` in decimal and a newline with write(2) alone: it runs in a signal handler.
static void write_number(int fd, int number) {
    char text[16];
    int at = sizeof text;
    text[--at] = '\n';
    do {
        text[--at] = (char)('0' + number % 10);
        number /= 10;
    } while (number > 0 && at > 0);
    ssize_t unused = write(fd, text + at, sizeof text - at);
    (void)unused;
}

static void on_crash(int number) {
    int fd = atomic_exchange(&note, -1);
    if (fd >= 0) write_number(fd, number);
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) {
        if (signals[i] != number) continue;
        // The handler found at start-up (or the default action) takes the signal from here: raised
        // again now, it is delivered as this handler returns (a fault also recurs at its instruction).
        sigaction(number, &previous[i], NULL);
        raise(number);
        return;
    }
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_crash;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_ONSTACK;
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) sigaction(signals[i], &action, &previous[i]);
}

void ingest_crash_note_install(void) {
    pthread_once(&installed, install);
}

void ingest_crash_note_set(int fd) {
    atomic_store(&note, fd);
}
