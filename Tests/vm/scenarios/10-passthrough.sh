# 10. Passthrough, as an app sees it: a real libinput client (`libinput debug-events`) reads the
# clone gestured makes of a grabbed touchscreen (finger.py, 200 × 120 mm). A tap passes through
# at its millimetres; a recognized circle ends in TOUCH_UP once it moved beyond the 5 mm slop
# (the default taken_touch_end = "lift": most compositors drop TOUCH_CANCEL; the cancel is
# scenario 13's), never in TOUCH_CANCEL, and nothing of it after the lift; a stroke from the
# edge band never reaches the app while the same stroke in the middle does, and a tap in the
# band arrives late but whole. (Three fingers: scenario 13.)
source "$VMDIR/passthrough.sh"
passthrough_start c
libinput_start app --device "$CLONE"

# A tap passes through, down and up at its millimetres.
n=$(libinput_mark app)
app_tap app 100 60
[ "$(app_count app "$n" TOUCH_CANCEL)" = 0 ] || die "the tap was cancelled: $(app_show app "$n")"
say "tap passed through at $TAP_AT mm"

# A circle is recognized; the app's touch ends in TOUCH_UP (taken beyond the slop), not in
# TOUCH_CANCEL, and is the last of it: the lift is the last touch line.
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
finger "circle 100 60 25 1200"
wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=circle phase=recognized
wait_until 5 at_least 1 app_count app "$n" TOUCH_UP || die "the circle's touch did not end: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_DOWN)" = 1 ] || die "the circle's touch did not reach the app first: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_CANCEL)" = 0 ] || die "the circle ended in TOUCH_CANCEL under taken_touch_end = lift: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_UP)" = 1 ] || die "the circle's touch lifted more than once: $(app_show app "$n")"
say "circle: TOUCH_DOWN … TOUCH_UP"

# A stroke from the edge band is an edge swipe: the app never sees it.
n=$(libinput_mark app); m=$(lines "$SDIR/c.jsonl")
finger "stroke 0 2 60 60 60 400"
wait_event 10 "$SDIR/c.jsonl" --after "$m" gesture=edge_swipe phase=recognized
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "the edge swipe reached the app: $(app_show app "$n")"
say "edge swipe: nothing reached the app"
# The same stroke in the middle is no gesture: the app has it all.
n=$(libinput_mark app)
finger "stroke 0 70 60 128 60 400"
wait_until 10 at_least 1 app_count app "$n" TOUCH_UP || die "the middle stroke did not reach the app: $(app_show app "$n")"
read -r x y <<< "$(app_down_mm app "$n" | head -1)"
near "$x" 70 0.2 && near "$y" 60 0.2 || die "the middle stroke began at $x/$y mm, not 70/60"
[ "$(app_count app "$n" TOUCH_MOTION)" -ge 20 ] || die "the middle stroke's motion is missing: $(app_show app "$n")"
say "middle stroke passed through from $x/$y mm"
# A tap in the band is held until every recognizer has failed, then delivered where it was.
app_tap app 3 60
say "tap in the edge band delivered late at $TAP_AT mm"
