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

// prctl is variadic (Swift cannot call it): the one use, orphans of bound commands reparented
// to the daemon so that it sees a command's whole process group end.
#include <sys/prctl.h>
static inline int gestured_become_subreaper(void) { return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

// eventfd: the MQTT link's hand-off between its threads and the loop.
#include <sys/eventfd.h>
