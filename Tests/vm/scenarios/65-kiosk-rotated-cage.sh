# 65. A rotated kiosk: the panel mounted turned a quarter clockwise (rotation = 90) with
# map_clone = true (issue 37: the clone reports screen coordinates), under cage with its output
# turned the same way (cage -r: 1280 × 720 becomes 720 × 1280). A tap at 50/30 mm of the panel is
# at 90/50 mm of the 120 × 200 mm screen (CoordinateTransform: x = h − y, y = x), so wev must get
# it at 75 % / 25 % of its surface — not at 25 % / 25 %, where the unrotated clone would put it.
# A circle then ends for the app, not as a tap, and the next tap is a fresh touch.
# time-limit: 600
source "$VMDIR/passthrough.sh"; source "$VMDIR/kiosk/kiosk.sh"
kiosk_daemon kiosk-rotated
kiosk_cage -r
from=$(lines "$SDIR/app.log")
finger "tap 50 30"
nap 1.5
python3 - "$SDIR/app.log" "$from" <<'PY' || die "the rotated tap did not arrive where the surface was touched"
import re, sys
lines = open(sys.argv[1]).read().split("\n")
size = [tuple(map(int, m.groups())) for l in lines
        for m in [re.search(r"xdg_toplevel\] configure: width: (\d+); height: (\d+)", l)] if m and m.group(1) != "0"]
downs = [tuple(map(float, m.groups())) for l in lines[int(sys.argv[2]):]
         for m in [re.search(r"wl_touch\] down: .*x, y: ([\d.]+), ([\d.]+)", l)] if m]
if not size or len(downs) != 1:
    sys.exit(f"surface sizes {size}, downs {downs}")
w, h = size[-1]
x, y = downs[0]
print(f"rotated tap: surface {w}x{h}, down at {x:.1f}/{y:.1f} px = {x / w:.3f}/{y / h:.3f}; expected 0.750/0.250")
sys.exit(0 if w < h and abs(x / w - 0.75) < 0.02 and abs(y / h - 0.25) < 0.02 else 1)
PY
: > "$SDIR/cases.tsv"
kcase circle-rotated "circle 100 60 25 1200"
kcase after-rotated "tap 100 60"
python3 "$KIOSK/check.py" wev "$SDIR/app.log" "$SDIR/cases.tsv" "cage -r" "$KIOSK_RELEASE" "$KIOSK_VERSION" "$SDIR/kiosk.table" \
  || die "what the app saw under the rotated cage breaks check.py's rules"
