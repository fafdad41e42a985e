#!/usr/bin/env python3
"""A control reader for the overflow scenario: proves the kernel really dropped events.

    stalled-reader.py NODE READY_FILE GO_FILE

Opens the evdev NODE, creates READY_FILE, then does NOT read until GO_FILE exists — like a
stopped daemon. Then reads what is queued and prints "frames=N syn_dropped=M". A stalled
reader of a real kernel device must see SYN_DROPPED once more events arrived than its
client buffer holds.
"""
import os
import struct
import sys
import time

EVENT = struct.Struct("llHHi")  # struct input_event on 64-bit Linux
EV_SYN, SYN_REPORT, SYN_DROPPED = 0, 0, 3

node, ready, go = sys.argv[1:4]
fd = os.open(node, os.O_RDONLY | os.O_NONBLOCK)
open(ready, "w").close()
while not os.path.exists(go):
    time.sleep(0.05)
frames = dropped = 0
while True:
    try:
        data = os.read(fd, EVENT.size * 512)
    except BlockingIOError:
        break
    if not data:
        break
    for off in range(0, len(data) - EVENT.size + 1, EVENT.size):
        _, _, typ, code, _ = EVENT.unpack_from(data, off)
        if typ == EV_SYN and code == SYN_REPORT:
            frames += 1
        elif typ == EV_SYN and code == SYN_DROPPED:
            dropped += 1
print(f"frames={frames} syn_dropped={dropped}")
