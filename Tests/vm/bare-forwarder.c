/* The least a passthrough can do, as the yardstick for gestured's clone (clone-latency.sh):
 * grab a touch device, make a uinput clone of it with libevdev, copy every event read to the
 * clone as it comes. No recognizers, no decisions.
 *
 *     bare-forwarder DEVNODE NODE_FILE
 *
 * Writes the clone's event node to NODE_FILE once it exists, then forwards until SIGTERM.
 * The clone's phys is gestured's (UInputDevice.phys) with a suffix, so that a gestured running
 * beside it never opens the clone as an input device. Build: cc -O2 bare-forwarder.c
 * $(pkg-config --cflags --libs libevdev). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

static int fail(const char *what, int err) {
    fprintf(stderr, "bare-forwarder: %s: %s\n", what, strerror(err < 0 ? -err : err));
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bare-forwarder DEVNODE NODE_FILE\n");
        return 2;
    }
    int fd = open(argv[1], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return fail(argv[1], errno);
    struct libevdev *dev;
    int rc = libevdev_new_from_fd(fd, &dev);
    if (rc < 0) return fail("libevdev_new_from_fd", rc);
    if ((rc = libevdev_set_clock_id(dev, CLOCK_MONOTONIC)) < 0) return fail("libevdev_set_clock_id", rc);
    if ((rc = libevdev_grab(dev, LIBEVDEV_GRAB)) < 0) return fail("libevdev_grab", rc);
    char name[256];
    snprintf(name, sizeof name, "%s (bare clone)", libevdev_get_name(dev));
    libevdev_set_name(dev, name);
    libevdev_set_phys(dev, "gestured/virtual-bare-forwarder");
    struct libevdev_uinput *clone;
    if ((rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &clone)) < 0)
        return fail("libevdev_uinput_create_from_device", rc);
    FILE *out = fopen(argv[2], "w");
    if (!out) return fail(argv[2], errno);
    fprintf(out, "%s\n", libevdev_uinput_get_devnode(clone));
    fclose(out);

    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        struct input_event ev;
        rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev);
        if (rc == LIBEVDEV_READ_STATUS_SUCCESS) {
            libevdev_uinput_write_event(clone, ev.type, ev.code, ev.value);
        } else if (rc == LIBEVDEV_READ_STATUS_SYNC) {
            /* SYN_DROPPED: the state libevdev resynchronized goes out as it comes. */
            while (libevdev_next_event(dev, LIBEVDEV_READ_FLAG_SYNC, &ev) == LIBEVDEV_READ_STATUS_SYNC)
                libevdev_uinput_write_event(clone, ev.type, ev.code, ev.value);
        } else if (rc == -EAGAIN) {
            if (poll(&p, 1, -1) < 0 && errno != EINTR) return fail("poll", errno);
        } else {
            return fail("libevdev_next_event", rc);
        }
    }
}
