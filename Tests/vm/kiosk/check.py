#!/usr/bin/python3
"""Judges what a real client logged under a compositor in the kiosk tier (scenarios 60–62, 64, 65).

    check.py KIND APP_LOG CASES COMPOSITOR RELEASE VERSION TABLE_OUT

KIND is `wev` (a Wayland client's wl_touch/wl_pointer/wl_keyboard log) or `xi2` (`xinput
test-xi2 --root` on X11). CASES has one line per case: name, first and last line of the log it
produced. Independent of gestured's code: it reads only what the client printed.

Rules, for the whole log:
  - a touch id comes down only when the app has no touch with that id down (every touch the app
    saw ended, by up or cancel, before its id was reused);
  - after each case, no touch is down for the app;
and per case (what the fingers did is in kiosk.sh):
  - tap: exactly 2 touches, each down then up where tapped (they give the mm → pixel map);
  - drag, after-gestures: exactly the touches played, ended by up, not taps;
  - circle, swipe, pinch, fingers3 (gestured takes them): no touch the app saw ends as a tap
    (an up within TAP_MM of its down), at most the fingers played reach it (the grabbed original
    is invisible: no touch twice), fingers3's third finger never; circle types ctrl+r;
  - edge (held, then taken): no touch at all; a left click, press and release (gestured's
    virtual pointer, on every compositor);
  - stopped (the daemon stopped with a finger down): the touch ends for the app;
  - unplugged (the panel destroyed under a resting finger; scenario 66): the touch ends for the
    app, not as a tap;
    after-replug (a tap once the same panel is back): one touch, ended by up;
  - with TAKEN_END=cancel in the environment (the daemon's `taken_touch_end = "cancel"` under a
    compositor that forwards libinput's cancel as wl_touch.cancel): circle, swipe, pinch and
    fingers3 end every touch the app saw by `cancel`, none by `up`; without it (the default, or a
    compositor that turns the cancel into an up) the rule above stands: no taken touch ends as a tap;
and after the reload with issue 37's conditioning (kiosk_conditioning in kiosk.sh):
  - palm (a 40 mm contact sliding in from the edge; palm_mm = 20): no touch, no click;
  - pinch-app1, tap2-app1 (app_fingers = 1; a pinch, a two-finger tap): at most one touch,
    never a tap (as for the pinch above: the still first finger of the two-finger tap is taken
    within the slop and must step beyond it before it lifts);
  - ghosts (phantoms and real taps at one place): exactly the 4 real taps, each a tap where it
    was tapped (150/60 mm, by the tap case's mm → pixel map).
Writes one table row per case to TABLE_OUT (compositor, Debian release, version, case, what the
app saw) and
prints it; exits 1 if a rule is broken, naming it.
"""
import math
import os
import re
import sys

TAP_MM = 4.0

kind, log_path, cases_path, comp, release, version, table_out = sys.argv[1:8]
taken_end = os.environ.get("TAKEN_END", "lift")
lines = open(log_path, errors="replace").read().split("\n")


def parse_wev():
    """(line_no, kind, id, x, y) with kind in down, motion, up, cancel, key, button."""
    out = []
    previous = None
    for n, l in enumerate(lines, 1):
        m = re.search(r"^\[(\d+):\s*(\w+)\]\s+(\w+):?(.*)", l)
        if not m:
            continue
        ev = m.group(3)
        # wev binds a new wl_keyboard (wl_pointer, wl_touch) each time the seat's capabilities
        # change, and logs each event once per object: the same event on the next object is
        # the same event.
        same = (m.group(2), ev, m.group(4))
        if previous and previous[1:] == same and previous[0] != m.group(1):
            continue
        previous = (m.group(1),) + same
        if "wl_touch]" in l and ev in ("down", "motion", "up", "cancel"):
            i = re.search(r"\bid: (-?\d+)", l)
            xy = re.search(r"x, y: (-?[\d.]+), (-?[\d.]+)", l) or re.search(r"\bx: (-?[\d.]+),? y: (-?[\d.]+)", l)
            out.append((n, ev, int(i.group(1)) if i else None,
                        float(xy.group(1)) if xy else None, float(xy.group(2)) if xy else None))
        elif "wl_keyboard]" in l and ev == "key":
            k = re.search(r"key: (\d+); state: (\d)", l)
            if k:
                out.append((n, "key", int(k.group(1)), int(k.group(2)), None))
        elif "wl_pointer]" in l and ev == "button":
            b = re.search(r"button: (\d+).*state: (\d)", l)
            if b:
                out.append((n, "button", int(b.group(1)), int(b.group(2)), None))
    return out


