# 23. Fail closed: with the package's udev rule (systemd/61-gestured-passthrough.rules, pointed
# at this build and config) libinput on the seat — what a compositor is — never opens the
# passed-through panel, only its clone. Locked (`passthrough = "none"`), the daemon killed with
# SIGKILL: a tap while it is down reaches no app (the raw panel is hidden, the clone is gone);
# started again it comes back locked (the mode file) and a tap reaches nothing; unlocked, a tap
# passes through the new clone. Without the rule the same kill gives the app the raw panel
# (scenario 11's last step).
# time-limit: 300
source "$VMDIR/passthrough.sh"
rule=/etc/udev/rules.d/61-gestured-passthrough.rules
trap 'rm -f "$rule"; udevadm control --reload' EXIT
conf=$(config fail-closed)
sed -e "s|/usr/local/bin/gestured|$GESTURED|" -e "s|/etc/gestured/gestures.toml|$conf|" "$REPO/systemd/61-gestured-passthrough.rules" > "$rule"
udevadm control --reload
export RUNTIME_DIRECTORY=$WORK/run
mkdir -p "$RUNTIME_DIRECTORY"

PASSTHROUGH_CONFIG=fail-closed passthrough_start
[ "$(udev_prop "$FINGER_node" LIBINPUT_IGNORE_DEVICE)" = 1 ] \
  || die "the rule did not hide the panel: $(udevadm info --query=property --name="$FINGER_node" | tr '\n' ' ')"
[ -z "$(udev_prop "$CLONE" LIBINPUT_IGNORE_DEVICE)" ] || die "the rule hid the clone $CLONE too"
libinput_start seat
libinput_wait 20 seat 0 'DEVICE_ADDED.*Passthrough Touchscreen \(gestured clone\)'
grep 'DEVICE_ADDED' "$SDIR/seat.libinput" | grep -v 'gestured clone' | grep -q 'Passthrough Touchscreen' \
  && die "libinput on the seat opened the raw panel: $(grep DEVICE_ADDED "$SDIR/seat.libinput" | tr '\n' '|')"
app_tap seat 100 60
say "normal: the seat reads only the clone; a tap passed through at $TAP_AT mm"

# tap_reaches_nothing WHAT: a tap, and the seat prints no touch line within 2 s.
tap_reaches_nothing() {
  local n
  n=$(libinput_mark seat)
  finger "tap 100 60"
  nap 2
  [ "$(app_count seat "$n")" = 0 ] || die "$1: the tap reached the app: $(app_show seat "$n")"
  say "$1: the tap reached nothing"
}

[ "$(socket_command '{"mode":"locked"}' | grep -c '"ok":true')" = 1 ] || die "could not lock"
tap_reaches_nothing "locked"

kill -KILL "$DAEMON_PID"
wait_until 10 test ! -e "$CLONE" || die "the clone outlived the daemon"
tap_reaches_nothing "locked, gestured killed"

rm -f "$SOCK"
daemon_start "$conf"
wait_daemon_opens "$FINGER_node"
n=$(libinput_mark seat)
libinput_wait 30 seat "$n" 'DEVICE_ADDED.*Passthrough Touchscreen \(gestured clone\)'
socket_command '{"status":true}' | grep -q '"mode":"locked"' || die "not locked after the restart: $(socket_command '{"status":true}')"
tap_reaches_nothing "locked again after the restart"

[ "$(socket_command '{"mode":"normal"}' | grep -c '"ok":true')" = 1 ] || die "could not unlock"
app_tap seat 100 60
say "unlocked: a tap passed through the new clone at $TAP_AT mm"
expect_daemon_alive "at the end"
