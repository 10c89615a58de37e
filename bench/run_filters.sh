#!/usr/bin/env bash
# Filter benchmark (issue 21, goal 4), per backend (memory, SQLite, PostgreSQL 15) on 100,000 products:
#  1. never-repeated filters that match nothing (a title no product has, different on every request, with
#     a price range and a category): every request misses the answer cache and asks the store's indexes;
#     p50/p99 latency at a few connections;
#  2. one repeated filtered request (title + price range + category) against nginx serving the same bytes,
#     $rounds alternating rounds, median; and the unfiltered first page the same way, for reference.
# Prints a markdown report. Loopback only; stops everything it started, also on failure.
#
#   bench/run_filters.sh [--storage memory|sqlite|postgresql|all] [--products N] [--threads N]
#                        [--duration SECONDS] [--connections N] [--miss-connections N] [--rounds N]
#                        [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install]
#
# PostgreSQL runs in a throw-away cluster (tests/pg/with_pg_cluster.sh); the script re-runs itself under it.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
all_args=("$@")
backends_arg=all
products=99949  # with the 51 seed products: 100,000, the memory backend's cap
threads=${THREADS:-1}
duration=${DURATION:-5}
connections=${CONNECTIONS:-64}
miss_connections=1
rounds=${ROUNDS:-7}
server_bin=""
build_dir=${BUILD_DIR:-$repo/build-bench}
do_build=1
do_install=1

while [[ $# -gt 0 ]]; do
    case $1 in
        --storage) backends_arg=$2; shift 2 ;;
        --products) products=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --miss-connections) miss_connections=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --server-bin) server_bin=$2; do_build=0; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-build) do_build=0; shift ;;
        --no-install) do_install=0; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
case $backends_arg in
    memory | sqlite | postgresql) backends=("$backends_arg") ;;
    all) backends=(memory sqlite postgresql) ;;
    *) echo "--storage must be memory, sqlite, postgresql or all" >&2; exit 2 ;;
esac
wrk_threads=$(( threads < 2 ? 1 : 2 ))
log_tag=run_filters
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
with_pg=0
[[ " ${backends[*]} " != *" postgresql "* ]] || with_pg=1

if [[ -z ${STOREFRONT_BENCH_PG_CLUSTER:-} ]]; then
    if [[ $do_install == 1 ]]; then
        tools=("${common_tools[@]}" sqlite3:sqlite3)
        [[ $with_pg == 0 ]] || tools+=(/usr/lib/postgresql/15/bin/initdb:postgresql-15 psql:postgresql-client-15)
        install_tools "${tools[@]}"
    fi
    [[ $do_build == 0 ]] || build_as_shipped "$build_dir" 0 storefront
    if [[ $with_pg == 1 ]]; then
        log "starting a throw-away PostgreSQL 15 cluster (tests/pg/with_pg_cluster.sh)"
        extra=(--no-build --no-install)
        [[ -n $server_bin ]] || extra+=(--server-bin "$build_dir/server/storefront")
        STOREFRONT_BENCH_PG_CLUSTER=1 exec "$repo/tests/pg/with_pg_cluster.sh" "$0" "${all_args[@]}" "${extra[@]}"
    fi
fi
[[ $with_pg == 0 || -n ${TEST_PG_DSN:-} ]] || { echo "no TEST_PG_DSN: run under with_pg_cluster.sh" >&2; exit 1; }
server_bin=${server_bin:-$build_dir/server/storefront}
[[ -x $server_bin ]] || { echo "no $server_bin (build first or drop --no-build)" >&2; exit 1; }

make_work storefront-filters
server_flags=(--write-policy open --generated-locations 1000)
loader=$repo/bench/load/load_products.py
# The repeated request: its answer is the same bytes every time (cached per revision), served by nginx too.
filtered_path="/api/v1/products?title=cotton&price_min=10&price_max=500&categoryId=1"
miss_filters="&price_min=10&price_max=500&categoryId=1"
declare -A backend_name=([memory]=memory [sqlite]=SQLite [postgresql]='PostgreSQL 15')

