#!/usr/bin/env bash
# Installs what gestured needs on a fresh Debian machine (as root), only what is missing.
#   scripts/deps.sh build   – libraries and tools to build and run the daemon
#   scripts/deps.sh test    – plus what the tests use (systemd-analyze and systemd-socket-activate, rsvg-convert, valgrind)
#   scripts/deps.sh vm      – plus the VM for kernel-level tests (qemu, also for arm64, kernel, udev, evemu, libinput-tools, lisgd, virtme-ng,
#                             python3-evdev for the passthrough scenarios' scripted touchscreen,
#                             gcc for scenario 22's bare C forwarder (compiled in the guest),
#                             hid-tools from PyPI for scenario 50's real touchscreens through /dev/uhid,
#                             the compositors and clients of the kiosk tier: cage, sway, weston, Xorg, wev, xinput; chromium, the browser tier's app)
set -euo pipefail
level=${1:-build}

pkgs=(binutils libevdev-dev libudev-dev libmtdev-dev libmosquitto-dev pkg-config)
case "$level" in
  test) pkgs+=(systemd librsvg2-bin valgrind) ;;
  vm)   pkgs+=(systemd librsvg2-bin valgrind qemu-system-x86 linux-image-amd64
              # the arm64 package's boot test: its root made through qemu-user, booted in qemu-system-aarch64
              qemu-system-arm qemu-user-static busybox-static udev evemu-tools libinput-tools lisgd strace kmod python3 python3-evdev python3-pip util-linux gcc libc6-dev
              # the kiosk tier (scenarios 60–65): real compositors and clients (docs/kiosk.md)
              cage xwayland sway weston wev seatd xserver-xorg-core xserver-xorg-video-dummy xserver-xorg-input-libinput xinput chromium) ;;
  build) ;;
  *) echo "deps.sh: unknown level '$level' (build, test, vm)" >&2; exit 2 ;;
esac
# The fleet tests: a real broker and its clients; the Debian package: its checker, a clean root
# and (Tests/deb/boot.sh) the ext4 image that root becomes.
case "$level" in
  test|vm) pkgs+=(mosquitto mosquitto-clients tmux dpkg-dev lintian debootstrap fakeroot e2fsprogs python3 python3-venv util-linux) ;;
esac

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "deps.sh: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "deps.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ "$level" = vm ] && ! command -v vng >/dev/null 2>&1; then
  echo "deps.sh: installing virtme-ng from PyPI" >&2
  pip install -q virtme-ng 2>/dev/null || pip install -q --break-system-packages virtme-ng
fi

# Home Assistant for Tests/homeassistant/run.sh: the last release that runs on Debian's Python
# 3.11, in a venv, with the requirements of the integrations it loads pinned to its manifests
# (it runs with --skip-pip, so it starts without network). josepy < 2: hass-nabucasa's acme.
# SQLAlchemy and fnv-hash-fast: the recorder's, which the frontend's onboarding loads through
# analytics and energy; without them Home Assistant starts in recovery mode.
HA_VENV=${HA_VENV:-/var/cache/gestured-test/ha-venv}
if [ "$level" != build ] && ! "$HA_VENV/bin/python3" -c 'import homeassistant, janus, PIL, hass_frontend, sqlalchemy, fnv_hash_fast' 2>/dev/null; then
  echo "deps.sh: installing Home Assistant 2024.3.3 in $HA_VENV" >&2
  python3 -m venv "$HA_VENV"
  "$HA_VENV/bin/pip" install -q homeassistant==2024.3.3 paho-mqtt==1.6.1 janus==1.0.0 Pillow==10.2.0 \
    psutil-home-assistant==0.0.1 securetar==2024.2.1 home-assistant-frontend==20240307.0 'josepy<2' \
    SQLAlchemy==2.0.27 fnv-hash-fast==0.5.0
fi

# Scenario 50 makes real touchscreens through /dev/uhid with hid-tools (a test dependency only),
# run by the guest's /usr/bin/python3 (the guest shares this filesystem).
if [ "$level" = vm ] && ! /usr/bin/python3 -c 'import hidtools.uhid' >/dev/null 2>&1; then
  echo "deps.sh: installing hid-tools 0.12 from PyPI for /usr/bin/python3" >&2
  /usr/bin/python3 -m pip install -q 'hid-tools==0.12' 2>/dev/null \
    || /usr/bin/python3 -m pip install -q --break-system-packages 'hid-tools==0.12'
fi
