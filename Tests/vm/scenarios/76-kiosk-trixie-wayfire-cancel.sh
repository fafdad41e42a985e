# 76. taken_touch_end = "cancel" under Debian 13's wayfire 0.9.0, which turns libinput's
# TOUCH_CANCEL into an up at the touch's place: the cases of scenario 60, and check.py's rule that
# no touch a gesture took ends as a tap (an up within 4 mm of its down) holds for that up too.
# root: trixie
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon kiosk 'taken_touch_end = "cancel"'
kiosk_wayfire
kiosk_cases
