# 11. Passthrough's edges: udev calibration reaches the app through the clone (the operator's
# rule from docs/arbitration.md, matched on the clone's name); SYN_DROPPED on the real device
# leaves the app consistent (its touch ends — lifted, the default taken_touch_end — since the
# kernel does not pass SYN_DROPPED through uinput); kill -9 mid-touch removes the clone and releases the grab, so the app can read the
# real device again.
source "$VMDIR/passthrough.sh"
# The rule matches every clone of this name: later scenarios (18's mapped clone) must not inherit it.
trap 'rm -f /etc/udev/rules.d/99-gestured-clone-calibration.rules; udevadm control --reload' EXIT
cat > /etc/udev/rules.d/99-gestured-clone-calibration.rules <<'RULE'
ACTION=="add|change", KERNEL=="event*", ATTRS{name}=="Passthrough Touchscreen (gestured clone)", ENV{LIBINPUT_CALIBRATION_MATRIX}="-1 0 1 0 1 0"
RULE
udevadm control --reload
passthrough_start
[ "$(udev_prop "$CLONE" LIBINPUT_CALIBRATION_MATRIX)" = "-1 0 1 0 1 0" ] || die "the udev rule did not match the clone: $(udevadm info --query=property --name="$CLONE")"
libinput_start app --device "$CLONE"

# Calibration: the matrix mirrors x, so a tap at 50 mm from the left arrives 50 mm from the right.
app_tap app 50 60 150 60
say "calibration reached the app: a tap at 50/60 mm seen at $TAP_AT mm"

# SYN_DROPPED: the daemon is stopped while a touch floods the device; the app's touch is lifted
# (taken_touch_end = "lift": a drop ends it at once, whatever its travel).
n=$(libinput_mark app)
finger "down 0 100 60" "sleep 100"
kill -STOP "$DAEMON_PID"
finger "flood 0 3000 100 60"
kill -CONT "$DAEMON_PID"
wait_until 10 grep -q 'SYN_DROPPED' "$SDIR/daemon.log" || die "the kernel dropped no events: the check proves nothing"
wait_until 5 at_least 1 app_count app "$n" TOUCH_UP || die "after SYN_DROPPED the app's touch did not end: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_CANCEL)" = 0 ] || die "after SYN_DROPPED the app's touch was cancelled, not lifted: $(app_show app "$n")"
finger "up 0"
app_tap app 120 30 80 30
say "SYN_DROPPED: the app's touch lifted, the next tap passed through"

# kill -9 with a finger down: the kernel removes the clone and releases the grab (a grabbed
# device's events reach no other reader, so libinput reading a tap proves it released).
finger "down 0 100 60" "move 0 101 60"
kill -KILL "$DAEMON_PID"
wait_until 10 test ! -e "$CLONE" || die "the clone outlived the daemon"
libinput_start real --device "$FINGER_node"
finger "up 0"
app_tap real 80 50
say "after kill -9: clone gone, grab released, the real device reads a tap at $TAP_AT mm"
