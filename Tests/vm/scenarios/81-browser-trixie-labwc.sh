# 81. The browser as the app under Debian 13's labwc (0.8.3, Raspberry Pi OS's compositor; headless, pixman, seatd, as nobody): Chromium in kiosk mode, gestured's default passthrough, every case of browser/browser.sh.
# root: trixie
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser
browser_labwc
browser_cases
