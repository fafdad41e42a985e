# 82. The browser as the app under Debian 13's weston 14 kiosk-shell (DRM on the VM's virtio-gpu, pixman, seatd, as nobody): Chromium in kiosk mode, gestured's default passthrough, every case of browser/browser.sh.
# matrix: browser
# root: trixie
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser
browser_weston
browser_cases
