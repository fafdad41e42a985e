/* A leak planted in the daemon from outside, for the soak's checker (scenario 31): the checker
 * must fail on each. LD_PRELOAD=plant-leak.so with PLANT_LEAK set to one or more (comma-separated) of
 *
 *   fd     every open of /dev/input/event* is dup()ed and the copy never closed: one descriptor
 *          more per panel plugged (and per device opened at start)
 *   clone  UI_DEV_DESTROY is not passed to the kernel and the /dev/uinput descriptor it was
 *          meant for is never closed: every virtual device (a clone) the daemon removes stays
 *   rss    every open of /dev/input/event* or of a *.toml file (a panel plugged, a reload) mallocs
 *          PLANT_KB KiB (default 64), written so it is resident, and never frees it
 *
 * gestured is linked dynamically against glibc (libevdev and the Swift runtime call open, ioctl
 * and close through the PLT), so a preloaded definition takes each call. Each plant logs its
 * first use to stderr ("plant-leak: …"): a run whose plant never fired proves nothing, and the
 * scenario checks for the line.
 *
 *   cc -shared -fPIC -O2 -o plant-leak.so plant-leak.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/uinput.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum { FD = 1, CLONE = 2, RSS = 4 };
static int mode = -1; /* the plants asked for, a set of the above */
static void *volatile leaked; /* RSS: the chain of blocks never freed */
static int kept[1024]; /* CLONE: descriptors whose device was "destroyed" (never closed) */

static int plant(void) {
    if (mode < 0) {
        const char *m = getenv("PLANT_LEAK");
        mode = 0;
        for (const char *p = m; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0)) {
            size_t n = strcspn(p, ",");
            mode |= !strncmp(p, "fd", n) && n == 2 ? FD : !strncmp(p, "clone", n) && n == 5 ? CLONE
                  : !strncmp(p, "rss", n) && n == 3 ? RSS : 0;
        }
    }
    return mode;
}

static void once(int *done, const char *what, const char *path) {
    if (!*done) { *done = 1; fprintf(stderr, "plant-leak: %s (%s)\n", what, path); }
}

static int ends_with(const char *s, const char *tail) {
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* After a successful open of PATH. */
static void opened(const char *path, int fd) {
    static int fd_said, rss_said;
    if (fd < 0 || !path) return;
    int input = !strncmp(path, "/dev/input/event", 16);
    if ((plant() & FD) && input) {
        once(&fd_said, "a descriptor dup()ed and kept per /dev/input/event* opened", path);
        if (dup(fd) < 0) perror("plant-leak: dup");
    }
    if ((plant() & RSS) && (input || ends_with(path, ".toml"))) {
        once(&rss_said, "memory never freed per input device or config opened", path);
        size_t kb = getenv("PLANT_KB") ? strtoul(getenv("PLANT_KB"), 0, 10) : 64;
        char *p = malloc(kb * 1024);
        if (p) { /* written, so resident; chained, so the compiler cannot drop the allocation */
            memset(p, 0x5a, kb * 1024);
            *(void **)p = leaked;
            leaked = p;
        }
    }
}

#define REAL(name) static __typeof__(name) *real_##name; if (!real_##name) real_##name = dlsym(RTLD_NEXT, #name)

static mode_t mode_arg(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & __O_TMPFILE) == __O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

int open(const char *path, int flags, ...) {
    REAL(open);
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    int fd = real_open(path, flags, m);
    opened(path, fd);
    return fd;
}
int open64(const char *path, int flags, ...) {
    REAL(open64);
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    int fd = real_open64(path, flags, m);
    opened(path, fd);
    return fd;
}
int openat(int dir, const char *path, int flags, ...) {
    REAL(openat);
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    int fd = real_openat(dir, path, flags, m);
    opened(path, fd);
    return fd;
}
int openat64(int dir, const char *path, int flags, ...) {
    REAL(openat64);
    va_list ap; va_start(ap, flags); mode_t m = mode_arg(flags, ap); va_end(ap);
    int fd = real_openat64(dir, path, flags, m);
    opened(path, fd);
    return fd;
}
/* What fortified callers (_FORTIFY_SOURCE) call instead of open. */
int __open_2(const char *path, int flags) { return open(path, flags); }
int __open64_2(const char *path, int flags) { return open64(path, flags); }

int ioctl(int fd, unsigned long request, ...) {
    REAL(ioctl);
    static int said;
    va_list ap; va_start(ap, request); void *arg = va_arg(ap, void *); va_end(ap);
    if ((plant() & CLONE) && request == UI_DEV_DESTROY && fd >= 0 && fd < 1024) {
        once(&said, "UI_DEV_DESTROY skipped and its /dev/uinput descriptor kept: the virtual device stays", "/dev/uinput");
        kept[fd] = 1;
        return 0;
    }
    return real_ioctl(fd, request, arg);
}

int close(int fd) {
    REAL(close);
    if ((plant() & CLONE) && fd >= 0 && fd < 1024 && kept[fd]) {
        kept[fd] = 0; /* the descriptor stays open (and with it the device); its number is never reused */
        return 0;
    }
    return real_close(fd);
}
