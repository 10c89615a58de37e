#!/usr/bin/env python3
"""CPU used over a window, split by who used it (bench/run_reader_writer_split.sh).

Sampling: cpu_split.py --label L --seconds S --server PID --reader PID [--writer PID]
  reads /proc/stat, /proc/PID/stat and each server thread's /proc/PID/task/TID/{stat,comm} at the start and
  after S seconds, and prints one line: "cores: sf-io:P/0=0.95 sf-write/0=0.21 ... reader=0.61 writer=0.08
  rest=0.12 idle=0.03" (CPU seconds per second of window; `rest` is every busy tick of the machine not
  counted to the server or the two clients: kernel threads such as jbd2 and kworkers, interrupts, others).
Medians:  cpu_split.py --medians FILE   (FILE: the lines above, each prefixed "alone rps=N " or "writer ...")
"""

import argparse
import os
import re
import statistics
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def busy_and_idle():
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return sum(fields[:8]) - idle, idle  # user..steal


def ticks(stat_path):
    try:
        text = open(stat_path).read()
    except OSError:
        return 0
    after_name = text[text.rindex(")") + 2:].split()
    return int(after_name[11]) + int(after_name[12])  # utime, stime


def thread_ticks(pid):
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            name = open(f"/proc/{pid}/task/{tid}/comm").read().strip()
        except OSError:
            continue
        out[name] = out.get(name, 0) + ticks(f"/proc/{pid}/task/{tid}/stat")
    return out


def sample(args):
    def snapshot():
        return (busy_and_idle(), thread_ticks(args.server), ticks(f"/proc/{args.reader}/stat"),
                ticks(f"/proc/{args.writer}/stat") if args.writer else 0)

    time.sleep(0.5)  # past the clients' start
    before = snapshot()
    started = time.monotonic()
    time.sleep(args.seconds)
    after = snapshot()
    elapsed = time.monotonic() - started
    per_second = TICK * elapsed
    (busy0, idle0), threads0, reader0, writer0 = before
    (busy1, idle1), threads1, reader1, writer1 = after
    parts = {}
    for name, t in sorted(threads1.items()):
        parts[name] = (t - threads0.get(name, 0)) / per_second
    parts["reader"] = (reader1 - reader0) / per_second
    parts["writer"] = (writer1 - writer0) / per_second
    parts["rest"] = max(0.0, (busy1 - busy0) / per_second - sum(parts.values()))
    parts["idle"] = (idle1 - idle0) / per_second
    print("cores: " + " ".join(f"{k}={v:.2f}" for k, v in parts.items()))


def medians(path):
    by_phase = {}
    for line in open(path):
        m = re.match(r"(\S+) rps=([\d.]+) cores: (.*)", line)
        if not m:
            continue
        phase = by_phase.setdefault(m[1], {"rps": []})
        phase["rps"].append(float(m[2]))
        for part in m[3].split():
            key, value = part.split("=")
            phase.setdefault(key, []).append(float(value))
    rps = {phase: values.pop("rps") for phase, values in by_phase.items()}
    for phase, values in by_phase.items():
        cells = [f"rps={statistics.median(rps[phase]):.0f}"]
        cells += [f"{k}={statistics.median(v):.2f}" for k, v in values.items()]
        print(f"median {phase}: " + " ".join(cells))
    if "alone" in rps and "writer" in rps:
        ratios = [w / a for a, w in zip(rps["alone"], rps["writer"])]
        print(f"page under the writer / alone, median of rounds: {statistics.median(ratios):.2f} "
              f"({min(ratios):.2f}-{max(ratios):.2f})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--label")
    parser.add_argument("--seconds", type=float, default=3)
    parser.add_argument("--server", type=int)
    parser.add_argument("--reader", type=int)
    parser.add_argument("--writer", type=int)
    parser.add_argument("--medians")
    args = parser.parse_args()
    if args.medians:
        medians(args.medians)
    else:
        sample(args)


if __name__ == "__main__":
    sys.exit(main())
