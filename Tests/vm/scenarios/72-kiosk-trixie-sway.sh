# 72. The kiosk tier under Debian 13's sway (1.10.1, wlroots 0.18; as scenario 61): the cases and checks of scenario 60 (kiosk.sh, check.py).
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_sway
kiosk_cases
