#!/usr/bin/env bash
# Group commit benchmark (issue 21): durable product creates per second on SQLite (synchronous=FULL) with
# --connections (64) concurrent writers through the real server, against a plain loop of one-row
# transactions on the same database file at the same durability (sqlite3 CLI: BEGIN IMMEDIATE; INSERT;
# COMMIT), and one writer's latency. With --before-bin PATH (a build without group commit, e.g. main's),
# the same server runs use that binary too. Median of --rounds (7) alternating rounds with min–max;
# loopback only; stops everything it started. Prints a markdown table.
#
#   bench/run_group_commit.sh [--before-bin PATH] [--storage-threads N] [--threads N] [--duration SECONDS]
#                             [--connections N] [--rounds N] [--build-dir DIR] [--server-bin PATH]
#                             [--no-build] [--no-install]
#
# Each round, on a fresh file: the server with --connections writers (wrk -c, bench/load/write.lua product),
# then with one writer (wrk -c1), stopped; then the sqlite3 loop on that same file for --duration seconds
# (rows committed ÷ time). --storage-threads (64, the server's default is 4) bounds the storage calls that
# run at once, so the writes a commit can share.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
before_bin=""
storage_threads=64
# This script's flags besides the common ones (bench_flags in bench/lib/common.sh).
own_flag() {
    took=2
    case $1 in
        --before-bin) before_bin=$2 ;;
        --storage-threads) storage_threads=$2 ;;
        *) took=0 ;;
    esac
}
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
small_bench_setup run_group_commit '2,16p' - "$@"
[[ -z $before_bin || -x $before_bin ]] || { echo "no $before_bin" >&2; exit 1; }
install_tools sqlite3:sqlite3
make_work storefront-group-commit
server_flags=(--generated-locations 1000 --storage-threads "$storage_threads")

# The loop's input: one-row transactions, more than --duration seconds can commit (it is stopped by time).
loop_sql=$work/loop.sql
{
    echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
    echo "CREATE TABLE IF NOT EXISTS bench_loop (id INTEGER PRIMARY KEY, title TEXT NOT NULL);"
    awk 'BEGIN { for (i = 1; i <= 400000; i++) printf "BEGIN IMMEDIATE; INSERT INTO bench_loop (title) VALUES (\x27Loop %d\x27); COMMIT;\n", i }'
} >"$loop_sql"

# sqlite_loop NAME FILE: the loop on FILE for $duration s; appends a RESULT-like row (created, duration_us).
sqlite_loop() {
    local rows
    sqlite3 "$2" "DROP TABLE IF EXISTS bench_loop;" >/dev/null
    timed_sqlite_loop "$2" "$loop_sql"
    rows=$(sqlite3 "$2" "SELECT count(*) FROM bench_loop")
    echo "$1 requests=$rows duration_us=$loop_us p50_us=0 p99_us=0 non2xx=0 created=$rows" >>"$work/results"
    log "$1 created=$rows in $((loop_us / 1000)) ms"
}

# server_runs LABEL BIN FILE: the concurrent and the single-writer run of BIN on a fresh FILE.
server_runs() {
    local saved=$server_bin
    server_bin=$2
    rm -f "$3" "$3-wal" "$3-shm"
    start_server --storage "sqlite:$3" "${server_flags[@]}"
    wrk_run "sf|$1: $connections writers" "http://127.0.0.1:$server_port" "$connections" "$wrk_threads" \
        write: product "$(date +%s%N)"
    wrk_run "sf|$1: 1 writer" "http://127.0.0.1:$server_port" 1 1 write: product "$(date +%s%N)"
    stop_server
    server_bin=$saved
}

for r in $(seq 1 "$rounds"); do
    log "round $r of $rounds"
    server_runs "group commit" "$server_bin" "$work/after.db"
    sqlite_loop "sqlite3 loop" "$work/after.db"
    if [[ -n $before_bin ]]; then
        server_runs "before" "$before_bin" "$work/before.db"
    fi
done

# --- report ------------------------------------------------------------------------------------------
loop=$(created_per_s "sqlite3 loop")
line() {
    local row rate
    row=$(row_of "sf|$1" created)
    rate=$(created_per_s "sf|$1")
    echo "| $1 | $rate | $(created_per_s_range "sf|$1") | $(awk -v a="$rate" -v b="$loop" 'BEGIN {printf "%.2f", a / b}')× |" \
        "$(fmt_ms "$(field "$row" p50_us)") / $(fmt_ms "$(field "$row" p99_us)") | $(field "$row" non2xx) |"
}
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?') on SQLite (a file in" \
    "$(df --output=source /tmp | tail -1), $(stat -f -c %T /tmp), synchronous=FULL), --threads $threads" \
    "--storage-threads $storage_threads; wrk -t$wrk_threads -d${duration}s, bench/load/write.lua product (open" \
    "write policy); median of $rounds alternating rounds (min–max); $(nproc) cores; uptime: $(uptime)"
echo
echo "| run | creates/s | min–max | ÷ sqlite3 loop | p50 / p99 ms | non-2xx |"
echo "|---|---:|---:|---:|---:|---:|"
echo "| sqlite3 loop: BEGIN IMMEDIATE; INSERT one row; COMMIT | $loop | $(created_per_s_range "sqlite3 loop") | 1.00× | – | – |"
line "group commit: $connections writers"
[[ -z $before_bin ]] || line "before: $connections writers"
line "group commit: 1 writer"
[[ -z $before_bin ]] || line "before: 1 writer"
}
