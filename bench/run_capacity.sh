#!/usr/bin/env bash
# Capacity of the production shape (issue 46 goal 5): HAProxy 2.6 in front of three storefront instances on one
# throw-away PostgreSQL 15 (started by deploy/cluster.sh, unchanged), under a realistic request mix driven by
# tsung at fixed arrival rates (open loop: new visitors arrive on time whatever the latency of earlier ones,
# so coordinated omission cannot hide latency, as it does with wrk's closed loop). Per route and per rate:
# requests answered per second, p50, p99 and errors; the highest rate at which p99 stays under --limit-ms
# (50 ms); a markdown table and a gnuplot chart. Loopback only; bounded in time; stops everything it started.
#
#   bench/run_capacity.sh [--rates R1,R2,...] [--phase-seconds S] [--warmup-seconds S] [--smoke]
#                         [--users N] [--products N] [--sandboxes N] [--limit-ms MS] [--results-dir DIR]
#                         [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install] [--keep DIR]
#
# The mix (share of all requests; bench/capacity/mix.py holds it as data): browse pages 60 % (products
# pages 35, categories 10, a category's products 10, related 5), items 15 % (product 10, category 3, user 2),
# filters and search 10 % (6 + 4), login 3 %, cart and checkout 8 % (add to cart → order → pay with
# 4242424242424242, one visit), catalogue writes in sandboxes 4 % (create → update → delete a product, one
# visit). Rates are target requests per second of that mix; each rate is one tsung arrival phase of
# --phase-seconds, after a --warmup-seconds phase at the first rate that is not reported.
# Defaults: --rates 50,100,150,200,250,300,350,400 --phase-seconds 40 --warmup-seconds 10 (5.5 minutes of
# load, about 8 in all with 200 buyers' registrations first).
# --smoke: --rates 10,20 --phase-seconds 10 --warmup-seconds 3 --users 20, results in BUILD_DIR/capacity-smoke
# unless --results-dir is given (a minute or two, to check that everything works). --keep DIR keeps tsung's
# logs and dump, the generated scenario and the prepared data.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rates=50,100,150,200,250,300,350,400
phase_seconds=40
warmup_seconds=10
users=200
products=20
sandboxes=6
limit_ms=50
results_dir=""
build_dir=$repo/build-bench
server_bin=""
do_build=1
do_install=1
keep_dir=""
smoke=0

usage() { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
    case $1 in
        --rates) rates=$2; shift ;;
        --phase-seconds) phase_seconds=$2; shift ;;
        --warmup-seconds) warmup_seconds=$2; shift ;;
        --users) users=$2; shift ;;
        --products) products=$2; shift ;;
        --sandboxes) sandboxes=$2; shift ;;
        --limit-ms) limit_ms=$2; shift ;;
        --results-dir) results_dir=$2; shift ;;
        --build-dir) build_dir=$2; shift ;;
        --server-bin) server_bin=$2; shift ;;
        --no-build) do_build=0 ;;
        --no-install) do_install=0 ;;
        --keep) keep_dir=$2; shift ;;
        --smoke)
            smoke=1
            rates=10,20
            phase_seconds=10
            warmup_seconds=3
            users=20
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "run_capacity: unknown argument $1 (--help lists them)" >&2; exit 2 ;;
    esac
    shift
done
[[ $rates =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]] || { echo "--rates wants numbers like 25,50,100" >&2; exit 2; }

# shellcheck disable=SC2034  # read by common.sh's log
log_tag=run_capacity
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"  # log, install_tools, build_as_shipped, require_bin

if [[ $do_install == 1 ]]; then
    install_tools tsung:tsung haproxy:haproxy /usr/lib/postgresql/15/bin/initdb:postgresql-15 gnuplot:gnuplot-nox \
        python3:python3 curl:curl openssl:openssl
fi
[[ -n $server_bin ]] || {
    [[ $do_build == 0 ]] || build_as_shipped "$build_dir" 0 storefront
    server_bin=$build_dir/server/storefront
}
require_bin "$server_bin"
server_bin=$(realpath "$server_bin")

work=$(mktemp -d "${TMPDIR:-/tmp}/storefront-capacity.XXXXXX")
chmod 711 "$work"  # cluster.sh's PostgreSQL owner (postgres when run as root) must reach its directory
if [[ -z $results_dir ]]; then
    if [[ $smoke == 1 ]]; then results_dir=$build_dir/capacity-smoke; else results_dir=$repo/bench/results; fi
fi
mkdir -p "$results_dir"
results_dir=$(realpath "$results_dir")
export STOREFRONT_CLUSTER_DIR=$work/cluster STOREFRONT_BIN=$server_bin
cluster=$repo/deploy/cluster.sh
tsung_pid=""
# epmd (Erlang's port mapper) is started by tsung's Erlang node when none runs; stop it only if it was ours.
# Asked through epmd itself: pgrep would also see an exited epmd nobody has reaped yet.
epmd_before=0
! epmd -names >/dev/null 2>&1 || epmd_before=1

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [[ -n $tsung_pid ]] && kill -0 "$tsung_pid" 2>/dev/null; then
        kill -TERM "$tsung_pid" 2>/dev/null || true
        wait "$tsung_pid" 2>/dev/null || true
    fi
    if [[ -n $keep_dir ]]; then
        mkdir -p "$keep_dir"
        cp -r "$work/tsung" "$work/data" "$work/mix.xml" "$work/phases.tsv" "$keep_dir/" 2>/dev/null || true
        cp "$STOREFRONT_CLUSTER_DIR/"*.log "$keep_dir/" 2>/dev/null || true  # the instances', HAProxy's
    fi
    [[ ! -d $STOREFRONT_CLUSTER_DIR ]] || "$cluster" down >&2 || true
    if [[ $epmd_before == 0 ]] && epmd -names >/dev/null 2>&1; then
        epmd -kill >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export STOREFRONT_CLUSTER_HTTP_PORT STOREFRONT_CLUSTER_HTTPS_PORT STOREFRONT_CLUSTER_STATS_PORT \
    STOREFRONT_CLUSTER_INSTANCE_PORTS
