# 70. The kiosk tier under Debian 13's cage (0.2.0, wlroots 0.18; headless, pixman, seatd, as nobody): the cases and checks of scenario 60 without issue 37's conditioning (kiosk.sh, check.py), in the trixie root on Debian 13's kernel (VM_ROOT=trixie).
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_cage
kiosk_cases
