# 18. map_clone: the clone speaks the display's coordinates. The scripted touchscreen (finger.py,
# 200 × 120 mm) is mounted turned 90° clockwise (`rotation = 90`); with `map_clone` the clone's
# axes are the screen's (120 × 200 mm) and a real libinput client reading it gets each tap at the
# place on the screen that was touched (device x → screen y, device y → screen 120 − x). A udev
# rule that gives the mapped clone a LIBINPUT_CALIBRATION_MATRIX too (it would be applied twice)
# is reported in the log and in status.
PASSTHROUGH_CONFIG=conditioning
DAEMON_START_S=${DAEMON_START_S:-120}  # the emulated VM under a loaded host starts the daemon slowly
source "$VMDIR/passthrough.sh"
passthrough_start
libinput list-devices > "$SDIR/list-devices.txt" 2>&1 || true
grep -A12 "(gestured clone)" "$SDIR/list-devices.txt" | grep -q "Size: *120x200mm" \
  || die "the clone's axes are not turned to the screen (120 × 200 mm): $(grep -A12 '(gestured clone)' "$SDIR/list-devices.txt" | tr '\n' '|')"
socket_command '{"status":true}' | grep -q '"conditioning":{"map_clone":true' || die "status does not show map_clone: $(socket_command '{"status":true}')"
libinput_start app --device "$CLONE"

# Device (50, 30) mm is screen (120 − 30, 50); device (150, 100) is screen (20, 150). The axes' last
# unit is 0.05 mm short of the size (finger.py's maximum is size·20 − 1).
app_tap app 50 30 89.95 50
say "rotated 90°: a tap at device 50/30 mm reached the app at $TAP_AT mm"
app_tap app 150 100 19.95 150
say "rotated 90°: a tap at device 150/100 mm reached the app at $TAP_AT mm"
grep -q "LIBINPUT_CALIBRATION_MATRIX" "$SDIR/daemon.log" && die "a calibration warning without a udev rule: $(grep LIBINPUT "$SDIR/daemon.log")"

# A udev rule gives the clone a matrix as well; a reload turning the panel 270° makes a new clone,
# which the rule matches: the daemon says the matrix would be applied twice.
cat > /etc/udev/rules.d/99-gestured-clone-calibration.rules <<'RULE'
ACTION=="add|change", KERNEL=="event*", ATTRS{name}=="Passthrough Touchscreen (gestured clone)", ENV{LIBINPUT_CALIBRATION_MATRIX}="-1 0 1 0 1 0"
RULE
udevadm control --reload
sed -i 's/^rotation = 90/rotation = 270/' "$WORK/conditioning.toml"
kill -HUP "$DAEMON_PID"
wait_until 20 at_least 2 grep -c 'passed through to' "$SDIR/daemon.log" || die "no new clone after the rotation changed"
CLONE=$(grep 'passed through to' "$SDIR/daemon.log" | tail -1 | grep -o '/dev/input/event[0-9]*')
udevadm settle --timeout=10
[ "$(udev_prop "$CLONE" LIBINPUT_CALIBRATION_MATRIX)" = "-1 0 1 0 1 0" ] || die "the udev rule did not match the new clone"
finger "tap 100 60"
wait_until 10 grep -q "LIBINPUT_CALIBRATION_MATRIX=\"-1 0 1 0 1 0\", but map_clone already maps it" "$SDIR/daemon.log" \
  || die "no error about the matrix applied twice: $(tail -5 "$SDIR/daemon.log")"
socket_command '{"status":true}' | grep -q '"clone_calibration_twice":"-1 0 1 0 1 0"' || die "status does not show the matrix applied twice: $(socket_command '{"status":true}')"
rm /etc/udev/rules.d/99-gestured-clone-calibration.rules
say "a udev matrix on the mapped clone is an error in the log and in status"
expect_daemon_alive "at the end"
