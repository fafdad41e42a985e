# 40. The read path stays lean (issue 14): while a swipe plays, the daemon makes at most 400
# system calls per 1,000 input events (measured 302; 567 when libevdev_next_event read the fd
# again for every batch and the handler read the clock on every wakeup, docs/performance.md).
# Counted by strace -c attached to the daemon; the swipe is bound to a command, whose spawn
# counts too.
SOCK=$WORK/gestured.sock
daemon_start "$(config compare-lisgd)"
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
sleep 1
strace -c -o "$WORK/daemon.strace" -p "$DAEMON_PID" 2>"$WORK/strace.err" & tracer=$!; track $tracer
sleep 1
play "$TS_node" "$ISDV4.single-top-swipe.events"
sleep 1
kill -INT $tracer; wait $tracer
cp "$WORK/daemon.strace" "$SDIR/"
events=$(grep -c '^E:' "$ISDV4.single-top-swipe.events")
python3 "$VMDIR/syscalls.py" "$events" "gestured=$WORK/daemon.strace" --max 400 || die "too many system calls per input event: $(cat "$SDIR/daemon.strace")"
expect_daemon_alive "after the swipe"