# Starts storefront on BACKEND's store with $products products loaded (the seed written by a first start).
start_loaded() {
    case $1 in
        memory)
            start_server --storage memory "${server_flags[@]}"
            python3 "$loader" http "$server_port" "$products"
            ;;
        sqlite)
            start_server --storage "sqlite:$work/filters.db" "${server_flags[@]}"
            stop_server
            python3 "$loader" sqlite "$work/filters.db" "$products"
            start_server --storage "sqlite:$work/filters.db" "${server_flags[@]}"
            ;;
        postgresql)
            psql -q "$TEST_PG_DSN" -c "CREATE DATABASE bench_filters" >&2
            local dsn="${TEST_PG_DSN%/*}/bench_filters"
            start_server --storage "$dsn" "${server_flags[@]}"
            stop_server
            python3 "$loader" pg "$dsn" "$products"
            start_server --storage "$dsn" "${server_flags[@]}"
            ;;
    esac
    log "$1: $(curl -sf -o /dev/null -D - "http://127.0.0.1:$server_port/api/v1/products?limit=1" |
        tr -d '\r' | sed -n 's/^[Xx]-[Tt]otal-[Cc]ount: //p') products"
}

miss_rows=()
for backend in "${backends[@]}"; do
    log "loading $products products into $backend"
    start=$(date +%s)
    start_loaded "$backend"
    log "$backend loaded in $(( $(date +%s) - start )) s"
    # 1. Misses: each request a title nobody has; 2 s first unrecorded, so every pooled connection has
    # prepared its statements and read the tables' pages once (the first requests of a process are not the
    # point).
    timeout 32 wrk -t1 -c"$miss_connections" -d2s -s "$repo/bench/load/unique_filters.lua" \
        "http://127.0.0.1:$server_port" -- "$miss_filters" zqw >/dev/null
    line=$(timeout $((duration + 30)) wrk -t"$wrk_threads" -c"$miss_connections" -d"${duration}s" --timeout 5s \
        -s "$repo/bench/load/unique_filters.lua" "http://127.0.0.1:$server_port" -- "$miss_filters" |
        grep '^RESULT')
    log "$backend no-match ${line#RESULT }"
    miss_rows+=("| ${backend_name[$backend]} | $(rps_row "$line") | $(fmt_ms "$(field "$line" p50_us)") | $(fmt_ms "$(field "$line" p99_us)") | $(field "$line" non2xx) |")
    # 2. The repeated filtered page against nginx.
    start_nginx_once=${nginx_pid:-}
    [[ -n $start_nginx_once ]] || start_nginx
    save_body "$filtered_path" "filtered-$backend.json"
    bench_pair "${backend_name[$backend]}: products filtered (title+price range+category)" "$filtered_path" \
        "filtered-$backend.json"
    # The unfiltered page in the same conditions, for reference: what a pre-serialised page costs here.
    save_body "/api/v1/products?offset=0&limit=10" "page-$backend.json"
    bench_pair "${backend_name[$backend]}: products?offset=0&limit=10 (unfiltered, reference)" \
        "/api/v1/products?offset=0&limit=10" "page-$backend.json"
    stop_server
done

echo "## Filters on $((products + 51)) products ($(date -u +%Y-%m-%d), $(nproc) cores, --threads $threads)"
echo
echo "Never-repeated filters matching nothing (\`?title=zq<thread>x<n>$miss_filters\`, every request a cache"
echo "miss answered by the store's indexes), $miss_connections connections, ${duration} s:"
echo
echo "| backend | req/s | p50 ms | p99 ms | non-2xx |"
echo "|---|---:|---:|---:|---:|"
printf '%s\n' "${miss_rows[@]}"
echo
echo "Repeated filtered page \`$filtered_path\` (answer cached per revision) against nginx serving the same"
echo "bytes, $connections connections, median of $rounds alternating rounds of ${duration} s:"
echo
pair_table "$work/filtered.dat" "${labels[@]}"
