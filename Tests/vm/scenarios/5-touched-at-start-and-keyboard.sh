# 5. A touchscreen already touched when the daemon starts, and non-touch devices that must be
# ignored: the VM's own keyboard and a uinput keyboard cloned from it (hence a real keyboard
# description), typed on while the daemon runs. The daemon must come up with the finger
# already down, survive the stroke's end, recognize the next gesture (a swipe), never hold a keyboard
# open and never report anything from one.
kbd=$(for n in /dev/input/event*; do [ "$(udev_prop "$n" ID_INPUT_KEYBOARD)" = 1 ] && echo "$n"; done | head -1)
[ -n "$kbd" ] || die "no keyboard in the VM"
evemu-describe "$kbd" > "$WORK/keyboard.desc" || die "evemu-describe $kbd failed"
device_add KB "$WORK/keyboard.desc" "gestured-vm keyboard"
[ "$(udev_prop "$KB_node" ID_INPUT_KEYBOARD)" = 1 ] || die "the cloned keyboard is not tagged as a keyboard"

device_add TS "$ISDV4.desc"
events_part "$ISDV4.single-center-circle.events" 0 0.4 > "$WORK/stroke-start.events"
events_part "$ISDV4.single-center-circle.events" 0.4 1 > "$WORK/stroke-end.events"
play "$TS_node" "$WORK/stroke-start.events"      # finger down, mid-stroke

SOCK=$WORK/gestured.sock
daemon_start "$(config hotplug)"
client_start c
wait_daemon_opens "$TS_node"
play "$TS_node" "$WORK/stroke-end.events"        # the finger moves on and lifts
for key in KEY_G KEY_E KEY_S KEY_T KEY_ENTER; do
  evemu-event "$KB_node" --type EV_KEY --code $key --value 1 --sync
  evemu-event "$KB_node" --type EV_KEY --code $key --value 0 --sync
done
sleep 2
expect_daemon_alive "after the stroke that began before it started"

swipe_right "$TS_node" "device=Wacom ISDv4 E6 Finger"

for n in "$kbd" "$KB_node"; do
  daemon_holds "$n" && die "the daemon holds the keyboard $n open"
done
event "$SDIR/c.jsonl" --none 'device~keyboard' || die "the daemon reported events from a keyboard"
expect_daemon_alive "at the end"
