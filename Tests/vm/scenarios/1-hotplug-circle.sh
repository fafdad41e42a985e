# 1. The daemon starts with no touch device; a touchscreen is plugged in; a recorded circle is
# played on it: the circle arrives on the socket and the bound command runs with its data.
for n in /dev/input/event*; do
  [ "$(udev_prop "$n" ID_INPUT_TOUCHSCREEN)" = 1 ] && die "a touchscreen ($n) exists before the test"
done
SOCK=$WORK/gestured.sock
daemon_start "$(config hotplug)"
client_start c
# The product's own client too: `gestured listen --json`.
"$GESTURED" listen --json --socket "$SOCK" > "$SDIR/listen.jsonl" 2> "$SDIR/listen.err" &
track $!
sleep 1

device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
play "$TS_node" "$ISDV4.single-center-circle.events"

# The recording's circle spans x 0.41–0.59, y 0.33–0.57 of the axes: its centre is near (0.50, 0.45).
wait_event 20 "$SDIR/c.jsonl" gesture=circle phase=recognized "device=Wacom ISDv4 E6 Finger" \
  device_id~. fingers=1 center.x\>0.42 center.x\<0.58 center.y\>0.35 center.y\<0.55
wait_until 10 grep -q 'GESTURE_NAME=circle' "$WORK/actions.log" 2>/dev/null \
  || die "the bound command did not run: $(cat "$WORK/actions.log" 2>&1)"
cp "$WORK/actions.log" "$SDIR/actions.log"
say "action: $(head -1 "$WORK/actions.log")"
grep -q 'GESTURE_DEVICE=Wacom ISDv4 E6 Finger' "$WORK/actions.log" || die "the command's GESTURE_DEVICE is wrong: $(cat "$WORK/actions.log")"
[ "$(grep -c 'GESTURE_NAME=circle' "$WORK/actions.log")" -eq 1 ] || die "the command ran more than once for one circle"
wait_event 5 "$SDIR/listen.jsonl" gesture=circle phase=recognized
expect_daemon_alive "after the circle"
