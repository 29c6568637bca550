/* Preloaded under valgrind by bench/session-instructions. valgrind 3.19 writes into the signal
 * mask that rt_sigsuspend is given, and libdispatch (which parks the main thread of Swift's async
 * `main` in sigsuspend) passes a mask in read-only memory, so valgrind itself crashed at start-up.
 * This sigsuspend hands the system call a writable copy of the mask; nothing else changes. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
