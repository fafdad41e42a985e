# 12. Passthrough's management: `gestured devices` and the socket's status show the clone, hotplug
# does not pass the clone through again (one clone, never opened by the daemon), and a reload
# that turns passthrough off removes the clone and keeps the device; on again, a new clone that a
# real libinput client reads. (Kept to few process starts: each costs seconds in the emulated VM.)
source "$VMDIR/passthrough.sh"
passthrough_start
say "clone: $CLONE"
socket_command '{"status":true}' | grep -q '"passthrough":true,"clone":"'"$CLONE"'"' || die "status does not show the clone: $(socket_command '{"status":true}')"
devices=$("$GESTURED" devices)
grep -q "passthrough: yes, the app reads the clone $CLONE" <<< "$devices" || die "gestured devices does not show the clone: $devices"
[ "$(grep -c '(gestured clone)' /proc/bus/input/devices)" = 1 ] || die "not exactly one clone: $(grep Name /proc/bus/input/devices)"
daemon_holds "$CLONE" && die "the daemon opened its own clone (hotplug loop)"

# A reload that turns passthrough off removes the clone and keeps the device; on again, a new clone.
sed -i 's/^passthrough = true/passthrough = false/' "$WORK/passthrough.toml"
kill -HUP "$DAEMON_PID"
wait_until 20 test ! -e "$CLONE" || die "the clone is still there after passthrough was turned off"
daemon_holds "$FINGER_node" || die "the daemon lost the device when passthrough was turned off"
sed -i 's/^passthrough = false/passthrough = true/' "$WORK/passthrough.toml"
kill -HUP "$DAEMON_PID"
wait_until 20 at_least 2 grep -c 'passed through to' "$SDIR/daemon.log" || die "no new clone after passthrough was turned on again"
CLONE=$(grep 'passed through to' "$SDIR/daemon.log" | tail -1 | grep -o '/dev/input/event[0-9]*')
udevadm settle --timeout=10
libinput_start app --device "$CLONE"
app_tap app 100 60
say "a tap passed through the new clone at $TAP_AT mm"
expect_daemon_alive "at the end"
