#!/usr/bin/env bash
# Builds every package into dist/, as root on a fresh Debian 12 machine:
#   gestured_<v>+deb12_amd64.deb   Debian 12: /opt/swift's toolchain on this host (scripts/deb.sh)
#   gestured_<v>+deb13_amd64.deb   Debian 13: Debian's own swiftlang (6.0.3), in the trixie root
#   gestured_<v>+deb13_arm64.deb   Debian 13 and Raspberry Pi OS (arm64): cross-compiled there
# The Debian 13 ones are made inside the trixie root (scripts/trixie-build.sh deb), so their
# Depends come from Debian 13's own shlibs (libmtdev1t64, not Debian 12's libmtdev1). The suite
# in the version (+deb12 < +deb13) lets apt upgrade a kiosk from one to the other.
#   scripts/packages.sh [amd64-deb12|amd64|arm64 …]   default all three
#   LINTIAN=0                      skip lintian
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "packages.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(amd64-deb12 amd64 arm64)
scripts/deps.sh build
for tool in dpkg-shlibdeps:dpkg-dev lintian:lintian debootstrap:debootstrap; do
  command -v "${tool%%:*}" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${tool#*:}" >/dev/null; }
done
version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/Daemon/Daemon.swift)
mkdir -p dist
debs=()
for t in "${targets[@]}"; do
  start=$SECONDS
  case "$t" in
    amd64-deb12) deb=$(DEB_VERSION="$version+deb12" scripts/deb.sh .build-deb/deb12) ;;
    amd64|arm64) deb=$(DEB_VERSION="$version+deb13" scripts/trixie-build.sh "$t" deb) ;;
    *) echo "packages.sh: unknown package '$t' (amd64-deb12, amd64, arm64)" >&2; exit 2 ;;
  esac
  if [ "$t" = arm64 ]; then
    # The arm64 binary must be one (file), and start (qemu-user, on the sysroot's libraries).
    command -v qemu-aarch64-static >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null; }
    file -L .build-trixie/arm64/gestured | grep -q 'ARM aarch64' || { echo "packages.sh: .build-trixie/arm64/gestured is not an aarch64 binary" >&2; exit 1; }
    sysroot=${GESTURED_DEBROOT_CACHE:-/var/cache/gestured-test}/trixie-arm64-sysroot
    qemu-aarch64-static -L "$sysroot" .build-trixie/arm64/gestured --version >&2
    qemu-aarch64-static -L "$sysroot" .build-trixie/arm64/gestured check-config config/gestures.toml >/dev/null \
      || { echo "packages.sh: the arm64 gestured check-config config/gestures.toml failed under qemu" >&2; exit 1; }
  fi
  cp "$deb" dist/
  debs+=("dist/$(basename "$deb")")
  echo "packages.sh: dist/$(basename "$deb") in $(( SECONDS - start )) s" >&2
done
if [ "${LINTIAN:-1}" != 0 ]; then
  # Debian 12's lintian, as Tests/deb/run.sh runs it: no errors (its warnings are printed).
  lintian --fail-on error --info "${debs[@]}" >&2
fi
printf '%s\n' "${debs[@]}"
