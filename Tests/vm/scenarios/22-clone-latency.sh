# 22. The clone's added latency, beside a bare C forwarder (grab, libevdev uinput clone, copy)
# in the same VM run (clone-latency.sh): the same one-finger strokes, 3 rounds of 310 frames (10 strokes of 30 moves and a lift) on
# each, kernel timestamps at the clone, CLOCK_MONOTONIC before each frame's write. gestured
# (passthrough, every default recognizer on) adds at most 2.5x the forwarder's median and p99
# (one more measurement allowed for a lag of the shared host), delivers at least 880 of 930
# frames (no stroke taken from the app), and `status` and `doctor` show its own figures. The
# first stroke after the daemon started (issue 48) is timed on its own: its worst frame within
# twice gestured's warm p99 (FIRST_MAX; one more start allowed for a lag on that one frame).
# The bound is a guard against a clone path that waits (a log line, a socket write, a timer
# per frame: the issue's before was 3.1x at p99), not the 1.5x target: on the loaded CI host the
# emulated VM's own scheduling moves both forwarders' figures by milliseconds (2026-11-28, load
# 9: the bare forwarder's p99 55 ms; docs/performance.md, "Clone latency"). The 1.5x target is
# measured with `Tests/vm/clone-latency.sh` on a quiet host.
# The release build (HID_GESTURED, as scripts/test.sh gives it): a debug build is refused.
# time-limit: 300
DAEMON_START_S=120
FIRST_MAX=2 bash "$VMDIR/clone-latency.sh" --inside "$SDIR" "$REPO" "${HID_GESTURED:-$GESTURED}" 3 10 none --max-ratio 2.5 --min-frames 880 \
  || die "$(grep -h '^FAIL' "$SDIR/log" | head -1)"
