# 41. Coalesced reads (`read_interval_ms = 30`): the swipe's 110 frames (one every 11 ms) are
# read two or three at a time, so the daemon's main thread wakes at most 0.6 times per frame
# (about once per frame without it, docs/performance.md); the swipe is still recognized, its
# command runs, and once the finger is up the device is back in epoll: an idle daemon does
# not wake.
SOCK=$WORK/gestured.sock
conf=$(config compare-lisgd)
printf '\n[defaults]\nread_interval_ms = 30\n' >> "$conf"
cp "$conf" "$SDIR/"
daemon_start "$conf"
client_start c
device_add TS "$ISDV4.desc"
wait_daemon_opens "$TS_node"
sleep 1
wakeups() { awk '/^voluntary_ctxt_switches/ {print $2}' "/proc/$DAEMON_PID/status"; }
frames=$(grep -c '^E: .* 0000 0000 0$' "$ISDV4.single-top-swipe.events")
# A first swipe pages in the code that runs (the binary is read over 9p; a page fault that
# reads is a wakeup too), and spawns the command once; the second is counted.
play "$TS_node" "$ISDV4.single-top-swipe.events"
wait_event 10 "$SDIR/c.jsonl" gesture=swipe phase=recognized direction=right fingers=1
sleep 2
w0=$(wakeups)
play "$TS_node" "$ISDV4.single-top-swipe.events"
wait_until 10 at_least 2 grep -c '"gesture":"swipe"' "$SDIR/c.jsonl" || die "the second swipe was not recognized"
sleep 1
w1=$(wakeups)
say "main thread woke $((w1 - w0)) times for $frames frames (client connected, command spawned)"
[ $((w1 - w0)) -le $((frames * 6 / 10)) ] || die "coalescing did not cut wakeups: $((w1 - w0)) for $frames frames"
wait_until 10 at_least 2 grep -c '' "$WORK/gestured.times" || die "the swipes' command did not run twice"
sleep 3
w2=$(wakeups)
[ $((w2 - w1)) -le 1 ] || die "the idle daemon woke $((w2 - w1)) times in 3 s after the swipe"
expect_daemon_alive "after the coalesced swipe"
