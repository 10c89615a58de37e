#!/usr/bin/env python3
"""Write-to-visible delay across two storefront instances on one PostgreSQL.

Creates a product through instance A, then polls instance B's cached products page (GET
/api/v1/products?offset=0&limit=100, the page served from B's in-process cache keyed by store revision)
until the new title is on it; then deletes the product through A and polls B until it is gone, so every
sample starts from the same page. The bearer token (an admin's) comes from the environment variable
BENCH_TOKEN, never the command line. Prints one line per sample to --out (ms: from sending the POST, from
A's 201 answer, and for the delete) and a summary line "RESULT ..." on stdout.

    visible_delay.py --a http://127.0.0.1:P1 --b http://127.0.0.1:P2 --samples 50 --out FILE
"""
import argparse
import json
import os
import statistics
import time
import urllib.request

PAGE = "/api/v1/products?offset=0&limit=100"
TIMEOUT_S = 10.0  # a sample that never shows up fails the run instead of hanging it


def request(method, url, token=None, body=None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status, resp.read()


def wait_until(url, predicate):
    deadline = time.perf_counter() + TIMEOUT_S
    while True:
        _, body = request("GET", url)
        if predicate(body):
            return time.perf_counter()
        if time.perf_counter() > deadline:
            raise SystemExit("visible_delay: no change on B's page within %.0f s" % TIMEOUT_S)
        time.sleep(0.0002)  # poll about every 0.2 ms plus the request itself


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(p / 100 * len(s) + 0.5) - 1))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--samples", type=int, default=50)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    token = os.environ.get("BENCH_TOKEN", "")
    page_b = args.b + PAGE
    tag = "%d-%d" % (os.getpid(), int(time.time()))
    from_send, from_ack, delete = [], [], []
    with open(args.out, "w") as out:
        out.write("# sample\tfrom_post_sent_ms\tfrom_201_ms\tdelete_to_gone_ms\n")
        for i in range(args.samples):
            title = "Visible %s-%d" % (tag, i)
            needle = json.dumps(title).encode()
            request("GET", page_b)  # B has the current page cached before the write
            sent = time.perf_counter()
            status, body = request("POST", args.a + "/api/v1/products", token, {
                "title": title, "price": 3, "description": "visibility probe", "categoryId": 1,
                "images": ["https://placehold.co/600x400"]})
            acked = time.perf_counter()
            if status != 201:
                raise SystemExit("visible_delay: create answered %d" % status)
            pid = json.loads(body)["id"]
            seen = wait_until(page_b, lambda b: needle in b)
            deleted = time.perf_counter()
            request("DELETE", "%s/api/v1/products/%d" % (args.a, pid), token)
            gone = wait_until(page_b, lambda b: needle not in b)
            from_send.append((seen - sent) * 1000)
            from_ack.append((seen - acked) * 1000)
            delete.append((gone - deleted) * 1000)
            out.write("%d\t%.3f\t%.3f\t%.3f\n" % (i, from_send[-1], from_ack[-1], delete[-1]))
    fmt = lambda v: "median_ms=%.2f p95_ms=%.2f max_ms=%.2f" % (statistics.median(v), pct(v, 95), max(v))
    print("RESULT samples=%d | from POST sent: %s | from 201: %s | delete: %s"
          % (args.samples, fmt(from_send), fmt(from_ack), fmt(delete)))


if __name__ == "__main__":
    main()
