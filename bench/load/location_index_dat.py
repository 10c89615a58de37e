#!/usr/bin/env python3
"""Google Benchmark JSON of the location micro benchmarks -> one tab-separated row per number of points.

    location_index_dat.py location_index.json > location_index.dat

Columns: n, then CPU µs per query of BM_kd_nearest5, BM_brute_nearest5, BM_kd_nearest5_within100km,
BM_kd_within100km, BM_brute_within100km (bench/charts/location_index.gp reads them). JSON, not CSV: Google
Benchmark 1.7's CSV reporter aborts when only some benchmarks have a counter ("found").
"""
import json
import sys

COLUMNS = ["BM_kd_nearest5", "BM_brute_nearest5", "BM_kd_nearest5_within100km", "BM_kd_within100km",
           "BM_brute_within100km"]
TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}

times = {}
for run in json.load(open(sys.argv[1]))["benchmarks"]:
    if run.get("run_type", "iteration") != "iteration":
        continue
    name, n = run["name"].split("/")[:2]
    times[(name, int(n))] = run["cpu_time"] * TO_US[run["time_unit"]]

print("# n\t" + "\t".join(c[3:] + "_us" for c in COLUMNS))
for n in sorted({n for _, n in times}):
    print("%d\t%s" % (n, "\t".join("%.4f" % times.get((c, n), float("nan")) for c in COLUMNS)))
