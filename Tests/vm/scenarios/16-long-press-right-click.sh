# 16. A long press bound to click = "right": gestured's virtual absolute pointer moves to the
# press and clicks there. A real libinput client sees POINTER_MOTION_ABSOLUTE to the press's
# normalized position (debug-events prints it as percent of the screen) and BTN_RIGHT pressed
# and released, on the virtual pointer.
SOCK=$WORK/gestured.sock
daemon_start "$(config output-actions)"
ptr=$(virtual_node pointer)
[ -c "$ptr" ] || die "status lists no virtual pointer"
libinput_start li
libinput_wait 10 li 0 "DEVICE_ADDED +gestured virtual pointer "
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
client_start c
m=$(libinput_mark li)
play "$TS_node" "$VMDIR/long-press.events"   # x 694/2776 = 0.2500, y 1098/1569 = 0.6998
wait_event 10 "$SDIR/c.jsonl" gesture=long_press phase=began
node=${ptr#/dev/input/}
libinput_wait 10 li "$m" "^[ -]$node .*BTN_RIGHT \(273\) released"
motion=$(libinput_line li "$m" "^[ -]$node .*POINTER_MOTION_ABSOLUTE") || die "no absolute motion on the virtual pointer"
read -r px py <<< "$(echo "$motion" | grep -oE '[0-9.]+/ *[0-9.]+' | tr '/' ' ')"
say "libinput: pointer at $px% / $py% of the screen; the press was at 25.00% / 69.98%"
awk -v x="$px" -v y="$py" 'BEGIN { exit !(x > 24.9 && x < 25.1 && y > 69.88 && y < 70.08) }' \
  || die "the click is at $px/$py, not at the press (25.00/69.98)"
press=$(grep -n "^[ -]$node .*BTN_RIGHT (273) pressed" "$SDIR/li.libinput" | tail -1 | cut -d: -f1)
mline=$(grep -n "^[ -]$node .*POINTER_MOTION_ABSOLUTE" "$SDIR/li.libinput" | tail -1 | cut -d: -f1)
[ -n "$press" ] && [ "$mline" -lt "$press" ] || die "the button was not pressed after the motion to the press"
grep -q 'binding 2: clicked right for long_press began' "$SDIR/daemon.log" || die "the daemon did not log the click"
expect_not_opened_own "$ptr" "$(virtual_node keyboard)"
expect_daemon_alive "at the end"
