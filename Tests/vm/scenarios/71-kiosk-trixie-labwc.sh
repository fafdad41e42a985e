# 71. The kiosk tier under Debian 13's labwc (0.8.3, Raspberry Pi OS's compositor; wlroots 0.18, headless, pixman, seatd, as nobody; wev maximized without decorations): the cases and checks of scenario 60 (kiosk.sh, check.py).
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_labwc
kiosk_cases
