#!/usr/bin/env bash
# The Debian 13 ("trixie") build roots, made once and kept in the cache (delete one to refresh):
#   $cache/trixie-swift          amd64 root with Debian's swiftlang (6.0.3) and the -dev libraries:
#                                builds the Debian 13 amd64 binary natively (chroot) and, as the
#                                host of the cross build, the arm64 one
#   $cache/trixie-arm64-sysroot  arm64 files only (never run): libc6-dev, libstdc++, the -dev
#                                libraries, and the arm64 swiftlang's target files (Swift modules,
#                                static runtime) that the amd64 compiler links against
#   scripts/trixie-root.sh [amd64|arm64|arm64-test|all]   default all; prints nothing but progress
#                                (arm64-test: also the arm64 Swift runtime's shared libraries)
#   GESTURED_DEBROOT_CACHE=dir   default /var/cache/gestured-test (as Tests/deb/base.sh)
#   DEBIAN_MIRROR=url            default http://deb.debian.org/debian (as Tests/deb/base.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "trixie-root.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
what=${1:-all}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${GESTURED_DEBROOT_CACHE:-/var/cache/gestured-test}
root=$cache/trixie-swift
sysroot=$cache/trixie-arm64-sysroot
mkdir -p "$cache"
# Bookworm's debootstrap knows trixie (its script is sid's); bookworm's archive keyring has
# trixie's keys.
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
if ! command -v debootstrap >/dev/null || [ ! -f "$keyring" ]; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap debian-archive-keyring >/dev/null
fi

# The -dev libraries, as in scripts/deps.sh build.
libs="libevdev-dev libudev-dev libmtdev-dev libmosquitto-dev pkg-config"

# The time of each step, on the caller's stderr (the steps' own output goes to logs).
exec 3>&2
t() { local s=$SECONDS; "$@"; echo "trixie-root.sh: $(( SECONDS - s )) s: ${*:1:3} …" >&3; }

# The root's packages: the compiler, the C library and C++ runtime it links with, the -dev
# libraries, git (SwiftPM clones the dependencies), dpkg-dev (dpkg-shlibdeps for the packages'
# Depends), GNU binutils for aarch64 (Package.swift links release builds with ld.bfd) and the
# arm64 runtime libraries (so dpkg-shlibdeps can read the arm64 binary's Depends here); the
# daemon tier's tools (as scripts/deps.sh test): systemd-analyze (and the units' /bin/kill), a
# broker, tmux, python3; Debian 13's lintian for the packages made here.
pkgs="swiftlang libc6-dev libstdc++-14-dev $libs git ca-certificates file dpkg-dev binutils-aarch64-linux-gnu
  systemd procps mosquitto mosquitto-clients tmux python3 lintian
  libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64 libevdev2:arm64 libudev1:arm64 libmtdev1t64:arm64 libmosquitto1:arm64"
make_root() {
  local want; want=$(echo $pkgs)
  [ "$(cat "$root/.complete" 2>/dev/null)" = "$want" ] && return
  if [ ! -e "$root/.debootstrapped" ]; then
    rm -rf --one-file-system "$root"
    echo "== debootstrap trixie amd64 into $root (once; kept for later runs)" >&2
    t debootstrap --variant=minbase --keyring="$keyring" trixie "$root" "$mirror" > "$cache/trixie-debootstrap.log" 2>&1 \
      || { tail -20 "$cache/trixie-debootstrap.log" >&2; exit 1; }
    touch "$root/.debootstrapped"
  fi
  cp /etc/resolv.conf "$root/etc/resolv.conf"
  echo "== apt-get install in $root: $want" >&2
  mount -t proc proc "$root/proc"
  # arm64 as a foreign architecture: its runtime libraries above, and the arm64 swiftlang below.
  t chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive sh -c \
    "dpkg --add-architecture arm64 && apt-get update -qq && apt-get install -y -qq --no-install-recommends $want && apt-get clean" \
    > "$cache/trixie-apt.log" 2>&1 || { umount "$root/proc"; tail -20 "$cache/trixie-apt.log" >&2; exit 1; }
  umount "$root/proc"
  echo "$want" > "$root/.complete"
}

