# 0. The harness itself, no daemon: the guest's kernel input stack does what the other
# scenarios rely on. uinput devices from recordings get real udev properties and node
# permissions, a played recording reaches a reader intact, and unplugging removes the node.
say "input devices at start:"; ls -l /dev/input/
device_add TS "$ISDV4.desc"
[ "$(udev_prop "$TS_node" ID_INPUT_TOUCHSCREEN)" = 1 ] || die "udev did not tag $TS_node as a touchscreen: $(udevadm info "$TS_node")"
[ "$(stat -c '%G %a' "$TS_node")" = "input 660" ] || die "$TS_node is $(stat -c '%U:%G %a' "$TS_node"), expected group input, mode 660"

# A reader sees every frame of the recording (the kernel drops repeated values, so count SYN_REPORTs).
evemu-record "$TS_node" > "$WORK/recorded" 2>&1 &
rec=$!; track $rec
sleep 0.5
play "$TS_node" "$ISDV4.single-center-circle.events"
sleep 0.5; kill $rec
frames() { awk '$1 == "E:" && $3 == "0000" && $4 == "0000" { n++ } END { print n + 0 }' "$1"; }
want=$(frames "$ISDV4.single-center-circle.events")
got=$(frames "$WORK/recorded")
say "frames played $want, read back $got"
[ "$got" -eq "$want" ] || die "read back $got frames of $want"

# The VM's own keyboard is there (a non-touch device every scenario runs beside).
kbd=$(for n in /dev/input/event*; do [ "$(udev_prop "$n" ID_INPUT_KEYBOARD)" = 1 ] && echo "$n"; done | head -1)
[ -n "$kbd" ] || die "no keyboard device in the VM"
say "keyboard: $kbd ($(udev_prop "$kbd" NAME))"

device_remove TS
