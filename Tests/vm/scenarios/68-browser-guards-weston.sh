# 68. The browser's own guards: Chromium with --disable-pinch under Debian 12's weston 10 (as 67), gestured taking nothing of two fingers (configs/browser-guards.toml): a pinch reaches the page as two touches and does not zoom.
# matrix: browser
# time-limit: 900
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"; source "$VMDIR/browser/browser.sh"
kiosk_daemon browser-guards
CHROMIUM_FLAGS="--disable-pinch --overscroll-history-navigation=0" browser_weston
browser_guard_cases
