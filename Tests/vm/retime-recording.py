#!/usr/bin/python3
"""A cut recording (cut-recording.py) re-timed the way a slower player would have sent it.

    retime-recording.py CUT stretch K      every event K times further from the first one: each
                                           scan K times longer (a player that steps by scans)
    retime-recording.py CUT gap AT GAP     the frames from AT s on come GAP s later (one late scan)
    retime-recording.py CUT hover K        stretched K times, and each lift sent with the tip off
                                           but In Range on (hid-tools' Touch default)

The output goes to stdout, for `gestured replay`. A Win8 panel's kernel driver (hid-multitouch,
MT_QUIRK_STICKY_FINGERS) lifts every contact 100 ms after the last report. So with GAP over
0.1 s, every contact that is down is lifted 100 ms after the last frame before AT, and lands
again under a new tracking id, at its last position, when the frames resume. This is how the
N-Trig 1b96:0c01 losses of a field harness were reproduced (docs/testing.md). With In Range
on, a panel with an In Range field (MT_QUIRK_HOVERING) keeps the lifted contact as a hover
(ABS_MT_DISTANCE 1) until that timer: hover mode ends each tracking id 100 ms after the last frame.
"""
import sys

SLOT, X, Y, TRACKING_ID, DISTANCE = 0x2F, 0x35, 0x36, 0x39, 0x3B
STICKY_S = 0.1


def event(t, code, value):
    return f"E: {t:.6f} 0003 {code:04x} {value}"


def stretch(lines, t0, k):
    for line in lines:
        if line.startswith("E:"):
            p = line.split()
            p[1] = f"{t0 + (float(p[1]) - t0) * k:.6f}"
            line = " ".join(p)
        yield line


def delay(lines, t0, at, gap):
    down, place, slot, last, late = {}, {}, 0, t0, False
    for line in lines:
        if not line.startswith("E:"):
            yield line
            continue
        p = line.split()
        t, kind, code, value = float(p[1]), int(p[2], 16), int(p[3], 16), int(p[4])
        if not late and t - t0 >= at:
            late = True
            if gap > STICKY_S:
                held = [s for s, d in down.items() if d]
                for s in held:
                    yield event(last + STICKY_S, SLOT, s)
                    yield event(last + STICKY_S, TRACKING_ID, -1)
                yield f"E: {last + STICKY_S:.6f} 0000 0000 0"
                for s in held:
                    yield event(t + gap, SLOT, s)
                    yield event(t + gap, TRACKING_ID, 900 + s)
                    yield event(t + gap, X, place[s][0])
                    yield event(t + gap, Y, place[s][1])
                yield event(t + gap, SLOT, slot)
        if late:
            t += gap
            p[1] = f"{t:.6f}"
        if kind == 3 and code == SLOT:
            slot = value
        elif kind == 3 and code == TRACKING_ID:
            down[slot] = value >= 0
        elif kind == 3 and code in (X, Y):
            x, y = place.get(slot, (0, 0))
            place[slot] = (value, y) if code == X else (x, value)
        elif kind == 0 and code == 0:
            last = t
        yield " ".join(p)


def hover(lines):
    hovering, slot, last = [], 0, None
    for line in lines:
        p = line.split()
        if line.startswith("E:"):
            kind, code, value = int(p[2], 16), int(p[3], 16), int(p[4])
            if kind == 3 and code == SLOT:
                slot = value
            elif kind == 3 and code == TRACKING_ID and value < 0:
                hovering.append(slot)
                yield event(float(p[1]), DISTANCE, 1)
                continue
            elif kind == 0 and code == 0:
                last = float(p[1])
        yield line
    for s in hovering:
        yield event(last + STICKY_S, SLOT, s)
        yield event(last + STICKY_S, TRACKING_ID, -1)
    yield f"E: {last + STICKY_S:.6f} 0000 0000 0"


def main():
    if len(sys.argv) < 4 or sys.argv[2] not in ("stretch", "gap", "hover"):
        sys.exit(__doc__)
    lines = open(sys.argv[1]).read().splitlines()
    t0 = float(next(l for l in lines if l.startswith("E:")).split()[1])
    if sys.argv[2] == "stretch":
        out = stretch(lines, t0, float(sys.argv[3]))
    elif sys.argv[2] == "hover":
        out = hover(list(stretch(lines, t0, float(sys.argv[3]))))
    else:
        if len(sys.argv) < 5:
            sys.exit(__doc__)
        out = delay(lines, t0, float(sys.argv[3]), float(sys.argv[4]))
    print("\n".join(out))


if __name__ == "__main__":
    main()
