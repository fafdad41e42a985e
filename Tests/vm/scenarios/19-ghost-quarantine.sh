# 19. Ghost quarantine: the scripted touchscreen sends a phantom (down and up in consecutive
# frames, at once, as the Raspberry Pi Touch Display 2 does) at one place about every second,
# and a person taps the same place between them. A real libinput client on the clone gets every
# real tap and no phantom; status counts the phantoms; the log says so once for the place and
# once for its period; and the idle mode (idle_timeout = 3) still comes on time while the
# phantoms go on.
PASSTHROUGH_CONFIG=conditioning
DAEMON_START_S=${DAEMON_START_S:-120}  # the emulated VM under a loaded host starts the daemon slowly
source "$VMDIR/passthrough.sh"
passthrough_start
libinput_start app --device "$CLONE"

n=$(libinput_mark app)
# One call, on finger.py's clock: the period is learned from intervals within 2 % (20 ms), and a
# round trip per ghost through the scenario drifted by more on a loaded host.
steps=(clock)
for i in 0 1 2 3; do steps+=("at $((i * 1000))" "ghost 190 5" "at $((i * 1000 + 300))" "tap 190 5"); done
finger "${steps[@]}"
wait_until 10 at_least 4 app_count app "$n" TOUCH_UP || die "not every real tap reached the app: $(app_show app "$n")"
sleep 1
[ "$(app_count app "$n" TOUCH_DOWN)" = 4 ] || die "the app got $(app_count app "$n" TOUCH_DOWN) touches for 4 real taps and 4 phantoms: $(app_show app "$n")"
[ "$(app_count app "$n" TOUCH_CANCEL)" = 0 ] || die "a touch was cancelled: $(app_show app "$n")"
# Device (190, 5) mm is screen (115, 190) on the panel turned 90°.
while read -r x y; do
  near "$x" 114.95 0.3 && near "$y" 190 0.3 || die "a real tap reached the app at $x/$y mm, not 114.95/190"
done <<< "$(app_down_mm app "$n")"
status=$(socket_command '{"status":true}')
grep -q '"ghosts":4,' <<< "$status" || die "status does not count 4 ghosts: $status"
[ "$(grep -c 'ghost touch quarantined at' "$SDIR/daemon.log")" = 1 ] || die "the place was not logged once: $(grep ghost "$SDIR/daemon.log")"
grep -Eq 'ghost touches at .* repeat every 1(\.[0-9]*)? s' "$SDIR/daemon.log" || die "the period was not logged: $(grep ghost "$SDIR/daemon.log"); $status"
say "4 real taps reached the app, 4 phantoms at the same place none; logged once per place and period"

# The idle mode comes 3 s after the last real touch although the phantoms go on every second.
start=$(date +%s.%N)
for i in 1 2 3 4 5; do finger "ghost 190 5" "sleep 1000"; done
grep -q 'mode idle (was normal' "$SDIR/daemon.log" || die "the phantoms kept the idle mode away: $(grep -i mode "$SDIR/daemon.log" | tail -3)"
socket_command '{"status":true}' | grep -q '"mode":"idle"' || die "not in the idle mode: $(socket_command '{"status":true}')"
[ "$(app_count app "$n" TOUCH_DOWN)" = 4 ] || die "a phantom reached the app while idle: $(app_show app "$n")"
say "the idle mode came while phantoms went on; none reached the app"
expect_daemon_alive "at the end"
