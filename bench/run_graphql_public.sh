#!/usr/bin/env bash
# storefront's GraphQL against the public service's own server (PlatziLabs/fake-api-backend: NestJS, Apollo
# Server 4, TypeORM) on the same queries, same machine: bench/load/graphql.lua's products page (limit 10,
# offset 0, again and again) and its offsets cycling 0, 1, …, LAST (LAST = the smaller list's size - 10, so
# every page is full on both sides). Installs the public service's packages (npm ci) and builds it (nest
# build) when not done yet, starts it on a free loopback port (NODE_ENV=production; it seeds its own
# in-memory SQLite database at start-up) and storefront (a fresh SQLite file unless --storage says
# otherwise), checks both answer the query with the same fields and no GraphQL error, then runs wrk against
# both, alternating, median of --rounds (7) with min–max and each server process's CPU per request. Loopback
# only; stops everything it started, also on failure. Prints a markdown table.
#
#   git clone https://github.com/PlatziLabs/fake-api-backend /tmp/fake-api-backend
#   bench/run_graphql_public.sh --source /tmp/fake-api-backend [--storage SPEC] [--threads N]
#       [--duration SECONDS] [--connections N] [--rounds N] [--build-dir DIR] [--server-bin PATH] [--no-build]
#       [--no-install]
#
# Needs node and npm (the public service asks for Node 20). npm ci and the start-up write into the checkout
# (node_modules/, dist/, src/schema.gql), never into this repository.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"

source_dir=""
args=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --source) source_dir=$2; shift 2 ;;
        *) args+=("$1"); shift ;;
    esac
done
small_bench_setup run_graphql_public '2,19p' storage ${args[@]+"${args[@]}"}
[[ -n $source_dir ]] || { echo "--source DIR (a checkout of PlatziLabs/fake-api-backend) is required" >&2; exit 2; }
source_dir=$(cd "$source_dir" && pwd)
[[ -f $source_dir/package.json && -d $source_dir/src ]] ||
    { echo "$source_dir: not a checkout of PlatziLabs/fake-api-backend (no package.json, src/)" >&2; exit 1; }
for tool in node npm python3 curl wrk; do
    command -v "$tool" >/dev/null || { echo "$tool is needed" >&2; exit 1; }
done
# This script starts the service as its current revisions are written: TypeORM on better-sqlite3 ':memory:',
# seeded by the service itself at start-up. Older revisions wanted PostgreSQL; say so rather than guess.
grep -q "better-sqlite3" "$source_dir/src/database/database.module.ts" 2>/dev/null ||
    { echo "$source_dir: its database module is not better-sqlite3 (in memory); this script does not set up another database" >&2
      exit 1; }

# --- the public service: packages, build ------------------------------------------------------------
if [[ ! -f $source_dir/node_modules/.package-lock.json ||
      $source_dir/package-lock.json -nt $source_dir/node_modules/.package-lock.json ]]; then
    log "npm ci in $source_dir (better-sqlite3 may compile from source: minutes)"
    (cd "$source_dir" && nice -n 10 timeout 1200 npm ci --no-audit --no-fund >&2)
fi
main_js=$source_dir/dist/src/main.js
if [[ ! -f $main_js || -n $(find "$source_dir/src" -name '*.ts' -newer "$main_js" -print -quit) ]]; then
    log "nest build in $source_dir"
    (cd "$source_dir" && nice -n 10 timeout 900 npm run build >&2)
fi
[[ -f $main_js ]] || { echo "no $main_js after the build" >&2; exit 1; }

make_work storefront-graphql-public
storage=${storage:-sqlite:$work/graphql.db}

# --- both servers -------------------------------------------------------------------------------------
# The public service (its own start command, `node dist/src/main`, from the checkout: it reads
# src/dataset/*.json relative to the working directory). JWT secrets: throw-away values, no request here
# signs in. Its CPU is counted through pub_pids (cpu_ticks in bench/lib/common.sh).
pub_port=$(free_port)
secret() { python3 -c 'import secrets; print(secrets.token_hex(24))'; }
(cd "$source_dir" && exec env NODE_ENV=production PORT="$pub_port" ACCESS_SECRET_KEY="$(secret)" \
    REFRESH_SECRET_KEY="$(secret)" RECOVERY_SECRET_KEY="$(secret)" OPENAI_API_KEY="" \
    node dist/src/main) >"$work/public.log" 2>&1 &
