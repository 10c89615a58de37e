#!/usr/bin/env bash
# Group commit on PostgreSQL (issue 21): durable creates/s of 64 concurrent writers through the server
# (PostgreSQL shares WAL flushes between the pool's concurrent commits) against plain one-row transactions.
# In a throw-away PostgreSQL 15 cluster (tests/pg/with_pg_cluster.sh, fsync on, synchronous_commit on),
# --rounds (5) rounds of:
#   - pgbench -T 3, one-row transactions, with and without pg_notify (every pg write NOTIFYs), -c1 and -c64;
#   - 64 writers through the server (wrk -c64, bench/load/write.lua product) with the default pool and
#     storage threads (4/4) and with 64/64, each on a fresh database; with --before-bin, that build too
#     (pool 4/4), alternating.
# Prints one line per round; see RESULTS.md.
#
#   bench/run_group_commit_pg.sh [--server-bin PATH] [--before-bin PATH] [--rounds N]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
server_bin=$repo/build/server/storefront
before_bin=""
rounds=5
while [[ $# -gt 0 ]]; do
    case $1 in
        --server-bin) server_bin=$(realpath "$2"); shift 2 ;;
        --before-bin) before_bin=$(realpath "$2"); shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
[[ -x $server_bin ]] || { echo "no $server_bin (build the storefront target first)" >&2; exit 1; }
if [[ -z ${TEST_PG_DSN:-} ]]; then
    TEST_PG_FSYNC=on exec "$repo/tests/pg/with_pg_cluster.sh" "$0" --server-bin "$server_bin" --rounds "$rounds" \
        ${before_bin:+--before-bin "$before_bin"}
fi
pgbench=/usr/lib/postgresql/15/bin/pgbench
work=$(mktemp -d /tmp/storefront-group-commit-pg.XXXXXX)
chmod 755 "$work"
server_pid=""
trap '[[ -z $server_pid ]] || kill "$server_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
printf 'BEGIN;\nINSERT INTO t (title) VALUES (%s);\nCOMMIT;\n' "'x'" >"$work/plain.sql"
printf 'BEGIN;\nINSERT INTO t (title) VALUES (%s);\nSELECT pg_notify(%s, %s);\nCOMMIT;\n' "'x'" "'catalogue'" "''" \
    >"$work/notify.sql"
chmod 644 "$work"/*.sql
psql -q "$TEST_PG_DSN" -c "CREATE TABLE t (id bigserial PRIMARY KEY, title text NOT NULL)"
echo "PostgreSQL $(psql -Atq "$TEST_PG_DSN" -c "SELECT current_setting('server_version') || ', fsync ' ||
    current_setting('fsync') || ', synchronous_commit ' || current_setting('synchronous_commit')"); $(nproc) cores"

tps() { "$pgbench" -n -f "$work/$1.sql" -c "$2" -j 2 -T 3 "$TEST_PG_DSN" 2>&1 | sed -n 's/^tps = \([0-9.]*\).*/\1/p'; }
# server_run NAME POOL THREADS [BIN]: created/s of 64 writers for 3 s on a fresh database NAME (runs in a
# subshell); BIN defaults to --server-bin.
server_run() {
    local n=$1 bin=${4:-$server_bin}
    shift
    psql -q "$TEST_PG_DSN" -c "CREATE DATABASE group_commit_$n"
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "$bin" --address 127.0.0.1 --port "$port" --threads 1 --access-log false --generated-locations 1000 \
        --storage "${TEST_PG_DSN%/*}/group_commit_$n" --storage-pool "$1" --storage-threads "$2" \
        >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
    wrk -t1 -c64 -d3s --timeout 5s -s "$repo/bench/load/write.lua" "http://127.0.0.1:$port" -- product "r$n" |
        sed -n 's/.*duration_us=\([0-9]*\).* created=\([0-9]*\).*/\2 \1/p' | awk '{printf "%.0f", $1 / $2 * 1e6}'
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
for r in $(seq 1 "$rounds"); do
    echo "round $r: pgbench tps plain -c1 $(tps plain 1) -c64 $(tps plain 64);" \
        "with pg_notify -c1 $(tps notify 1) -c64 $(tps notify 64);" \
        "server 64 writers creates/s pool 4/4 $(server_run "${r}_4" 4 4), pool 64/64 $(server_run "${r}_64" 64 64)" \
        "${before_bin:+; before pool 4/4 $(server_run "${r}_b" 4 4 "$before_bin")}"
done
