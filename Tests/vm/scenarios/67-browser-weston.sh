# 67. The browser as the app: Chromium in kiosk mode under Debian 12's weston 10 kiosk-shell (DRM backend on the VM's virtio-gpu, pixman, as root), gestured's default passthrough; every case of browser/browser.sh, the page's console judged by browser/check.py.
# matrix: browser
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser
browser_weston
browser_cases
