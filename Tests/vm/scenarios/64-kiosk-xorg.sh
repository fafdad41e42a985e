# 64. The kiosk tier under Xorg (dummy video driver, xf86-input-libinput) with `xinput test-xi2 --root` as the client: the cases and checks of scenario 60 (kiosk.sh, check.py).
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_xorg
kiosk_cases
