#!/usr/bin/env python3
"""Reads one capacity run (tsung's tsung.dump, the phases mix.py wrote, tsung's own logs) and writes the
per-route, per-phase latency table (markdown), the chart's data file and the capacity lines.

Each dump line is one answered request: "date;pid;id;method;host;URL;status;size;duration ms;transaction;
match;error;tag", the tag "p<phase>.<route>" (mix.py). A request counts as an error when its status is not
2xx or tsung noted an error on it. p50/p99 are nearest-rank percentiles of the answered requests' latency
(from the moment tsung sent it, connection set-up included, to the last byte). The capacity of a route is
the highest target rate at which its p99 stays under the limit with at most 1 % errors, in that phase and
every slower one.

usage: report.py RUN_DIR PHASES_TSV OUT_MD OUT_DAT [--limit-ms 50] [--title TEXT] [--command TEXT]
"""
import argparse
import collections
import glob
import math
import os
import re

ERROR_SHARE = 0.01
FEW_SAMPLES = 100
GROUPS = collections.OrderedDict([
    ("products_page", "browse"), ("categories", "browse"), ("category_products", "browse"), ("related", "browse"),
    ("product", "items"), ("category", "items"), ("user", "items"),
    ("filter", "filters"), ("search", "filters"),
    ("login", "login"),
    ("cart_add", "checkout"), ("order", "checkout"), ("pay", "checkout"),
    ("sb_create", "sandbox writes"), ("sb_update", "sandbox writes"), ("sb_delete", "sandbox writes"),
])
ALL = "all requests"


def percentile(sorted_values, q):
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]


def read_phases(path):
    phases = []
    with open(path) as f:
        next(f)
        for line in f:
            n, rate, visitors, seconds = line.split("\t")
            phases.append({"n": int(n), "rate": float(rate), "visitors": float(visitors), "seconds": float(seconds)})
    return phases


def read_dump(path):
    """{(phase, route): [latencies]}, {(phase, route): errors}, {phase: set(user ids)}, status counts."""
    lat = collections.defaultdict(list)
    errors = collections.Counter()
    users = collections.defaultdict(set)
    statuses = collections.Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split(";")
            if len(fields) < 13:
                continue
            tag, err, status, uid = fields[-1], fields[-2], fields[-7], fields[2]
            m = re.fullmatch(r"p(\d+)\.(\w+)", tag)
            if not m:
                continue
            phase, route = int(m.group(1)), m.group(2)
            ms = float(fields[-5])
            for key in ((phase, route), (phase, ALL)):
                lat[key].append(ms)
                if err or not status.startswith("2"):
                    errors[key] += 1
            users[phase].add(uid)
            statuses[(route, status)] += 1
    for v in lat.values():
        v.sort()
    return lat, errors, users, statuses


def tsung_notes(run_dir):
    """Generator-side warnings (arrivals tsung could not start in time) and its whole-run error counters."""
    notes = []
    for log in glob.glob(os.path.join(run_dir, "tsung_controller*.log")):
        with open(log, errors="replace") as f:
            for line in f:
                if "were not launched in time" in line or "too few file descriptors" in line:
                    notes.append(line.strip().split(") ", 1)[-1])
    counters = {}
    stats = os.path.join(run_dir, "tsung.log")
    if os.path.exists(stats):
        with open(stats) as f:
            for line in f:
                m = re.match(r"stats: (error_\w+) \d+ (\d+)", line)
                if m:
                    counters[m.group(1)] = int(m.group(2))
    return notes, counters


def fmt_ms(v):
    if math.isnan(v):
        return "–"
    return f"{v:.1f}" if v < 100 else f"{v:,.0f}"


