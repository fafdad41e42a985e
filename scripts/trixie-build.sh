#!/usr/bin/env bash
# Builds the shipped daemon (release, the Swift runtime linked in) with Debian 13's own Swift
# (swiftlang 6.0.3) in the trixie root of scripts/trixie-root.sh, as root:
#   scripts/trixie-build.sh amd64          native, in the root (chroot)
#   scripts/trixie-build.sh arm64          cross-compiled there for aarch64 against the arm64
#                                          sysroot (Swift SDK per SE-0387: packaging/swift-sdk/)
#   scripts/trixie-build.sh amd64 test [ARGS]   `swift test ARGS` in the root instead (debug)
#   scripts/trixie-build.sh arm64 test [ARGS]   the tests cross-built (debug), then their bundle run
#                                          on this host under qemu-user on the sysroot's libraries
#                                          (ARGS: the bundle's, e.g. --testing-library swift-testing
#                                          --filter GestureKitTests)
#   scripts/trixie-build.sh ARCH deb       the build, then scripts/deb.sh in the root (Debian 13's
#                                          shlibs give the Depends); DEB_VERSION passed on
# Prints the binary's (or the package's) path, under .build-trixie/<arch>/. The source is copied
# into the root (what git tracks or would: no .build, no Package.resolved, so the host's build is
# untouched); the root's scratch directories are kept, so a second build is incremental. /proc is
# mounted: Swift 6.0's static runtime reads CommandLine.arguments from /proc/self/cmdline.
#   GESTURED_DEBROOT_CACHE=dir   default /var/cache/gestured-test
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "trixie-build.sh: needs root (chroot, mount)" >&2; exit 1; }
arch=${1:-amd64}
action=${2:-build}
shift $(( $# > 2 ? 2 : $# ))
case "$arch" in amd64|arm64) ;; *) echo "trixie-build.sh: unknown architecture '$arch' (amd64, arm64)" >&2; exit 2 ;; esac
case "$action" in build|test|deb) ;; *) echo "trixie-build.sh: unknown action '$action' (build, test, deb)" >&2; exit 2 ;; esac
cache=${GESTURED_DEBROOT_CACHE:-/var/cache/gestured-test}
root=$cache/trixie-swift
sysroot=$cache/trixie-arm64-sysroot
if [ "$arch/$action" = arm64/test ]; then scripts/trixie-root.sh arm64-test; else scripts/trixie-root.sh "$arch"; fi

