// Linux interfaces Glibc's Swift module leaves out: epoll, timerfd, signalfd (the daemon's loop).
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>

// accept4 takes a transparent union under _GNU_SOURCE, which Swift cannot pass nil to.
static inline int gestured_accept(int fd) {
    return accept4(fd, (struct sockaddr *)0, (socklen_t *)0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}
