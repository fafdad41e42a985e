#!/usr/bin/python3
"""A scripted touchscreen for the passthrough scenarios (10–14), made through /dev/uinput.

    finger.py NAME NODE_FILE < commands

gestured grabs a passed-through device (EVIOCGRAB), and the kernel drops events written to a
grabbed device's evdev node by anyone else (input_inject_event), so evemu-play cannot drive it:
the events must come from the device itself. This script is that device: 200 × 120 mm,
10 slots, 20 units/mm, INPUT_PROP_DIRECT, no ABS_MT_TOOL_TYPE (the clone must add it). With
FINGER_SIZE=1 in its environment it also reports contact size (ABS_MT_TOUCH_MAJOR, 20 units/mm):
a finger is 8 mm unless a command gives MM (the kiosk tier's palm).
It writes its event node to NODE_FILE once the device exists, then runs one command per line
of stdin (coordinates in mm, times in ms):

    down SLOT X Y [MM] | move SLOT X Y | up SLOT one frame each (MM: the contact's size)
    tap X Y                                      slot 0: down, 60 ms, up
    ghost X Y                                    slot 0: down, up in the next frame, one write (a
                                                 phantom at one kernel time, as the Pi Touch Display 2 sends)
    stroke SLOT X0 Y0 X1 Y1 MS [MM]              down (MM in size), a move every 10 ms, up
    circle CX CY R MS                            one finger once round a circle, clockwise
    flood SLOT N X Y                             N moves at once, back and forth by 0.5 mm
    sleep MS
    clock                                        sets this call's zero for `at`
    at MS                                        sleeps until MS after the last `clock` (a period
                                                 kept to the millisecond: sleeps and the
                                                 scenario's round trips drift under emulation)
    mark FILE                                    creates FILE (the scenario waits for it)
    unplug                                       the device destroyed, as a panel unplugged (a finger
                                                 still down goes with it)
    plug NODE_FILE                               the same device made again (same identity), its
                                                 node written to NODE_FILE
    play FILE XMAX YMAX                          an evemu recording's events with their timing, its
                                                 positions scaled from 0…XMAX/0…YMAX (its device's
                                                 ranges) to this panel's (the soak, scenario 31)

With FINGER_PROBE="CLONE OUT" in its environment it first taps at 100/60 mm, a tap every 60 ms
from the moment the device exists, until a frame reaches the clone CLONE (read with
CLOCK_MONOTONIC, EVIOCSCLOCKID), and writes to OUT the seconds from the device's creation to
that frame's kernel time, then that time: how soon touch works through the clone after a panel
appears (scenario 25), with no shell's polling in the figure.
"""
import fcntl
import math
import os
import select
import struct
import sys
import time

from evdev import AbsInfo, UInput, ecodes as e

RES = 20
W, H, SLOTS = 200, 120, 10


def axis(mm):
    return AbsInfo(value=0, min=0, max=mm * RES - 1, fuzz=0, flat=0, resolution=RES)


caps = {
    e.EV_KEY: [e.BTN_TOUCH],
    e.EV_ABS: [
        (e.ABS_X, axis(W)), (e.ABS_Y, axis(H)),
        (e.ABS_MT_SLOT, AbsInfo(0, 0, SLOTS - 1, 0, 0, 0)),
        (e.ABS_MT_POSITION_X, axis(W)), (e.ABS_MT_POSITION_Y, axis(H)),
        (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0)),
    ],
}
SIZED = os.environ.get("FINGER_SIZE") == "1"
FINGER_MM = 8
if SIZED:
    caps[e.EV_ABS].append((e.ABS_MT_TOUCH_MAJOR, axis(W)))


def make(node_file):
    """The device, its node written to node_file once it exists."""
    made = UInput(caps, name=sys.argv[1], vendor=0x1234, product=0x5678, bustype=e.BUS_USB,
                  input_props=[e.INPUT_PROP_DIRECT])
    with open(node_file, "w") as f:
        f.write(made.device.path + "\n")
    return made


ui = make(sys.argv[2])
CREATED = time.monotonic()

down = set()
next_id = 100


def units(mm, size):
    return max(0, min(size * RES - 1, round(float(mm) * RES)))


def frame(*events):
    for t, c, v in events:
        ui.write(t, c, v)
    ui.syn()


def pos(slot, x, y):
    return [(e.EV_ABS, e.ABS_MT_SLOT, slot), (e.EV_ABS, e.ABS_MT_POSITION_X, units(x, W)),
            (e.EV_ABS, e.ABS_MT_POSITION_Y, units(y, H))]


def touch_down(slot, x, y, mm=None):
    global next_id
    ev = [(e.EV_ABS, e.ABS_MT_SLOT, slot), (e.EV_ABS, e.ABS_MT_TRACKING_ID, next_id)] + pos(slot, x, y)[1:]
    if mm is not None and not SIZED:
        raise SystemExit("finger.py: a contact size needs FINGER_SIZE=1")
    if SIZED:
        ev.append((e.EV_ABS, e.ABS_MT_TOUCH_MAJOR, units(FINGER_MM if mm is None else mm, W)))
    next_id += 1
    if not down:
        ev.append((e.EV_KEY, e.BTN_TOUCH, 1))
    down.add(slot)
    frame(*ev)


def touch_move(slot, x, y):
    frame(*pos(slot, x, y))


def touch_up(slot):
    down.discard(slot)
    ev = [(e.EV_ABS, e.ABS_MT_SLOT, slot), (e.EV_ABS, e.ABS_MT_TRACKING_ID, -1)]
    if not down:
        ev.append((e.EV_KEY, e.BTN_TOUCH, 0))
    frame(*ev)


