# 67. The browser as the app: Chromium in kiosk mode under weston 10's kiosk-shell (DRM backend on the VM's virtio-gpu, pixman, as root), gestured's default passthrough; the page's console judged by browser/check.py per case (browser/browser.sh).
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser
browser_weston
browser_cases
