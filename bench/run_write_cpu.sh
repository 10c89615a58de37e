#!/usr/bin/env bash
# CPU time per durable write by thread (issue 46 goal 3), where instruction counts (run_write_instructions.sh)
# do not tell time: one wrk -c1 client creates and deletes products (bench/load/write.lua churn) for SECONDS
# against storefront on SQLite (a fresh file per round), --threads 1, --write-policy open; the time the write
# lane (sf-write/0) and the I/O thread spent on a CPU (their /proc schedstat, nanoseconds) divided by the
# writes answered 2xx. With two builds, ROUNDS alternating rounds (before, after, before, ...); prints one line
# per round, then each build's median with min–max.
#   bench/run_write_cpu.sh [--rounds 7] [--seconds 5] BIN [BIN2]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=7 seconds=5
while [[ $# -gt 0 && $1 == --* ]]; do
    case $1 in
        --rounds) rounds=$2; shift 2 ;;
        --seconds) seconds=$2; shift 2 ;;
        *) echo "usage: $0 [--rounds N] [--seconds S] BIN [BIN2]" >&2; exit 2 ;;
    esac
done
[[ $# -ge 1 ]] || { echo "usage: $0 [--rounds N] [--seconds S] BIN [BIN2]" >&2; exit 2; }
bins=("$@")
for b in "${bins[@]}"; do [[ -x $b ]] || { echo "run_write_cpu: not an executable: $b" >&2; exit 2; }; done

# shellcheck source=bench/lib/common.sh
source "$root/bench/lib/common.sh"
log_tag=run_write_cpu
make_work storefront-write-cpu
threads=1
STOREFRONT_ACCESS_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
STOREFRONT_REFRESH_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export STOREFRONT_ACCESS_SECRET STOREFRONT_REFRESH_SECRET

# on_cpu_ns THREAD_NAME: nanoseconds that thread of the server ran.
on_cpu_ns() {
    local t
    for t in /proc/"$server_pid"/task/*; do
        [[ $(cat "$t/comm") == "$1" ]] && { awk '{print $1}' "$t/schedstat"; return; }
    done
    echo "run_write_cpu: no thread $1" >&2
    exit 1
}

# one_round LABEL BIN: a line "LABEL writes=N write_lane_us=.. io_us=.." (µs of CPU per write).
one_round() {
    local db="$work/round.db"
    rm -f "$db"*
    server_bin=$2
    start_server --storage "sqlite:$db" --write-policy open
    local lane0 io0 lane1 io1 writes
    lane0=$(on_cpu_ns sf-write/0)
    io0=$(on_cpu_ns "sf-io:$server_port/0")
    wrk -t1 -c1 -d"${seconds}s" -s "$root/bench/load/write.lua" "http://127.0.0.1:$server_port/api/v1/products" \
        -- churn "cpu$RANDOM" >"$work/wrk.out" 2>&1
    lane1=$(on_cpu_ns sf-write/0)
    io1=$(on_cpu_ns "sf-io:$server_port/0")
    writes=$(grep -o 'created=[0-9]*' "$work/wrk.out" | head -1 | cut -d= -f2)
    ((writes > 0)) || { cat "$work/wrk.out" >&2; exit 1; }
    echo "$1 writes=$writes write_lane_us=$(((lane1 - lane0) / 1000 / writes)) io_us=$(((io1 - io0) / 1000 / writes))"
    stop_server
}

: >"$work/rounds"
for _ in $(seq 1 "$rounds"); do
    for i in "${!bins[@]}"; do
        one_round "build$((i + 1))" "${bins[$i]}" >>"$work/rounds"
        tail -n 1 "$work/rounds"
    done
done

# median (min–max) of KEY for LABEL
summary() {
    grep "^$1 " "$work/rounds" | grep -o "$2=[0-9]*" | cut -d= -f2 | sort -n |
        awk '{ v[NR] = $1 } END { printf "%d (%d–%d)", v[int((NR + 1) / 2)], v[1], v[NR] }'
}
for i in "${!bins[@]}"; do
    echo "build$((i + 1)) ${bins[$i]}: µs of CPU per write, write lane $(summary "build$((i + 1))" write_lane_us)," \
        "I/O thread $(summary "build$((i + 1))" io_us)"
done
