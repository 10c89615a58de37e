#!/usr/bin/env bash
# Where the CPU goes when one client writes while 64 read (issue 46 goal 3, "the page under one writer"):
# storefront on SQLite (temp dir), --threads 1, --write-policy open; each round runs the products page alone
# (wrk -t1 -c64) and then the page while one client creates and deletes products (wrk -t1 -c1,
# bench/load/write.lua churn), samples the CPU of DURATION seconds of each phase: each storefront
# thread by its name (sf-io:PORT/0, sf-write/0, ...), the reading wrk, the writing wrk, and the rest of the
# machine (kernel threads such as jbd2 and kworkers, interrupts, other processes), in cores (CPU seconds per
# second; the machine has `nproc`). Prints one line per phase and round, then the medians.
#   bench/run_reader_writer_split.sh --server-bin B [--rounds 7] [--duration 4]
set -euo pipefail

bin="" rounds=7 duration=4
while [ $# -gt 0 ]; do
    case $1 in
        --server-bin) bin=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        *) echo "usage: $0 --server-bin B [--rounds N] [--duration S]" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "run_reader_writer_split: --server-bin is not an executable: '$bin'" >&2; exit 2; }
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    pkill -f "wrk .*127.0.0.1:$port/" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" --address 127.0.0.1 --port "$port" --threads 1 --storage "sqlite:$work/store.db" --write-policy open \
    >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 200); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/api/v1/categories" && break
    sleep 0.1
done
page="http://127.0.0.1:$port/api/v1/products?offset=0&limit=10"

# One phase: the reader (and with `writer`, the churning writer) for DURATION seconds, CPU sampled over the
# middle of it by bench/lib/cpu_split.py, which prints the phase's line.
phase() {
    local label=$1 writer_pid="" reader_pid
    if [ "$label" = writer ]; then
        wrk -t1 -c1 -d"$((duration + 5))s" -s "$root/bench/load/write.lua" "http://127.0.0.1:$port/api/v1/products" \
            -- churn "split$RANDOM" >"$work/writer.out" 2>&1 &
        writer_pid=$!
        sleep 0.5
    fi
    # The clients outlive the sample by seconds: a client that has exited is gone from /proc.
    wrk -t1 -c64 -d"$((duration + 3))s" "$page" >"$work/reader.out" 2>&1 &
    reader_pid=$!
    python3 "$root/bench/lib/cpu_split.py" --label "$label" --seconds "$duration" \
        --server "$server_pid" --reader "$reader_pid" ${writer_pid:+--writer "$writer_pid"} >>"$work/split.txt"
    wait "$reader_pid"
    [ -n "$writer_pid" ] && wait "$writer_pid"
    echo "$label rps=$(awk '/Requests\/sec/{print $2}' "$work/reader.out") $(tail -n 1 "$work/split.txt")"
}

curl -sf -o /dev/null "$page"
for _ in $(seq "$rounds"); do
    phase alone | tee -a "$work/rounds.txt"
    phase writer | tee -a "$work/rounds.txt"
done
python3 "$root/bench/lib/cpu_split.py" --medians "$work/rounds.txt"
