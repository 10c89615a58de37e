#!/usr/bin/env bash
# GraphQL against REST on the same instance: the products page (limit 10, the REST page's fields) asked
# again and again, offsets cycling through the whole list (0, 1, …, the last page start), the same with a
# new document every time (nothing cached: parse, validate, execute), and the page while a client creates
# and deletes products (every write makes cached answers stale); each side the same requests; on the default backend (SQLite, a fresh file) unless --storage says otherwise.
# Median of --rounds (7) alternating rounds with min–max, the server's CPU per request; loopback only;
# stops everything it started. Prints a markdown table.
#
#   bench/run_graphql.sh [--storage SPEC] [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                        [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
small_bench_setup run_graphql '2,9p' storage "$@"

make_work storefront-graphql
storage=${storage:-sqlite:$work/graphql.db}
start_server --storage "$storage"
total=$(curl -sf -D - -o /dev/null "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" |
    tr -d '\r' | sed -n 's/^[Xx]-[Tt]otal-[Cc]ount: //p')
last=$((total - 10))
url="http://127.0.0.1:$server_port"

# graphql_pair LABEL MODE (page, cycle or fresh: graphql.lua's): alternating rounds, GraphQL then REST at
# the same offsets.
graphql_pair() {
    local label=$1 mode=$2
    for _ in $(seq 1 "$rounds"); do
        if [[ $mode == page ]]; then
            wrk_run "sf|graphql $label" "$url/graphql" "$connections" "$wrk_threads" graphql: page
            wrk_run "sf|rest $label" "$url/api/v1/products?offset=0&limit=10" "$connections" "$wrk_threads"
        else
            wrk_run "sf|graphql $label" "$url/graphql" "$connections" "$wrk_threads" graphql: "$mode" "$last"
            wrk_run "sf|rest $label" "$url" "$connections" "$wrk_threads" pages: "$last"
        fi
    done
    labels+=("$label")
}

# Warm both sides once (lists loaded, documents prepared).
wrk -t1 -c8 -d1s -s "$repo/bench/load/graphql.lua" "$url/graphql" -- cycle "$last" >/dev/null
wrk -t1 -c8 -d1s -s "$repo/bench/load/pages.lua" "$url" -- "$last" >/dev/null
graphql_pair 'products page (offset 0)' page
graphql_pair "offsets 0…$last cycling" cycle
graphql_pair "offsets 0…$last, a new document each time" fresh
start_writer "$server_port"
graphql_pair 'products page while a client writes' page
stop_writer

{
echo
echo "storefront $("$server_bin" --version 2>/dev/null | sed 's/^storefront //') ($server_bin) on ${storage%%:*}:" \
    "GraphQL POST /graphql vs REST GET /api/v1/products, $threads server thread(s);" \
    "wrk -t$wrk_threads -c$connections -d${duration}s, median of $rounds alternating rounds (min–max);" \
    "$(nproc) cores; uptime: $(uptime)"
echo
echo "| requests | GraphQL req/s (min–max) | REST req/s (min–max) | ratio | GraphQL p50 / p99 ms | REST p50 / p99 ms | CPU µs/req GraphQL / REST | non-2xx GraphQL / REST |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for label in "${labels[@]}"; do
    g=$(row_of "sf|graphql $label")
    r=$(row_of "sf|rest $label")
    g_rps=$(rps_row "$g")
    r_rps=$(rps_row "$r")
    echo "| $label | $g_rps ($(rps_range "sf|graphql $label")) | $r_rps ($(rps_range "sf|rest $label")) |" \
        "**$(awk -v a="$g_rps" -v b="$r_rps" 'BEGIN {printf "%.2f", a / b}')×** |" \
        "$(fmt_ms "$(field "$g" p50_us)") / $(fmt_ms "$(field "$g" p99_us)") |" \
        "$(fmt_ms "$(field "$r" p50_us)") / $(fmt_ms "$(field "$r" p99_us)") |" \
        "$(cpu_us "$g") / $(cpu_us "$r") | $(field "$g" non2xx) / $(field "$r" non2xx) |"
done
}
