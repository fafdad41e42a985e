# 2. Two devices at once with different [[device]] sections (one rotated 90° clockwise): the
# same one-finger swipe along the top edge, left to right (x 0.04→0.96 at y ≈ 0.06), played on
# both at the same time, must come out per device: unrotated as a rightward gesture at the
# top, rotated as a downward gesture at the right edge (screen x = 1 − y, y = x).
SOCK=$WORK/gestured.sock
daemon_start "$(config two-devices)"
client_start c
device_add A "$ISDV4.desc"
device_add B "$ISDV4.desc" "Wacom ISDv4 E6 Finger rotated"
wait_daemon_opens "$A_node"
wait_daemon_opens "$B_node"
python3 "$VMDIR/play-timed.py" "$A_node" "$ISDV4.single-top-swipe.events" 1 0 > /dev/null & pa=$!
python3 "$VMDIR/play-timed.py" "$B_node" "$ISDV4.single-top-swipe.events" 1 0 > /dev/null & pb=$!
wait $pa || die "playing on A failed"; wait $pb || die "playing on B failed"

gestures='gesture~^(swipe|edge_swipe|pan)$'
wait_event 20 "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger" "$gestures"
wait_event 20 "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger rotated" "$gestures"
sleep 1
# Every event of A lies along the top; every event of B along the right edge.
event "$SDIR/c.jsonl" --none "device=Wacom ISDv4 E6 Finger" center.y\>0.25 \
  || die "device A has events away from the top edge (rotation applied to the wrong device?)"
event "$SDIR/c.jsonl" --none "device=Wacom ISDv4 E6 Finger rotated" center.x\<0.75 \
  || die "device B has events away from the right edge (rotation 90 not applied?)"
event "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger" center.y\<0.25 >/dev/null || die "no event of A carries a centre"
event "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger rotated" center.x\>0.75 >/dev/null || die "no event of B carries a centre"
# Directions, where the gesture reports one.
event "$SDIR/c.jsonl" --none "device=Wacom ISDv4 E6 Finger" direction? 'direction~^(?!right$)' \
  || die "device A reports a direction other than right"
event "$SDIR/c.jsonl" --none "device=Wacom ISDv4 E6 Finger rotated" direction? 'direction~^(?!down$)' \
  || die "device B reports a direction other than down"
# Distinct stable ids.
ida=$(event "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger" | head -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["device_id"])')
idb=$(event "$SDIR/c.jsonl" "device=Wacom ISDv4 E6 Finger rotated" | head -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["device_id"])')
say "device ids: A=$ida B=$idb"
[ -n "$ida" ] && [ "$ida" != "$idb" ] || die "the two devices do not have distinct device_id values ($ida, $idb)"
expect_daemon_alive "after two devices"
