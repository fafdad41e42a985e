#!/usr/bin/env bash
# Builds gestured_<version>_<arch>.deb from the static release binary with dpkg-deb (no
# debhelper: the package is small and every file in it is listed here).
#   scripts/deb.sh [OUTDIR]      default .build-deb; prints the .deb's path
#   GESTURED_BIN=path            package this binary instead of building one (e.g. a cross build)
#   DEB_ARCH=arm64               the Architecture field for such a binary (default: this machine's)
#   DEB_VERSION=v                the package's version (default: the daemon's; scripts/packages.sh
#                                adds +deb12 / +deb13, so one release's packages differ per suite)
#   STRIP=aarch64-linux-gnu-strip  the strip for another architecture's binary (default: strip)
#   SOURCE_DATE_EPOCH=s          the changelog's date (default: the last commit's)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build-deb}
version=${DEB_VERSION:-$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/Daemon/Daemon.swift)}
arch=${DEB_ARCH:-$(dpkg --print-architecture)}
[ -n "$version" ] || { echo "deb.sh: no version in Sources/Daemon/Daemon.swift" >&2; exit 1; }

bin=${GESTURED_BIN:-}
if [ -z "$bin" ]; then
  swift build -c release --static-swift-stdlib --product gestured >&2
  bin="$(swift build -c release --static-swift-stdlib --show-bin-path)/gestured"
fi

stage="$out/gestured_${version}_${arch}"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
doc="$stage/usr/share/doc/gestured"

