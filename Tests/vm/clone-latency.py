#!/usr/bin/python3
"""What a passthrough adds to a touch's way to the app, measured from outside (clone-latency.sh).

    clone-latency.py sources NAME_A NODE_FILE_A NAME_B NODE_FILE_B [NAME_C NODE_FILE_C] < commands
    clone-latency.py summary [--max-ratio R] [--min-frames N] BASE=FILE... OTHER=FILE...
    clone-latency.py first [--max-times K] NAME=FIRST_FILE,WARM_FILE...

`sources` makes two (or three) touchscreens through /dev/uinput (200 x 120 mm, 20 units/mm, 10 slots,
INPUT_PROP_DIRECT, as finger.py), writes each one's event node to its file, then runs one
command per line of stdin:

    round A|B|C CLONE STROKES FRAMES OUT STROKES one-finger strokes of FRAMES frames each on
                                         source A, B or C, a frame every 10 ms (1 mm right each),
                                         100 ms between strokes; OUT gets one line per frame the
                                         clone CLONE delivered: "sent_s clone_s x y" (x "up" for
                                         a stroke's lift)
    mark FILE                            creates FILE (the caller waits for it)

Each frame is one write(2) of its events to /dev/uinput: the kernel stamps the frame during that
write, and `sent` is CLOCK_MONOTONIC read just before it. The clone is read with its clock set
to CLOCK_MONOTONIC (EVIOCSCLOCKID): `clone` is the kernel's timestamp of the frame the forwarder
wrote, whenever this script reads it. Frames are matched by content (each stroke has its own y,
each frame its own x). The clone is drained while waiting for the next frame: one thread, so no
other thread can run between the clock read and the write. A frame goes out when the wait for
it ends, late if the VM is slow: its own time is what counts, not the schedule. The lifts count: they are where
gestured decides the shapes (circle, checkmark, taught shapes).

`summary` prints, per forwarder, the added latency (clone - sent) of all its frames: median,
p99 (nearest rank), max and count, then each one's ratio to the first (BASE). With --max-ratio,
exits 1 when a median or p99 ratio is above it or a forwarder delivered fewer than --min-frames.

`first` sets the first stroke after a forwarder started (FIRST_FILE, its frames) against the same
forwarder warm (WARM_FILE, its measured rounds): the first stroke's worst frame, its first seven
frames, and the worst frame's multiple of the warm p99. With --max-times, exits 1 when the LAST
NAME's (gestured's; the others are for comparison) worst frame is above K times its warm p99,
or its first stroke lost more than a tenth of its frames.
"""
import fcntl
import os
import select
import struct
import sys
import time

EVENT = struct.Struct("llHHi")
EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH = 0, 0x14A
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_X, ABS_MT_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2F, 0x35, 0x36, 0x39
EVIOCSCLOCKID = 0x400445A0  # _IOW('E', 0xa0, int)
FRAME_S, STROKE_PAUSE_S, STEP = 0.010, 0.100, 20  # 20 units: 1 mm
# Strokes played so far: each stroke's y differs from the last one's, whatever the round (the
# kernel drops a value equal to the slot's last, and a reader opened for a round has not seen it).
strokes_played = 0


def make_source(name, node_file):
    from evdev import AbsInfo, UInput, ecodes as e

    def axis(mm):
        return AbsInfo(value=0, min=0, max=mm * 20 - 1, fuzz=0, flat=0, resolution=20)

    caps = {
        e.EV_KEY: [e.BTN_TOUCH],
        e.EV_ABS: [(e.ABS_X, axis(200)), (e.ABS_Y, axis(120)), (e.ABS_MT_SLOT, AbsInfo(0, 0, 9, 0, 0, 0)),
                   (e.ABS_MT_POSITION_X, axis(200)), (e.ABS_MT_POSITION_Y, axis(120)),
                   (e.ABS_MT_TRACKING_ID, AbsInfo(0, 0, 65535, 0, 0, 0))],
    }
    ui = UInput(caps, name=name, vendor=0x1234, product=0x5679, bustype=e.BUS_USB, input_props=[e.INPUT_PROP_DIRECT])
    with open(node_file, "w") as f:
        f.write(ui.device.path + "\n")
    return ui


def frame(*events):
    return b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events) + EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0)


