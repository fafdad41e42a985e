# 25. The panel goes and comes back (issue 48): a passed-through touchscreen (finger.py) is
# destroyed with a finger down and made again with the same identity. The app (libinput reading
# the clone) has its touch ended as the panel goes, never sees the clone removed or added (nor
# does udev: its node and device stay), and touch reaches it through the same clone within 1 s
# of the panel's return. The same panel back changed (contact size added: another axis) and
# another panel each get a new clone; a clone whose panel does not return goes after
# keep_clone_s (60 s here).
# time-limit: 400
source "$VMDIR/passthrough.sh"
stdbuf -oL udevadm monitor --kernel --subsystem-match=input > "$SDIR/udev.log" 2>&1 &
track $!
PASSTHROUGH_CONFIG=replug passthrough_start
clone_sys=$(readlink -f "/sys/class/input/${CLONE##*/}"); clone_sys=${clone_sys#/sys}
libinput_start app --device "$CLONE"
say "clone $CLONE ($clone_sys)"

# clone_status: the clone's node in `status`.
clone_status() { socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p'; }
uptime_now() { cut -d' ' -f1 /proc/uptime; }

# A finger is down and has moved when the panel goes: the app's touch ends, at once.
n=$(libinput_mark app)
finger "down 0 100 60" "move 0 104 60" "move 0 108 60"
wait_until 10 test "$(app_count app "$n" TOUCH_DOWN)" -ge 1 || die "the finger did not reach the app: $(app_show app "$n")"
gone_at=$(uptime_now)
finger_stop
wait_until 5 test "$(app_count app "$n" '(TOUCH_UP|TOUCH_CANCEL)')" -ge 1 || die "the touch down when the panel went did not end: $(app_show app "$n")"
ended_at=$(uptime_now)
say "the app's touch ended $(awk -v a="$gone_at" -v b="$ended_at" 'BEGIN { printf "%.2f", b - a }') s after the panel was stopped (upper bound)"
[ -c "$CLONE" ] || die "the clone went with its panel"
wait_until 5 grep -q "waits 60 s for its return" "$SDIR/daemon.log" || die "no line for the kept clone: $(tail -3 "$SDIR/daemon.log")"
socket_command '{"status":true}' | grep -q "\"kept_clones\":\[{\"panel\":\"Passthrough Touchscreen\",\"clone\":\"$CLONE\"" \
  || die "status does not show the kept clone: $(socket_command '{"status":true}' | cut -c1-300)"

# The same panel comes back: the same clone, and touch through it within 1 s: finger.py taps
# from the moment it exists until a frame reaches the clone (FINGER_PROBE).
FINGER_PROBE="$CLONE $WORK/return.s" finger_start
wait_until 30 test -s "$WORK/return.s" || die "no tap reached the clone after the return: $(tail -3 "$SDIR/finger.log")"
delay=$(cat "$WORK/return.s")
say "touch works through the clone $delay s after the panel's return (its creation to the first frame on the clone, taps every 60 ms)"
grep -q "back, passed through to its kept clone $CLONE" "$SDIR/daemon.log" || die "the panel did not take its kept clone: $(grep -E 'passed through|clone' "$SDIR/daemon.log" | tail -3)"
[ "$(clone_status)" = "$CLONE" ] || die "status shows the clone $(clone_status), not $CLONE"
awk -v d="$delay" 'BEGIN { exit !(d <= 1.0) }' || die "touch took $delay s after the panel's return, more than 1 s"
n=$(libinput_mark app)
finger "stroke 0 70 60 128 60 400"
wait_until 10 test "$(app_count app "$n" TOUCH_UP)" -ge 1 || die "the stroke after the return did not reach the app: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_MOTION)" -ge 20 ] || die "the stroke's motion is missing: $(app_show app "$n")"
grep -q " remove .*$clone_sys " "$SDIR/udev.log" && die "udev saw the clone removed: $(grep "$clone_sys" "$SDIR/udev.log")"
grep -q DEVICE_REMOVED "$SDIR/app.libinput" && die "the app saw the clone removed: $(grep DEVICE_ "$SDIR/app.libinput")"
say "same panel back: the same clone $CLONE, never removed; a stroke passed through"

# The same panel back changed (contact size: another axis): its clone goes, a new one comes.
finger_stop
FINGER_SIZE=1 finger_start
wait_until 10 grep -q "clone $CLONE .* removed: its panel came back changed" "$SDIR/daemon.log" \
  || die "the changed panel's old clone was not removed: $(grep clone "$SDIR/daemon.log" | tail -3)"
wait_until 10 grep -q " remove .*$clone_sys " "$SDIR/udev.log" || die "udev did not see the old clone removed"
wait_until 10 test "$(grep -c 'Passthrough Touchscreen: passed through to' "$SDIR/daemon.log")" -ge 2 || die "the changed panel got no new clone"
CLONE2=$(clone_status); clone2_sys=$(readlink -f "/sys/class/input/${CLONE2##*/}"); clone2_sys=${clone2_sys#/sys}
[ -c "$CLONE2" ] || die "no new clone in status"
say "changed panel: old clone removed, new clone $CLONE2 ($clone2_sys)"

# Another panel: it gets its own clone; the kept one waits for its own, then goes at its time.
finger_stop
FINGER_NAME="Passthrough Other" finger_start
wait_until 10 grep -q "Passthrough Other: passed through to" "$SDIR/daemon.log" || die "the other panel got no clone"
[ -c "$CLONE2" ] || die "the other panel's arrival removed the kept clone"
wait_until 90 grep -q "clone $CLONE2 .* removed: its panel did not return in time" "$SDIR/daemon.log" \
  || die "the kept clone did not expire: $(grep clone "$SDIR/daemon.log" | tail -3)"
wait_until 10 test ! -e "$CLONE2" || die "the expired clone's node is still there"
say "another panel: its own clone; the kept one removed after keep_clone_s"
expect_daemon_alive "at the end"
