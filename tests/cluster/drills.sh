#!/usr/bin/env bash
# Fault drills on a real local cluster (deploy/cluster.sh: PostgreSQL 15, 3 storefront instances, HAProxy 2.6;
# no mocks), under load through HAProxy: wrk (2 threads, 64 connections) on five read paths and a writer creating
# products at 10/s with unique titles.
#   tests/cluster/drills.sh [STOREFRONT_BINARY]      (ctest: cluster_drills; about 3 minutes on 2 cores)
#   1. shared state: a login on instance 1 works on 2 and 3 (profile, refresh rotation); a product created on
#      3 is read on 1 and 2
#   2. kill -9 of instance 2 under load: 0 failed reads; every acknowledged write is in the database once;
#      no write is applied twice (titles unique, no 409 from a replayed create)
#   3. rolling restart 1, 2, 3 (SIGTERM: drain, then start, ready, UP in HAProxy) under load: 0 failed reads,
#      0 failed writes
#   4. PostgreSQL stopped for ~6 s under load: every instance's /readyz turns 503, HAProxy answers quickly
#      (max latency of a probe bounded, 503 not a hang), and reads are 200 again within a bound after the start,
#      with no instance restarted
# Prints for each drill: requests sent, failed, p99 and max latency (wrk --latency), write figures.
# Everything runs on 127.0.0.1 with free ports in a temporary directory, and is taken down on exit, failure or
# Ctrl-C. Needs wrk, haproxy, postgresql-15, python3, curl (./deploy/quickstart.sh test installs them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
cluster=$root/deploy/cluster.sh
tool=$here/drill_tool.py
export STOREFRONT_BIN=${1:-${STOREFRONT_BIN:-$root/build/server/storefront}}

for tool_name in wrk haproxy python3 curl psql; do
    command -v "$tool_name" >/dev/null || {
        echo "drills: $tool_name is missing (./deploy/quickstart.sh test installs it)" >&2
        exit 1
    }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/storefront-drills.XXXXXX")
chmod 711 "$work"
export STOREFRONT_CLUSTER_DIR=$work/cluster
read -r -a ports <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
export STOREFRONT_CLUSTER_HTTP_PORT=${ports[0]} STOREFRONT_CLUSTER_HTTPS_PORT=${ports[1]}
export STOREFRONT_CLUSTER_STATS_PORT=${ports[2]}
export STOREFRONT_CLUSTER_INSTANCE_PORTS="${ports[3]} ${ports[4]} ${ports[5]}"
base=http://127.0.0.1:${ports[0]}