def capacity(phases, ok):
    """Highest rate whose phase and every slower one pass; None when the first already fails."""
    best = None
    for p in phases:
        if not ok(p["n"]):
            return best, p
        best = p
    return best, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("phases")
    ap.add_argument("out_md")
    ap.add_argument("out_dat")
    ap.add_argument("--limit-ms", type=float, default=50)
    ap.add_argument("--title", default="Capacity")
    ap.add_argument("--command", default="")
    ap.add_argument("--about", default="")
    args = ap.parse_args()

    phases = [p for p in read_phases(args.phases) if p["n"] > 0]  # phase 0 is the warm-up
    lat, errors, users, statuses = read_dump(os.path.join(args.run_dir, "tsung.dump"))
    notes, counters = tsung_notes(args.run_dir)
    routes = [r for r in GROUPS if any((p["n"], r) in lat for p in phases)]
    limit = args.limit_ms

    def passes(n, route):
        v = lat.get((n, route), [])
        return bool(v) and percentile(v, 0.99) < limit and errors[(n, route)] <= ERROR_SHARE * len(v)

    out = [f"# {args.title}", ""]
    if args.about:
        out += [args.about, ""]
    if args.command:
        out += ["```sh", args.command, "```", ""]

    # Capacity lines first: what the run says, then the evidence.
    cap_all, fail_all = capacity(phases, lambda n: passes(n, ALL))
    cap_every, fail_every = capacity(phases, lambda n: all(passes(n, r) for r in routes if (n, r) in lat))

    def cap_text(cap, fail):
        if cap is None:
            return f"below {phases[0]['rate']:g} requests/s (the slowest phase already fails)"
        text = f"**{cap['rate']:g} requests/s** (achieved {len(lat[(cap['n'], ALL)]) / cap['seconds']:.0f}/s)"
        return text + (f"; {fail['rate']:g}/s fails" if fail else "; the fastest phase still passes: not reached")

    out += [f"Capacity (highest target rate with p99 < {limit:g} ms and ≤ 1 % errors there and at every slower rate):",
            "", f"- all requests pooled: {cap_text(cap_all, fail_all)}",
            f"- every route at once: {cap_text(cap_every, fail_every)}", ""]

    out += ["## Per phase, all requests", "",
            "| target req/s | visitors/s started (target) | req/s answered | p50 ms | p99 ms | max ms | errors |",
            "|---:|---:|---:|---:|---:|---:|---:|"]
    for p in phases:
        v = lat.get((p["n"], ALL), [])
        e = errors[(p["n"], ALL)]
        share = f"{e} ({100 * e / len(v):.1f} %)" if v else "–"
        out.append(
            f"| {p['rate']:g} | {len(users[p['n']]) / p['seconds']:.1f} ({p['visitors']:.1f}) | "
            f"{len(v) / p['seconds']:.1f} | {fmt_ms(percentile(v, 0.5))} | {fmt_ms(percentile(v, 0.99))} | "
            f"{fmt_ms(v[-1] if v else math.nan)} | {share} |")
    out.append("")

    out += ["## Capacity per route", "",
            f"| route | group | capacity (target req/s of the mix) | p99 there, ms | p99 at the next rate, ms |",
            "|---|---|---:|---:|---:|"]
    for r in routes:
        cap, fail = capacity(phases, lambda n, r=r: passes(n, r))
        there = fmt_ms(percentile(lat.get((cap["n"], r), []), 0.99)) if cap else "–"
        nxt = fmt_ms(percentile(lat.get((fail["n"], r), []), 0.99)) if fail else "–"
        if cap is None:
            rate = f"< {phases[0]['rate']:g}"
        elif fail is None:
            rate = f"≥ {cap['rate']:g}"
        else:
            rate = f"{cap['rate']:g}"
        out.append(f"| `{r}` | {GROUPS[r]} | {rate} | {there} | {nxt} |")
    out.append("")

    out += ["## p50 / p99 in ms per route and target rate (errors in brackets)", "",
            "| route | " + " | ".join(f"{p['rate']:g}/s" for p in phases) + " |",
            "|---|" + "---:|" * len(phases)]
    few = False
    for r in routes + [ALL]:
        cells = []
        for p in phases:
            v = lat.get((p["n"], r), [])
            if not v:
                cells.append("–")
                continue
            cell = f"{fmt_ms(percentile(v, 0.5))} / {fmt_ms(percentile(v, 0.99))}"
            if len(v) < FEW_SAMPLES:
                cell += "\\*"
                few = True
            if errors[(p["n"], r)]:
                cell += f" ({errors[(p['n'], r)]})"
            cells.append(cell)
        name = f"`{r}`" if r != ALL else f"**{r}**"
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("")
    if few:
        out += [f"\\* fewer than {FEW_SAMPLES} answers in that phase: the p99 is close to the maximum.", ""]

    bad = sorted((k, c) for k, c in statuses.items() if not k[1].startswith("2"))
    if bad:
        out += ["Non-2xx answers over the whole run: " + ", ".join(f"`{r}` {s} ×{c}" for (r, s), c in bad) + ".", ""]
    if counters:
        out += ["tsung's error counters (whole run, requests that got no answer): "
                + ", ".join(f"{k} {v}" for k, v in sorted(counters.items())) + ".", ""]
    if notes:
        out += ["Load generator warnings (tsung could not start every arrival in time: the achieved arrival rate "
                "above is what the server got):", ""] + [f"- {n}" for n in notes] + [""]

    with open(args.out_md, "w") as f:
        f.write("\n".join(out))

    # The chart's data: x = requests answered per second in the phase; one p99 column per route, then all.
    with open(args.out_dat, "w") as f:
        cols = routes + [ALL]
        f.write("answered_rps\t" + "\t".join(c.replace(" ", "_") for c in cols) + "\n")
        for p in phases:
            v = lat.get((p["n"], ALL), [])
            row = [f"{len(v) / p['seconds']:.1f}"]
            for c in cols:
                vals = lat.get((p["n"], c), [])
                row.append(f"{percentile(vals, 0.99):.2f}" if vals else "NaN")
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