make_sysroot() {
  [ -e "$sysroot/.complete" ] && return
  rm -rf --one-file-system "$sysroot"
  # --foreign: the first stage only unpacks (no arm64 code runs); the included packages are only
  # downloaded, so they are unpacked below. Nothing here ever runs: it is a sysroot to link against.
  echo "== debootstrap --foreign trixie arm64 into $sysroot (once; kept for later runs)" >&2
  t debootstrap --foreign --arch=arm64 --variant=minbase --keyring="$keyring" \
    --include=libc6-dev,libstdc++-14-dev,libgcc-14-dev,${libs// /,} trixie "$sysroot" "$mirror" \
    > "$cache/trixie-arm64-debootstrap.log" 2>&1 || { tail -20 "$cache/trixie-arm64-debootstrap.log" >&2; exit 1; }
  for deb in "$sysroot"/var/cache/apt/archives/*.deb; do dpkg-deb -x "$deb" "$sysroot" || exit 1; done
  # Debian's arm64 swiftlang: its target files (lib/swift/linux/*.swiftmodule/aarch64-*,
  # lib/swift_static, swiftrt.o, glibc.modulemap) under /usr/libexec/swift; its own Depends are
  # not needed to link, so only this one .deb.
  mount -t proc proc "$root/proc"
  t chroot "$root" sh -c 'cd /tmp && rm -f swiftlang_*_arm64.deb && apt-get download -q swiftlang:arm64' > "$cache/trixie-arm64-swift.log" 2>&1 \
    || { umount "$root/proc"; tail -20 "$cache/trixie-arm64-swift.log" >&2; exit 1; }
  umount "$root/proc"
  t dpkg-deb -x "$root"/tmp/swiftlang_*_arm64.deb "$sysroot"
  rm -f "$root"/tmp/swiftlang_*_arm64.deb "$sysroot"/var/cache/apt/archives/*.deb
  touch "$sysroot/.complete"
}

# The arm64 tests (scripts/trixie-build.sh arm64 test) link against the Swift runtime's shared
# libraries and run on them under qemu-user: libswiftlang:arm64 (libswiftCore.so, Foundation,
# XCTest, Testing) and what it depends on (libcurl and libxml2 for FoundationNetworking and
# FoundationXML, which the test bundle links, and theirs: 33 packages) unpacked into the
# sysroot, apart so a kept sysroot gets them too.
make_sysroot_runtime() {
  [ -e "$sysroot/.runtime-complete" ] && return
  mount -t proc proc "$root/proc"
  t chroot "$root" sh -c 'mkdir -p /tmp/arm64-runtime && cd /tmp/arm64-runtime && rm -f ./*.deb &&
    apt-get download -q $(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances libswiftlang:arm64 \
      | grep -v "^ " | grep ":arm64$" | grep -vxE "(libc6|libgcc-s1|libstdc\+\+6|gcc-14-base):arm64" | sort -u)' > "$cache/trixie-arm64-runtime.log" 2>&1 \
    || { umount "$root/proc"; tail -20 "$cache/trixie-arm64-runtime.log" >&2; exit 1; }
  umount "$root/proc"
  for deb in "$root"/tmp/arm64-runtime/*.deb; do dpkg-deb -x "$deb" "$sysroot" || exit 1; done
  rm -rf "$root"/tmp/arm64-runtime
  touch "$sysroot/.runtime-complete"
}

case "$what" in
  amd64) make_root ;;
  arm64) make_root; make_sysroot ;;
  arm64-test) make_root; make_sysroot; make_sysroot_runtime ;;
  all) make_root; make_sysroot ;;
  *) echo "trixie-root.sh: unknown '$what' (amd64, arm64, arm64-test, all)" >&2; exit 2 ;;
esac
