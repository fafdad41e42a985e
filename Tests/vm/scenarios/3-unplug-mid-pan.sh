# 3. A device is unplugged in the middle of a pan: the pan is cancelled, the daemon keeps
# running and lets go of the dead node, and a device plugged in afterwards works (a swipe on it is recognized).
SOCK=$WORK/gestured.sock
daemon_start "$(config hotplug)"
client_start c
device_add TS "$ATMEL.desc"
wait_daemon_opens "$TS_node"
# The first 45% of a one-finger drag (y 0.19→0.82 and back over 2 s): the finger is down and moving.
events_part "$ATMEL.1-finger-drag-up-down.events" 0 0.45 > "$WORK/first-half.events"
play "$TS_node" "$WORK/first-half.events"
wait_event 15 "$SDIR/c.jsonl" gesture=pan phase~'^(began|changed)$' "device=Atmel maXTouch Touchscreen"
device_remove TS
wait_event 15 "$SDIR/c.jsonl" gesture=pan phase=cancelled "device=Atmel maXTouch Touchscreen"
event "$SDIR/c.jsonl" --none gesture=pan phase=ended || die "the pan ended normally although its device vanished"
sleep 1
expect_daemon_alive "after the unplug"
wait_until 10 bash -c "! ls -l /proc/$DAEMON_PID/fd/ | grep -q '/dev/input/.*(deleted)'" \
  || die "the daemon still holds the unplugged device open"

device_add NEW "$ISDV4.desc"
wait_daemon_opens "$NEW_node"
swipe_right "$NEW_node" "device=Wacom ISDv4 E6 Finger"
expect_daemon_alive "at the end"
