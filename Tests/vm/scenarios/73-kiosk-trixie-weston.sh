# 73. The kiosk tier under Debian 13's weston (14) with kiosk-shell (DRM backend on the VM's virtio-gpu, pixman, through seatd as nobody: weston 14 has no direct launcher): the cases and checks of scenario 60 (kiosk.sh, check.py).
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_weston
kiosk_cases
