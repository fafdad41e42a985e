#!/usr/bin/python3
"""Judges what a web page saw in Chromium in the browser tier (scenario 67; browser/browser.sh).

    check.py APP_LOG CASES BROWSER DEBIAN_RELEASE VERSIONS TABLE_OUT

APP_LOG is Chromium's stderr; the page (browser/page.html) logs each event to the console as
"GT <ms> <event> key=value...". CASES has one line per case: name, first and last line of the
log it produced. Independent of gestured's code: it reads only what the page printed.

Rules, per case (what the fingers did is in browser.sh):
  - every touch ends: as many touchend and touchcancel as touchstart, by each case's end;
  - no case but tap and after-gestures clicks, none opens a context menu, none zooms
    (visualViewport.scale);
  - tap, after-gestures: exactly one click, on the button;
  - drag: the page scrolls;
  - circle, swipe, pinch, tap2, long-press (gestured takes them): the key bound to each arrives
    (c, s, p, t, l: gestured took it), and nothing else: no click, no context menu, no zoom;
  - edge (held, then taken): no touch at all; the key e arrives;
  - pinch-app1 (app_fingers = 1): at most one touch;
  - pinch-free (scenario 68: Chromium's --disable-pinch, gestured takes nothing of it): two
    touches reach the page, and it does not zoom.
Writes one table row per case to TABLE_OUT and prints it; exits 1 if a rule is broken, naming it.
"""
import re
import sys

log_path, cases_path, browser, release, version, table_out = sys.argv[1:7]
lines = open(log_path, errors="replace").read().split("\n")
events = []  # (line_no, ms, event, fields)
for n, l in enumerate(lines, 1):
    m = re.search(r'"GT (\d+) (\w+)((?: [\w]+=[^ "]*)*)"', l)
    if m:
        fields = dict(f.split("=", 1) for f in m.group(3).split())
        events.append((n, int(m.group(1)), m.group(2), fields))

KEYS = {"circle": "c", "swipe": "s", "pinch": "p", "tap2": "t", "long-press": "l", "edge": "e"}
TAKEN = {"circle", "swipe", "pinch", "tap2", "long-press", "edge", "pinch-app1"}
failures = []
rows = []
for row in open(cases_path):
    name, first, last = row.rstrip("\n").split("\t")
    evs = [e for e in events if int(first) < e[0] <= int(last)]
    kinds = [e[2] for e in evs]
    count = lambda k: kinds.count(k)
    starts, ends, cancels = count("touchstart"), count("touchend"), count("touchcancel")
    clicks = [e[3].get("target") for e in evs if e[2] == "click"]
    menus = [e[3].get("target") for e in evs if e[2] == "contextmenu"]
    zooms = [e[3].get("scale") for e in evs if e[2] == "zoom"]
    scrolls = [int(e[3]["y"]) for e in evs if e[2] == "scroll"]
    keys = [e[3].get("key") for e in evs if e[2] == "keydown"]
    pcancel = count("pointercancel")

    def broken(rule):
        failures.append(f"{name}: {rule}")

    if starts != ends + cancels:
        broken(f"{starts} touchstart but {ends} touchend and {cancels} touchcancel: a touch did not end")
    # The warm-up taps are the harness's (the compositor adds its devices at their first event),
    # on the page's body while Chromium may still be starting: a busy browser can read one as a
    # long press. Their row shows it; every case after them is held to the rule.
    if menus and name != "warm-up":
        broken(f"a context menu opened ({', '.join(menus)})")
    if zooms:
        broken(f"the page zoomed (scale {', '.join(zooms)})")
    if name in ("tap", "after-gestures"):
        if clicks != ["btn"]:
            broken(f"one click on the button expected, got {clicks}")
    elif clicks and name != "warm-up":
        broken(f"clicked {clicks}")
    if name == "drag" and not scrolls:
        broken("the drag did not scroll")
    if name in KEYS and KEYS[name] not in keys:
        broken(f"gestured's key {KEYS[name]} did not arrive (keys: {keys}): gestured did not take it")
    if name == "edge" and starts:
        broken(f"{starts} touches reached the page (a held stroke gestured took must not)")
    if name == "pinch-free" and starts != 2:
        broken(f"{starts} touches reached the page: the pinch is the page's (two)")
    if name == "pinch-app1" and starts > 1:
        broken(f"{starts} touches reached the page with app_fingers = 1")

    seen = f"{starts} touches ({ends} end, {cancels} cancel)"
    if pcancel:
        seen += f", {pcancel} pointercancel"
    seen += " · click " + (",".join(clicks) if clicks else "none")
    seen += " · contextmenu " + (",".join(menus) if menus else "none")
    seen += " · zoom " + (",".join(zooms) if zooms else "none")
    if scrolls:
        seen += f" · scroll to {scrolls[-1]}"
    if keys:
        seen += " · keys " + " ".join(keys)
    rows.append(f"| {browser} | {release} | {version} | {name} | {seen} |")
    # The event lines of a case taken by gestured, for the record (docs/kiosk.md).
    if name in TAKEN:
        for e in evs:
            if e[2] not in ("scroll",):
                print(f"  {name}: {e[1]} {e[2]} " + " ".join(f"{k}={v}" for k, v in e[3].items()))

with open(table_out, "w") as f:
    f.write("\n".join(rows) + "\n")
print("\n".join(rows))
if failures:
    print("broken:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("the page saw what it should in every case")
