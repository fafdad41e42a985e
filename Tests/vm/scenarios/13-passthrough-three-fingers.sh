# 13. Passthrough with delay_fingers = 3 and taken_touch_end = "cancel" (UIKit's ending, for
# compositors that forward TOUCH_CANCEL): two fingers reach the app (a libinput client reading
# the clone); the third makes it a system gesture: the app's two touches are cancelled
# (TOUCH_CANCEL, never TOUCH_UP) and the third never reaches it; the three-finger swipe is
# recognized. (The default ending, a lift, under the same fingers: the kiosk tier, 60–64: a lift after 5 mm.)
source "$VMDIR/passthrough.sh"
PASSTHROUGH_CONFIG=passthrough-cancel
passthrough_start c
libinput_start app --device "$CLONE"

# Three fingers down: the two touches the app already had are cancelled, the third never shown.
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
moves=()
for i in $(seq 1 15); do moves+=("move 0 50 $((40 + i * 3))" "move 1 70 $((40 + i * 3))" "move 2 90 $((40 + i * 3))" "sleep 15"); done
finger "down 0 50 40" "sleep 150" "down 1 70 40" "sleep 150" "down 2 90 40" "sleep 50" "${moves[@]}" "up 0" "up 1" "up 2"
wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=swipe phase=recognized fingers=3
sleep 0.5
[ "$(app_count app "$n" TOUCH_DOWN)" = 2 ] || die "the app did not see exactly the first two fingers: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_CANCEL)" = 2 ] || die "the first two fingers were not both cancelled: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_UP)" = 0 ] || die "a finger of the three-finger swipe was lifted, not cancelled: $(app_show app "$n")"
say "three fingers: $(app_since app "$n" | awk '{print $2}' | uniq -c | tr -s ' ' | tr '\n' ',')"

