#!/usr/bin/python3
"""A real touchscreen made through /dev/uhid from its HID report descriptor, for scenario 50.

    hid-panel.py FIXTURE < commands
    hid-panel.py FIXTURE FD:LOG:PIDFILE...    one player per FD (commands), each forked

The kernel's own hid-multitouch driver parses the descriptor (Tests/Fixtures/hid-touchscreens/)
and makes the evdev node(s), with the quirks, slot handling and frame boundaries the panel gets
on a kiosk. A player plays every panel of its lane, one after another: importing hidtools
takes most of a minute of the emulated VM's CPU, so it is done once and the lanes' players are
forked from it (each reads its commands from FD, writes its log to LOG and its pid to PIDFILE). Once a panel's touchscreen node exists this script
writes INFO_FILE, one JSON object:
node, width_mm/height_mm (from the node's resolution; null when the panel reports none, and
then the gestures are played on ASSUMED_MM, which the scenario gives the daemon as size_mm),
contacts (at most at once: the descriptor's Contact Max as the kernel reads it, capped by the
node's slots), per_report (contacts one HID report carries), style (its contact ids), and
palm: the palm case's sizes (PALM below) for a panel that reports contact size, else
palm_skip, why it has none.

Reports are sent as the panel sends them: a scan every SCAN_S, every contact that is down in
each scan (a lifted one once more, tip switch off), packed per_report contacts to a report;
the first report of a scan carries the scan's contact count and the later ones 0 (the HID
spec's hybrid mode), so a panel with one contact per report sends each finger in its own
report. Contact ids follow the panel's kernel quirks: the slot (SLOT_IS_CONTACTID), the slot
+ 1 (…_MINUS_ONE), or arbitrary ids that keep rising, as most firmware sends them.

Commands, one a line:
    config FILE NAME... [passthrough NAME...]
                      appends the daemon's [[device]] sections for these panels to FILE:
                      size_mm for those that report no size, passthrough for those named last,
                      palm_mm for those that report contact size
    create NAME INFO_FILE   makes the panel NAME of the fixture
    play GESTURE      one gesture of gestures() below, centred on the panel, fingers down to up;
                      "palm" and "finger" (panels with contact size): a palm-sized tap left of
                      the centre, a finger-sized one right of it
    drag              one finger down at the left, moved 40 mm right over 1.5 s, kept down
                      (the panel keeps scanning it until the next command)
    unplug            destroys the panel, touches still down
    mark FILE         creates FILE holding the last gesture's timing: "N scans in T s, longest
                      gap G ms" (the scenario waits for it)
"""
import json
from pathlib import Path
import math
import os
import select
import sys
import threading
import time

from hidtools.hid import ReportDescriptor
from hidtools.uhid import UHIDDevice
from hidtools.util import BusType

SCAN_S = 0.010            # 100 scans a second, the usual USB touch controller rate
ASSUMED_MM = (344.0, 194.0)  # a 15.6-inch 16:9 screen, for panels that report no size
ROW_MM = 18.0             # fingertip spacing of a relaxed hand, index to little finger
BUS = {"usb": BusType.USB, "i2c": BusType.I2C, "bluetooth": BusType.BLUETOOTH}
# The palm case (panels whose touches carry HID Width, which hid-multitouch reports as
# ABS_MT_TOUCH_MAJOR): the daemon's palm_mm is PALM_MM, lowered to what the size axis can
# reach; the palm is PALM_OVER times that, the finger FINGER_OF times (a fingertip, 8 mm at 20).
PALM_MM, PALM_MIN_MM = 20.0, 5.0   # 5 mm: the least palm_mm the config takes
PALM_OVER, FINGER_OF = 1.5, 0.4


# ---- the panel ----------------------------------------------------------------------------

def reports_size(report):
    """Whether the kernel gives the touch axes a resolution: hid-input computes one only for a
    position field in centimetres (unit 0x11) or inches (0x13) with a physical range
    (hidinput_calc_abs_res); otherwise the node says 0 and the daemon needs size_mm."""
    x = next(f for f in report if f.usage_name == "X")
    return x.unit in (0x11, 0x13) and x.physical_max > x.physical_min


