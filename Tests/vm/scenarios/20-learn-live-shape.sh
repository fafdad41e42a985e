# 20. `gestured learn zorro --device … --count 2` on a uinput touchscreen: it prompts, gives a
# one-line verdict per touch (a tap is too small, each x stroke becomes an example) and writes
# zorro.shape; the daemon then loads that shape, recognizes a third stroke drawn on the device
# as zorro and runs the bound command with GESTURE_NAME=shape, GESTURE_SHAPE=zorro.
X=$REPO/Tests/Fixtures/unistroke/x
# stroke N: the events of the N-th stroke of the x recording (its N-th window).
stroke() {
  awk -v n="$1" 'NR == FNR { if (FNR == n) { a = $1; b = $2 } next }
                 /^E:/ && $2 >= a - 1e-6 && $2 <= b + 1e-6' "$X.windows" "$X.evemu" > "$WORK/stroke$1.events"
  echo "$WORK/stroke$1.events"
}
grep -v '^E:' "$X.evemu" > "$WORK/ts.desc"
cat > "$WORK/tap.events" <<'TAP'
E: 0.000000 0003 0039 900
E: 0.000000 0003 0035 3000
E: 0.000000 0003 0036 3000
E: 0.000000 0001 014a 1
E: 0.000000 0003 0000 3000
E: 0.000000 0003 0001 3000
E: 0.000000 0000 0000 0
E: 0.060000 0003 0039 -1
E: 0.060000 0001 014a 0
E: 0.060000 0000 0000 0
TAP
device_add TS "$WORK/ts.desc" "gestured learn touchscreen"

"$GESTURED" learn zorro --device 'gestured learn*' --count 2 --timeout 60 --out "$WORK/shapes" \
  > "$SDIR/learn.out" 2> "$SDIR/learn.err" &
LEARN=$!; track "$LEARN"
wait_until 40 grep -q "draw zorro (1 of 2)" "$SDIR/learn.out" || die "no prompt: $(cat "$SDIR/learn.out" "$SDIR/learn.err"; ps -o pid,stat,etime,args -p $LEARN)"
play "$TS_node" "$WORK/tap.events"
wait_until 10 grep -q 'stroke: skipped: too small' "$SDIR/learn.out" || die "no verdict for the tap: $(cat "$SDIR/learn.out")"
for n in 1 2; do
  play "$TS_node" "$(stroke $n)"
  wait_until 10 grep -q "stroke: ok, example $n" "$SDIR/learn.out" || die "stroke $n not taken: $(cat "$SDIR/learn.out" "$SDIR/learn.err")"
done
wait_until 10 sh -c "! kill -0 $LEARN 2>/dev/null" || die "learn did not exit after 2 strokes"
wait "$LEARN" || die "learn failed: $(cat "$SDIR/learn.err")"
say "learn: $(tail -1 "$SDIR/learn.out")"
cp "$WORK/shapes/zorro.shape" "$SDIR/"
[ "$(grep -c '^example .* live gestured learn touchscreen$' "$WORK/shapes/zorro.shape")" -eq 2 ] \
  || die "zorro.shape does not hold 2 live examples: $(cat "$WORK/shapes/zorro.shape")"
[ "$(grep -c '^points ' "$WORK/shapes/zorro.shape")" -eq 2 ] || die "zorro.shape lacks points lines"

SOCK=$WORK/gestured.sock
daemon_start "$(config shapes)"
wait_daemon_opens "$TS_node"
play "$TS_node" "$(stroke 3)"
wait_until 15 grep -q 'GESTURE_SHAPE=zorro' "$WORK/actions.log" 2>/dev/null \
  || die "the bound command did not run for zorro: $(cat "$WORK/actions.log" 2>&1; tail -5 "$SDIR/daemon.log")"
cp "$WORK/actions.log" "$SDIR/"
grep -q 'GESTURE_NAME=shape' "$WORK/actions.log" || die "GESTURE_NAME is not shape: $(cat "$WORK/actions.log")"
say "action: $(grep -E 'GESTURE_(SHAPE|SCORE)=' "$WORK/actions.log" | tr '\n' ' ')"
expect_daemon_alive "at the end"
