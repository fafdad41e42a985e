// Linux interfaces Glibc's Swift module leaves out: epoll, timerfd, signalfd (the daemon's loop).
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <spawn.h>
#include <grp.h>
