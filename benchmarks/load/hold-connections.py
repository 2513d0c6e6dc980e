#!/usr/bin/env python3
"""Holds connections open to an HTTP server without making requests, as slow or idle clients do.

    hold-connections.py PORT COUNT SECONDS

Opens COUNT connections to 127.0.0.1:PORT, in thirds: silent (nothing sent), half-open (part of
a request head, never finished) and idle keep-alive (one GET /healthz answered, then nothing).
Prints "holding COUNT" once all are open, holds them for SECONDS, then prints how many the
server had closed meanwhile and exits (closing the rest).
"""
import socket
import sys
import time

PARTIAL_HEAD = b"GET /v1/sector?lat=42.81&lon=-1.64 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n"
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


def read_answer(connection):
    """Reads one answer with a Content-Length body."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += connection.recv(4096)
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
    while len(body) < length:
        body += connection.recv(4096)


def main():
    port, count, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    connections = []
    for i in range(count):
        connection = socket.create_connection(("127.0.0.1", port))
        if i % 3 == 1:
            connection.sendall(PARTIAL_HEAD)
        elif i % 3 == 2:
            connection.sendall(HEALTHZ)
            read_answer(connection)
        connections.append(connection)
    print(f"holding {len(connections)}", flush=True)
    time.sleep(seconds)
    closed = 0
    for connection in connections:
        connection.setblocking(False)
        try:
            if connection.recv(4096, socket.MSG_PEEK) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        connection.close()
    print(f"closed by the server meanwhile: {closed}", flush=True)


if __name__ == "__main__":
    main()
