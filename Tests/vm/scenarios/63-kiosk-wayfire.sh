# 63. The kiosk tier under wayfire (wlroots; autostart and a window rule that maximizes the client), run as nobody through seatd: the cases and checks of scenario 60 (kiosk.sh, check.py).
# time-limit: 420
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_wayfire
kiosk_cases
