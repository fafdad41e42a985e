#!/usr/bin/env python3
"""Plays an evemu recording into an evdev node and notes when each stroke's last event went in.

    play-timed.py NODE RECORDING REPEAT PAUSE_S > stroke-ends.txt

Writes the recording's events to NODE (like evemu-play: writing to an evdev node injects
the events into the device, and every reader sees them) REPEAT times, keeping the recorded
timing within one pass and pausing PAUSE_S seconds between passes. After the SYN_REPORT that
ends each stroke (the frame in which the last finger lifts: BTN_TOUCH 0) it prints the
CLOCK_REALTIME time in seconds, one line per stroke: the reference for command latency.
"""
import os
import struct
import sys
import time

EVENT = struct.Struct("llHHi")
EV_SYN, EV_KEY, BTN_TOUCH = 0, 1, 0x14A


def load(path):
    events = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 5 and p[0] == "E:":
                events.append((float(p[1]), int(p[2], 16), int(p[3], 16), int(p[4])))
    return events


def main():
    node, path, repeat, pause = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
    events = load(path)
    fd = os.open(node, os.O_WRONLY)
    for _ in range(repeat):
        start = time.monotonic()
        t0 = events[0][0]
        lifted = False
        for t, typ, code, value in events:
            delay = (t - t0) - (time.monotonic() - start)
            if delay > 0:
                time.sleep(delay)
            os.write(fd, EVENT.pack(0, 0, typ, code, value))
            if typ == EV_KEY and code == BTN_TOUCH and value == 0:
                lifted = True
            if typ == EV_SYN and code == 0 and lifted:
                print(f"{time.clock_gettime(time.CLOCK_REALTIME):.6f}", flush=True)
                lifted = False
        time.sleep(pause)


if __name__ == "__main__":
    main()
