#!/usr/bin/env python3
"""Reads one capacity run (tsung's tsung.dump, the phases mix.py wrote, tsung's own logs) and writes the
per-route, per-phase latency table (markdown), the chart's data file and the capacity lines.

Each dump line is one answered request: "date;pid;id;method;host;URL;status;size;duration ms;transaction;
match;error;tag", the tag "p<phase>.<route>" (mix.py). A request counts as an error when its status is not
2xx or tsung noted an error on it. p50/p99 are nearest-rank percentiles of the answered requests' latency
(from the moment tsung sent it, connection set-up included, to the last byte).

The verdict of a route (or a pool of routes) in a phase: p99 under the limit with at most 1 % errors. It needs
MIN_ANSWERS answers in the phase; with fewer the p99 is little more than the maximum, so that phase gives no
verdict (the cell is starred). The capacity is the highest target rate whose phase passes; slower phases that
fail (a disturbance: on a quiet machine there is none) are named beside it, never hidden. Routes whose *median* is over the limit already at the slowest rate are slow by
their own cost (a login's Argon2id verification), not by load: the pooled capacity is also given without them.

usage: report.py RUN_DIR PHASES_TSV OUT_MD OUT_DAT [--limit-ms 50] [--title T] [--about TEXT] [--command CMD]
"""
import argparse
import collections
import glob
import math
import os
import re

ERROR_SHARE = 0.01
MIN_ANSWERS = 100
# route -> group of the mix (bench/capacity/mix.py), in the order the tables list them.
GROUPS = collections.OrderedDict([
    ("products_page", "browse"), ("categories", "browse"), ("category_products", "browse"), ("related", "browse"),
    ("product", "items"), ("category", "items"), ("user", "items"),
    ("filter", "filters and search"), ("search", "filters and search"),
    ("login", "login"),
    ("cart_add", "cart and checkout"), ("order", "cart and checkout"), ("pay", "cart and checkout"),
    ("sb_create", "sandbox writes"), ("sb_update", "sandbox writes"), ("sb_delete", "sandbox writes"),
])
ALL = "all requests"
REST = "all but the slow routes"


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
            n, rate, visitors, seconds = line.rstrip("\n").split("\t")
            phases.append({"n": int(n), "rate": float(rate), "visitors": float(visitors), "seconds": float(seconds)})
    return phases


def read_dump(path):
    """Latencies per (phase, route), errors per (phase, route), visitor ids per phase, (route, status) counts."""
    lat = collections.defaultdict(list)
    errors = collections.Counter()
    visitors = collections.defaultdict(set)
    statuses = collections.Counter()
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("#"):
                continue
            fields = line.rstrip("\n").split(";")
            if len(fields) < 13:
                continue
            # Counted from the end: a URL could hold a ";".
            tag, err, status, visitor = fields[-1], fields[-2], fields[-7], fields[2]
            m = re.fullmatch(r"p(\d+)\.(\w+)", tag)
            if not m:
                continue
            phase, route = int(m.group(1)), m.group(2)
            lat[(phase, route)].append(float(fields[-5]))
            if err or not status.startswith("2"):
                errors[(phase, route)] += 1
            visitors[phase].add(visitor)
            statuses[(route, status)] += 1
    return lat, errors, visitors, statuses


def pool(lat, errors, phases, name, routes):
    for p in phases:
        values = [x for r in routes for x in lat.get((p["n"], r), [])]
        if values:
            lat[(p["n"], name)] = values
            errors[(p["n"], name)] = sum(errors[(p["n"], r)] for r in routes)


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


