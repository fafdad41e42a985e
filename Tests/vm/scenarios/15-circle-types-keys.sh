# 15. A circle bound to keys = "ctrl+r": gestured's virtual keyboard types it, and a real libinput
# client (libinput debug-events on the udev seat, as a compositor reads it) sees KEY_LEFTCTRL and
# KEY_R pressed, then released in reverse. The daemon never opens its own virtual devices as
# input devices (no hotplug loop), and udev sees a keyboard and a mouse, not touch devices.
SOCK=$WORK/gestured.sock
daemon_start "$(config output-actions)"
kbd=$(virtual_node keyboard); ptr=$(virtual_node pointer)
[ -c "$kbd" ] && [ -c "$ptr" ] || die "status lists no virtual keyboard and pointer: $(socket_command '{"status":true}')"
say "virtual keyboard $kbd, pointer $ptr"
udevadm settle --timeout=10
[ "$(udev_prop "$kbd" ID_INPUT_KEYBOARD)" = 1 ] || die "udev does not see the virtual keyboard as a keyboard"
[ "$(udev_prop "$ptr" ID_INPUT_MOUSE)" = 1 ] || die "udev does not see the virtual pointer as a mouse"
for n in "$kbd" "$ptr"; do
  [ -z "$(udev_prop "$n" ID_INPUT_TOUCHSCREEN)$(udev_prop "$n" ID_INPUT_TOUCHPAD)" ] || die "udev sees $n as a touch device"
done

libinput_start li
libinput_wait 10 li 0 "DEVICE_ADDED +gestured virtual keyboard .*cap:k"
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
m=$(libinput_mark li)
play "$TS_node" "$ISDV4.single-center-circle.events"
libinput_wait 20 li "$m" "KEY_R \(19\) released"
# The four key events of the virtual keyboard, in order.
node=${kbd#/dev/input/}
keys=$(tail -n +"$((m + 1))" "$SDIR/li.libinput" | grep "^[ -]$node .*KEYBOARD_KEY" | grep -oE 'KEY_[A-Z]+ \([0-9]+\) (pressed|released)' | tr '\n' ';')
[ "$keys" = "KEY_LEFTCTRL (29) pressed;KEY_R (19) pressed;KEY_R (19) released;KEY_LEFTCTRL (29) released;" ] \
  || die "the virtual keyboard typed '$keys', not ctrl+r"
grep -q 'binding 1: typed ctrl+r for circle recognized' "$SDIR/daemon.log" || die "the daemon did not log the keys it typed"

expect_not_opened_own "$kbd" "$ptr"
expect_daemon_alive "at the end"
