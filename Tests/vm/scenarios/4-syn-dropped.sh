# 4. More events arrive than the daemon reads until the kernel's per-client buffer overflows
# (SYN_DROPPED): the daemon is frozen with SIGSTOP while three circles are played (≈1200
# events, far beyond the evdev buffer of a 2-slot device), the last one stopped mid-stroke
# with the finger down; then SIGCONT. The daemon must resync, keep running, not turn the
# truncated stroke into a circle, and recognize the next gesture (a swipe) normally. A second reader,
# stalled the same way, proves the kernel really dropped events.
SOCK=$WORK/gestured.sock
daemon_start "$(config hotplug)"
client_start c
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
python3 "$VMDIR/stalled-reader.py" "$TS_node" "$WORK/reader.ready" "$WORK/reader.go" > "$WORK/reader.out" 2>&1 &
reader=$!; track $reader
wait_until 10 test -e "$WORK/reader.ready" || die "control reader did not start: $(cat "$WORK/reader.out")"

events_part "$ISDV4.single-center-circle.events" 0 0.5 > "$WORK/circle-first-half.events"
events_part "$ISDV4.single-center-circle.events" 0.5 1 > "$WORK/circle-second-half.events"
before=$(lines "$SDIR/c.jsonl")
kill -STOP "$DAEMON_PID"
say "daemon stopped"
play "$TS_node" "$ISDV4.single-center-circle.events"
play "$TS_node" "$ISDV4.single-center-circle.events"
play "$TS_node" "$WORK/circle-first-half.events"
touch "$WORK/reader.go"
wait $reader
say "control reader: $(cat "$WORK/reader.out")"
grep -q 'syn_dropped=[1-9]' "$WORK/reader.out" || die "the kernel did not overflow a stalled reader's buffer ($(cat "$WORK/reader.out")): the scenario proves nothing"
kill -CONT "$DAEMON_PID"
say "daemon continued"
sleep 2
expect_daemon_alive "after SIGCONT with a SYN_DROPPED queued"
daemon_holds "$TS_node" || die "the daemon let go of the device after SYN_DROPPED"
# The finger lifts: the rest of the truncated stroke is not a circle (its start was dropped).
play "$TS_node" "$WORK/circle-second-half.events"
sleep 2
expect_daemon_alive "after the stroke ended"
event "$SDIR/c.jsonl" --after "$before" --none gesture=circle phase=recognized \
  || die "a circle was recognized from a stroke whose events were dropped"

swipe_right "$TS_node" "device=Wacom ISDv4 E6 Finger"
expect_daemon_alive "at the end"
