# 60. The kiosk tier under cage (wlroots' kiosk compositor: headless output, pixman, libinput
# through seatd, run as nobody) showing wev: gestured with its DEFAULT passthrough settings.
# Every case of kiosk.sh, and only here issue 37's touch conditioning (ghosts beside real taps and
# the idle mode, a palm, a pinch and a two-finger tap with app_fingers = 1, after a reload);
# check.py asserts what wev saw (no touch left down, none twice, nothing gestured took ended as a
# tap, no phantom or palm) and writes the compatibility table's rows (docs/kiosk.md).
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_cage
kiosk_cases conditioning
