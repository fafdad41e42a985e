// Linux interfaces Glibc's Swift module leaves out: epoll, timerfd, signalfd (the daemon's loop).
// No _GNU_SOURCE here: it changes struct layouts (fd_set) against Glibc's Swift module.
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>

// accept4 is declared only under _GNU_SOURCE (and then with a transparent union Swift cannot
// pass nil to), so declare it plainly.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags);
static inline int gestured_accept(int fd) {
    return accept4(fd, (struct sockaddr *)0, (socklen_t *)0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

// SO_PEERCRED's struct ucred is declared only under _GNU_SOURCE: the same layout, by its own name.
// The peer's process, user and group when it connected; 0, or -1 with errno.
struct gestured_peer { int pid; unsigned uid; unsigned gid; };
static inline int gestured_peer_credentials(int fd, struct gestured_peer *peer) {
    socklen_t len = sizeof *peer;
    return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, peer, &len);
}

// prctl is variadic (Swift cannot call it): the one use, orphans of bound commands reparented
// to the daemon so that it sees a command's whole process group end.
#include <sys/prctl.h>
static inline int gestured_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// eventfd: the MQTT link's hand-off between its threads and the loop.
#include <sys/eventfd.h>

// read(2) and epoll_wait(2) on the wakeup path, without glibc's wrappers: those are pthread
// cancellation points, and entering and leaving the cancellable state cost ~33 instructions a
// call (VM callgrind, 2026-11-26: read 52 and epoll_wait 55 a call, 32 of each in
// __pthread_enable/disable_asynccancel). gestured never cancels a thread. Same results: -1 with
// errno set on failure (EINTR, EAGAIN…). epoll_pwait with no mask is epoll_wait (and exists on
// every architecture; arm64 has no epoll_wait).
#include <unistd.h>
#include <sys/syscall.h>
// On x86-64 the instruction itself, inline: glibc's syscall() is a call of 11 instructions more,
// and its variadic call site shuffles the arguments again (host callgrind). errno is set through
// glibc's __errno_location: <errno.h> here would make CLinux export EINTR… beside Glibc.
extern int *__errno_location(void);
static inline long gestured_syscall(long n, long a, long b, long c, long d, long e, long f) {
#if defined(__x86_64__)
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long r;
    __asm__ volatile ("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                      : "rcx", "r11", "memory");
    if ((unsigned long)r > -4096UL) { *__errno_location() = (int)-r; return -1; }
    return r;
#else
    return syscall(n, a, b, c, d, e, f);
#endif
}
static inline ssize_t gestured_read(int fd, void *buffer, size_t count) {
    return gestured_syscall(SYS_read, fd, (long)buffer, (long)count, 0, 0, 0);
}
static inline int gestured_epoll_wait(int epfd, struct epoll_event *events, int max, int timeout) {
    return (int)gestured_syscall(SYS_epoll_pwait, epfd, (long)events, max, timeout, 0, 8);
}
