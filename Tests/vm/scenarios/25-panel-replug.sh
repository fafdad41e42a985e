# 25. The panel goes and comes back (issue 48): a passed-through touchscreen (finger.py) is
# destroyed with a finger down and made again with the same identity. The app (libinput reading
# the clone) has its touch ended as the panel goes, never sees the clone removed or added (nor
# does udev: its node and device stay), and touch reaches it through the same clone within 1 s
# of udev announcing the panel, five returns in a row (udev's own part, slow in the emulated VM,
# is reported, not asserted). The same panel back changed (contact size added: another axis) and
# another panel each get a new clone; a clone whose panel does not return goes after
# keep_clone_s (60 s here).
# time-limit: 400
source "$VMDIR/passthrough.sh"
stdbuf -oL udevadm monitor --kernel --udev --subsystem-match=input > "$SDIR/udev.log" 2>&1 &
track $!
PASSTHROUGH_CONFIG=replug passthrough_start
clone_sys=$(readlink -f "/sys/class/input/${CLONE##*/}"); clone_sys=${clone_sys#/sys}
libinput_start app --device "$CLONE"
say "clone $CLONE ($clone_sys)"

# clone_status: the clone's node in `status`.
clone_status() { socket_command '{"status":true}' | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p'; }
uptime_now() { cut -d' ' -f1 /proc/uptime; }

# A finger rests on the panel when it goes: the app's touch ends at once, and not as a tap (the
# finger never lifted): it steps beyond the 5 mm slop, then lifts (taken_touch_end = "lift").
n=$(libinput_mark app)
finger "down 0 100 60"
wait_until 10 at_least 1 app_count app "$n" TOUCH_DOWN || die "the finger did not reach the app: $(app_show app "$n")"
gone_at=$(uptime_now)
finger_stop
wait_until 5 at_least 1 app_count app "$n" '(TOUCH_UP|TOUCH_CANCEL)' || die "the touch down when the panel went did not end: $(app_show app "$n")"
ended_at=$(uptime_now)
read -r x y <<< "$(app_since app "$n" TOUCH_MOTION | tail -1 | sed -n 's|.*( *\([0-9.]*\)/ *\([0-9.]*\)mm).*|\1 \2|p')"
[ -n "$x" ] && ! near "$x" 100 5 || die "the resting finger's touch ended where it lay, a tap for the app: $(app_show app "$n")"
say "the resting finger's touch stepped to $x/$y mm, then lifted"
say "the app's touch ended $(awk -v a="$gone_at" -v b="$ended_at" 'BEGIN { printf "%.2f", b - a }') s after the panel was stopped (upper bound)"
[ -c "$CLONE" ] || die "the clone went with its panel"
wait_until 5 grep -q "waits 60 s for its return" "$SDIR/daemon.log" || die "no line for the kept clone: $(tail -3 "$SDIR/daemon.log")"
socket_command '{"status":true}' | grep -q "\"kept_clones\":\[{\"panel\":\"Passthrough Touchscreen\",\"clone\":\"$CLONE\"" \
  || die "status does not show the kept clone: $(socket_command '{"status":true}' | cut -c1-300)"

# The same panel comes back: the same clone, and touch through it within 1 s: finger.py taps
# from the moment it exists until a frame reaches the clone (FINGER_PROBE). Each return is
# split in two: udev's part (the kernel's add to udev's, once its rules ran: what the daemon
# waits for) and the daemon's (udev's add to the first frame on the clone).
# panel_returns I: the panel made again, timed; appends "total udev daemon" to $WORK/returns.
panel_returns() {
  local total frame kernel udev sys
  FINGER_PROBE="$CLONE $WORK/return.$1" finger_start
  wait_until 30 test -s "$WORK/return.$1" || die "no tap reached the clone after return $1: $(tail -3 "$SDIR/finger.log")"
  read -r total frame < "$WORK/return.$1"
  sys=$(readlink -f "/sys/class/input/${FINGER_node##*/}"); sys=${sys#/sys}
  wait_until 5 announced "$sys" || die "udev announced no add of $sys: $(tail -4 "$SDIR/udev.log")"
  kernel=$(uevent_time KERNEL "$sys"); udev=$(uevent_time UDEV "$sys")
  echo "$total $(awk -v k="$kernel" -v u="$udev" -v f="$frame" 'BEGIN { printf "%.3f %.3f", u - k, f - u }')" >> "$WORK/returns"
  say "return $1: touch through the clone $(tail -1 "$WORK/returns") s (total, udev, daemon)"
}
# uevent_time KERNEL|UDEV SYSPATH: when the add of SYSPATH was seen by the kernel or announced by udev.
# announced SYSPATH: udev has announced the add (a predicate wait_until reruns).
announced() { [ -n "$(uevent_time UDEV "$1")" ]; }
uevent_time() {
  grep -E "^$1 *\[[0-9.]+\] add +$2 " "$SDIR/udev.log" | tail -1 | sed 's/^[A-Z]* *\[\([0-9.]*\)\].*/\1/'
}
panel_returns 1
grep -q "back, passed through to its kept clone $CLONE" "$SDIR/daemon.log" || die "the panel did not take its kept clone: $(grep -E 'passed through|clone' "$SDIR/daemon.log" | tail -3)"
[ "$(clone_status)" = "$CLONE" ] || die "status shows the clone $(clone_status), not $CLONE"
n=$(libinput_mark app)
finger "stroke 0 70 60 128 60 400"
wait_until 10 at_least 1 app_count app "$n" TOUCH_UP || die "the stroke after the return did not reach the app: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_MOTION)" -ge 20 ] || die "the stroke's motion is missing: $(app_show app "$n")"

# Four more returns: the same clone every time.
for i in 2 3 4 5; do finger_stop; panel_returns "$i"; done
say "5 returns (total, udev, daemon, s): $(tr '\n' ',' < "$WORK/returns")"
awk '$3 > 1.0 { bad = 1 } END { exit bad }' "$WORK/returns" || die "the daemon took more than 1 s after udev's add: $(tr '\n' ',' < "$WORK/returns")"
[ "$(grep -c "back, passed through to its kept clone $CLONE" "$SDIR/daemon.log")" = 5 ] || die "not every return took the kept clone: $(grep -E 'passed through' "$SDIR/daemon.log")"
grep -q " remove .*$clone_sys " "$SDIR/udev.log" && die "udev saw the clone removed: $(grep "$clone_sys" "$SDIR/udev.log")"
grep -q DEVICE_REMOVED "$SDIR/app.libinput" && die "the app saw the clone removed: $(grep DEVICE_ "$SDIR/app.libinput")"
[ "$(grep -c DEVICE_ADDED "$SDIR/app.libinput")" = 1 ] || die "the app saw a device added again: $(grep DEVICE_ "$SDIR/app.libinput")"
say "same panel back 5 times: the same clone $CLONE, never removed or added; a stroke passed through"

# The same panel back changed (contact size: another axis): its clone goes, a new one comes.
finger_stop
FINGER_SIZE=1 finger_start
wait_until 10 grep -q "clone $CLONE .* removed: its panel came back changed" "$SDIR/daemon.log" \
  || die "the changed panel's old clone was not removed: $(grep clone "$SDIR/daemon.log" | tail -3)"
wait_until 10 grep -q " remove .*$clone_sys " "$SDIR/udev.log" || die "udev did not see the old clone removed"
wait_until 10 at_least 2 grep -c 'Passthrough Touchscreen: passed through to' "$SDIR/daemon.log" || die "the changed panel got no new clone"
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
