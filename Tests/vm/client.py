#!/usr/bin/env python3
"""A minimal, independent socket client for the VM suite.

    client.py SOCKET READY_FILE

Connects to the daemon's Unix stream socket, creates READY_FILE once connected, and copies
every line it receives to stdout (flushed per line) until the daemon closes the connection.
Exit status: 0 on a clean end, 3 when the socket's permissions refuse the connection
(EACCES/EPERM — what a user outside the socket's group must get), 4 on any other error.
"""
import errno
import socket
import sys


def main() -> int:
    path, ready = sys.argv[1], sys.argv[2]
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.connect(path)
    except OSError as e:
        print(f"client: connect {path}: {e.strerror} ({errno.errorcode.get(e.errno, e.errno)})", file=sys.stderr)
        return 3 if e.errno in (errno.EACCES, errno.EPERM) else 4
    open(ready, "w").close()
    print(f"client: connected to {path}", file=sys.stderr, flush=True)
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
        *complete, buf = buf.split(b"\n")
        for line in complete:
            sys.stdout.write(line.decode("utf-8", "replace") + "\n")
        sys.stdout.flush()
    if buf:
        sys.stdout.write(buf.decode("utf-8", "replace") + "\n")
    print("client: the daemon closed the connection", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
