"""gestured's Home Assistant discovery against a real Home Assistant core and a real mosquitto.

Run by Tests/homeassistant/run.sh with the Home Assistant venv's Python. Home Assistant is set
up without its UI: a config dir whose `.storage` holds the MQTT config entry (pointing at the
test broker) and an owner with a long-lived access token (a JWT signed with the refresh token's
key, as Home Assistant makes them); it runs with --skip-pip, so it needs no network. Everything
is checked through Home Assistant's REST and websocket APIs, as an operator's automations see it.
"""
import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import aiohttp
import jwt

PREFIX = "museum/kiosk17"
NODE = "museum_kiosk17"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, probe, timeout=60, interval=0.2):
    """Polls `probe` until it returns something truthy; fails with `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def check(condition, message):
    if not condition:
        raise AssertionError(message)


# For the screenshot: the frontend and its device pages.
FRONTEND = """frontend:
config:
"""


class HomeAssistant:
    """A Home Assistant core in a temporary config dir, MQTT set up, with an owner's token."""

    def __init__(self, hass, dir, broker_port, frontend=False):
        self.port = free_port()
        self.dir = dir
        os.makedirs(f"{dir}/.storage")
        with open(f"{dir}/configuration.yaml", "w") as f:
            f.write(f"""homeassistant:
  name: gestured test
  latitude: 0
  longitude: 0
  elevation: 0
  unit_system: metric
  time_zone: UTC
{FRONTEND if frontend else ""}http:
  server_host: 127.0.0.1
  server_port: {self.port}
api:
logger:
  default: warning
""")
        self.write_storage("core.config_entries", 1, {"entries": [{
            "entry_id": secrets.token_hex(16), "version": 1, "minor_version": 1, "domain": "mqtt",
            "title": "test broker", "source": "user", "unique_id": None, "disabled_by": None,
            "pref_disable_new_entities": False, "pref_disable_polling": False, "options": {},
            "data": {"broker": "127.0.0.1", "port": broker_port, "discovery": True, "discovery_prefix": "homeassistant"},
        }]})
        user, token_id, key = secrets.token_hex(16), secrets.token_hex(16), secrets.token_hex(64)
        self.refresh_token = secrets.token_hex(64)
        self.write_storage("auth", 1, {
            "users": [{"id": user, "group_ids": ["system-admin"], "is_owner": True, "is_active": True,
                       "name": "test", "system_generated": False, "local_only": False}],
            "groups": [{"id": "system-admin", "name": "Administrators"}, {"id": "system-users", "name": "Users"},
                       {"id": "system-read-only", "name": "Read Only"}],
            "credentials": [],
            "refresh_tokens": [{"id": token_id, "user_id": user, "client_id": None, "client_name": "gestured test",
                                "client_icon": None, "token_type": "long_lived_access_token",
                                "created_at": "2024-01-01T00:00:00+00:00", "access_token_expiration": 3650 * 86400.0,
                                "token": self.refresh_token, "jwt_key": key, "last_used_at": None,
                                "last_used_ip": None, "credential_id": None, "version": "2024.3.3"}],
        })
        self.write_storage("onboarding", 4, {"done": ["user", "core_config", "analytics", "integration"]})
        now = int(time.time())
        self.token = jwt.encode({"iss": token_id, "iat": now, "exp": now + 86400}, key, algorithm="HS256")
        self.log = open(f"{dir}/hass.out", "w")
        self.process = subprocess.Popen([hass, "-c", dir, "--skip-pip"], stdout=self.log, stderr=subprocess.STDOUT)
        def up():
            # A missing requirement sends it into recovery mode, without our config: fail at once.
            check(self.process.poll() is None, "Home Assistant exited")
            with open(f"{dir}/home-assistant.log") if os.path.exists(f"{dir}/home-assistant.log") else open(os.devnull) as log:
                check("Activating recovery mode" not in log.read(), "Home Assistant went into recovery mode (a missing requirement?)")
            return self.try_get("/api/") is not None
        wait_for("Home Assistant's API", up, timeout=240, interval=1)
        wait_for("Home Assistant's MQTT integration", lambda: "mqtt" in self.get("/api/config")["components"], timeout=120)

    def write_storage(self, key, version, data):
        with open(f"{self.dir}/.storage/{key}", "w") as f:
            json.dump({"version": version, "minor_version": 1, "key": key, "data": data}, f)

    def request(self, path, body=None):
        r = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=None if body is None else json.dumps(body).encode(),
                                   headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        with urllib.request.urlopen(r, timeout=10) as response:
            return json.load(response)

    def get(self, path):
        return self.request(path)

    def try_get(self, path):
        try:
            return self.get(path)
        except OSError:
            return None

    def states(self):
        return {s["entity_id"]: s for s in self.get("/api/states")}

    def websocket(self, *messages):
        """Sends each message (an id added) over the websocket API; returns each one's result."""
        async def talk():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(f"http://127.0.0.1:{self.port}/api/websocket") as ws:
                    await ws.receive_json()
                    await ws.send_json({"type": "auth", "access_token": self.token})
                    check((await ws.receive_json())["type"] == "auth_ok", "websocket auth refused")
                    results = []
                    for i, m in enumerate(messages, 1):
                        await ws.send_json({"id": i, **m})
                        reply = await ws.receive_json()
                        check(reply.get("success"), f"{m}: {reply}")
                        results.append(reply["result"])
                    return results
        return asyncio.run(talk())

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class Gestured:
    """The real daemon, replaying a recording on request, reporting to the broker."""

    def __init__(self, binary, dir, broker_port, recording):
        self.dir = dir
        self.broker_port = broker_port
        self.socket_path = f"{dir}/gestured.sock"
        self.configure(homeassistant=True, commands=True)
        self.log = open(f"{dir}/gestured.log", "w")
        self.process = subprocess.Popen([binary, "--config", f"{dir}/gestured.toml", "--socket", self.socket_path,
                                         "--replay", recording, "--hold-replay", "--fast"],
                                        stdout=self.log, stderr=subprocess.STDOUT)
        wait_for("gestured's socket", lambda: os.path.exists(self.socket_path), timeout=30)

    def configure(self, homeassistant, commands=True):
        with open(f"{self.dir}/gestured.toml", "w") as f:
            f.write(f"""[socket]
mode = "0600"

[mqtt]
url = "mqtt://127.0.0.1:{self.broker_port}"
topic = "{PREFIX}"
reconnect_max = 1
homeassistant = {"true" if homeassistant else "false"}
commands = {"true" if commands else "false"}
in_use_minutes = 0.1

[[mode]]
name = "normal"
[[mode]]
name = "locked"
recognizers = []

[[mqtt.publish]]     # circles only: any change of the event entity is a circle
gesture = "circle"

[[bind]]
gesture = "circle"
run = ["/bin/true"]

[[device]]           # ghosts quarantined: the kiosk's ghost count as a sensor
name = "Wacom ISDv4 E6 Finger"
quarantine_ghosts = true
""")

    def command(self, line):
        """One command on the socket; its reply (gesture lines broadcast meanwhile skipped)."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.socket_path)
            s.sendall(line.encode() + b"\n")
            buffer = b""
            while True:
                chunk = s.recv(65536)
                check(chunk, f"gestured closed the socket after {line}")
                buffer += chunk
                while b"\n" in buffer:
                    reply, buffer = buffer.split(b"\n", 1)
                    message = json.loads(reply)
                    if "gesture" not in message:
                        return message

    def replay(self):
        self.command('{"replay":true}')
        wait_for("the replay to end", lambda: self.command('{"status":true}')["status"]["replaying"] == 0, timeout=30)

    def mode(self):
        return self.command('{"status":true}')["status"]["mode"]

    def circle_enabled(self):
        devices = self.command('{"status":true}')["status"]["devices"]
        return [r["enabled"] for d in devices for r in d["recognizers"] if r["name"] == "circle"]


def screenshot(ha, path, png):
    """The page at `path` in headless chromium, driven over its DevTools protocol: logged in by
    putting the test's token where the frontend keeps its own (localStorage `hassTokens`)."""
    port = free_port()
    browser = subprocess.Popen(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                                "--window-size=1280,900", f"--remote-debugging-port={port}", "about:blank"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        def page():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=2) as r:
                    return next((t for t in json.load(r) if t["type"] == "page"), None)
            except OSError:
                return None
        target = wait_for("chromium", page, timeout=30)
        origin = f"http://127.0.0.1:{ha.port}"
        tokens = {"access_token": ha.token, "token_type": "Bearer", "expires_in": 86400, "hassUrl": origin,
                  "clientId": origin + "/", "expires": int(time.time() * 1000) + 86400000, "refresh_token": ha.refresh_token}

        async def drive():
            async with aiohttp.ClientSession() as session:
                async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                    ids = iter(range(1, 1000))

                    async def call(method, **params):
                        i = next(ids)
                        await ws.send_json({"id": i, "method": method, "params": params})
                        while True:
                            m = await ws.receive_json()
                            if m.get("id") == i:
                                return m.get("result", {})
                    await call("Page.navigate", url=origin + "/robots.txt")
                    await asyncio.sleep(1)
                    await call("Runtime.evaluate", expression=f"localStorage.setItem('hassTokens', {json.dumps(json.dumps(tokens))})")
                    await call("Page.navigate", url=origin + path)
                    await asyncio.sleep(12)
                    shot = await call("Page.captureScreenshot", format="png")
                    import base64
                    with open(png, "wb") as f:
                        f.write(base64.b64decode(shot["data"]))
        asyncio.run(drive())
    finally:
        browser.kill()
        browser.wait()


