# Build and install gestured: binary, systemd units, example config.
#   make            release build
#   make install    as root: /usr/local/bin/gestured, units in /etc/systemd/system,
#                   /etc/gestured/gestures.toml (an existing config is never overwritten)
#   make uninstall
#   make deb        .build-deb/gestured_<version>_<arch>.deb (scripts/deb.sh)
PREFIX    ?= /usr/local
DESTDIR   ?=
BINDIR    := $(PREFIX)/bin
DOCDIR    := $(PREFIX)/share/doc/gestured
UNITDIR   ?= /etc/systemd/system
CONFDIR   ?= /etc/gestured
SWIFTFLAGS ?= -c release --static-swift-stdlib

.PHONY: all build install uninstall check deb
all: build

build:
	swift build $(SWIFTFLAGS)

install: build
	install -D -m 0755 "$$(swift build $(SWIFTFLAGS) --show-bin-path)/gestured" "$(DESTDIR)$(BINDIR)/gestured"
	install -D -m 0644 systemd/gestured.service "$(DESTDIR)$(UNITDIR)/gestured.service"
	install -D -m 0644 systemd/gestured.socket "$(DESTDIR)$(UNITDIR)/gestured.socket"
	sed -i 's|/usr/local/bin/gestured|$(BINDIR)/gestured|g' "$(DESTDIR)$(UNITDIR)/gestured.service"
	install -D -m 0644 README.md "$(DESTDIR)$(DOCDIR)/README.md"
	install -D -m 0644 config/gestures.toml "$(DESTDIR)$(DOCDIR)/gestures.toml.example"
	@if [ -e "$(DESTDIR)$(CONFDIR)/gestures.toml" ]; then \
	  echo "keeping $(DESTDIR)$(CONFDIR)/gestures.toml (example in $(DOCDIR))"; \
	else \
	  install -D -m 0644 config/gestures.toml "$(DESTDIR)$(CONFDIR)/gestures.toml"; \
	fi
	@if [ -z "$(DESTDIR)" ] && command -v systemctl >/dev/null && [ -d /run/systemd/system ]; then \
	  systemctl daemon-reload; \
	  echo "now: systemctl enable --now gestured.socket gestured.service"; \
	fi

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/gestured" "$(DESTDIR)$(UNITDIR)/gestured.service" "$(DESTDIR)$(UNITDIR)/gestured.socket"
	rm -rf "$(DESTDIR)$(DOCDIR)"

# Validate the example config and the unit files.
check: build
	"$$(swift build $(SWIFTFLAGS) --show-bin-path)/gestured" check-config --quiet config/gestures.toml
	systemd-analyze verify systemd/gestured.socket

# The Debian package (scripts/deb.sh): .build-deb/gestured_<version>_<arch>.deb
deb:
	scripts/deb.sh
