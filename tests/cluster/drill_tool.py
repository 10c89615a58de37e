#!/usr/bin/env python3
"""Helpers of tests/cluster/drills.sh (standard library only).

  writer URL PREFIX RATE OUT     POST /api/v1/products through URL at RATE per second with unique titles
                                 PREFIX-<n> until SIGTERM; OUT gets one JSON line per attempt:
                                 {"title", "status" (0: no answer), "id" (when 201), "ms"}. Never retries: a write
                                 that got no answer may or may not exist, and must not be sent twice.
  check-writes OUT ROWS          ROWS: "title|id|count" lines from the database for PREFIX-%; every acknowledged
                                 write present once with its id, no title twice, no 409 (a replayed create);
                                 prints the write figures, exits 1 on a violation. --no-failures also fails
                                 on any unanswered or non-201 write.
  probe URL OUT                  GET URL every 50 ms until SIGTERM; OUT: one line per request "t status ms"
  probe-report OUT T0 T1         figures of the probe between T0 and T1 (epoch seconds): requests, by status,
                                 max latency; and the first 200 after T1
  wrk OUT                        parses wrk --latency output: requests, failed (non-2xx/3xx + socket
                                 errors), p99, max; prints "key=value" pairs
  tokens P1 P2 P3                login on instance 1's port, use the tokens on 2 and 3 (profile, refresh);
                                 create a product on 3 and read it on 1 and 2
"""
import http.client
import json
import re
import signal
import sys
import time
import urllib.parse

stop = False


def on_term(*_):
    global stop
    stop = True


def connection(url):
    u = urllib.parse.urlsplit(url)
    return http.client.HTTPConnection(u.hostname, u.port, timeout=10)


def request(conn, method, path, body=None, headers=None):
    h = {"Content-Type": "application/json"} if body is not None else {}
    h.update(headers or {})
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=h)
    r = conn.getresponse()
    data = r.read()
    return r.status, data, r.getheader("Connection", "")


def writer(url, prefix, rate, out):
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    conn = connection(url)
    n = 0
    with open(out, "w") as f:
        next_at = time.monotonic()
        while not stop:
            n += 1
            title = f"{prefix}-{n}"
            body = {"title": title, "price": 9.5, "description": "drill write", "categoryId": 2,
                    "images": ["https://placehold.co/600x400"]}
            t0 = time.monotonic()
            rec = {"title": title, "status": 0}
            try:
                status, data, conn_hdr = request(conn, "POST", "/api/v1/products", body)
                rec["status"] = status
                if status == 201:
                    rec["id"] = json.loads(data)["id"]
                if conn_hdr.lower() == "close":
                    conn.close()
            except (OSError, http.client.HTTPException) as e:
                rec["error"] = type(e).__name__
                conn.close()  # no answer: not retried (it may have been applied)
                conn = connection(url)
            rec["ms"] = round((time.monotonic() - t0) * 1000, 1)
            f.write(json.dumps(rec) + "\n")
            f.flush()
            next_at += 1.0 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))


def check_writes(out, rows, no_failures):
    attempts = [json.loads(line) for line in open(out)]
    db = {}
    for line in open(rows):
        line = line.strip()
        if line:
            title, pid, count = line.split("|")
            db[title] = (int(pid), int(count))
    acked = [a for a in attempts if a["status"] == 201]
    unanswered = [a for a in attempts if a["status"] != 201]
    problems = []
    for a in acked:
        if a["title"] not in db:
            problems.append(f"acknowledged write {a['title']} (id {a['id']}) is missing")
        elif db[a["title"]] != (a["id"], 1):
            problems.append(f"acknowledged write {a['title']} is {db[a['title']]} in the database, "
                            f"acknowledged as id {a['id']}")
    for title, (_, count) in db.items():
        if count != 1:
            problems.append(f"{title} is in the database {count} times")
    conflicts = [a for a in attempts if a["status"] == 409]
    if conflicts:
        problems.append(f"{len(conflicts)} writes answered 409: a create was replayed")
    present_unanswered = sum(1 for a in unanswered if a["title"] in db)
    statuses = {}
    for a in unanswered:
        statuses[a["status"]] = statuses.get(a["status"], 0) + 1
    lat = sorted(a["ms"] for a in attempts) or [0]
    duplicates = sum(1 for _, c in db.values() if c > 1)
    print(f"writes: sent={len(attempts)} acknowledged={len(acked)} not-acknowledged={len(unanswered)}"
          f"{' ' + json.dumps(statuses) if statuses else ''} (of those in the database: {present_unanswered})"
          f" in-db={len(db)} duplicates={duplicates}"
          f" p99={lat[min(len(lat) - 1, int(len(lat) * 0.99))]}ms max={lat[-1]}ms")
    if no_failures and unanswered:
        problems.append(f"{len(unanswered)} writes not acknowledged: {unanswered[:5]}")
    if len(attempts) < 10:
        problems.append(f"only {len(attempts)} writes were sent")
    for p in problems[:20]:
        print("  FAIL " + p)
    return 1 if problems else 0


