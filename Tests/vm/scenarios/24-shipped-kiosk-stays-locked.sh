# 24. The shipped kiosk example (config/kiosk.toml, with this scenario's socket, dpms file and a
# 3 s maintenance idle timeout instead of 120 s) cannot be unlocked without its sequence: locked,
# the sequence's maintenance left idle returns to locked (not to maintenance's idle_mode normal);
# locked, the screensaver's {"mode":"asleep"} and a touch wake it to locked (not to asleep's
# wake_mode normal). A real libinput client on the clone sees no touch while locked.
# time-limit: 300
source "$VMDIR/passthrough.sh"
SOCK=$WORK/gestured.sock  # passthrough_start's, named here for the config
echo On > "$WORK/dpms"
conf=$WORK/kiosk.toml
{ printf '[socket]\npath = "%s"\n\n' "$SOCK"
  sed -e "s|^state = .*|state = \"$WORK/dpms\"|" -e 's|^idle_timeout = 120 |idle_timeout = 3 |' "$REPO/config/kiosk.toml"; } > "$conf"
cp "$conf" "$SDIR/kiosk.toml"
grep -q '^idle_timeout = 3 ' "$conf" || die "the example's maintenance idle_timeout changed shape"
PASSTHROUGH_CONFIG_FILE=$conf passthrough_start c
libinput_start app --device "$CLONE"

# Locked, then the sequence: maintenance for 600 s; left alone for 3 s, back to locked.
m=$(lines "$SDIR/c.jsonl")
socket_command '{"mode":"locked"}' | grep -q '"ok":true' || die "could not lock"
finger "tap 5 5" "sleep 400" "tap 195 5" "sleep 400" "tap 195 115" "sleep 400" "tap 5 115"
wait_event 15 "$SDIR/c.jsonl" --after "$m" event=mode mode=maintenance previous=locked reason=sequence
m=$(lines "$SDIR/c.jsonl")
wait_event 30 "$SDIR/c.jsonl" --after "$m" event=mode mode=locked previous=maintenance reason=idle
n=$(libinput_mark app)
finger "tap 100 60"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "locked again after idle, the app saw: $(app_show app "$n")"
say "maintenance left idle went back to locked; the app sees nothing"

# Locked, the screensaver puts it to sleep; the waking touch goes back to locked.
m=$(lines "$SDIR/c.jsonl")
socket_command '{"mode":"asleep"}' | grep -q '"ok":true' || die "could not switch to asleep"
n=$(libinput_mark app)
finger "tap 100 60"
wait_event 15 "$SDIR/c.jsonl" --after "$m" event=mode mode=locked previous=asleep reason=wake
finger "tap 100 60"
sleep 1
[ "$(app_count app "$n")" = 0 ] || die "woken from asleep into locked, the app saw: $(app_show app "$n")"
socket_command '{"status":true}' | grep -q '"mode":"locked"' || die "not locked: $(socket_command '{"status":true}')"
say "asleep on a locked kiosk woke into locked; the app saw nothing"
expect_daemon_alive "at the end"
