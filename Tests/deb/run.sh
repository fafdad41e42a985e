#!/usr/bin/env bash
# The Debian package end to end, as root: build it (scripts/deb.sh), lintian (no errors), then
# in a clean Debian root made with debootstrap: `apt-get install ./gestured_*.deb`,
# `gestured --version`, `systemd-analyze verify` on the installed units, the units enabled,
# the groups made, the generator's drop-in, and `apt-get purge` leaving only what the operator added.
#   Tests/deb/run.sh [DEB]          DEB: test this package instead of building one
#   GESTURED_DEBROOT_CACHE=dir      where the debootstrapped base root is kept between runs
#                                   (default /var/cache/gestured-test; delete it to refresh)
set -euo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" = 0 ] || { echo "deb test: needs root (debootstrap, chroot)" >&2; exit 1; }
failures=0
check() {  # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "  ok: $what"; else echo "  FAILED: $what" >&2; failures=$((failures + 1)); fi
}

deb=${1:-$(scripts/deb.sh)}
echo "== $deb"
dpkg-deb --info "$deb" | sed -n 's/^ \(Depends\|Installed-Size\|Version\|Architecture\):/  \1:/p'

echo "== lintian"
lintian --fail-on error --info "$deb" | sed 's/^/  /' || { echo "  FAILED: lintian reports errors" >&2; failures=$((failures + 1)); }

# The base root: minimal Debian with systemd (for systemd-analyze) and apt's lists, made once.
source Tests/deb/base.sh

root=$(mktemp -d /var/tmp/gestured-debroot.XXXXXX)
cleanup() {
  umount "$root/proc" 2>/dev/null || true
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT
cp -a "$base/." "$root/"
mount -t proc proc "$root/proc"
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
cp "$deb" "$root/tmp/"
name=$(basename "$deb")
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive "$@"; }

echo "== apt-get install ./$name in a clean $suite root"
in_root apt-get update -qq
if ! in_root apt-get install -y -qq "./tmp/$name" > "$root/tmp/install.log" 2>&1; then
  cat "$root/tmp/install.log" >&2
  echo "  FAILED: apt-get install" >&2
  exit 1
fi
check "gestured --version prints $(dpkg-deb -f "$deb" Version)" \
  test "$(in_root gestured --version)" = "$(dpkg-deb -f "$deb" Version)"
check "systemd-analyze verify passes on the installed units" \
  in_root systemd-analyze verify /lib/systemd/system/gestured.socket /lib/systemd/system/gestured.service \
    /lib/systemd/system/gestured-commands.socket
check "the example config is valid" in_root gestured check-config --quiet /etc/gestured/gestures.toml
check "the gestured group exists" bash -c "chroot '$root' getent group gestured >/dev/null"
check "the gestured-uinput group exists" bash -c "chroot '$root' getent group gestured-uinput >/dev/null"
check "the gestured-run group exists (the command runner's socket)" bash -c "chroot '$root' getent group gestured-run >/dev/null"
check "the generator writes the drop-in for the example config (keys, click: /dev/uinput)" \
  bash -c "chroot '$root' /lib/systemd/system-generators/gestured-generator /tmp/gen /tmp/gen-early /tmp/gen-late \
    && grep -qx 'DeviceAllow=/dev/uinput rw' '$root/tmp/gen/gestured.service.d/50-features.conf'"
check "gestured.socket is enabled" test -L "$root/etc/systemd/system/sockets.target.wants/gestured.socket"
check "gestured.service is enabled" test -L "$root/etc/systemd/system/multi-user.target.wants/gestured.service"
check "gestured-commands.socket is enabled" test -L "$root/etc/systemd/system/sockets.target.wants/gestured-commands.socket"
check "the config is a conffile" grep -qx /etc/gestured/gestures.toml "$root/var/lib/dpkg/info/gestured.conffiles"

# What the package put on the system: its files and the units' enablement links.
package_files() {
  (cd "$root" && for f in usr/bin/gestured lib/systemd/system/gestured.socket lib/systemd/system/gestured.service \
      lib/systemd/system/gestured-commands.socket lib/systemd/system/gestured-commands@.service \
      lib/systemd/system-generators/gestured-generator lib/udev/rules.d/60-gestured-uinput.rules \
      lib/udev/rules.d/61-gestured-passthrough.rules usr/share/doc/gestured etc/gestured/gestures.toml; do [ -e "$f" ] && echo "$f"; done
   find etc/systemd/system -name 'gestured*') || true
}
check "the installed files and links are seen ($(package_files | wc -l) of 13)" test "$(package_files | wc -l)" = 13
check "the passthrough rule's helper answers udev (exit 0, nothing for a node that is no input device)" \
  bash -c "out=\$(chroot '$root' /usr/bin/gestured udev-passthrough --config /etc/gestured/gestures.toml /dev/null) && [ -z \"\$out\" ]"

echo "== apt-get purge gestured (the operator added /etc/gestured/mqtt-password)"
echo "secret" > "$root/etc/gestured/mqtt-password"
in_root apt-get purge -y -qq gestured > "$root/tmp/purge.log" 2>&1 || { cat "$root/tmp/purge.log" >&2; failures=$((failures + 1)); }
left=$(package_files)
check "purge leaves no file of the package (left: ${left:-none})" test -z "$left"
check "purge removes the groups" bash -c "! chroot '$root' getent group gestured && ! chroot '$root' getent group gestured-uinput && ! chroot '$root' getent group gestured-run"
check "purge keeps what the operator added" test -f "$root/etc/gestured/mqtt-password"
check "dpkg forgets the package" bash -c "! chroot '$root' dpkg -s gestured >/dev/null 2>&1"

[ "$failures" = 0 ] || { echo "deb test: $failures failed" >&2; exit 1; }
echo "deb test: all checks passed"