bg_pids=()
cleanup() {
    local status=$? p
    trap - EXIT INT TERM
    for p in "${bg_pids[@]}"; do
        kill -TERM "$p" 2>/dev/null || true
    done
    if [ "$status" -ne 0 ] && [ -d "$STOREFRONT_CLUSTER_DIR" ]; then
        for p in "$STOREFRONT_CLUSTER_DIR"/*.log; do
            echo "--- tail of $p" >&2
            tail -n 15 "$p" >&2 || true
        done
    fi
    # STOREFRONT_DRILLS_LOGS=DIR keeps the logs, wrk outputs and write records for a closer look.
    if [ -n "${STOREFRONT_DRILLS_LOGS:-}" ]; then
        mkdir -p "$STOREFRONT_DRILLS_LOGS"
        cp "$work"/*.wrk "$work"/*.writes "$work"/probe "$STOREFRONT_CLUSTER_DIR"/*.log "$STOREFRONT_DRILLS_LOGS"/ 2>/dev/null || true
    fi
    "$cluster" down >/dev/null 2>&1 || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

failures=0
fail() {
    echo "  FAIL $*"
    failures=$((failures + 1))
}

now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$(now)"; }
http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$1" 2>/dev/null || true; }
# Runs CMD every 0.1 s until it succeeds (0) or SECS seconds have passed (1).
wait_for() {
    local secs=$1 end
    shift
    end=$(($(date +%s%N) + secs * 1000000000))
    until "$@"; do
        (($(date +%s%N) < end)) || return 1
        sleep 0.1
    done
}
instance_url() { echo "http://127.0.0.1:${ports[$(($1 + 2))]}"; }
pids() { cat "$STOREFRONT_CLUSTER_DIR"/instance-{1,2,3}.pid; }

# HAProxy's backend counters: retries, redispatches, connection errors, response errors (stats CSV columns).
lb_counters() {
    curl -s --max-time 3 "http://127.0.0.1:${ports[2]}/;csv" |
        awk -F, '$1 == "be_storefront" && $2 == "BACKEND" { print $16, $17, $14, $15 }'
}

# wrk runs up to $2 seconds (SIGINT ends it earlier and it still prints its figures); the writer until stopped.
start_load() {
    local name=$1 seconds=$2
    wrk -t2 -c64 -d"${seconds}s" --timeout 5s --latency -s "$here/reads.lua" "$base" >"$work/$name.wrk" 2>&1 &
    wrk_pid=$!
    python3 "$tool" writer "$base" "drill-$name" 10 "$work/$name.writes" &
    writer_pid=$!
    bg_pids=("$wrk_pid" "$writer_pid")
    read -r -a lb_before <<<"$(lb_counters)"
}

stop_load() {
    [ "${1:-}" = now ] && kill -INT "$wrk_pid" 2>/dev/null
    wait "$wrk_pid" || true
    kill -TERM "$writer_pid" 2>/dev/null || true
    wait "$writer_pid" || true
    bg_pids=()
}

# Prints the drill's figures; $2 = strict: reads and writes must all have succeeded; reads: reads must have.
report() {
    local name=$1 mode=$2 figures failed lb_after
    read -r -a lb_after <<<"$(lb_counters)"
    echo "  HAProxy: retries $((lb_after[0] - lb_before[0])), redispatches $((lb_after[1] - lb_before[1])), " \
        "connection errors $((lb_after[2] - lb_before[2])), response errors $((lb_after[3] - lb_before[3]))"
    figures=$(python3 "$tool" wrk "$work/$name.wrk")
    echo "  reads (wrk -t2 -c64 --latency, 5 paths): $figures"
    failed=-1
    [[ $figures =~ failed=([0-9]+) ]] && failed=${BASH_REMATCH[1]}
    if [[ $figures != requests=[1-9]* ]]; then
        fail "$name: wrk sent no requests"
        cat "$work/$name.wrk"
    fi
    # A request wrk gave up on after 5 s is a hang, failures allowed or not.
    [[ $figures == *" timeouts=0 "* ]] || fail "$name: requests timed out (over 5 s)"
    if [ "$mode" != none ] && [ "$failed" != 0 ]; then
        fail "$name: $failed failed reads"
        cat "$work/$name.wrk"
    fi
    "$cluster" psql -Atc "SELECT title, min(id), count(*) FROM products WHERE title LIKE 'drill-$name-%' GROUP BY title" \
        >"$work/$name.rows"
    local args=()
    [ "$mode" = strict ] && args=(--no-failures)
    if ! python3 "$tool" check-writes "$work/$name.writes" "$work/$name.rows" "${args[@]}" | sed 's/^/  /'; then
        fail "$name: writes"
    fi
}

echo "drills: starting the cluster (PostgreSQL 15, 3 instances, HAProxy) with $STOREFRONT_BIN"
t=$(now)
"$cluster" up | sed 's/^/  /'
echo "  up in $(since "$t") s"

echo "drill 1: tokens and writes shared between instances"
python3 "$tool" tokens "${ports[3]}" "${ports[4]}" "${ports[5]}" | sed 's/^/  /' || fail "shared state"
# TLS is terminated by HAProxy (self-signed certificate, HTTP/2 offered).
tls=$(curl -sk -o /dev/null -w '%{http_code} HTTP/%{http_version}' --max-time 5 "https://127.0.0.1:${ports[1]}/api/v1/categories" || true)
echo "  HTTPS through HAProxy: $tls"
[ "$tls" = "200 HTTP/2" ] || fail "HTTPS frontend: $tls"

echo "drill 2: kill -9 of instance 2 under load (wrk 20 s, the kill at 5 s)"
start_load kill9 20
sleep 5
"$cluster" kill 2 | sed 's/^/  /'
stop_load
report kill9 reads
t=$(now)
"$cluster" start 2 | sed 's/^/  /'
echo "  instance 2 back (ready and UP in HAProxy) $(since "$t") s after its start"

echo "drill 3: rolling restart of instances 1, 2, 3 under load (SIGTERM: /readyz 503, drain, exit; start; ready; UP)"
start_load rolling 150
sleep 3
t=$(now)
for n in 1 2 3; do
    "$cluster" restart "$n" | sed 's/^/  /'
done
echo "  three restarts in $(since "$t") s"
sleep 2
stop_load now
report rolling strict

echo "drill 4: PostgreSQL stopped under load, started again ~6 s later"
pids_before=$(pids)
start_load database 120
python3 "$tool" probe "$base/api/v1/products/1" "$work/probe" &
probe_pid=$!
bg_pids+=("$probe_pid")
sleep 4
t_fault=$(now)
"$cluster" db-stop | sed 's/^/  /'
# Every instance must say it is not ready (bounded), and HAProxy must then answer its own /readyz with 503.
declare -A seen_503=()
all_seen_503() {
    local n
    for n in 1 2 3; do
        [ "$(http_code "$(instance_url "$n")/readyz")" = 503 ] && seen_503[$n]=1
    done
    [ "${#seen_503[@]}" -eq 3 ]
}
wait_for 15 all_seen_503 || fail "database: not every instance reported not ready within 15 s"
echo "  instances answering /readyz 503: ${!seen_503[*]} ($(since "$t_fault") s after the stop)"
lb_code_is() { [ "$(http_code "$base$2")" = "$1" ]; }
wait_for 10 lb_code_is 503 /readyz || fail "database: HAProxy's /readyz still not 503 after 10 s"
echo "  HAProxy /readyz 503 (no instance in the pool) $(since "$t_fault") s after the stop"
sleep 3
t_back=$(now)
"$cluster" db-start | sed 's/^/  /'
if wait_for 30 lb_code_is 200 /api/v1/products/1; then
    echo "  reads through HAProxy 200 again $(since "$t_back") s after the database start"
else
    fail "database: reads did not recover within 30 s of the database start"
fi
all_ready() {
    local n
    for n in 1 2 3; do
        [ "$(http_code "$(instance_url "$n")/readyz")" = 200 ] || return 1
    done
}
wait_for 30 all_ready || fail "database: not every instance ready again within 30 s"
echo "  every instance /readyz 200 again $(since "$t_back") s after the database start"
sleep 3
kill -TERM "$probe_pid"
wait "$probe_pid" || true
stop_load now
probe=$(python3 "$tool" probe-report "$work/probe" "$t_fault" "$t_back")
echo "  probe (sequential GET /api/v1/products/1 every 50 ms) during the outage: $probe"
max_ms=99999
[[ $probe =~ probe_max_ms=([0-9]+) ]] && max_ms=${BASH_REMATCH[1]}
[ "$max_ms" -lt 3000 ] || fail "database: a request took ${max_ms} ms during the outage (a hang, not a quick 503)"
[[ $probe == *'"503":'* ]] || fail "database: the probe never saw a 503 during the outage"
[ "$(pids)" = "$pids_before" ] || fail "database: an instance was restarted"
report database none
"$cluster" status | sed 's/^/  /'

# Behind the load balancer a client revalidates against whichever instance answers: each tag must be the
# same on every instance (locations are tagged from what they hold, the rest from their bytes).
echo "== the same ETag from every instance"
for target in '/api/v1/locations?origin=4.6482784,-74.2726198&size=5&withDistance=true' \
    '/api/v1/locations?origin=0,-140&size=3' '/api/v1/products/1' '/api/v1/categories'; do
    tags=()
    for n in 1 2 3; do
        tags+=("$(curl -s -o /dev/null -D - --max-time 3 "$(instance_url "$n")$target" |
            tr -d '\r' | sed -n 's/^[Ee][Tt][Aa][Gg]: //p')")
    done
    if [ -z "${tags[0]}" ] || [ "${tags[0]}" != "${tags[1]}" ] || [ "${tags[0]}" != "${tags[2]}" ]; then
        fail "etag: $target tagged '${tags[*]}' by instances 1, 2, 3"
    else
        echo "  $target: ${tags[0]} on all three"
    fi
done

if [ "$failures" -ne 0 ]; then
    echo "drills: $failures failure(s)"
    exit 1
fi
echo "drills: all passed"