install -D -m 0755 "$bin" "$stage/usr/bin/gestured"
"${STRIP:-strip}" --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/gestured" 2>/dev/null \
  || echo "deb.sh: could not strip $bin (another architecture's strip needed), packaged as it is" >&2

# Where the units, the generator and the udev rules go: Debian 13 (merged /usr, DEP 17) wants
# them under /usr/lib (its lintian: `aliased-location` for /lib); Debian 12's packages keep /lib.
lib=usr/lib
[ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" != bookworm ] || lib=lib

# The units as `make install` has them, with the packaged paths; the socket belongs to the
# `gestured` group (listeners). The service does not join it: an [mqtt] password_file is handed
# over by systemd (LoadCredential=, written by the generator), so it stays 0600 root:root.
install -D -m 0644 systemd/gestured.socket "$stage/$lib/systemd/system/gestured.socket"
install -D -m 0644 systemd/gestured.service "$stage/$lib/systemd/system/gestured.service"
sed -i 's|/usr/local/bin/gestured|/usr/bin/gestured|g; s|/usr/local/share/doc|/usr/share/doc|g' \
  "$stage/$lib/systemd/system/gestured.service"
sed -i '/^# *SocketGroup=/d; s|^\[Socket\]$|[Socket]\nSocketGroup=gestured|' "$stage/$lib/systemd/system/gestured.socket"
grep -q '^SocketGroup=gestured$' "$stage/$lib/systemd/system/gestured.socket" \
  && grep -q '^SupplementaryGroups=input$' "$stage/$lib/systemd/system/gestured.service" \
  && ! grep -q /usr/local "$stage/$lib/systemd/system/gestured.service" \
  || { echo "deb.sh: the units in systemd/ changed shape; update the edits above" >&2; exit 1; }

# The command runner: bound commands run as its user, not the daemon's (docs/security.md).
install -D -m 0644 systemd/gestured-commands.socket "$stage/$lib/systemd/system/gestured-commands.socket"
install -D -m 0644 systemd/gestured-commands@.service "$stage/$lib/systemd/system/gestured-commands@.service"
sed -i 's|/usr/local/bin/gestured|/usr/bin/gestured|g; s|/usr/local/share/doc|/usr/share/doc|g' \
  "$stage/$lib/systemd/system/gestured-commands.socket" "$stage/$lib/systemd/system/gestured-commands@.service"
grep -q '^ExecStart=/usr/bin/gestured run-command$' "$stage/$lib/systemd/system/gestured-commands@.service" \
  && grep -q '^SocketGroup=gestured-run$' "$stage/$lib/systemd/system/gestured-commands.socket" \
  || { echo "deb.sh: the command runner's units changed shape; update the edit above" >&2; exit 1; }

# The generator granting the service what the config needs, and the udev rule for /dev/uinput.
install -D -m 0755 systemd/gestured-generator "$stage/$lib/systemd/system-generators/gestured-generator"
sed -i 's|/usr/local/bin/gestured|/usr/bin/gestured|' "$stage/$lib/systemd/system-generators/gestured-generator"
grep -q '^exec /usr/bin/gestured generate-units ' "$stage/$lib/systemd/system-generators/gestured-generator" \
  || { echo "deb.sh: systemd/gestured-generator changed shape; update the edit above" >&2; exit 1; }
install -D -m 0644 systemd/60-gestured-uinput.rules "$stage/$lib/udev/rules.d/60-gestured-uinput.rules"
# The rule that hides passed-through panels from libinput (fail closed: docs/security.md).
install -D -m 0644 systemd/61-gestured-passthrough.rules "$stage/$lib/udev/rules.d/61-gestured-passthrough.rules"
sed -i 's|/usr/local/bin/gestured|/usr/bin/gestured|' "$stage/$lib/udev/rules.d/61-gestured-passthrough.rules"
grep -q 'IMPORT{program}="/usr/bin/gestured udev-passthrough ' "$stage/$lib/udev/rules.d/61-gestured-passthrough.rules" \
  || { echo "deb.sh: systemd/61-gestured-passthrough.rules changed shape; update the edit above" >&2; exit 1; }

install -D -m 0644 config/gestures.toml "$stage/etc/gestured/gestures.toml"
echo /etc/gestured/gestures.toml > "$stage/DEBIAN/conffiles"

install -D -m 0644 README.md "$doc/README.md"
install -m 0644 packaging/deb/copyright "$doc/copyright"
date=$(date -R -d "@${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
printf 'gestured (%s) unstable; urgency=medium\n\n  * Release %s, built from the repository with scripts/deb.sh.\n\n -- gestured developers <gestured@lists.example.org>  %s\n' \
  "$version" "$version" "$date" | gzip -9n > "$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

for s in postinst prerm postrm; do install -m 0755 "packaging/deb/$s" "$stage/DEBIAN/$s"; done
# The uinput group and rule, as `make install` applies them (packaging/uinput-access.sh).
sed -i -e '/^#UINPUT_ACCESS#$/{r packaging/uinput-access.sh' -e 'd}' "$stage/DEBIAN/postinst"
grep -q 'gestured-uinput' "$stage/DEBIAN/postinst" || { echo "deb.sh: postinst lacks #UINPUT_ACCESS#" >&2; exit 1; }

# Depends from the libraries the binary links (dpkg-shlibdeps wants a debian/control to exist);
# adduser and init-system-helpers for the maintainer scripts, procps for the unit's /bin/kill;
# udev recommended: it applies the /dev/uinput rule (passthrough, keys, click).
shlib=$(mktemp -d)
mkdir "$shlib/debian" && touch "$shlib/debian/control"
libs=$(cd "$shlib" && dpkg-shlibdeps -O -e "$OLDPWD/$stage/usr/bin/gestured" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlib"
[ -n "$libs" ] || { echo "deb.sh: dpkg-shlibdeps found no libraries" >&2; exit 1; }

size=$(du -k -s --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: gestured
Version: $version
Architecture: $arch
Maintainer: gestured developers <gestured@lists.example.org>
Installed-Size: $size
Depends: $libs, adduser, init-system-helpers (>= 1.54~), procps
Recommends: udev
Section: utils
Priority: optional
Description: touch-gesture daemon for touchscreens and touchpads
 gestured finds touchscreens and touchpads through udev, reads their
 multitouch slots with libevdev and recognizes gestures per device
 (circle, checkmark, tickle, pan, pinch, rotate, tap, swipe, edge swipe,
 long press). It sends each gesture to clients over a Unix socket as JSON
 Lines, runs the commands an operator bound to gestures, and can report
 to a fleet's MQTT broker.
CONTROL
(cd "$stage" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/control" "$stage/DEBIAN/conffiles"

deb="$out/gestured_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "$deb"