pub_pid=$!
extra_pids+=("$pub_pid")
# shellcheck disable=SC2034  # read by cpu_ticks as ${!var}
pub_pids=$pub_pid
for _ in $(seq 1 1200); do  # up to 120 s: start-up seeds the database
    (exec 3<>"/dev/tcp/127.0.0.1/$pub_port") 2>/dev/null && break
    kill -0 "$pub_pid" 2>/dev/null || { tail -n 20 "$work/public.log" >&2; echo "the public service exited" >&2; exit 1; }
    sleep 0.1
done
(exec 3<>"/dev/tcp/127.0.0.1/$pub_port") 2>/dev/null ||
    { tail -n 20 "$work/public.log" >&2; echo "the public service does not listen after 120 s" >&2; exit 1; }

start_server --storage "$storage"
sf_url="http://127.0.0.1:$server_port"
pub_url="http://127.0.0.1:$pub_port"

# --- the same query on both -----------------------------------------------------------------------------
# graphql.lua's selection (its `local fields = "…" .. "…"` lines), to check the answers before measuring.
fields=$(awk '/^local fields = / {on = 1} on {
        line = $0; while (match(line, /"[^"]*"/)) { printf "%s", substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH) }
        if ($0 !~ /\.\.[ \t]*$/) exit
    }' "$repo/bench/load/graphql.lua")
[[ -n $fields ]] || { echo "cannot read the field list of bench/load/graphql.lua" >&2; exit 1; }
graphql() { # URL QUERY -> the answer's body
    curl -sf --max-time 10 -H 'Content-Type: application/json' \
        --data "$(python3 -c 'import json, sys; print(json.dumps({"query": sys.argv[1]}))' "$2")" "$1/graphql"
}
count_products() { graphql "$1" '{ products { id } }' | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["data"]["products"]))'; }
# shape URL OFFSET: "<number of products> <field tree of the first>" or the GraphQL errors; fails on errors.
shape() {
    graphql "$1" "{ products(limit: 10, offset: $2) { $fields } }" | python3 -c '
import json, sys
a = json.load(sys.stdin)
if a.get("errors"):
    print("errors:", json.dumps(a["errors"])[:400]); sys.exit(1)
def tree(v):
    if isinstance(v, dict): return "{" + " ".join(k + tree(v[k]) for k in sorted(v)) + "}"
    if isinstance(v, list): return "[" + (tree(v[0]) if v else "") + "]"
    return ""
p = a["data"]["products"]
print(len(p), tree(p[0]) if p else "-")'
}
sf_total=$(count_products "$sf_url")
pub_total=$(count_products "$pub_url")
last=$(( (sf_total < pub_total ? sf_total : pub_total) - 10 ))
(( last >= 0 )) || { echo "fewer than 10 products (storefront $sf_total, public $pub_total)" >&2; exit 1; }
log "products: storefront $sf_total, public service $pub_total; offsets 0…$last"
for at in 0 "$last"; do
    sf_shape=$(shape "$sf_url" "$at") || { echo "storefront: $sf_shape" >&2; exit 1; }
    pub_shape=$(shape "$pub_url" "$at") ||
        { echo "the public service at offset $at: $pub_shape (graphql.lua must ask only for fields both answer)" >&2; exit 1; }
    [[ $sf_shape == "$pub_shape" && $sf_shape == 10\ * ]] ||
        { echo "different answers at offset $at: storefront '$sf_shape', public service '$pub_shape'" >&2; exit 1; }
done
log "both answer: $sf_shape"

