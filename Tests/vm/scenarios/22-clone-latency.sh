# 22. The clone's added latency, beside a bare C forwarder (grab, libevdev uinput clone, copy)
# in the same VM run (clone-latency.sh): the same one-finger strokes, 3 rounds of 310 frames (10 strokes of 30 moves and a lift) on
# each, kernel timestamps at the clone, CLOCK_MONOTONIC before each frame's write. gestured
# (passthrough, every default recognizer on) adds at most 1.5x the forwarder's median and p99
# (one more measurement allowed for a lag of the shared host), delivers at least 880 of 930
# frames (no stroke taken from the app), and `status` and `doctor` show its own figures.
# The release build (HID_GESTURED, as scripts/test.sh gives it): a debug build is refused.
# time-limit: 300
DAEMON_START_S=120
bash "$VMDIR/clone-latency.sh" --inside "$SDIR" "$REPO" "${HID_GESTURED:-$GESTURED}" 3 10 none --max-ratio 1.5 --min-frames 880 \
  || die "$(grep -h '^FAIL' "$SDIR/log" | head -1)"