class CloneReader:
    """The clone's frames, keyed by where the finger is: (x, y) -> kernel time."""

    def __init__(self, node):
        self.fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
        fcntl.ioctl(self.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        self.x = self.y = None
        self.moved = self.lifted = False
        self.frames = {}
        self.pending = b""

    def drain(self, until):
        """Reads what the clone sends until CLOCK_MONOTONIC `until` (sleeping in select: a
        busy wait would take one of the VM's two CPUs from the forwarders)."""
        while True:
            timeout = until - time.monotonic()
            if timeout <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                return
            try:
                data = os.read(self.fd, EVENT.size * 256)
            except BlockingIOError:
                return
            self.pending += data
            n = len(self.pending) // EVENT.size
            for i in range(n):
                sec, usec, typ, code, value = EVENT.unpack_from(self.pending, i * EVENT.size)
                if typ == EV_ABS and code == ABS_MT_X:
                    self.x, self.moved = value, True
                elif typ == EV_ABS and code == ABS_MT_Y:
                    self.y, self.moved = value, True
                elif typ == EV_ABS and code == ABS_MT_TRACKING_ID and value == -1:
                    self.lifted = True
                elif typ == EV_SYN and code == SYN_REPORT:
                    t = sec + usec / 1e6
                    if self.moved:
                        self.frames.setdefault((self.x, self.y), t)
                    if self.lifted:
                        self.frames.setdefault(("up", self.y), t)
                    self.moved = self.lifted = False
            self.pending = self.pending[n * EVENT.size:]

    def close(self):
        os.close(self.fd)


def play_round(ui, clone_node, strokes, frames, out):
    global strokes_played
    reader = CloneReader(clone_node)
    sent = {}
    tracking = 1000
    next_t = time.monotonic() + 0.05
    for k in range(strokes):
        y = 600 + 8 * (strokes_played % 60)  # 30–53.6 mm from the top: clear of every edge band
        strokes_played += 1
        for i in range(frames):
            x = 400 + STEP * i
            if i == 0:
                tracking += 1
                events = frame((EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, tracking), (EV_ABS, ABS_MT_X, x),
                               (EV_ABS, ABS_MT_Y, y), (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y))
            else:
                events = frame((EV_ABS, ABS_MT_X, x), (EV_ABS, ABS_X, x))
            reader.drain(next_t)
            t = time.clock_gettime(time.CLOCK_MONOTONIC)
            os.write(ui.fd, events)
            sent[(x, y)] = t
            next_t += FRAME_S
        reader.drain(next_t)
        t = time.clock_gettime(time.CLOCK_MONOTONIC)
        os.write(ui.fd, frame((EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0)))
        sent[("up", y)] = t
        next_t += STROKE_PAUSE_S
    reader.drain(time.monotonic() + 0.5)
    reader.close()
    with open(out, "w") as f:
        for key, t in sent.items():
            if key in reader.frames:
                f.write(f"{t:.6f} {reader.frames[key]:.6f} {key[0]} {key[1]}\n")


def sources(argv):
    devices = {letter: make_source(argv[2 * i], argv[2 * i + 1]) for i, letter in zip(range(len(argv) // 2), "ABC")}
    for line in sys.stdin:
        p = line.split()
        if not p:
            continue
        if p[0] == "round":
            play_round(devices[p[1]], p[2], int(p[3]), int(p[4]), p[5])
        elif p[0] == "mark":
            open(p[1], "w").close()


def percentile(sorted_values, p):
    return sorted_values[max(1, -(-int(p * 1000) * len(sorted_values) // 1000)) - 1]


def summary(argv):
    max_ratio = min_frames = None
    while argv and argv[0].startswith("--"):
        if argv[0] == "--max-ratio":
            max_ratio = float(argv[1])
        elif argv[0] == "--min-frames":
            min_frames = int(argv[1])
        argv = argv[2:]
    groups = {}
    for arg in argv:
        label, path = arg.split("=", 1)
        with open(path) as f:
            groups.setdefault(label, []).extend((float(c) - float(s)) * 1000 for s, c, _, _ in (l.split() for l in f if l.strip()))
    figures = {}
    ok = True
    for label, added in groups.items():
        added.sort()
        if not added:
            print(f"{label}: no frame came through its clone")
            ok = False
            continue
        figures[label] = (percentile(added, 0.5), percentile(added, 0.99))
        print(f"{label}: added latency median {figures[label][0]:.3f} ms, p99 {figures[label][1]:.3f} ms, "
              f"max {added[-1]:.3f} ms, {len(added)} frames")
        if min_frames is not None and len(added) < min_frames:
            print(f"{label}: only {len(added)} frames came through its clone (at least {min_frames} expected)")
            ok = False
    base = next(iter(groups))
    for label in groups:
        if label == base or label not in figures or base not in figures:
            continue
        r50, r99 = figures[label][0] / figures[base][0], figures[label][1] / figures[base][1]
        print(f"{label} / {base}: median {r50:.2f}x, p99 {r99:.2f}x")
        if max_ratio is not None and (r50 > max_ratio or r99 > max_ratio):
            print(f"{label}: above {max_ratio}x the {base}'s added latency")
            ok = False
    return 0 if ok else 1


def added_ms(path):
    """The added latency of each frame of a frames file, in the order they were sent."""
    with open(path) as f:
        rows = sorted((float(s), float(c)) for s, c, _, _ in (l.split() for l in f if l.strip()))
    return [(c - s) * 1000 for s, c in rows]


def first(argv):
    max_times = None
    if argv and argv[0] == "--max-times":
        max_times, argv = float(argv[1]), argv[2:]
    ok = True
    for arg in argv:
        label, paths = arg.split("=", 1)
        first_file, warm_file = paths.split(",")
        stroke, warm = added_ms(first_file), sorted(added_ms(warm_file))
        if not stroke or not warm:
            print(f"{label}: no frame of its first stroke ({len(stroke)}) or warm rounds ({len(warm)}) came through")
            ok = False
            continue
        p99, worst = percentile(warm, 0.99), max(stroke)
        print(f"{label}: first stroke after start: worst frame {worst:.3f} ms = {worst / p99:.2f}x the warm p99 "
              f"({p99:.3f} ms, warm median {percentile(warm, 0.5):.3f} ms), {len(stroke)} frames; first seven: "
              + " ".join(f"{v:.2f}" for v in stroke[:7]) + " ms")
        if max_times is not None and arg == argv[-1]:
            if worst > max_times * p99:
                print(f"{label}: the first stroke's worst frame is above {max_times}x the warm p99")
                ok = False
            if len(stroke) < 28:  # a stroke is 31 frames (30 moves and the lift)
                print(f"{label}: only {len(stroke)} of the first stroke's 31 frames came through")
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "sources":
        sources(sys.argv[2:])
    elif sys.argv[1] == "first":
        sys.exit(first(sys.argv[2:]))
    else:
        sys.exit(summary(sys.argv[2:]))