# --- rounds ---------------------------------------------------------------------------------------------
# pub_pair LABEL page|cycle: $rounds rounds on each side, the side going first alternating per round.
pub_pair() {
    local label=$1 mode=$2 round side
    local -a lua=(graphql: page)
    [[ $mode == page ]] || lua=(graphql: cycle "$last")
    for round in $(seq 1 "$rounds"); do
        for side in $( ((round % 2)) && echo "sf pub" || echo "pub sf"); do
            if [[ $side == sf ]]; then
                wrk_run "sf|$label" "$sf_url/graphql" "$connections" "$wrk_threads" "${lua[@]}"
            else
                wrk_run "pub|$label" "$pub_url/graphql" "$connections" "$wrk_threads" "${lua[@]}"
            fi
        done
    done
    labels+=("$label")
}

# Warm both (lists loaded, documents parsed, Node's JIT), one run each.
for u in "$sf_url" "$pub_url"; do
    timeout $((duration + 30)) wrk -t1 -c8 -d"${duration}s" -s "$repo/bench/load/graphql.lua" "$u/graphql" -- cycle "$last" >/dev/null
done
pub_pair 'products page (offset 0)' page
pub_pair "offsets 0…$last cycling" cycle
# Still the same answers after the load (nothing degraded into errors).
[[ $(shape "$pub_url" 0) == "$sf_shape" && $(shape "$sf_url" 0) == "$sf_shape" ]] ||
    { echo "an answer changed during the run" >&2; exit 1; }

# --- report ---------------------------------------------------------------------------------------------
per_req() { awk -v v="$(field "$1" "$2")" -v r="$(field "$1" requests)" -v s="$3" 'BEGIN {printf "%.*f", s, v / r}'; }
pub_rev=$(git -C "$source_dir" rev-parse HEAD 2>/dev/null || echo "unknown revision")
pkg_version() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$source_dir/node_modules/$1/package.json" 2>/dev/null || echo "?"; }
{
echo
echo "storefront $("$server_bin" --version 2>/dev/null | sed 's/^storefront //') ($server_bin) on ${storage%%:*}," \
    "$threads server thread(s), vs PlatziLabs/fake-api-backend $pub_rev (Node $(node --version)," \
    "@nestjs/core $(pkg_version @nestjs/core), @apollo/server $(pkg_version @apollo/server), TypeORM $(pkg_version typeorm)" \
    "on better-sqlite3 $(pkg_version better-sqlite3) in memory, NODE_ENV=production); POST /graphql" \
    "\`{ products(limit: 10, offset: N) { $fields } }\`; products: storefront $sf_total, public service $pub_total;" \
    "wrk -t$wrk_threads -c$connections -d${duration}s, median of $rounds alternating rounds (min–max);" \
    "$(nproc) cores; uptime: $(uptime)"
echo
echo "| requests | storefront req/s (min–max) | public service req/s (min–max) | ratio | storefront p50 / p99 ms | public p50 / p99 ms | CPU µs/req storefront / public | CPU ratio | B/resp storefront / public | non-2xx storefront / public |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for label in "${labels[@]}"; do
    s=$(row_of "sf|$label")
    p=$(row_of "pub|$label")
    s_rps=$(rps_row "$s")
    p_rps=$(rps_row "$p")
    s_cpu=$(awk -v c="$(field "$s" cpu_ns)" -v r="$(field "$s" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
    p_cpu=$(awk -v c="$(field "$p" cpu_ns)" -v r="$(field "$p" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
    echo "| $label | $s_rps ($(rps_range "sf|$label")) | $p_rps ($(rps_range "pub|$label")) |" \
        "**$(awk -v a="$s_rps" -v b="$p_rps" 'BEGIN {printf "%.2f", a / b}')×** |" \
        "$(fmt_ms "$(field "$s" p50_us)") / $(fmt_ms "$(field "$s" p99_us)") |" \
        "$(fmt_ms "$(field "$p" p50_us)") / $(fmt_ms "$(field "$p" p99_us)") |" \
        "$s_cpu / $p_cpu | $(awk -v a="$s_cpu" -v b="$p_cpu" 'BEGIN {printf "%.1f", b / a}')× |" \
        "$(per_req "$s" bytes 0) / $(per_req "$p" bytes 0) | $(field "$s" non2xx) / $(field "$p" non2xx) |"
done
}