def probe(url, out):
    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    u = urllib.parse.urlsplit(url)
    path = u.path + ("?" + u.query if u.query else "")
    with open(out, "w") as f:
        while not stop:
            t0 = time.time()
            status = 0
            try:
                conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
                status, _, _ = request(conn, "GET", path)
                conn.close()
            except (OSError, http.client.HTTPException):
                pass
            ms = (time.time() - t0) * 1000
            f.write(f"{t0:.3f} {status} {ms:.1f}\n")
            f.flush()
            time.sleep(0.05)


def probe_report(out, t_fault, t_back):
    rows = [line.split() for line in open(out)]
    rows = [(float(t), int(s), float(ms)) for t, s, ms in rows]
    during = [r for r in rows if t_fault <= r[0] <= t_back]
    by_status = {}
    for _, s, _ in during:
        by_status[s] = by_status.get(s, 0) + 1
    max_ms = max((ms for _, _, ms in during), default=0.0)
    first_503 = next((r[0] - t_fault for r in during if r[1] == 503), -1)
    after = [r for r in rows if r[0] > t_back]
    recovered = next((r[0] + r[2] / 1000 - t_back for r in after if r[1] == 200), -1)
    print(f"probe_requests={len(during)} probe_statuses={json.dumps(by_status).replace(' ', '')} "
          f"probe_max_ms={max_ms:.0f} probe_first_503_s={first_503:.2f} probe_recovered_s={recovered:.2f}")


def wrk(out):
    text = open(out).read()
    unit = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}

    def ms(v):
        m = re.match(r"([\d.]+)(us|ms|s|m)$", v)
        return float(m.group(1)) * unit[m.group(2)] if m else -1

    req = re.search(r"(\d+) requests in", text)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    sock = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    p99 = re.search(r"^\s+99%\s+(\S+)", text, re.M)
    mx = re.search(r"^\s+Latency\s+\S+\s+\S+\s+(\S+)", text, re.M)
    socket_errors = sum(int(x) for x in sock.groups()) if sock else 0
    failed = (int(non2xx.group(1)) if non2xx else 0) + socket_errors
    print(f"requests={req.group(1) if req else 0} failed={failed} "
          f"non2xx={non2xx.group(1) if non2xx else 0} socket_errors={socket_errors} "
          f"timeouts={sock.group(4) if sock else 0} "
          f"p99_ms={ms(p99.group(1)) if p99 else -1:.1f} max_ms={ms(mx.group(1)) if mx else -1:.1f}")


def tokens(p1, p2, p3):
    def on(port):
        return http.client.HTTPConnection("127.0.0.1", int(port), timeout=10)

    def check(cond, what):
        if not cond:
            print("  FAIL " + what)
            sys.exit(1)

    s, data, _ = request(on(p1), "POST", "/api/v1/auth/login", {"email": "john@mail.com", "password": "changeme"})
    check(s == 201, f"login on instance 1: {s}")
    pair = json.loads(data)
    for port in (p2, p3):
        s, data, _ = request(on(port), "GET", "/api/v1/auth/profile",
                             headers={"Authorization": "Bearer " + pair["access_token"]})
        check(s == 200 and json.loads(data)["email"] == "john@mail.com", f"profile on port {port}: {s}")
    s, data, _ = request(on(p2), "POST", "/api/v1/auth/refresh-token", {"refreshToken": pair["refresh_token"]})
    check(s == 201, f"refresh on instance 2 of a token issued by 1: {s}")
    s, _, _ = request(on(p3), "POST", "/api/v1/auth/refresh-token", {"refreshToken": pair["refresh_token"]})
    check(s == 401, f"the refresh token spent on 2 is refused on 3: {s}")
    title = f"drill-shared-{int(time.time() * 1000)}"
    s, data, _ = request(on(p3), "POST", "/api/v1/products",
                         {"title": title, "price": 3.5, "description": "d", "categoryId": 1,
                          "images": ["https://placehold.co/600x400"]})
    check(s == 201, f"create on instance 3: {s}")
    pid = json.loads(data)["id"]
    for port in (p1, p2):
        s, data, _ = request(on(port), "GET", f"/api/v1/products/{pid}")
        check(s == 200 and json.loads(data)["title"] == title, f"product {pid} read on port {port}: {s}")
    print(f"tokens: login on 1, profile on 2 and 3, refresh on 2 (then refused on 3); product {pid} created on 3,"
          f" read on 1 and 2: ok")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "writer":
        writer(args[0], args[1], float(args[2]), args[3])
    elif cmd == "check-writes":
        sys.exit(check_writes(args[0], args[1], "--no-failures" in args))
    elif cmd == "probe":
        probe(args[0], args[1])
    elif cmd == "probe-report":
        probe_report(args[0], float(args[1]), float(args[2]))
    elif cmd == "wrk":
        wrk(args[0])
    elif cmd == "tokens":
        tokens(*args)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
