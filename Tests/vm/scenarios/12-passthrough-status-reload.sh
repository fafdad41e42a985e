# 12. Passthrough's management: `gestured devices` and the socket's status show the clone, hotplug
# does not pass the clone through again (one clone, never opened by the daemon), and a reload
# that turns passthrough off removes the clone and keeps the device; on again, a new clone that a
# real libinput client reads.
source "$VMDIR/passthrough.sh"
SOCK=$WORK/gestured.sock
finger_start
daemon_start "$(config passthrough)"
client_start c
wait_daemon_opens "$FINGER_node"
wait_until 30 grep -q 'passed through to' "$SDIR/daemon.log" || die "no clone: $(tail -5 "$SDIR/daemon.log")"
udevadm settle --timeout=10
CLONE=$("$GESTURED" devices | sed -n 's|.*passthrough: yes, the app reads the clone \(/dev/input/event[0-9]*\).*|\1|p')
[ -c "$CLONE" ] || die "gestured devices shows no clone: $("$GESTURED" devices)"
say "clone: $CLONE"
status_json | grep -q "\"passthrough\":true,\"clone\":\"$CLONE\"" || die "status does not show the clone: $(status_json)"
"$GESTURED" devices | grep -q "this is gestured's clone" || die "gestured devices does not mark the clone: $("$GESTURED" devices)"
[ "$(grep -c '(gestured clone)' /proc/bus/input/devices)" = 1 ] || die "not exactly one clone: $(grep Name /proc/bus/input/devices)"
daemon_holds "$CLONE" && die "the daemon opened its own clone (hotplug loop)"
grabbed "$FINGER_node" || die "the passed-through device is not grabbed"
# A reload that turns passthrough off removes the clone and keeps the device; on again, a new clone.
sed -i 's/^passthrough = true/passthrough = false/' "$WORK/passthrough.toml"
kill -HUP "$DAEMON_PID"
wait_until 10 test ! -e "$CLONE" || die "the clone is still there after passthrough was turned off"
daemon_holds "$FINGER_node" || die "the daemon lost the device when passthrough was turned off"
grabbed "$FINGER_node" && die "the device is still grabbed after passthrough was turned off"
m=$(lines "$SDIR/c.jsonl")
finger "circle 100 60 25 1200"
wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=circle phase=recognized
sed -i 's/^passthrough = false/passthrough = true/' "$WORK/passthrough.toml"
kill -HUP "$DAEMON_PID"
wait_until 10 test "$(grep -c 'passed through to' "$SDIR/daemon.log")" -ge 2 || die "no new clone after passthrough was turned on again"
udevadm settle --timeout=10
CLONE=$(status_json | sed -n 's|.*"clone":"\([^"]*\)".*|\1|p')
[ -c "$CLONE" ] || die "status shows no clone after the second reload: $(status_json)"
grabbed "$FINGER_node" || die "the device is not grabbed again"
app_watch app2 "$CLONE"
n=$(app_lines app2)
finger "tap 100 60"
wait_until 5 test "$(app_count app2 "$n" TOUCH_UP)" -ge 1 || die "a tap did not pass through the new clone: $(app_show app2 "$n")"
expect_daemon_alive "at the end"
