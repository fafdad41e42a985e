# 30. Soak: SOAK_STROKES strokes (default 12; circles and swipes in turn) played live through a
# hot-plugged touchscreen with a socket client connected and the circle bound to a command.
# None is lost: the client gets as many finished gestures (recognized, or a pan's ended) as
# `gestured replay` finds in the same recording, the command runs once per circle (or is skipped
# with a log line when max_concurrent runs are still going), and the
# daemon's resident memory stays flat. Under emulation the player can fall behind and write a
# stroke's frames closer together than recorded, so the kinds are compared in the log, the count
# strictly. The long run (10,000 strokes) is a documented command: docs/testing.md.
# SOAK_SPEED plays each stroke that many times faster than recorded and SOAK_PAUSE is the gap
# between strokes (defaults 1 and 0.4 s). Faster is no shortcut for the long run: at 3x the
# emulated guest on a busy host read too late and the kernel dropped events (SYN_DROPPED, the
# stroke in flight cancelled) — docs/testing.md.
strokes=${SOAK_STROKES:-12}
speed=${SOAK_SPEED:-1}
SOCK=$WORK/gestured.sock
python3 "$VMDIR/soak-recording.py" "$strokes" "${SOAK_PAUSE:-0.4}" "$speed" "$ISDV4.single-center-circle.events" "$ISDV4.single-top-swipe.events" \
  > "$WORK/soak.events"
"$GESTURED" replay --device "$ISDV4.desc" "$WORK/soak.events" > "$SDIR/replay.jsonl" 2> "$SDIR/replay.err" \
  || die "gestured replay failed: $(cat "$SDIR/replay.err")"
finished() { grep -cE '"phase":"(recognized|ended)"' "$1" || true; }
kinds() { grep -E '"phase":"(recognized|ended)"' "$1" | grep -o '"gesture":"[a-z_]*"' | sort | uniq -c | tr -s ' ' | tr '\n' ';'; }
expected=$(finished "$SDIR/replay.jsonl")
say "replay of $strokes strokes at ${speed}x, ${SOAK_PAUSE:-0.4} s apart: $expected finished gestures: $(kinds "$SDIR/replay.jsonl")"
[ "$expected" -eq "$strokes" ] || die "the replay finished $expected gestures for $strokes strokes"

daemon_start "$(config soak)"
client_start c
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\).*/\1/p' /proc/"$DAEMON_PID"/status; }
# play-timed.py keeps each event's time from the start of the file (evemu-play sleeps from the
# previous event, and under emulation each sleep overshoots: a 0.4 s swipe stretched past 2.5 s).
# It prints one line per stroke it finished writing.
python3 "$VMDIR/play-timed.py" "$TS_node" "$WORK/soak.events" 1 0 > "$SDIR/played" &
player=$!; track $player
: > "$SDIR/rss"
while kill -0 $player 2>/dev/null; do rss >> "$SDIR/rss"; sleep 1; done
wait $player || die "play-timed.py failed"
played=$(wc -l < "$SDIR/played")
[ "$played" -eq "$strokes" ] || die "the player wrote $played of $strokes strokes"
rss >> "$SDIR/rss"

# Every gesture of the recording reaches the client (the last one may still be in flight).
live_done() { [ "$(finished "$SDIR/c.jsonl")" -ge "$expected" ]; }
wait_until 10 live_done || true
sleep 1
got=$(finished "$SDIR/c.jsonl")
say "live: $got finished gestures: $(kinds "$SDIR/c.jsonl")"
[ "$got" -eq "$expected" ] || die "the client got $got finished gestures, the replay finds $expected"
circles=$(grep '"phase":"recognized"' "$SDIR/c.jsonl" | grep -c '"gesture":"circle"' || true)
# Every circle's command ran, or was skipped by max_concurrent with a log line: none unaccounted.
skipped() { grep -c 'circle recognized skipped' "$SDIR/daemon.log" || true; }
wait_until 10 sh -c "[ \$(( \$(cat '$WORK/soak.runs' 2>/dev/null | wc -l) + \$(grep -c 'circle recognized skipped' '$SDIR/daemon.log') )) -ge $circles ]" || true
runs=$(cat "$WORK/soak.runs" 2>/dev/null | wc -l)
say "the bound command ran $runs times, $(skipped) skipped (max_concurrent), for $circles circles"
[ $(( runs + $(skipped) )) -eq "$circles" ] || die "the bound command ran $runs times and was skipped $(skipped) times for $circles circles"

# Resident memory: the first sample after a quarter of the run against the last.
n=$(wc -l < "$SDIR/rss")
early=$(sed -n "$(( n / 4 + 1 ))p" "$SDIR/rss"); late=$(tail -1 "$SDIR/rss")
say "resident memory: ${early} kB after a quarter, ${late} kB at the end ($n samples)"
[ $(( late - early )) -le 1024 ] || die "resident memory grew from $early kB to $late kB"
expect_daemon_alive "after the soak"