XI = {"TouchBegin": "down", "TouchUpdate": "motion", "TouchEnd": "up",
      "KeyPress": "key", "KeyRelease": "key", "ButtonPress": "button", "ButtonRelease": "button"}


def parse_xi2():
    """The same from `xinput test-xi2 --root`: one block per event; raw events are skipped.
    Events come once per device they are delivered for: only the lowest device id is kept."""
    blocks = []
    cur = None
    for n, l in enumerate(lines, 1):
        m = re.match(r"EVENT type \d+ \((\w+)\)", l)
        if m:
            cur = {"n": n, "name": m.group(1)}
            blocks.append(cur)
            continue
        if cur is None:
            continue
        f = re.match(r"\s+(\w+): (.*)", l)
        if f and f.group(1) not in cur:
            cur[f.group(1)] = f.group(2)
    devices = {}
    for b in blocks:
        if b["name"] in XI and "device" in b:
            dev = int(b["device"].split()[0])
            devices.setdefault(XI[b["name"]], set()).add(dev)
    out = []
    for b in blocks:
        k = XI.get(b["name"])
        if k is None or "device" not in b:
            continue
        if int(b["device"].split()[0]) != min(devices[k]):
            continue
        detail = int(b.get("detail", "0"))
        if k in ("down", "motion", "up"):
            x, y = (float(v) for v in b.get("root", "0/0").split("/")[:2])
            out.append((b["n"], k, detail, x, y))
        else:
            out.append((b["n"], k, detail, 1 if b["name"].endswith("Press") else 0, None))
    return out


events = parse_wev() if kind == "wev" else parse_xi2()
# XKB keycodes (evdev + 8): wev prints them too.
KEY_CTRL, KEY_R = 37, 27
BTN_LEFT = 272 if kind == "wev" else 1

cases = []
for l in open(cases_path):
    if l.strip():
        name, a, b = l.rstrip("\n").split("\t")
        cases.append((name, int(a), int(b)))

failures = []
rows = []
down = {}        # id → [down x, down y, max travel px, line]
px_per_mm = None
mm_map = None    # the tap case's per-axis map: (x px, y px) of 50/30 mm, px per mm in x and in y


def fail(case, why):
    failures.append(f"{case}: {why}")


