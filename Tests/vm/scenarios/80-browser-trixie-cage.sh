# 80. The browser as the app under Debian 13's cage (0.2.0; headless, pixman, seatd, as nobody): Chromium in kiosk mode, gestured's default passthrough, the short cases of browser/browser.sh (the taken gestures Chromium could read as a tap, a context menu or a zoom): CI's browser scenario.
# root: trixie
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser
browser_cage
browser_cases short
