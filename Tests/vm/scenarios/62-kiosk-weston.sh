# 62. The kiosk tier under weston with kiosk-shell.so (DRM backend on the VM's virtio-gpu, pixman, as root): the cases and checks of scenario 60 (kiosk.sh, check.py).
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_weston
kiosk_cases
