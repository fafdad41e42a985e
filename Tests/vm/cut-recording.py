#!/usr/bin/python3
"""One touch sequence cut out of an evemu recording, replayable on its own.

    cut-recording.py RECORDING             lists the sequences: number, contacts, time, frames
    cut-recording.py RECORDING N [START]   prints sequence N (from 0) with its description

A sequence runs from a frame after which no contact is down to the frame where none is down
again (as the arena sees it). The kernel sends a slot's ABS_MT_POSITION_X/Y only when they
change, so a contact that lands where the slot's last one was has no position event: each
contact that lands in the cut gets the slot's positions from before the cut, right after its
tracking id. Times are shifted so the sequence starts at START seconds (default 1.0).
For scenario 50's recordings (HID_RECORD): docs/testing.md.
"""
import sys

SLOT, X, Y, TRACKING_ID = 0x2F, 0x35, 0x36, 0x39


def parse(path):
    head, events = [], []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("E:"):
            f = line.split("#")[0].split()
            events.append((float(f[1]), int(f[2], 16), int(f[3], 16), int(f[4])))
        elif line[:2] in ("N:", "I:", "P:", "B:", "A:") or line.startswith("# EVEMU"):
            head.append(line)
    return head, events


def frames(events):
    frame = []
    for e in events:
        frame.append(e)
        if e[1] == 0 and e[2] == 0:
            yield frame
            frame = []


def sequences(events):
    """(frames, slot positions before it) for each sequence."""
    slot, ids, pos = 0, {}, {}
    out, current, before = [], [], None
    for frame in frames(events):
        if not current:
            before = {s: dict(p) for s, p in pos.items()}
        for _, t, c, v in frame:
            if t != 3:
                continue
            if c == SLOT:
                slot = v
            elif c == TRACKING_ID:
                ids[slot] = v
            elif c in (X, Y):
                pos.setdefault(slot, {})[c] = v
        current.append(frame)
        if not any(v >= 0 for v in ids.values()):
            out.append((current, before))
            current = []
    return out


def main():
    head, events = parse(sys.argv[1])
    seqs = sequences(events)
    if len(sys.argv) < 3:
        for n, (fs, _) in enumerate(seqs):
            contacts = sum(1 for f in fs for e in f if e[2] == TRACKING_ID and e[3] >= 0)
            print(f"{n}: {contacts} contacts, {fs[-1][-1][0] - fs[0][0][0]:.3f} s from {fs[0][0][0]:.3f} s, {len(fs)} frames")
        return 0
    fs, before = seqs[int(sys.argv[2])]
    shift = (float(sys.argv[3]) if len(sys.argv) > 3 else 1.0) - fs[0][0][0]
    print("\n".join(head))
    # The slot selected before the cut, and each slot's positions as the cut goes on.
    slot = next((e[3] for e in events[:events.index(fs[0][0])][::-1] if e[1] == 3 and e[2] == SLOT), 0)
    pos = before
    for frame in fs:
        for i, (t, ty, c, v) in enumerate(frame):
            print(f"E: {t + shift:.6f} {ty:04x} {c:04x} {v}")
            if ty != 3:
                continue
            if c == SLOT:
                slot = v
            elif c in (X, Y):
                pos.setdefault(slot, {})[c] = v
            elif c == TRACKING_ID and v >= 0:
                # The positions this frame does not give the slot (up to its next slot change).
                given = set()
                for _, t2, c2, _ in frame[i + 1:]:
                    if t2 == 3 and c2 == SLOT:
                        break
                    given.add(c2)
                for axis in (X, Y):
                    if axis not in given and axis in pos.get(slot, {}):
                        print(f"E: {t + shift:.6f} 0003 {axis:04x} {pos[slot][axis]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
