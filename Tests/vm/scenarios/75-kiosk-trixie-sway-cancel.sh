# 75. UIKit's ending where a compositor forwards it: gestured with taken_touch_end = "cancel" under
# Debian 13's sway 1.10.1 (which passes libinput's TOUCH_CANCEL on as wl_touch.cancel since 1.9).
# The cases of scenario 60; check.py with TAKEN_END=cancel: every touch a gesture took ends for
# wev by `cancel`, never by `up`, and no touch is left down.
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon kiosk 'taken_touch_end = "cancel"'
kiosk_sway
TAKEN_END=cancel kiosk_cases