def capacity(phases, verdict):
    """(the fastest phase that passes, the next faster phase that fails, the slower phases that fail), from
    verdict(n): True, False, or None (no verdict: skipped). A slower phase that fails below a passing one is
    a disturbance (another process on the machine, a checkpoint): named, not hidden."""
    judged = [(p, verdict(p["n"])) for p in phases]
    judged = [(p, v) for p, v in judged if v is not None]
    passing = [i for i, (_, v) in enumerate(judged) if v]
    if not passing:
        return None, (judged[0][0] if judged else None), []
    best = passing[-1]
    after = judged[best + 1][0] if best + 1 < len(judged) else None
    return judged[best][0], after, [p for p, v in judged[:best] if not v]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("run_dir")
    ap.add_argument("phases")
    ap.add_argument("out_md")
    ap.add_argument("out_dat")
    ap.add_argument("--limit-ms", type=float, default=50)
    ap.add_argument("--title", default="Capacity")
    ap.add_argument("--about", default="")
    ap.add_argument("--command", default="")
    args = ap.parse_args()
    limit = args.limit_ms

    phases = [p for p in read_phases(args.phases) if p["n"] > 0]  # phase 0 is the warm-up
    lat, errors, visitors, statuses = read_dump(os.path.join(args.run_dir, "tsung.dump"))
    notes, counters = tsung_notes(args.run_dir)
    routes = [r for r in GROUPS if any((p["n"], r) in lat for p in phases)]
    groups = list(dict.fromkeys(GROUPS[r] for r in routes))

    slow = []
    for r in routes:
        first = next(p for p in phases if lat.get((p["n"], r)))
        if percentile(sorted(lat[(first["n"], r)]), 0.5) >= limit:
            slow.append((r, first))
    slow_routes = [r for r, _ in slow]
    pool(lat, errors, phases, ALL, routes)
    pool(lat, errors, phases, REST, [r for r in routes if r not in slow_routes])
    for g in groups:
        pool(lat, errors, phases, g, [r for r in routes if GROUPS[r] == g])
    for v in lat.values():
        v.sort()

    def answers(n, key):
        return len(lat.get((n, key), []))

    def verdict(n, key):
        v = lat.get((n, key), [])
        if len(v) < MIN_ANSWERS:
            return None
        return percentile(v, 0.99) < limit and errors[(n, key)] <= ERROR_SHARE * len(v)

    def p99(p, key):
        return fmt_ms(percentile(lat.get((p["n"], key), []), 0.99)) if p else "–"

    def disturbed(below, key):
        return ", ".join(f"{p['rate']:g}/s (p99 {p99(p, key)} ms)" for p in below)

    def cap_text(key):
        cap, fail, below = capacity(phases, lambda n: verdict(n, key))
        if cap is None:
            return f"below {fail['rate']:g} requests/s (no phase passes)" if fail else "no verdict"
        text = f"**{cap['rate']:g} requests/s** (answered {answers(cap['n'], ALL) / cap['seconds']:.0f}/s, p99 {p99(cap, key)} ms)"
        text += f"; at {fail['rate']:g}/s p99 {p99(fail, key)} ms" if fail else "; not reached: the fastest phase passes"
        return text + (f"; slower phases over the limit: {disturbed(below, key)}" if below else "")

    def cap_cell(key):
        cap, fail, below = capacity(phases, lambda n: verdict(n, key))
        if cap is None:
            return (f"< {fail['rate']:g}" if fail else "no verdict"), "–", p99(fail, key), "–"
        rate = f"≥ {cap['rate']:g}" if fail is None else f"{cap['rate']:g}"
        return rate, p99(cap, key), p99(fail, key), disturbed(below, key) or "–"

    out = [f"# {args.title}", ""]
    if args.about:
        out += [args.about, ""]
    if args.command:
        out += ["```sh", args.command, "```", ""]

    out += [f"**Capacity**: the highest target rate of the mix whose phase has p99 < {limit:g} ms with ≤ 1 % "
            f"errors (a verdict needs {MIN_ANSWERS} answers in the phase; a slower phase over the limit is named):",
            "",
            f"- all requests pooled: {cap_text(ALL)}"]
    if slow:
        named = ", ".join(f"`{r}` (p50 {fmt_ms(percentile(lat[(p['n'], r)], 0.5))} ms at {p['rate']:g}/s)"
                          for r, p in slow)
        out.append(f"- all requests but the routes whose median is over the limit at the slowest rate, {named}: "
                   f"{cap_text(REST)}")
    out.append("")

    out += ["## Per phase, all requests", "",
            "| target req/s | visitors/s started (target) | req/s answered | p50 ms | p99 ms | max ms | errors |",
            "|---:|---:|---:|---:|---:|---:|---:|"]
    for p in phases:
        v = lat.get((p["n"], ALL), [])
        e = errors[(p["n"], ALL)]
        share = f"{e} ({100 * e / len(v):.1f} %)" if v else "–"
        out.append(
            f"| {p['rate']:g} | {len(visitors[p['n']]) / p['seconds']:.1f} ({p['visitors']:.1f}) | "
            f"{len(v) / p['seconds']:.1f} | {fmt_ms(percentile(v, 0.5))} | {fmt_ms(percentile(v, 0.99))} | "
            f"{fmt_ms(v[-1] if v else math.nan)} | {share} |")
    out.append("")

    out += ["## Capacity per group of the mix and per route", "",
            "| group / route | capacity (target req/s of the mix) | p99 there, ms | p99 at the next rate, ms "
            "| slower rates over the limit |",
            "|---|---:|---:|---:|---|"]
    for g in groups:
        out.append(f"| **{g}** | " + " | ".join(cap_cell(g)) + " |")
        for r in routes:
            if GROUPS[r] == g:
                out.append(f"| &nbsp;&nbsp;`{r}` | " + " | ".join(cap_cell(r)) + " |")
    out.append("")

    rows = routes + ([REST] if slow else []) + [ALL]
    out += ["## p50 / p99 in ms per route and target rate (errors in brackets)", "",
            "| route | " + " | ".join(f"{p['rate']:g}/s" for p in phases) + " |",
            "|---|" + "---:|" * len(phases)]
    starred = False
    for r in rows:
        cells = []
        for p in phases:
            v = lat.get((p["n"], r), [])
            if not v:
                cells.append("–")
                continue
            cell = f"{fmt_ms(percentile(v, 0.5))} / {fmt_ms(percentile(v, 0.99))}"
            if len(v) < MIN_ANSWERS:
                cell += "\\*"
                starred = True
            if errors[(p["n"], r)]:
                cell += f" ({errors[(p['n'], r)]})"
            cells.append(cell)
        out.append(f"| {f'`{r}`' if r in GROUPS else f'**{r}**'} | " + " | ".join(cells) + " |")
    out.append("")
    if starred:
        out += [f"\\* fewer than {MIN_ANSWERS} answers in that phase: no verdict (the p99 is close to the maximum).",
                ""]

    bad = sorted((k, c) for k, c in statuses.items() if not k[1].startswith("2"))
    if bad:
        out += ["Non-2xx answers over the whole run: " + ", ".join(f"`{r}` {s} ×{c}" for (r, s), c in bad) + ".", ""]
    if counters:
        out += ["tsung's error counters over the whole run: "
                + ", ".join(f"{k} {v}" for k, v in sorted(counters.items())) + ".", ""]
    if notes:
        out += ["Load generator warnings (tsung could not start every arrival on time; the visitors/s started "
                "above is what the cluster got):", ""] + [f"- {n}" for n in notes] + [""]

    with open(args.out_md, "w") as f:
        f.write("\n".join(out))

    # The chart's data: x = requests answered per second in the phase; one p99 column per route and pool,
    # NaN (a gap in the chart) where the phase has no verdict for it.
    with open(args.out_dat, "w") as f:
        f.write("answered_rps\t" + "\t".join(c.replace(" ", "_") for c in rows) + "\n")
        for p in phases:
            row = [f"{answers(p['n'], ALL) / p['seconds']:.1f}"]
            for c in rows:
                vals = lat.get((p["n"], c), [])
                row.append(f"{percentile(vals, 0.99):.2f}" if len(vals) >= MIN_ANSWERS else "NaN")
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
