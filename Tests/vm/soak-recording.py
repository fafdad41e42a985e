#!/usr/bin/env python3
"""Writes one long evemu events file: STROKES strokes taken in turn from the given recordings,
each played SPEED times as fast as it was recorded (1 keeps its timing), PAUSE_S seconds apart
(the soak of scenario 30).

    soak-recording.py STROKES PAUSE_S SPEED RECORDING... > soak.events

The same file is played live (evemu-play) and replayed (`gestured replay`), so the two gesture
counts must be equal.
"""
import sys


def events(path):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 5 and p[0] == "E:":
                out.append((float(p[1]), p[2], p[3], p[4]))
    return out


def main():
    strokes, pause, speed = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    recordings = [events(p) for p in sys.argv[4:]]
    t = 1000.0
    write = sys.stdout.write
    for i in range(strokes):
        rec = recordings[i % len(recordings)]
        t0 = rec[0][0]
        for time, typ, code, value in rec:
            write(f"E: {t + (time - t0) / speed:.6f} {typ} {code} {value}\n")
        t += (rec[-1][0] - t0) / speed + pause


main()