for name, a, b in cases:
    evs = [e for e in events if a < e[0] <= b]
    touches = []   # per touch: dict(id, end, motions, travel_mm)
    keys, buttons = [], []
    for n, k, i, x, y in evs:
        if k == "down":
            if i in down:
                fail(name, f"touch id {i} came down at line {n} while the app still had it down (from line {down[i][3]})")
            down[i] = [x, y, 0.0, n]
            touches.append({"id": i, "end": None, "motions": 0, "down": (x, y), "travel": 0.0})
        elif k == "motion":
            if i not in down:
                fail(name, f"motion of touch id {i} the app does not have down (line {n})")
                continue
            d = down[i]
            d[2] = max(d[2], math.hypot(x - d[0], y - d[1]))
            for t in reversed(touches):
                if t["id"] == i and t["end"] is None:
                    t["motions"] += 1
                    t["travel"] = d[2]
                    break
        elif k in ("up", "cancel"):
            ids = [i] if k == "up" else list(down)   # wl_touch.cancel cancels every touch
            for j in ids:
                if j not in down:
                    if k == "up":
                        fail(name, f"up of touch id {j} the app does not have down (line {n})")
                    continue
                del down[j]
                for t in reversed(touches):
                    if t["id"] == j and t["end"] is None:
                        t["end"] = k
                        break
                else:
                    touches.append({"id": j, "end": k, "motions": 0, "down": None, "travel": 0.0})
        elif k == "key":
            keys.append((i, x))
        elif k == "button":
            buttons.append((i, x))
    if down:
        fail(name, f"touch id(s) {sorted(down)} still down for the app after the case")
    if name == "tap":
        if len(touches) == 2 and all(t["down"] for t in touches):
            (x0, y0), (x1, y1) = touches[0]["down"], touches[1]["down"]
            px_per_mm = math.hypot(x1 - x0, y1 - y0) / math.hypot(100, 60)
            mm_map = (x0, y0, (x1 - x0) / 100, (y1 - y0) / 60)
    scale = px_per_mm or 1.0

    def is_tap(t):
        return t["end"] == "up" and t["travel"] / scale <= TAP_MM

    taps = sum(1 for t in touches if is_tap(t))
    warm_up = name == "warm-up"   # taps until the compositor has added the clone: only the rules above
    ends = [t["end"] or "none" for t in touches]
    expect_fingers = {"warm-up": 1, "circle-rotated": 1, "after-rotated": 1, "tap": 2, "drag": 1, "circle": 1, "swipe": 2, "pinch": 2, "edge": 0, "fingers3": 2,
                      "after-gestures": 1, "stopped": 1, "unplugged": 1, "after-replug": 1, "palm": 0, "pinch-app1": 1, "tap2-app1": 1, "ghosts": 4}[name]
    if warm_up:
        pass
    elif name in ("tap", "drag", "after-gestures", "after-rotated", "after-replug"):
        if len(touches) != expect_fingers:
            fail(name, f"{len(touches)} touches, not {expect_fingers} (a touch twice, or lost)")
        if any(e != "up" for e in ends):
            fail(name, f"the app's touches ended {ends}, not up")
        if name == "tap" and taps != 2:
            fail(name, f"{taps} of the 2 taps were taps for the app")
        if name == "drag" and taps:
            fail(name, "the drag was a tap for the app")
        if name == "tap" and not px_per_mm:
            fail(name, "no mm → pixel map (the taps did not arrive)")
    elif name == "edge":
        if touches:
            fail(name, f"{len(touches)} touch(es) of the held, taken edge stroke reached the app")
        if sorted(buttons) != [(BTN_LEFT, 0), (BTN_LEFT, 1)]:
            fail(name, f"the edge swipe's left click did not arrive once: buttons {buttons}")
    elif name == "palm":
        if touches or buttons or keys:
            fail(name, f"the palm reached the app: {len(touches)} touch(es), buttons {buttons}, keys {keys}")
    elif name == "ghosts":
        if len(touches) != 4 or taps != 4:
            fail(name, f"{len(touches)} touches, {taps} taps reached the app, not the 4 real taps (no phantom)")
        for t in touches:
            if mm_map and t["down"]:
                x, y = 50 + (t["down"][0] - mm_map[0]) / mm_map[2], 30 + (t["down"][1] - mm_map[1]) / mm_map[3]
                if math.hypot(x - 150, y - 60) > 3:
                    fail(name, f"a tap reached the app at {x:.1f}/{y:.1f} mm, not 150/60")
    elif name in ("stopped", "unplugged"):
        if len(touches) != 1:
            fail(name, f"{len(touches)} touches, not 1")
        if name == "unplugged" and taps:
            fail(name, "the resting finger's touch ended as a tap when its panel went")
    else:
        if len(touches) > expect_fingers:
            fail(name, f"{len(touches)} touches reached the app, more than the {expect_fingers} it may see")
        if taps:
            fail(name, f"{taps} touch(es) gestured took ended as a tap for the app (up within {TAP_MM} mm)")
        if taken_end == "cancel" and name in ("circle", "swipe", "pinch", "fingers3") and (not touches or any(e != "cancel" for e in ends)):
            fail(name, f"the app's taken touches ended {ends}, not cancel (TAKEN_END=cancel)")
        if name in ("circle", "circle-rotated"):
            pressed = [k for k, s in keys if s == 1]
            if KEY_CTRL not in pressed or KEY_R not in pressed:
                fail(name, f"ctrl+r did not arrive: keys {keys}")
    # What the app saw, in words.
    words = []
    if touches:
        words.append("; ".join(f"down, {t['motions']} motions, {t['end'] or 'NO END'}"
                               f"{' (tap)' if is_tap(t) else ''}" for t in touches))
    else:
        words.append("no touch")
    if keys:
        words.append("keys " + " ".join(f"{k}{'↓' if s else '↑'}" for k, s in keys))
    if buttons:
        words.append("button " + " ".join(f"{k}{'↓' if s else '↑'}" for k, s in buttons))
    rows.append(f"| {comp} | {release} | {version} | {name} | {' · '.join(words)} |")

with open(table_out, "w") as f:
    f.write("\n".join(rows) + "\n")
print("\n".join(rows))
for x in failures:
    print("FAIL: " + x)
sys.exit(1 if failures else 0)
