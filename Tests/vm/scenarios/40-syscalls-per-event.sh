# 40. The read path stays lean: while a swipe plays, the daemon reads each device
# once per wakeup (at most 1.2 reads per wakeup — epoll_pwait, issued raw — the timer's included; 2.25 when
# libevdev_next_event read the fd again for every batch) and makes at most 600 system calls
# per 1,000 input events (302–351 measured on a busy host, which batches frames; 571 on a quiet
# one, 2026-11-26: one wakeup per frame, 1.01 reads each; reading per event would be over 1,000;
# docs/performance.md).
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
python3 "$VMDIR/syscalls.py" "$events" "gestured=$WORK/daemon.strace" --max 600 --max-reads-per-wakeup 1.2 || die "too many system calls per input event: $(cat "$SDIR/daemon.strace")"
expect_daemon_alive "after the swipe"
