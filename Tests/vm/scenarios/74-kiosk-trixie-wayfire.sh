# 74. The kiosk tier under Debian 13's wayfire (0.9.0, wlroots 0.18; GLES only: DRM backend on the VM's virtio-gpu with Mesa's software GLES, seatd, as nobody): the cases and checks of scenario 60 (kiosk.sh, check.py).
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon
kiosk_wayfire
kiosk_cases
