# 61. The kiosk tier under sway (wlroots; its own config: no borders, the client tiled over the output), run as nobody through seatd: the cases and checks of scenario 60 (kiosk.sh, check.py).
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_sway
kiosk_cases