def main():
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--gestured", required=True)
    arguments.add_argument("--hass", required=True)
    arguments.add_argument("--recording", required=True)
    arguments.add_argument("--keep", action="store_true", help="keep the temporary dir (logs, HA config)")
    arguments.add_argument("--screenshot", help="a PNG of the kiosk's device page, taken with headless chromium")
    options = arguments.parse_args()
    gestured_binary = os.path.abspath(options.gestured)
    recording = os.path.abspath(options.recording)

    dir = tempfile.mkdtemp(prefix="gestured-ha-")
    broker = ha = kiosk = None
    t0 = time.monotonic()
    try:
        broker_port = free_port()
        with open(f"{dir}/mosquitto.conf", "w") as f:
            f.write(f"listener {broker_port} 127.0.0.1\nallow_anonymous true\n")
        broker = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", f"{dir}/mosquitto.conf"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        ha = HomeAssistant(options.hass, f"{dir}/ha", broker_port, frontend=options.screenshot is not None)
        print(f"homeassistant: Home Assistant up in {time.monotonic() - t0:.0f} s", flush=True)
        kiosk = Gestured(gestured_binary, dir, broker_port, recording)

        # Discovered: the kiosk's device, its touch device's event entity, the circle switch.
        def entities():
            states = ha.states()
            event = next((s for s in states.values() if s["entity_id"].startswith("event.")
                          and "circle" in s["attributes"].get("event_types", [])), None)
            switch = states.get("switch.kiosk17_circle")
            # Unavailable for a moment: discovered before the retained status is read.
            return (event, switch) if event and switch and switch["state"] != "unavailable" else None
        event, switch = wait_for("the event entity and the circle switch", entities)
        event_id = event["entity_id"]
        check(switch["state"] == "on", f"switch: {switch}")
        check(event["attributes"]["friendly_name"] == "kiosk17 Wacom ISDv4 E6 Finger", f"event: {event}")
        devices, = ha.websocket({"type": "config/device_registry/list"})
        device = next(d for d in devices if ["mqtt", f"gestured_{NODE}"] in d["identifiers"])
        check(device["name"] == "kiosk17" and device["manufacturer"] == "gestured", f"device: {device}")
        # The bound circle is a device trigger in the automation editor.
        triggers, = ha.websocket({"type": "device_automation/trigger/list", "device_id": device["id"]})
        check(any(t.get("domain") == "mqtt" and t.get("type") == "gesture" and t.get("subtype") == "circle" for t in triggers),
              f"triggers: {triggers}")
        print(f"homeassistant: discovered {event_id}, switch.kiosk17_circle, device trigger circle", flush=True)

        # A replayed circle fires the event entity, the gesture's fields as attributes.
        before = ha.states()[event_id]["state"]
        kiosk.replay()
        fired = wait_for("the circle event", lambda: (s := ha.states()[event_id])["state"] != before and s, timeout=15)
        check(fired["attributes"]["event_type"] == "circle" and fired["attributes"]["radius_mm"] > 0, f"event: {fired}")
        print("homeassistant: a replayed circle fired the event entity", flush=True)

        # The kiosk: the touch made it in use, with its time; 6 s later (in_use_minutes = 0.1) not.
        in_use = wait_for("in use on", lambda: (s := ha.states().get("binary_sensor.kiosk17_in_use")) and s["state"] == "on" and s, timeout=15)
        check(in_use["attributes"].get("device_class") == "occupancy", f"in use: {in_use}")
        last = ha.states()["sensor.kiosk17_last_touch"]
        check(last["attributes"].get("device_class") == "timestamp" and last["state"].startswith(time.strftime("%Y-%m-%dT", time.gmtime())),
              f"last touch: {last}")
        wait_for("in use off", lambda: ha.states()["binary_sensor.kiosk17_in_use"]["state"] == "off", timeout=20)
        print(f"homeassistant: in use on, then off; last touch {last['state']}", flush=True)
        # The ghost count (the circle is no ghost): a total_increasing sensor, 0.
        ghosts = ha.states()["sensor.kiosk17_ghost_touches"]
        check(ghosts["state"] == "0" and ghosts["attributes"].get("state_class") == "total_increasing", f"ghost touches: {ghosts}")
        print("homeassistant: sensor.kiosk17_ghost_touches is 0, total_increasing", flush=True)

        # The switch off: circles are disabled on the kiosk, and a further one is not reported.
        ha.request("/api/services/switch/turn_off", {"entity_id": "switch.kiosk17_circle"})
        wait_for("the switch to report off", lambda: ha.states()["switch.kiosk17_circle"]["state"] == "off", timeout=15)
        check(kiosk.circle_enabled() == [False], "switch off did not disable circles on the kiosk")
        quiet = ha.states()[event_id]["state"]
        kiosk.replay()
        time.sleep(2)
        check(ha.states()[event_id]["state"] == quiet, "a disabled circle still reached Home Assistant")
        ha.request("/api/services/switch/turn_on", {"entity_id": "switch.kiosk17_circle"})
        wait_for("the switch to report on", lambda: ha.states()["switch.kiosk17_circle"]["state"] == "on", timeout=15)
        check(kiosk.circle_enabled() == [True], "switch on did not enable circles")
        print("homeassistant: the switch disabled and enabled circles on the kiosk", flush=True)
        # The mode as a select: set from Home Assistant, the kiosk switches (commands = true) …
        select = ha.states()["select.kiosk17_mode"]
        check(select["state"] == "normal" and select["attributes"]["options"] == ["normal", "locked"], f"select: {select}")
        ha.request("/api/services/select/select_option", {"entity_id": "select.kiosk17_mode", "option": "locked"})
        wait_for("the kiosk to lock", lambda: kiosk.mode() == "locked", timeout=15)
        wait_for("the select to show locked", lambda: ha.states()["select.kiosk17_mode"]["state"] == "locked", timeout=15)
        # … and with commands = false it refuses, and the select keeps showing the kiosk's mode.
        kiosk.configure(homeassistant=True, commands=False)
        kiosk.process.send_signal(signal.SIGHUP)
        time.sleep(1)
        ha.request("/api/services/select/select_option", {"entity_id": "select.kiosk17_mode", "option": "normal"})
        time.sleep(2)
        check(kiosk.mode() == "locked", "the mode was set from Home Assistant with commands = false")
        check(ha.states()["select.kiosk17_mode"]["state"] == "locked", f"select: {ha.states()['select.kiosk17_mode']}")
        kiosk.configure(homeassistant=True, commands=True)
        kiosk.process.send_signal(signal.SIGHUP)
        time.sleep(1)
        ha.request("/api/services/select/select_option", {"entity_id": "select.kiosk17_mode", "option": "normal"})
        wait_for("the kiosk to unlock", lambda: kiosk.mode() == "normal", timeout=15)
        print("homeassistant: the mode select switched the kiosk with commands = true, was refused with false", flush=True)
        if options.screenshot:
            kiosk.replay()
            screenshot(ha, f"/config/devices/device/{device['id']}", options.screenshot)
            print(f"homeassistant: the device page in {options.screenshot}", flush=True)

        # Home Assistant off in the config (SIGHUP): the entities are cleared; on again: back.
        kiosk.configure(homeassistant=False)
        kiosk.process.send_signal(signal.SIGHUP)
        wait_for("the entities to be removed", lambda: not ({event_id, "switch.kiosk17_circle"} & ha.states().keys()), timeout=15)
        kiosk.configure(homeassistant=True)
        kiosk.process.send_signal(signal.SIGHUP)
        wait_for("the entities to come back", lambda: {event_id, "switch.kiosk17_circle"} <= ha.states().keys(), timeout=15)
        print("homeassistant: homeassistant = false cleared the entities, true brought them back", flush=True)

        # Killed: the broker's last will makes every entity unavailable.
        kiosk.process.send_signal(signal.SIGKILL)
        kiosk.process.wait()
        wait_for("the entities to become unavailable",
                 lambda: all(ha.states()[e]["state"] == "unavailable" for e in (event_id, "switch.kiosk17_circle", "select.kiosk17_mode",
                                                                                "sensor.kiosk17_last_touch", "binary_sensor.kiosk17_in_use",
                                                                                "sensor.kiosk17_ghost_touches")), timeout=15)
        print("homeassistant: SIGKILL made the entities unavailable", flush=True)
    except BaseException:
        for name in ("gestured.log", "ha/hass.out", "ha/home-assistant.log"):
            if os.path.exists(f"{dir}/{name}"):
                print(f"--- {name} (tail)", file=sys.stderr)
                with open(f"{dir}/{name}") as f:
                    print("".join(f.readlines()[-40:]), file=sys.stderr)
        raise
    finally:
        if kiosk and kiosk.process.poll() is None:
            kiosk.process.kill()
        if ha:
            ha.stop()
        if broker:
            broker.kill()
        if options.keep:
            print(f"homeassistant: kept {dir}")
        else:
            shutil.rmtree(dir, ignore_errors=True)


if __name__ == "__main__":
    main()