STOREFRONT_CLUSTER_HTTP_PORT=$(free_port)
STOREFRONT_CLUSTER_HTTPS_PORT=$(free_port)
STOREFRONT_CLUSTER_STATS_PORT=$(free_port)
STOREFRONT_CLUSTER_INSTANCE_PORTS="$(free_port) $(free_port) $(free_port)"
log "cluster: HAProxy on 127.0.0.1:$STOREFRONT_CLUSTER_HTTP_PORT, instances on $STOREFRONT_CLUSTER_INSTANCE_PORTS"
timeout 180 "$cluster" up >&2
base=http://127.0.0.1:$STOREFRONT_CLUSTER_HTTP_PORT

mkdir -p "$work/data" "$work/tsung"
log "preparing data: $users buyers, $products stock products, $sandboxes sandboxes"
instance_urls=""
for port in $STOREFRONT_CLUSTER_INSTANCE_PORTS; do instance_urls+="${instance_urls:+,}http://127.0.0.1:$port"; done
timeout 600 python3 "$repo/bench/capacity/prepare.py" "$base" "$work/data" --instances "$instance_urls" \
    --users "$users" --products "$products" --sandboxes "$sandboxes" >&2
# shellcheck source=/dev/null
. "$work/data/ids.env"

# Phase 0 is the warm-up at the first rate (tsung's first phase also absorbs its own start-up); not reported.
first_rate=${rates%%,*}
python3 "$repo/bench/capacity/mix.py" --rates "$first_rate,$rates" --phase-seconds "$phase_seconds" \
    --warmup-seconds "$warmup_seconds" --port "$STOREFRONT_CLUSTER_HTTP_PORT" --data "$work/data" \
    --max-product "$MAX_PRODUCT_ID" --max-category "$MAX_CATEGORY_ID" --max-user "$MAX_USER_ID" \
    --xml "$work/mix.xml" --phases "$work/phases.tsv"

n_phases=$(($(tr ',' '\n' <<<"$rates" | wc -l)))
load_seconds=$((warmup_seconds + n_phases * phase_seconds))
# Every visitor opens its own connection: room for many at once, beyond the default 1024 descriptors.
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
log "tsung: rates $rates requests/s, ${phase_seconds}s each after ${warmup_seconds}s of warm-up (${load_seconds}s of load)"
# Bounded: the phases, then up to 60 s for visitors still in flight (HAProxy answers within 30 s).
(cd "$work" && exec timeout --kill-after=10 $((load_seconds + 90)) tsung -f "$work/mix.xml" -l "$work/tsung" start) \
    >"$work/tsung.out" 2>&1 &
tsung_pid=$!
wait "$tsung_pid" || { cat "$work/tsung.out" >&2; log "tsung failed"; exit 1; }
tsung_pid=""
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
run_dir=$(find "$work/tsung" -mindepth 1 -maxdepth 1 -type d | sed -n 1p)
[[ -s $run_dir/tsung.dump ]] || { cat "$work/tsung.out" >&2; log "tsung wrote no dump"; exit 1; }

commit=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
cmd="bench/run_capacity.sh --rates $rates --phase-seconds $phase_seconds --warmup-seconds $warmup_seconds"
cmd+=" --users $users --products $products --sandboxes $sandboxes --limit-ms $limit_ms"
bin_shown=${server_bin#"$repo"/}
pg_version=$(/usr/lib/postgresql/15/bin/postgres --version | awk '{print $3}')
about="Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, storefront \`$commit\` ($bin_shown),"
about+=" $(tsung -v 2>&1 | sed -n 1p), $(haproxy -v 2>/dev/null | sed -n 1p | cut -d' ' -f1-3), PostgreSQL $pg_version;"
about+=" deploy/cluster.sh as shipped: 3 instances (1 I/O thread each, access log off), PostgreSQL with fsync on,"
about+=" HAProxy leastconn. tsung, HAProxy, the instances and PostgreSQL share the machine; every visitor opens"
about+=" its own connection. Load average before/after the load: $load_before / $load_after."
python3 "$repo/bench/capacity/report.py" "$run_dir" "$work/phases.tsv" "$results_dir/capacity.md" \
    "$results_dir/capacity.dat" --limit-ms "$limit_ms" --title "Capacity: the production shape under the mix" \
    --about "$about" --command "$cmd"
# A route without a verdict at any rate (short runs) is an all-NaN column: gnuplot warns and draws no line.
rm -f "$results_dir/capacity.png"
gnuplot -e "datafile='$results_dir/capacity.dat'; outfile='$results_dir/capacity.png'; limit=$limit_ms" \
    "$repo/bench/capacity/capacity.gp" 2>&1 | grep -v -e 'no valid points' -e 'empty x range' >&2 || true
[[ -s $results_dir/capacity.png ]] || { log "gnuplot drew no chart"; exit 1; }
cat "$results_dir/capacity.md"
log "written: $results_dir/capacity.md, capacity.dat, capacity.png"
