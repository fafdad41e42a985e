# The gestured-uinput group (who may write /dev/uinput), the gestured-run group (who may hand the
# command runner a command: the daemon, given it by the generator) and gestured's udev rules applied now (at boot udev applies them by
# itself): /dev/uinput's group, and the passed-through panels hidden from libinput
# (61-gestured-passthrough.rules; a compositor already running keeps what it has open until it
# restarts). Shared by the package's postinst and `make install`; sh, run as root.
for group in gestured-uinput gestured-run; do
	if ! getent group "$group" >/dev/null; then
		if command -v addgroup >/dev/null; then addgroup --quiet --system "$group"; else groupadd --system "$group"; fi
	fi
done
if [ -S /run/udev/control ]; then
	udevadm control --reload-rules || true
fi
if [ -S /run/udev/control ]; then
	udevadm trigger --action=change --subsystem-match=input || true
fi
if [ -e /sys/class/misc/uinput ] && [ -S /run/udev/control ]; then
	udevadm trigger --settle --action=add /sys/class/misc/uinput || true
elif [ -c /dev/uinput ]; then
	# The module is not loaded yet: the static node gets what the rule says.
	chgrp gestured-uinput /dev/uinput && chmod 0660 /dev/uinput || true
fi