def kernel_resolution(f):
    """Units per mm hid-input gives a field's axis (hidinput_calc_abs_res, which covers X, Y and
    the touch size): a field in centimetres or inches with a physical range, else 0."""
    logical, physical, exp = f.logical_max - f.logical_min, f.physical_max - f.physical_min, f.unit_exp
    if f.unit not in (0x11, 0x13) or logical <= 0 or physical <= 0:
        return 0
    if f.unit == 0x11:
        exp += 1
    else:
        physical, exp = physical * 254, exp - 1
    logical *= 10 ** max(0, -exp)
    physical *= 10 ** max(0, exp)
    return (logical + physical // 2) // physical


def palm_plan(report):
    """The palm case of a panel, from its touch report: (palm_mm, None), or (None, why not).
    The size axis is read as the daemon's PalmRule reads it: in its own resolution, else in the
    x axis's units (the daemon's size_mm, ASSUMED_MM, where x has no resolution either)."""
    fields = {f.usage_name: f for f in report}
    if "Width" not in fields:
        also = " (it reports pressure, which the palm rule does not read)" if "Tip Pressure" in fields else ""
        return None, "no contact size: its touches carry no HID Width (no ABS_MT_TOUCH_MAJOR)" + also
    w, x = fields["Width"], fields["X"]
    x_res = kernel_resolution(x)
    x_span = x.logical_max - x.logical_min
    per_mm = kernel_resolution(w) or x_span / ((x_span / x_res) if x_res else ASSUMED_MM[0])
    reach = w.logical_max / per_mm
    mm = max(PALM_MIN_MM, min(PALM_MM, math.floor(reach / PALM_OVER)))
    if math.ceil(mm * per_mm) > w.logical_max:
        return None, f"its size axis reaches {reach:.1f} mm, below the least palm_mm ({PALM_MIN_MM:g} mm)"
    return mm, None


def touch_report(rdesc):
    """The input report that carries the touches: the one with the most Contact Id fields."""
    def contacts(r):
        return [f.usage_name for f in r].count("Contact Id")
    return max(rdesc.input_reports.values(), key=contacts)


def max_contacts(panel, rdesc, report):
    """Contacts the panel reports at once: the fixture's figure where the descriptor does not
    say it, else Contact Max, capped by what the Contact Count field can hold."""
    if panel.get("max_contacts"):
        return panel["max_contacts"]
    n = max((f.logical_max for r in rdesc.feature_reports.values() for f in r
             if f.usage_name == "Contact Max"), default=0)
    cc = [f.logical_max for f in report if f.usage_name == "Contact Count"]
    if cc and cc[0] > 0:
        n = min(n, cc[0]) if n else cc[0]
    return n or 1


class Data:
    """Field values by HID usage name, as hidtools' create_report reads them."""
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Panel(UHIDDevice):
    def __init__(self, panel):
        super().__init__()
        raw = bytes.fromhex(panel["rdesc"])
        self.rdesc = raw
        self._rdesc = list(raw)  # the bytes as the panel sends them, not hidtools' re-encoding
        parsed = self.parsed_rdesc
        self.report = touch_report(parsed)
        self.layout = Layout(self.report)
        self.features = parsed.feature_reports
        self.max_contacts = max_contacts(panel, parsed, self.report)
        self.per_report = [f.usage_name for f in self.report].count("Contact Id")
        self.has_count = any(f.usage_name == "Contact Count" for f in self.report)
        quirks = set(panel.get("kernel_quirks", []))
        self.valid_is_inrange = "VALID_IS_INRANGE" in quirks
        self.style = ("slot" if "SLOT_IS_CONTACTID" in quirks else
                      "slot+1" if "SLOT_IS_CONTACTID_MINUS_ONE" in quirks else
                      "number" if "SLOT_IS_CONTACTNUMBER" in quirks else "arbitrary")
        cid = next(f for f in self.report if f.usage_name == "Contact Id")
        self.id_limit = min(1 << cid.size, 256)
        self.next_id = 7 % self.id_limit
        scan = [f for f in self.report if f.usage_name == "Scan Time"]
        self.scan_wrap = scan[0].logical_max + 1 if scan and scan[0].logical_max > 0 else 1 << 16
        self.scantime = 0
        self.name = f"uhid {panel['name']}"
        self.phys = f"gestured-test/{panel['name']}"
        self.info = (BUS.get(panel.get("bus", "usb"), BusType.USB),
                     int(panel.get("vendor", "0001"), 16), int(panel.get("product", "0002"), 16))
        self.started = False
        self.touches = {}   # finger key -> {"id", "x", "y", "down"}

    # The kernel asks for Contact Max at probe and sets the input mode; unanswered, each request
    # waits out the kernel's 5 s uhid timeout.
    def start(self, flags):
        self.started = True

    def get_report(self, req, rnum, rtype):
        if rtype != self.UHID_FEATURE_REPORT:
            return (5, [])
        for r in self.features.values():
            if r.report_ID == rnum and "Contact Max" in [f.usage_name for f in r]:
                return (0, r.create_report([Data(contactmax=self.max_contacts)], None))
        return (5, [])

    def set_report(self, req, rnum, rtype, data):
        return 0

    # ---- contacts and scans -----------------------------------------------------------------

    def new_id(self):
        used = {t["id"] for t in self.touches.values()}
        if self.style in ("slot", "slot+1", "number"):
            base = 1 if self.style == "slot+1" else 0
            return next(i for i in range(base, base + 64) if i not in used)
        while self.next_id in used:
            self.next_id = (self.next_id + 1) % self.id_limit
        i, self.next_id = self.next_id, (self.next_id + 1) % self.id_limit
        return i

    def scan(self, fingers):
        """One scan: FINGERS maps a finger key to its (x, y[, size]) in logical units, or None
        once lifted. Contacts not named keep their place."""
        for k, pos in fingers.items():
            if pos is None:
                if k in self.touches:
                    self.touches[k]["down"] = False
            elif k in self.touches:
                self.touches[k].update(x=pos[0], y=pos[1], size=pos[2] if len(pos) > 2 else 0)
            else:
                self.touches[k] = {"id": self.new_id(), "x": pos[0], "y": pos[1],
                                   "size": pos[2] if len(pos) > 2 else 0, "down": True}
        self.send()
        for k in [k for k, t in self.touches.items() if not t["down"]]:
            del self.touches[k]

    def send(self):
        touches = list(self.touches.values())
        if not touches:
            return
        if self.style == "number":
            # The slot is the contact's place in the scan (SLOT_IS_CONTACTNUMBER): each finger
            # keeps its place while others lift, an empty place before it sent out of range
            # (skipped by the kernel, which still counts the place).
            by_id = {t["id"]: t for t in touches}
            touches = [by_id.get(k, {"id": k, "x": 0, "y": 0, "down": False, "empty": True})
                       for k in range(max(by_id) + 1)]
        self.scantime = (self.scantime + round(SCAN_S * 10000)) % self.scan_wrap
        count = len(touches)
        while touches:
            chunk, touches = touches[:self.per_report], touches[self.per_report:]
            self.call_input_event(self.layout.pack(chunk, count, self.scantime, self.valid_is_inrange))
            count = 0


class Layout:
    """Where each value goes in the touch report, worked out once from hidtools' parse.

    hidtools' create_report fills a report from field values too, but takes about a
    millisecond per report on the host, tens of milliseconds in the emulated VM: slower than
    the panel's scan rate. This packs the same fields as plain bit fields. A contact is one
    run of collections (below); Contact Count and Scan Time are the report's own; a contact's
    fields not named in CONTACT_USAGES are sent as 0 (and not packed at all). Only the contacts
    present are packed: with ten to a report, packing every field of the empty ones took 0.2 ms
    a scan on the host, half the emulated VM's time per scan for a 4-finger swipe."""
    CONTACT_USAGES = ("Contact Id", "X", "Y", "Tip Switch", "In Range", "Confidence", "Data Valid",
                      "Width", "Height")

    def __init__(self, report):
        self.size = report.size
        self.report_id = report.report_ID if report.numbered else None
        self.report_fields = []   # (usage name, start bit, size, count) of the report's own fields
        self.contact_fields = []  # per contact: [(usage name, start bit, mask, size, count)]
        # A field starts the next contact when its collection differs from the previous
        # field's and its usage was already seen in this contact (fingers are collections of
        # the same usages; X and Y may sit in a physical collection of their own).
        k, seen, previous = 0, set(), None
        for f in report:
            if f.collection != previous and f.usage_name in seen:
                k, seen = k + 1, set()
            previous = f.collection
            seen.add(f.usage_name)
            if f.is_const:
                continue
            if f.usage_name in ("Contact Count", "Scan Time"):
                self.report_fields.append((f.usage_name, f.start, f.size, f.count))
            elif f.usage_name in self.CONTACT_USAGES:
                while len(self.contact_fields) <= k:
                    self.contact_fields.append([])
                self.contact_fields[k].append((f.usage_name, f.start, (1 << f.size) - 1, f.size, f.count))

    def pack(self, touches, count, scantime, valid_is_inrange):
        bits = 0
        for usage, start, size, n in self.report_fields:
            v = (count if usage == "Contact Count" else scantime) & ((1 << size) - 1)
            for i in range(n):
                bits |= v << (start + i * size)
        for t, fields in zip(touches, self.contact_fields):
            v = {"Contact Id": t["id"], "X": t["x"], "Y": t["y"], "Tip Switch": t["down"],
                 "In Range": t["down"] or (valid_is_inrange and "empty" not in t), "Confidence": 1,
                 "Data Valid": 1, "Width": t.get("size", 0), "Height": t.get("size", 0)}
            for usage, start, mask, size, n in fields:
                x = int(v[usage]) & mask
                for i in range(n):
                    bits |= x << (start + i * size)
        out = bytearray(bits.to_bytes(self.size, "little"))
        if self.report_id is not None:
            out[0] = self.report_id
        return bytes(out)


# ---- gestures -----------------------------------------------------------------------------
# A gesture is a list of fingers, each (down_s, up_s, path[, size]), path(t) -> (x, y) in mm
# relative to the panel's centre (y grows downwards); t runs over the gesture's whole time in
# seconds; size: the contact's Width and Height in logical units (0 when not given).

def still(x, y):
    return lambda t: (x, y)


def ease(u):
    u = min(1.0, max(0.0, u))
    return u * u * (3 - 2 * u)


def moving(x, y, dx, dy, t0, t1):
    return lambda t: (x + dx * ease((t - t0) / (t1 - t0)), y + dy * ease((t - t0) / (t1 - t0)))


def row(n):
    """N fingertips of one hand, index first, ROW_MM apart; the middle finger a little higher."""
    arc = [0, -5, -3, 4]
    return [((i - (n - 1) / 2) * ROW_MM, arc[i]) for i in range(n)]


def thumb_and_fingers(n):
    """A thumb low and left of N - 1 fingers (a pinch grip)."""
    return [(-30.0, 35.0)] + row(n - 1)


def tap(n, places):
    # Fingers land 15 ms apart and stay 90 ms, as a quick tap of a hand.
    return [(i * 0.015, 0.09 + i * 0.015, still(x, y)) for i, (x, y) in enumerate(places(n))]


def swipe(n, direction, w, h):
    d = min(80.0, 0.35 * (w if direction in ("left", "right") else h))
    dx, dy = {"right": (d, 0), "left": (-d, 0), "down": (0, d), "up": (0, -d)}[direction]
    # Landing 25 ms apart, a 350 ms stroke, lifted together.
    return [(i * 0.025, 0.45, moving(x, y, dx, dy, 0.08, 0.43)) for i, (x, y) in enumerate(row(n))]


def circle(r=30.0, seconds=0.9):
    def path(t):
        a = 2 * math.pi * min(1.0, t / seconds)
        return (r * math.cos(a), r * math.sin(a))
    return [(0, seconds + 0.02, path)]


def checkmark():
    # Down-right 20 mm in 0.2 s, then up-right 55 mm in 0.35 s.
    def path(t):
        if t < 0.2:
            u = t / 0.2
            return (-25 + 14 * u, -5 + 14 * u)
        u = min(1.0, (t - 0.2) / 0.35)
        return (-11 + 30 * u, 9 - 46 * u)
    return [(0, 0.57, path)]


def pinch():
    # Thumb and index 90 mm apart closing to 30 mm over 0.6 s.
    return [(0, 0.7, moving(-32, 32, 21, -21, 0.05, 0.65)), (0.02, 0.7, moving(32, -32, -21, 21, 0.05, 0.65))]


def rotate():
    # Thumb and index 70 mm apart turning 75° clockwise about their midpoint over 0.7 s.
    def at(a0):
        return lambda t: (35 * math.cos(a0 + math.radians(75) * ease((t - 0.05) / 0.7)),
                          35 * math.sin(a0 + math.radians(75) * ease((t - 0.05) / 0.7)))
    return [(0, 0.8, at(math.pi * 0.75)), (0.02, 0.8, at(-math.pi * 0.25))]


def long_press():
    return [(0, 1.4, lambda t: (0.2 * math.sin(t * 20), 0.0))]


def edge_swipe(w):
    # From 1 mm inside the left edge, 70 mm inward in 0.3 s.
    return [(0, 0.35, moving(1 - w / 2, 0, 70, 0, 0.02, 0.32))]


def gestures(w, h):
    g = {"circle": circle(), "checkmark": checkmark(), "pinch": pinch(), "rotate": rotate(),
         "long-press": long_press(), "edge-swipe": edge_swipe(w)}
    g["tap-1"] = tap(1, row)
    g["tap-2"] = tap(2, row)
    g["tap-3"] = tap(3, thumb_and_fingers)
    g["tap-4"] = tap(4, row)
    for n in (3, 4):
        for d in ("right", "left", "up", "down"):
            g[f"swipe-{n}-{d}"] = swipe(n, d, w, h)
    return g


# ---- the script ---------------------------------------------------------------------------

class Dispatcher(threading.Thread):
    """Answers the kernel's requests (start, GET/SET_REPORT) while the script plays."""
    def __init__(self):
        super().__init__(daemon=True)
        self.running = True

    def run(self):
        while self.running:
            UHIDDevice.dispatch(0.05)

    def stop(self):
        self.running = False
        self.join()


class Lines:
    """Command lines from stdin, unbuffered, so that waiting for one can time out."""
    def __init__(self):
        self.buf = b""

    def next(self, timeout=None):
        """The next line; None at end of input; "" if TIMEOUT passed first."""
        while b"\n" not in self.buf:
            if not select.select([0], [], [], timeout)[0]:
                return ""
            chunk = os.read(0, 4096)
            if not chunk:
                return None if not self.buf else self.flush()
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def flush(self):
        line, self.buf = self.buf, b""
        return line.decode()


def find_sys_path(dev):
    """Sets the panel's HID device in sysfs where hid-tools missed it. hid-tools 0.12 takes it
    from the uevent that announces the device, waiting 10 ms at most; a loaded emulated VM can
    take longer, and then `dev.walk_sysfs` finds nothing ever, though the kernel made the node
    (2026-11-26: five lanes creating panels at once; the daemon had opened the node). Found here
    by the device's unique id, as hid-tools matches it, and set where hid-tools keeps it."""
    if dev._sys_path is not None:
        return
    for uevent in Path("/sys/bus/hid/devices").glob("*/uevent"):
        try:
            if f"HID_UNIQ={dev.uniq}" in uevent.read_text().splitlines():
                dev._sys_path = uevent.parent.resolve()
                return
        except OSError:
            continue


def touchscreen_node(dev):
    """The evdev node with multitouch positions, and its absinfo."""
    import evdev
    find_sys_path(dev)
    for p in dev.walk_sysfs("evdev"):
        node = f"/dev/input/{p.name}"
        try:
            d = evdev.InputDevice(node)
        except OSError:
            continue
        try:
            caps = dict(d.capabilities().get(evdev.ecodes.EV_ABS, []))
        finally:
            d.close()
        if evdev.ecodes.ABS_MT_POSITION_X in caps:
            return node, caps
    return None, None


class Surface:
    """A created panel's touchscreen node: where the gestures are played, in logical units."""
    def __init__(self, dev, name, info_file):
        import evdev
        end = time.monotonic() + 60
        node = None
        while node is None and time.monotonic() < end:
            time.sleep(0.1)
            node, caps = touchscreen_node(dev)
        if node is None:
            raise SystemExit(f"hid-panel.py: the kernel made no touchscreen node for {name} in 60 s "
                             f"(nodes: {dev.device_nodes})")
        self.ax, self.ay = caps[evdev.ecodes.ABS_MT_POSITION_X], caps[evdev.ecodes.ABS_MT_POSITION_Y]
        slots = caps[evdev.ecodes.ABS_MT_SLOT].max + 1 if evdev.ecodes.ABS_MT_SLOT in caps else 1
        reported = self.ax.resolution > 0 and self.ay.resolution > 0
        if reported != reports_size(dev.report):
            raise SystemExit(f"hid-panel.py: {name}: the kernel gave resolution {self.ax.resolution}"
                             f"×{self.ay.resolution}, not what reports_size() predicts for the config")
        self.w = (self.ax.max - self.ax.min) / self.ax.resolution if reported else ASSUMED_MM[0]
        self.h = (self.ay.max - self.ay.min) / self.ay.resolution if reported else ASSUMED_MM[1]
        palm = self.palm_case(dev, caps)
        info = {"node": node, "width_mm": round(self.w, 1) if reported else None,
                "height_mm": round(self.h, 1) if reported else None, "assumed_mm": list(ASSUMED_MM),
                "contacts": min(dev.max_contacts, slots), "slots": slots,
                "per_report": dev.per_report, "contact_count": dev.has_count, "style": dev.style,
                "nodes": dev.device_nodes, **palm}
        with open(info_file + ".tmp", "w") as f:
            json.dump(info, f)
        os.rename(info_file + ".tmp", info_file)
        print(f"hid-panel: {name}: {json.dumps(info)}", flush=True)
        self.library = gestures(self.w, self.h)
        if "palm" in palm:
            # Taps 90 ms long, as tap-1: if the palm were not taken it would be a tap.
            self.library["palm"] = [(0, 0.09, still(-self.w / 4, 0), palm["palm"]["palm_units"])]
            self.library["finger"] = [(0, 0.09, still(self.w / 4, 0), palm["palm"]["finger_units"])]

    def palm_case(self, dev, caps):
        """{"palm": sizes} for the palm case, from the node's size axis as the daemon reads it,
        or {"palm_skip": why not}."""
        import evdev
        mm, why = palm_plan(dev.report)
        if mm is None:
            return {"palm_skip": why}
        a = caps.get(evdev.ecodes.ABS_MT_TOUCH_MAJOR)
        if a is None:
            return {"palm_skip": "hid-multitouch made no ABS_MT_TOUCH_MAJOR of its HID Width (a class quirk)"}
        per_mm = a.resolution or (self.ax.max - self.ax.min) / self.w
        rule = math.ceil(mm * per_mm)       # PalmRule.units: from this size on, a palm
        palm = min(a.max, round(mm * PALM_OVER * per_mm))
        return {"palm": {"palm_mm": mm, "axis_resolution": a.resolution, "axis_max": a.max,
                         "units_per_mm": round(per_mm, 3), "rule_units": rule, "palm_units": palm,
                         "palm_size_mm": round(palm / per_mm, 1),
                         "finger_units": round(mm * FINGER_OF * per_mm),
                         "finger_size_mm": round(round(mm * FINGER_OF * per_mm) / per_mm, 1)}}

    def at(self, x, y):
        """mm from the centre -> logical units."""
        def units(mm, a, size):
            return max(a.min, min(a.max, round(a.min + (mm / size) * (a.max - a.min))))
        return (units(self.w / 2 + x, self.ax, self.w), units(self.h / 2 + y, self.ay, self.h))


def play(dev, surface, fingers, keep_down=False):
    """Scans at SCAN_S from the fingers' paths, by the clock: a late scan does not stretch the
    gesture. KEEP_DOWN: return at the end with the fingers still down."""
    t0 = time.monotonic()
    last = max(f[1] for f in fingers)
    lifted = set()
    scans, gap, previous = 0, 0.0, 0.0
    while True:
        t = time.monotonic() - t0
        scans, gap, previous = scans + 1, max(gap, t - previous), t
        frame = {}
        for i, (down, up, path, *size) in enumerate(fingers):
            if down <= t and (t < up or keep_down):
                frame[i] = surface.at(*path(t)) + tuple(size)
            elif t >= up and i in dev.touches and i not in lifted:
                frame[i] = None
                lifted.add(i)
        dev.scan(frame)
        if t >= last and (keep_down or not dev.touches):
            # How well the panel's timing was kept (the emulated VM may lag).
            return f"{scans} scans in {t:.2f} s, longest gap {gap * 1000:.0f} ms"
        time.sleep(max(0.0, SCAN_S - ((time.monotonic() - t0) % SCAN_S)))


def mark(path, timing):
    """Atomically, with the last gesture's timing (hid-gestures.py reads it)."""
    with open(path + ".tmp", "w") as f:
        f.write(timing)
    os.rename(path + ".tmp", path)


def main():
    fixture = sys.argv[1]
    if len(sys.argv) == 2:
        return player(fixture)
    children = []
    for lane in sys.argv[2:]:
        fd, log, pidfile = lane.split(":", 2)
        sys.stdout.flush()
        pid = os.fork()
        if pid:
            children.append(pid)
            continue
        out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.dup2(int(fd), 0)
        with open(pidfile + ".tmp", "w") as f:
            f.write(f"{os.getpid()}\n")
        os.rename(pidfile + ".tmp", pidfile)
        try:
            code = player(fixture)
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
            if isinstance(e.code, str):
                print(e.code, flush=True)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        os._exit(code)
    return max((os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in children), default=0)


def player(fixture):
    panels = {p["name"]: p for p in json.load(open(fixture))}
    dev = surface = dispatcher = None
    timing = ""
    lines = Lines()
    while (line := lines.next()) is not None:
        p = line.split()
        if not p:
            continue
        if p[0] == "config":
            # [[device]] sections for the panels of the run: size_mm where the panel reports no
            # size, passthrough for those named after "passthrough".
            names = p[2:p.index("passthrough")] if "passthrough" in p else p[2:]
            through = set(p[p.index("passthrough") + 1:]) if "passthrough" in p else set()
            with open(p[1], "a") as f:
                for n in names:
                    if n not in panels:
                        raise SystemExit(f"hid-panel.py: no panel {n!r} in {fixture}")
                    rd = ReportDescriptor.from_bytes(bytes.fromhex(panels[n]["rdesc"]))
                    if not reports_size(touch_report(rd)):
                        f.write(f'\n[[device]]\nname = "uhid {n}*"\nsize_mm = [{ASSUMED_MM[0]}, {ASSUMED_MM[1]}]\n')
                    # The palm case: the palm must reach no recognizer, nor the app (libinput
                    # on the clone) where the panel is passed through. Passthrough stays on the
                    # panels named only: 15 clones, each with its libinput, starved the emulated
                    # VM (602 s and scans 60-100 ms apart against 372 s without lag).
                    mm, _ = palm_plan(touch_report(rd))
                    if mm is not None:
                        f.write(f'\n[[device]]\nname = "uhid {n}*"\npalm_mm = {mm:g}\n')
                    if n in through:
                        f.write(f'\n[[device]]\nname = "uhid {n}*"\npassthrough = true\n')
        elif p[0] == "create":
            if p[1] not in panels:
                raise SystemExit(f"hid-panel.py: no panel {p[1]!r} in {fixture}")
            dev = Panel(panels[p[1]])
            dev.create_kernel_device()
            dispatcher = Dispatcher()
            dispatcher.start()
            surface = Surface(dev, p[1], p[2])
        elif p[0] == "play":
            if p[1] not in surface.library:
                raise SystemExit(f"hid-panel.py: unknown gesture {p[1]!r} (known: {' '.join(surface.library)})")
            timing = play(dev, surface, surface.library[p[1]])
            print(f"hid-panel: {p[1]}: {timing}", flush=True)
        elif p[0] == "drag":
            timing = play(dev, surface, [(0, 1.5, moving(-20 - surface.w / 4, 0, 40, 0, 0.05, 1.5))], keep_down=True)
            # Keep scanning the held finger until the next command other than a mark, as a panel
            # does: without reports hid-multitouch lifts the contacts of a Win8 panel after a short
            # timeout (MT_QUIRK_STICKY_FINGERS), which would end the pan the unplug must cancel.
            # A longer gap here (the emulated VM starved) is reported with the unplug's timing.
            held_gap, last = 0.0, time.monotonic()
            while (pending := lines.next(SCAN_S)) == "" or (pending or "").startswith("mark "):
                if pending:
                    mark(pending.split()[1], timing)
                now = time.monotonic()
                held_gap, last = max(held_gap, now - last), now
                dev.send()
            timing += f"; held, longest gap {held_gap * 1000:.0f} ms"
            if pending:
                lines.buf = pending.encode() + b"\n" + lines.buf
        elif p[0] == "unplug":
            dispatcher.stop()
            dev.destroy()
            print(f"hid-panel: {dev.name} unplugged", flush=True)
            dev = surface = None
        elif p[0] == "mark":
            mark(p[1], timing)
        else:
            raise SystemExit(f"hid-panel.py: unknown command {p[0]!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
