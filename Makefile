# Build and install gestured: binary, systemd units, example config.
#   make            release build
#   make install    as root: /usr/local/bin/gestured, units in /etc/systemd/system, the
#                   generator granting the service what the config needs, the udev rules (/dev/uinput
#                   and its gestured-uinput group; passed-through panels hidden from libinput), the command
#                   runner (gestured-commands.socket, its gestured-run group), /etc/gestured/gestures.toml (an existing
#                   config is never overwritten). GESTURED_BIN=path installs that binary unbuilt.
#   make uninstall
#   make deb        .build-deb/gestured_<version>_<arch>.deb (scripts/deb.sh)
PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR    := $(PREFIX)/bin
DOCDIR    := $(PREFIX)/share/doc/gestured
UNITDIR   ?= /etc/systemd/system
GENERATORDIR ?= $(PREFIX)/lib/systemd/system-generators
UDEVRULESDIR ?= /etc/udev/rules.d
CONFDIR   ?= /etc/gestured
SWIFTFLAGS ?= -c release --static-swift-stdlib

.PHONY: all build install uninstall check deb
all: build

build:
	swift build $(SWIFTFLAGS)

GESTURED_BIN ?=
install: $(if $(GESTURED_BIN),,build)
	install -D -m 0755 "$(or $(GESTURED_BIN),$$(swift build $(SWIFTFLAGS) --show-bin-path)/gestured)" "$(DESTDIR)$(BINDIR)/gestured"
	install -D -m 0644 systemd/gestured.service "$(DESTDIR)$(UNITDIR)/gestured.service"
	install -D -m 0644 systemd/gestured.socket "$(DESTDIR)$(UNITDIR)/gestured.socket"
	sed -i 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' "$(DESTDIR)$(UNITDIR)/gestured.service"
	install -D -m 0644 systemd/gestured-commands.socket "$(DESTDIR)$(UNITDIR)/gestured-commands.socket"
	install -D -m 0644 systemd/gestured-commands@.service "$(DESTDIR)$(UNITDIR)/gestured-commands@.service"
	sed -i 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' "$(DESTDIR)$(UNITDIR)/gestured-commands@.service"
	install -D -m 0755 systemd/gestured-generator "$(DESTDIR)$(GENERATORDIR)/gestured-generator"
	sed -i 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' "$(DESTDIR)$(GENERATORDIR)/gestured-generator"
	install -D -m 0644 systemd/60-gestured-uinput.rules "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules"
	install -D -m 0644 systemd/61-gestured-passthrough.rules "$(DESTDIR)$(UDEVRULESDIR)/61-gestured-passthrough.rules"
	sed -i 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' "$(DESTDIR)$(UDEVRULESDIR)/61-gestured-passthrough.rules"
	install -D -m 0644 README.md "$(DESTDIR)$(DOCDIR)/README.md"
	install -D -m 0644 config/gestures.toml "$(DESTDIR)$(DOCDIR)/gestures.toml.example"
	@if [ -e "$(DESTDIR)$(CONFDIR)/gestures.toml" ]; then \
	  echo "keeping $(DESTDIR)$(CONFDIR)/gestures.toml (example in $(DOCDIR))"; \
	else \
	  install -D -m 0644 config/gestures.toml "$(DESTDIR)$(CONFDIR)/gestures.toml"; \
	fi
	@if [ -z "$(DESTDIR)" ]; then sh packaging/uinput-access.sh; fi
	@if [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload; \
	  echo "now: systemctl enable --now gestured-commands.socket gestured.socket gestured.service"; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/gestured" "$(DESTDIR)$(UNITDIR)/gestured.service" "$(DESTDIR)$(UNITDIR)/gestured.socket" \
	  "$(DESTDIR)$(UNITDIR)/gestured-commands.socket" "$(DESTDIR)$(UNITDIR)/gestured-commands@.service" \
	  "$(DESTDIR)$(GENERATORDIR)/gestured-generator" "$(DESTDIR)$(UDEVRULESDIR)/60-gestured-uinput.rules" \
	  "$(DESTDIR)$(UDEVRULESDIR)/61-gestured-passthrough.rules"
	rm -rf "$(DESTDIR)$(DOCDIR)"

# Validate the example config and the unit files.
check: build
	"$$(swift build $(SWIFTFLAGS) --show-bin-path)/gestured" check-config --quiet config/gestures.toml
	systemd-analyze verify systemd/gestured.socket systemd/gestured-commands.socket

# The Debian package (scripts/deb.sh): .build-deb/gestured_<version>_<arch>.deb
deb:
	scripts/deb.sh
