# 14. Kiosk modes, as the app sees them (a real `libinput debug-events` on the clone): locked
# (`passthrough = "none"`), the app sees nothing while a circle still runs its binding, and a
# touchscreen plugged in then without a clone is named in the log (the app reads it); the
# secret sequence (four corner taps) unlocks, and from the normal mode none of its taps reaches
# the app; a touch on a dark screen (the dpms file says Off) or in the asleep mode only wakes it:
# the wake command runs, the app gets nothing, the next touch passes. Every change is an event.
# It takes 59–71 s on a quiet host and 121 s with the host at load 5 (libinput's start-up and
# the modes' idle waits under the emulator), so its own limit:
# time-limit: 300
source "$VMDIR/passthrough.sh"
SOCK=$WORK/gestured.sock
echo On > "$WORK/dpms"
finger_start
daemon_start "$(config modes)"
client_start c
wait_daemon_opens "$FINGER_node"
wait_until 30 grep -q 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
udevadm settle --timeout=10
CLONE=$(socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
[ -c "$CLONE" ] || die "status shows no clone"
libinput_start app --device "$CLONE"
socket_command '{"status":true}' | grep -q '"mode":"normal"' || die "status does not show mode normal: $(socket_command '{"status":true}')"
app_tap app 100 60
say "normal: a tap passed through at $TAP_AT mm"

# Locked: nothing reaches the app, a circle still runs its binding.
m=$(lines "$SDIR/c.jsonl")
reply=$(socket_command '{"mode":"locked"}')
[ "$reply" = '{"ok":true,"mode":"locked"}' ] || die "mode command replied $reply"
wait_event 10 "$SDIR/c.jsonl" --after "$m" event=mode mode=locked previous=normal reason=socket
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
finger "tap 100 60" "sleep 300" "circle 100 60 25 1200"
wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=circle phase=recognized
wait_until 10 test -s "$WORK/circle.log" || die "the circle's binding did not run in mode locked"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "locked, the app saw: $(app_show app "$n")"
say "locked: the circle ran its binding, libinput saw nothing"
# A touchscreen plugged in while locked, without passthrough: the app reads it directly, and the
# daemon says so (it cannot keep that device's touches from the app).
device_add other "$ISDV4.desc"
wait_daemon_opens "$other_node"
wait_until 10 grep -q 'mode locked gives the app nothing, but Wacom ISDv4 E6 Finger has no clone' "$SDIR/daemon.log" \
  || die "no warning for the device without a clone plugged in while locked: $(tail -5 "$SDIR/daemon.log")"
device_remove other
say "locked: a device without a clone plugged in was named in the log"

# The sequence unlocks.
m=$(lines "$SDIR/c.jsonl")
finger "tap 5 5" "sleep 400" "tap 195 5" "sleep 400" "tap 195 115" "sleep 400" "tap 5 115"
wait_event 10 "$SDIR/c.jsonl" --after "$m" event=mode mode=maintenance previous=locked "reason=sequence"
app_tap app 100 60
say "the sequence unlocked: maintenance, a tap passes at $TAP_AT mm"

# From normal, where the app gets every touch, the sequence's taps press nothing under them.
socket_command '{"mode":"normal"}' > /dev/null
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
finger "tap 5 5" "sleep 400" "tap 195 5" "sleep 400" "tap 195 115" "sleep 400" "tap 5 115"
wait_event 10 "$SDIR/c.jsonl" --after "$m" event=mode mode=maintenance previous=normal "reason=sequence"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "the sequence's taps reached the app: $(app_show app "$n")"
say "from normal: the sequence switched modes and libinput saw none of its taps"

# A dark screen: the first touch only wakes it; the next one passes.
echo Off > "$WORK/dpms"
n=$(libinput_mark app)
finger "tap 100 60"
wait_until 10 test -s "$WORK/wake.log" || die "the wake command did not run: $(tail -5 "$SDIR/daemon.log")"
echo On > "$WORK/dpms"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "the waking touch reached the app: $(app_show app "$n")"
app_tap app 100 60
say "dark screen: the first touch woke it unseen, the next passed at $TAP_AT mm"

# The asleep mode (what a screensaver sets): the first touch wakes into normal, unseen.
socket_command '{"mode":"asleep"}' > /dev/null
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
finger "tap 100 60"
wait_event 10 "$SDIR/c.jsonl" --after "$m" event=mode mode=normal previous=asleep reason=wake
wait_until 10 at_least 2 grep -c '' "$WORK/wake.log" || die "the wake command did not run again"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "the touch that woke the asleep mode reached the app: $(app_show app "$n")"
app_tap app 100 60
say "asleep: the touch woke it into normal unseen; the next passed at $TAP_AT mm"
expect_daemon_alive "at the end"