# The root's view: the source, the local mirror of the Swift packages that the host's git
# reads github.com from (its insteadOf rules copied), and for arm64 the sysroot.
mounts=()
cleanup() { for ((i=${#mounts[@]}-1; i>=0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true; done; }
trap cleanup EXIT
bind() { mkdir -p "$2"; mount --bind "$1" "$2"; mounts+=("$2"); [ "${3:-}" != ro ] || mount -o remount,bind,ro "$2"; }
mount -t proc proc "$root/proc"; mounts+=("$root/proc")
bind /dev "$root/dev"
# Pseudo-terminals of the root's own (tmux, in the listen tests): the host's /dev/ptmx would
# answer for the host's devpts, and forkpty fails.
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"; mounts+=("$root/dev/pts")
mount --bind "$root/dev/pts/ptmx" "$root/dev/ptmx"; mounts+=("$root/dev/ptmx")
[ ! -d /opt/swift-packages ] || bind /opt/swift-packages "$root/opt/swift-packages" ro
# (Written aside and moved in: a build running beside this one reads it.)
gitconfig=$root/root/.gitconfig.$$
git config --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
  git config --file "$gitconfig" --add "$key" "$value"
done

# swift-log: the mirror's only release (1.16.2) declares tools 6.2 and uses 6.1's and 6.2's
# language. Swift 6.0 gets a local clone of that release with those removed (git reads the
# swift-log URL from it: the longer insteadOf wins); its manifest: tools 6.0, no package traits
# (none is on by default), no 6.2 upcoming feature, no unsafe flag (refused in a dependency).
# gestured uses its LogEvent API (1.16), so an older release will not do. Made again only when
# the release or this script changed (under a lock): a build and a test run can share it.
log_url=https://github.com/apple/swift-log
log_clone=$root/root/mirrors/swift-log
log_src=$(git ls-remote --get-url "$log_url")
mkdir -p "$root/root/mirrors"
exec 9>"$root/root/mirrors/.lock"
flock 9
log_stamp="$(git ls-remote --tags "$log_src" | sort | md5sum | cut -c1-12) $(md5sum < "$0" | cut -c1-12)"
if [ "$(cat "$log_clone.stamp" 2>/dev/null)" != "$log_stamp" ]; then
  rm -rf "$log_clone"
  git clone -q "$log_src" "$log_clone"
  log_tag=$(git -C "$log_clone" tag --sort=-v:refname | head -1)
  git -C "$log_clone" checkout -q "$log_tag"
  sed -i '1s|.*|// swift-tools-version:6.0|; /^    traits: \[/,/^    \],/d; /NonisolatedNonsendingByDefault/d; /nonisolated-nonsending-by-default/d; /-require-explicit-sendable/d' "$log_clone/Package.swift"
  # Its sources: 6.2's nonisolated(nonsending) dropped (plain nonisolated async), 6.1's
  # _runtime(_multithreaded) spelled as 6.0 can (every platform but WASI has threads), 6.1's
  # trailing commas in argument and parameter lists dropped.
  find "$log_clone/Sources" -name '*.swift' -exec perl -0pi -e \
    's/nonisolated\(nonsending\) //g; s/_runtime\(_multithreaded\)/!os(WASI)/g; s/,(\s*)\)/$1)/g' {} +
  # The same commit on every run (dates and author fixed), so SwiftPM's records stay valid.
  log_date=$(git -C "$log_clone" log -1 --format=%cI)
  GIT_AUTHOR_DATE=$log_date GIT_COMMITTER_DATE=$log_date \
    git -C "$log_clone" -c user.name=gestured -c user.email=gestured@localhost commit -q -am "for Swift 6.0 (scripts/trixie-build.sh)"
  git -C "$log_clone" tag -f "$log_tag" >/dev/null
  echo "$log_stamp" > "$log_clone.stamp"
fi
flock -u 9
git config --file "$gitconfig" --add "url./root/mirrors/swift-log.insteadof" "$log_url"
mv "$gitconfig" "$root/root/.gitconfig"
# A build directory that cloned another patched commit under the same tag keeps it (git fetch
# does not move tags): it forgets swift-log and clones it again.
log_commit=$(git -C "$log_clone" rev-parse HEAD)
for d in "$root/root/build-$arch" "$root/root/build-$arch-test"; do
  [ "$(cat "$d/.swift-log-commit" 2>/dev/null)" = "$log_commit" ] && continue
  rm -rf "$d"/repositories/swift-log-* "$d/checkouts/swift-log" "$d/workspace-state.json"
  mkdir -p "$d"; echo "$log_commit" > "$d/.swift-log-commit"
done

# One copy per architecture, and one for the tests, so a build and a test run can go at once
# (a build and a package share theirs: another path would rebuild everything).
sub=src-$arch; [ "$action" != test ] || sub=$sub-test
src=$root/root/$sub
rm -rf "$src"; mkdir -p "$src"
git ls-files -z -co --exclude-standard | tar -cf - --null -T - | tar -xf - -C "$src"

flags="-c release --static-swift-stdlib --product gestured"
if [ "$arch" = arm64 ]; then
  bind "$sysroot" "$root/sysroot-arm64" ro
  mkdir -p "$root/root/swift-sdks"
  rm -rf "$root/root/swift-sdks"/*; cp -r packaging/swift-sdk/*.artifactbundle "$root/root/swift-sdks/"
  flags="$flags --swift-sdks-path /root/swift-sdks --swift-sdk aarch64-debian13"
fi
# swift-log from the clone above, not from a cache; its 1.16.2 is not the commit SwiftPM saw
# first (its fingerprint record), so a mismatch only warns.
resolve="--disable-dependency-cache --resolver-fingerprint-checking warn"
flags="$flags $resolve"
cmd="swift build $flags --scratch-path /root/build-$arch"
[ "$action" != test ] || cmd="swift test $resolve --scratch-path /root/build-$arch-test $*"
# arm64: built here, run below (the root runs no arm64 code).
[ "$arch/$action" != arm64/test ] || cmd="swift build --build-tests $resolve --swift-sdks-path /root/swift-sdks --swift-sdk aarch64-debian13 --scratch-path /root/build-$arch-test"
start=$SECONDS
# The daemon tier starts GESTURED (as scripts/test.sh sets it): the test build's own daemon.
chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
  GESTURED="/root/build-$arch-test/debug/gestured" \
  sh -c "cd /root/$sub && $cmd" >&2
echo "trixie-build.sh: $arch $action took $(( SECONDS - start )) s" >&2
if [ "$arch/$action" = arm64/test ]; then
  # The bundle (Swift Testing's tests: the bundle's own entry point runs them) under
  # qemu-aarch64 in the root (the tests read their fixtures at the source's paths there), its
  # absolute paths looked up in the sysroot first (-L): the Swift runtime's shared libraries
  # from the arm64 libswiftlang unpacked there (scripts/trixie-root.sh arm64-test).
  command -v qemu-aarch64-static >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static >/dev/null; }
  cp /usr/bin/qemu-aarch64-static "$root/usr/local/bin/"
  start=$SECONDS; status=0
  chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 TERM=dumb \
    LD_LIBRARY_PATH=/usr/libexec/swift/lib/swift/linux sh -c 'cd "$1" && shift && exec /usr/local/bin/qemu-aarch64-static -L /sysroot-arm64 "$@"' _ \
    "/root/$sub" "/root/build-$arch-test/aarch64-unknown-linux-gnu/debug/gesturedPackageTests.xctest" "$@" >&2 || status=$?
  echo "trixie-build.sh: arm64 tests ran $(( SECONDS - start )) s under qemu-user (exit $status)" >&2
  exit "$status"
fi
[ "$action" != test ] || exit 0
out=.build-trixie/$arch
mkdir -p "$out"
bin=$(chroot "$root" env -i HOME=/root PATH=/usr/bin:/bin sh -c "cd /root/$sub && swift build $flags --scratch-path /root/build-$arch --show-bin-path")/gestured
cp "$root$bin" "$out/gestured"
[ "$action" = deb ] || { echo "$out/gestured"; exit 0; }

strip=strip; [ "$arch" = amd64 ] || strip=aarch64-linux-gnu-strip
rm -rf "$root/root/$sub/.build-deb"
chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  GESTURED_BIN="$bin" DEB_ARCH="$arch" DEB_VERSION="${DEB_VERSION:-}" STRIP="$strip" \
  SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)" sh -c "cd /root/$sub && scripts/deb.sh .build-deb" >/dev/null
deb=$(ls "$root/root/$sub"/.build-deb/gestured_*.deb)
# Debian 13's lintian, as Tests/deb/run.sh runs Debian 12's: no errors (its warnings printed).
chroot "$root" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
  lintian --fail-on error --info "${deb#"$root"}" >&2 || { echo "trixie-build.sh: Debian 13's lintian reports errors in $(basename "$deb")" >&2; exit 1; }
cp "$deb" "$out/"
echo "$out/$(basename "$deb")"
