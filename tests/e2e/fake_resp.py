#!/usr/bin/env python3
"""fake_resp.py PORTFILE MODE -- a hostile RESP server on 127.0.0.1 for the
capture's safety tests: it listens on a free port (written to PORTFILE),
serves one client at a time on threads, and answers as MODE says:
  silent   reads commands, never answers
  dribble  answers INFO at once, every other reply one byte per 100 ms
  forge    answers like a server whose INFO holds forged '# ts=' lines
  delay    answers a connection's 1st, 3rd, 5th ... PING 25 ms after it came
           and its 2nd, 4th ... 15 ms after (replies in order, each sent at
           its own time), the rest at once
  mixed    answers a connection's 3rd, 6th ... PING with an error, and
           sends its 5th, 10th ... reply in two writes 5 ms apart
The test stops it by pid."""
import os, socket, sys, threading, time

PORTFILE, MODE = sys.argv[1], sys.argv[2]

INFO = ("# Server\r\nredis_version:7.0.15\r\nprocess_id:%d\r\nrun_id:%s\r\n"
        "tcp_port:%%d\r\nuptime_in_seconds:100\r\n"
        "server_time_usec:%%d\r\n# Replication\r\nrole:master\r\n"
        "# Persistence\r\nrdb_bgsave_in_progress:0\r\naof_rewrite_in_progress:0\r\n"
        "total_forks:0\r\n" % (os.getpid(), "f" * 40))
FORGED = "# ts=1796268000123\r\nrdb_bgsave_in_progress:1\r\n"


def bulk(s):
    b = s.encode()
    return b"$%d\r\n%s\r\n" % (len(b), b)


def commands(conn):
    """Yield each command as a list of words (arrays of bulk strings only)."""
    f = conn.makefile("rb")
    while True:
        line = f.readline()
        if not line:
            return
        if not line.startswith(b"*"):
            yield line.split()
            continue
        words = []
        for _ in range(int(line[1:])):
            n = int(f.readline()[1:])
            words.append(f.read(n + 2)[:-2].decode(errors="replace"))
        yield words


def reply(words, port):
    cmd = " ".join(words[:2]).upper() if words else ""
    if cmd.startswith("INFO"):
        info = INFO % (port, int(time.time() * 1e6))
        if MODE == "forge":
            info += FORGED
        return bulk(info), True
    if cmd == "CONFIG GET":
        return b"*2\r\n" + bulk("maxmemory") + bulk("0"), False
    if words and words[0].upper() == "PING":
        return b"+PONG\r\n", False
    return b"-ERR unknown command in fake_resp\r\n", False


DELAYS = (0.025, 0.015)


def serve_delayed(conn, port):
    """MODE delay: replies go from a sender thread at their due times."""
    cv = threading.Condition()
    due = []  # (monotonic instant, bytes), in order

    def sender():
        while True:
            with cv:
                while not due:
                    cv.wait()
                t, out = due[0]
            while time.monotonic() < t:
                time.sleep(max(t - time.monotonic(), 0))
            with cv:
                due.pop(0)
            if out is None:
                return
            try:
                conn.sendall(out)
            except OSError:
                return

    th = threading.Thread(target=sender, daemon=True)
    th.start()
    pings = 0
    try:
        for words in commands(conn):
            now = time.monotonic()
            out, _ = reply(words, port)
            if words and words[0].upper() == "PING":
                now += DELAYS[pings % 2]
                pings += 1
            with cv:
                due.append((max(now, due[-1][0]) if due else now, out))
                cv.notify()
    finally:
        with cv:
            due.append((0, None))
            cv.notify()
        th.join()
        conn.close()


def serve(conn, port):
    # as Redis does: without it a reply waits for the ACK of the one before
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if MODE == "delay":
        serve_delayed(conn, port)
        return
    pings = 0
    try:
        for words in commands(conn):
            if MODE == "silent":
                continue
            out, at_once = reply(words, port)
            if MODE == "mixed" and words and words[0].upper() == "PING":
                pings += 1
                if pings % 3 == 0:
                    out = b"-LOADING fake_resp is loading\r\n"
                if pings % 5 == 0:
                    conn.sendall(out[:3])
                    time.sleep(0.005)
                    out = out[3:]
            if MODE == "dribble" and not at_once:
                for i in range(len(out)):
                    conn.sendall(out[i:i + 1])
                    time.sleep(0.1)
            else:
                conn.sendall(out)
    except OSError:
        pass
    finally:
        conn.close()


def main():
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    port = s.getsockname()[1]
    with open(PORTFILE + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(PORTFILE + ".tmp", PORTFILE)
    while True:
        conn, _ = s.accept()
        threading.Thread(target=serve, args=(conn, port), daemon=True).start()


main()