def ghost(x, y):
    """A phantom: down and up frames in one write(2), so the kernel stamps them at one time
    (separate writes from a starved VM came milliseconds apart, a tap no phantom is)."""
    global next_id
    ev = [(e.EV_ABS, e.ABS_MT_SLOT, 0), (e.EV_ABS, e.ABS_MT_TRACKING_ID, next_id)] + pos(0, x, y)[1:]
    ev += [(e.EV_KEY, e.BTN_TOUCH, 1), (e.EV_SYN, e.SYN_REPORT, 0),
           (e.EV_ABS, e.ABS_MT_TRACKING_ID, -1), (e.EV_KEY, e.BTN_TOUCH, 0), (e.EV_SYN, e.SYN_REPORT, 0)]
    next_id += 1
    os.write(ui.fd, b"".join(struct.pack("llHHi", 0, 0, t, c, v) for t, c, v in ev))


def play(path, xmax, ymax):
    """Each event at its time from the recording's first (a sleep per event would drift under
    emulation); codes this panel lacks (MSC_TIMESTAMP, BTN_TOOL_*) the kernel drops."""
    scale = {e.ABS_X: (W * RES - 1) / xmax, e.ABS_MT_POSITION_X: (W * RES - 1) / xmax,
             e.ABS_Y: (H * RES - 1) / ymax, e.ABS_MT_POSITION_Y: (H * RES - 1) / ymax}
    start = first = None
    for line in open(path):
        p = line.split()
        if len(p) < 5 or p[0] != "E:":
            continue
        t, typ, code, value = float(p[1]), int(p[2], 16), int(p[3], 16), int(p[4])
        if first is None:
            first, start = t, time.monotonic()
        if (wait := start + (t - first) - time.monotonic()) > 0:
            time.sleep(wait)
        if typ == e.EV_ABS and code in scale:
            value = round(value * scale[code])
        ui.write(typ, code, value)


def run(cmd, a):
    global ui, zero
    if cmd == "down":
        touch_down(int(a[0]), a[1], a[2], a[3] if len(a) > 3 else None)
    elif cmd == "move":
        touch_move(int(a[0]), a[1], a[2])
    elif cmd == "up":
        touch_up(int(a[0]))
    elif cmd == "tap":
        touch_down(0, a[0], a[1])
        time.sleep(0.06)
        touch_up(0)
    elif cmd == "ghost":
        ghost(a[0], a[1])
    elif cmd == "stroke":
        slot, x0, y0, x1, y1, ms = int(a[0]), *map(float, a[1:6])
        steps = max(1, int(ms / 10))
        touch_down(slot, x0, y0, a[6] if len(a) > 6 else None)
        for i in range(1, steps + 1):
            time.sleep(0.01)
            touch_move(slot, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        time.sleep(0.01)
        touch_up(slot)
    elif cmd == "circle":
        cx, cy, r, ms = map(float, a[:4])
        steps = max(8, int(ms / 10))
        touch_down(0, cx + r, cy)
        for i in range(1, steps + 1):
            time.sleep(0.01)
            t = 2 * math.pi * i / steps
            touch_move(0, cx + r * math.cos(t), cy + r * math.sin(t))
        time.sleep(0.01)
        touch_up(0)
    elif cmd == "flood":
        slot, n = int(a[0]), int(a[1])
        x, y = float(a[2]), float(a[3])
        for i in range(n):
            touch_move(slot, x + (i % 2) * 0.5, y)
    elif cmd == "sleep":
        time.sleep(float(a[0]) / 1000)
    elif cmd == "clock":
        zero = time.monotonic()
    elif cmd == "at":
        if (wait := zero + float(a[0]) / 1000 - time.monotonic()) > 0:
            time.sleep(wait)
    elif cmd == "mark":
        open(a[0], "w").close()
    elif cmd == "unplug":
        ui.close()
        down.clear()
    elif cmd == "plug":
        ui = make(a[0])
    elif cmd == "play":
        play(a[0], float(a[1]), float(a[2]))
    else:
        raise SystemExit(f"finger.py: unknown command {cmd!r}")


def first_frame(fd, seconds):
    """The kernel time of the first event read from fd within `seconds`, else None. Waits in
    select: a polling loop would take the emulated CPU from udev and the daemon it times."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        if not select.select([fd], [], [], left)[0]:
            return None
        try:
            data = os.read(fd, 24 * 64)
        except BlockingIOError:
            continue
        sec, usec, _, _, _ = struct.unpack_from("llHHi", data)
        return sec + usec / 1e6
    return None


def probe(clone, out):
    fd = os.open(clone, os.O_RDONLY | os.O_NONBLOCK)
    fcntl.ioctl(fd, 0x400445A0, struct.pack("i", time.CLOCK_MONOTONIC))  # EVIOCSCLOCKID
    seen = None
    while seen is None:
        touch_down(0, 100, 60)
        seen = first_frame(fd, 0.03)
        touch_up(0)
        seen = seen or first_frame(fd, 0.03)
    os.close(fd)
    with open(out, "w") as f:
        f.write(f"{seen - CREATED:.3f} {seen:.6f}\n")


if os.environ.get("FINGER_PROBE"):
    probe(*os.environ["FINGER_PROBE"].split())

zero = time.monotonic()
for line in sys.stdin:
    p = line.split()
    if p and not p[0].startswith("#"):
        run(p[0], p[1:])
