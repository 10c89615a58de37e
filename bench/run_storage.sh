#!/usr/bin/env bash
# Storage benchmark: per backend (memory, SQLite, PostgreSQL 15), the products pages against nginx serving
# the same bytes, durable writes per second (create product with an admin's token; register user), the
# products page while a writer creates products, and with PostgreSQL the write-to-visible delay across two
# storefront instances on one database. Prints a markdown report and writes it, its data and PNG charts to
# the results dir. Loopback only; stops everything it started, also on failure.
#
#   bench/run_storage.sh [--storage memory|sqlite|postgresql|all] [--threads N] [--duration SECONDS]
#                        [--write-duration SECONDS] [--connections N] [--write-connections N] [--rounds N]
#                        [--visible-samples N] [--build-dir DIR] [--server-bin PATH] [--no-build]
#                        [--no-install] [--results-dir DIR] [--no-charts]
#
# PostgreSQL runs in a throw-away cluster (tests/pg/with_pg_cluster.sh, fsync on); the script re-runs itself
# under it. See bench/README.md.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
all_args=("$@")
backends_arg=all
threads=${THREADS:-1}
duration=${DURATION:-5}          # each read run
write_duration=5                 # each write run (memory reaches the 100,000-product cap in ~10 s)
connections=${CONNECTIONS:-64}   # readers
write_connections=8              # writers (registration is bounded by the KDF pool, not by connections)
rounds=${ROUNDS:-7}
visible_samples=50
server_bin=""
build_dir=${BUILD_DIR:-$repo/build-bench}
do_build=1
do_install=1
results_dir=$repo/bench/results
do_charts=1

while [[ $# -gt 0 ]]; do
    case $1 in
        --storage) backends_arg=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --write-duration) write_duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --write-connections) write_connections=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --visible-samples) visible_samples=$2; shift 2 ;;
        --server-bin) server_bin=$2; do_build=0; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-build) do_build=0; shift ;;
        --no-install) do_install=0; shift ;;
        --results-dir) results_dir=$2; shift 2 ;;
        --no-charts) do_charts=0; shift ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
case $backends_arg in
    memory | sqlite | postgresql) backends=("$backends_arg") ;;
    all) backends=(memory sqlite postgresql) ;;
    *) echo "--storage must be memory, sqlite, postgresql or all" >&2; exit 2 ;;
esac
# The durable write figures are compared with the same write on memory, in the same run.
[[ ${backends[0]} == memory ]] || backends=(memory "${backends[@]}")
wrk_threads=$(( threads < 2 ? 1 : 2 ))
# wrk wants at least a connection per thread: one writer connection gets one wrk thread.
write_wrk_threads=$(( write_connections < wrk_threads ? write_connections : wrk_threads ))
log_tag=run_storage
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
with_pg=0
[[ " ${backends[*]} " != *" postgresql "* ]] || with_pg=1

# --- tools and build (once, outside the PostgreSQL cluster) ------------------------------------------
if [[ -z ${STOREFRONT_BENCH_PG_CLUSTER:-} ]]; then
    if [[ $do_install == 1 ]]; then
        tools=("${common_tools[@]}")
        [[ $with_pg == 0 ]] || tools+=(/usr/lib/postgresql/15/bin/initdb:postgresql-15 psql:postgresql-client-15)
        install_tools "${tools[@]}"
    fi
    if [[ $do_build == 1 ]]; then
        build_as_shipped "$build_dir" 0 storefront
    fi
    if [[ $with_pg == 1 ]]; then
        # Re-run under a throw-away cluster with fsync on (durable writes are the point), built already.
        log "starting a throw-away PostgreSQL 15 cluster (tests/pg/with_pg_cluster.sh, fsync on)"
        extra=(--no-build --no-install)
        [[ -n $server_bin ]] || extra+=(--server-bin "$build_dir/server/storefront")
        STOREFRONT_BENCH_PG_CLUSTER=1 TEST_PG_FSYNC=on exec "$repo/tests/pg/with_pg_cluster.sh" \
            "$0" "${all_args[@]}" "${extra[@]}"
    fi
fi
[[ $with_pg == 0 || -n ${TEST_PG_DSN:-} ]] || { echo "no TEST_PG_DSN: run under with_pg_cluster.sh" >&2; exit 1; }
server_bin=${server_bin:-$build_dir/server/storefront}
[[ -x $server_bin ]] || { echo "no $server_bin (build first or drop --no-build)" >&2; exit 1; }
[[ $do_charts == 0 ]] || command -v gnuplot >/dev/null ||
    { echo "gnuplot is missing (Debian gnuplot-nox; drop --no-install or pass --no-charts)" >&2; exit 1; }
mkdir -p "$results_dir"

make_work storefront-storage
# Token secrets shared by every instance (so a token works on both in the two-instance test), through the
# environment, not flags that ps shows; random per run and never printed.
STOREFRONT_ACCESS_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
STOREFRONT_REFRESH_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
STOREFRONT_PET_TOKEN_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export STOREFRONT_ACCESS_SECRET STOREFRONT_REFRESH_SECRET STOREFRONT_PET_TOKEN_SECRET
# Product writes need an admin's token (the policy a shared instance runs); a customer registers without.
server_flags=(--write-policy roles --generated-locations 1000)

# storage_spec BACKEND NAME: a fresh, empty store for BACKEND (the seed is written on first start).
storage_spec() {
    case $1 in
        memory) echo memory ;;
        sqlite) echo "sqlite:$work/$2.db" ;;  # on /tmp's disk, synchronous=FULL: real fsyncs
        postgresql)
            psql -q "$TEST_PG_DSN" -c "CREATE DATABASE $2" >&2
            echo "${TEST_PG_DSN%/*}/$2"
            ;;
    esac
}

# Logs in as the seed admin on PORT; prints the access token (kept in a variable, never printed).
admin_token() {
    curl -sf -X POST -H 'Content-Type: application/json' \
        -d '{"email":"admin@mail.com","password":"admin123"}' "http://127.0.0.1:$1/api/v1/auth/login" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}

# write_run NAME KIND: wrk write.lua with $write_connections for $write_duration s against the running server.
write_run() {
    local saved=$duration
    duration=$write_duration
    BENCH_TOKEN=$token wrk_run "sf|$1" "http://127.0.0.1:$server_port" \
        "$write_connections" "$write_wrk_threads" write: "$2" "$(date +%s%N)"
    duration=$saved
}
# The median round of write run NAME by created rows per second (row_of's default ranks by all answers).
write_row() { row_of "sf|$1" created; }
created_per_s() {
    local row
    row=$(write_row "$1")
    awk -v c="$(field "$row" created)" -v d="$(field "$row" duration_us)" 'BEGIN {printf "%.1f", c / d * 1e6}'
}

declare -A backend_name=([memory]=memory [sqlite]=SQLite [postgresql]='PostgreSQL 15')
page_labels=()
start_nginx  # serves $work/static: each backend's bodies in its own folder

for b in "${backends[@]}"; do
    spec=$(storage_spec "$b" "bench_$b")
    log "${backend_name[$b]}: storefront on a fresh store"
    start_server --storage "$spec" "${server_flags[@]}"
    mkdir -p "$work/static/$b"
    save_body '/api/v1/products?offset=0&limit=10' "$b/products_0.json"
    save_body '/api/v1/products?offset=40&limit=10' "$b/products_40.json"
    save_body '/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1' "$b/products_filtered.json"
    chmod -R a+rX "$work/static/$b"
    wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" >/dev/null

    # Pages against nginx first, on the seed catalogue, so nginx has storefront's exact bytes.
    bench_pair "$b: products?offset=0&limit=10" '/api/v1/products?offset=0&limit=10' "$b/products_0.json"
    bench_pair "$b: products?offset=40&limit=10" '/api/v1/products?offset=40&limit=10' "$b/products_40.json"
    bench_pair "$b: products filtered (title+price range+category)" \
        '/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1' "$b/products_filtered.json"
    page_labels+=("$b: products?offset=0&limit=10" "$b: products?offset=40&limit=10"
        "$b: products filtered (title+price range+category)")

    token=$(admin_token "$server_port")
    # Reads while a writer creates and deletes products as fast as it can (each write moves the store
    # revision, so reads keep missing the page cache; deleting keeps the catalogue at the seed's size on
    # every backend), against reads alone, alternately, on the same store. Before the write runs below,
    # which grow the catalogue.
    for _ in $(seq 1 "$rounds"); do
        wrk_run "sf|$b: products page, reads only" "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" \
            "$connections" "$wrk_threads"
        saved=$duration
        duration=$((duration + 2))  # the writer covers the whole read run
        (BENCH_TOKEN=$token wrk_run "sf|$b: writes during reads" "http://127.0.0.1:$server_port" \
            "$write_connections" 1 write: churn "$(date +%s%N)") &
        writer_bg=$!
        extra_pids+=("$writer_bg")
        duration=$saved
        sleep 1
        wrk_run "sf|$b: products page while a writer writes" \
            "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" "$connections" "$wrk_threads"
        wait "$writer_bg"
        extra_pids=()
    done
    stop_server

    # Durable writes: every 2xx is a write the store acknowledged (SQLite synchronous=FULL, PostgreSQL
    # commit with fsync on). Each round on a fresh store: a store holds at most 100,000 products, which
    # memory reaches in about 10 s here.
    for r in $(seq 1 "$rounds"); do
        start_server --storage "$(storage_spec "$b" "bench_${b}_w$r")" "${server_flags[@]}"
        token=$(admin_token "$server_port")
        write_run "$b: create product" product
        write_run "$b: register user" user
        stop_server
    done
done

# --- write-to-visible delay: two instances on one PostgreSQL -----------------------------------------
visible=""
if [[ $with_pg == 1 ]]; then
    spec=$(storage_spec postgresql bench_visible)
    log "PostgreSQL 15: two instances on one database, $visible_samples write-to-visible samples"
    start_server --storage "$spec" "${server_flags[@]}"
    port_a=$server_port
    port_b=$(free_port)
    "$server_bin" --address 127.0.0.1 --port "$port_b" --threads "$threads" --access-log false \
        --storage "$spec" "${server_flags[@]}" >"$work/server_b.log" 2>&1 &
    extra_pids+=($!)
    wait_port "$port_b"
    token=$(admin_token "$port_a")
    visible=$(BENCH_TOKEN=$token timeout 600 python3 "$repo/bench/load/visible_delay.py" \
        --a "http://127.0.0.1:$port_a" --b "http://127.0.0.1:$port_b" --samples "$visible_samples" \
        --out "$results_dir/storage_visible_delay.dat" | grep '^RESULT')
    log "$visible"
    stop_extra
    stop_server
    pg_settings=$(psql -Atq "$TEST_PG_DSN" -c "SELECT current_setting('server_version') || ', fsync ' ||
        current_setting('fsync') || ', synchronous_commit ' || current_setting('synchronous_commit')")
fi
stop_nginx

# --- report ------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0) printf "%.2f", a / b; else printf "–"}'; }
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?') vs nginx $("$nginx_bin" -v 2>&1 |
    sed 's/.*nginx\///'): $threads server thread(s) / nginx worker(s); reads wrk -t$wrk_threads -c$connections" \
    "-d${duration}s, writes wrk -t$write_wrk_threads -c$write_connections -d${write_duration}s;" \
    "median of $rounds rounds; $(nproc) cores; uptime: $(uptime)"
echo "SQLite: a file in $(df --output=source /tmp | tail -1) ($(stat -f -c %T /tmp)), synchronous=FULL." \
    "${pg_settings:+PostgreSQL: $pg_settings (throw-away cluster on the same disk).}"
echo
echo "Products pages, storefront ÷ nginx serving the same bytes:"
echo
pair_table "$results_dir/storage_pages.dat" "${page_labels[@]}"
echo
echo "Durable writes per second (only 2xx answers count; ratio: ÷ the same write on memory in this run):"
echo
echo "| backend | create product /s | ratio | p50 / p99 ms | non-2xx | register user /s | ratio | p50 / p99 ms | non-2xx |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
printf '# backend\tcreate_product_per_s\tregister_user_per_s\n' >"$results_dir/storage_writes.dat"
mem_p=$(created_per_s "memory: create product")
mem_u=$(created_per_s "memory: register user")
for b in "${backends[@]}"; do
    p=$(created_per_s "$b: create product")
    u=$(created_per_s "$b: register user")
    rp=$(write_row "$b: create product")
    ru=$(write_row "$b: register user")
    echo "| ${backend_name[$b]} | $p | $(ratio "$p" "$mem_p")× | $(fmt_ms "$(field "$rp" p50_us)") / $(fmt_ms "$(field "$rp" p99_us)") |" \
        "$(field "$rp" non2xx) | $u | $(ratio "$u" "$mem_u")× | $(fmt_ms "$(field "$ru" p50_us)") / $(fmt_ms "$(field "$ru" p99_us)") | $(field "$ru" non2xx) |"
    printf '%s\t%s\t%s\n' "${backend_name[$b]}" "$p" "$u" >>"$results_dir/storage_writes.dat"
done
echo
echo "Registration hashes the password with Argon2id on the --hash-threads pool (2), deliberately slow: it bounds"
echo "registrations per second on every backend, memory included."
echo
echo "Products page (offset 0, limit 10) while a writer creates and deletes products as fast as it can (wrk -t1"
echo "-c$write_connections, bench/load/write.lua churn), against reads alone, on the seed catalogue:"
echo
echo "| backend | reads only req/s | reads with the writer req/s | ratio | p99 ms alone / with writer | writes/s meanwhile (creates + deletes) | non-2xx reads / writes |"
echo "|---|---:|---:|---:|---:|---:|---:|"
printf '# backend\treads_only_rps\treads_with_writer_rps\n' >"$results_dir/storage_read_under_write.dat"
for b in "${backends[@]}"; do
    alone=$(row_of "sf|$b: products page, reads only")
    with=$(row_of "sf|$b: products page while a writer writes")
    wr=$(write_row "$b: writes during reads")
    a_rps=$(rps_row "$alone")
    w_rps=$(rps_row "$with")
    echo "| ${backend_name[$b]} | $a_rps | $w_rps | $(ratio "$w_rps" "$a_rps")× |" \
        "$(fmt_ms "$(field "$alone" p99_us)") / $(fmt_ms "$(field "$with" p99_us)") | $(created_per_s "$b: writes during reads") |" \
        "$(field "$with" non2xx) / $(field "$wr" non2xx) |"
    printf '%s\t%s\t%s\n' "${backend_name[$b]}" "$a_rps" "$w_rps" >>"$results_dir/storage_read_under_write.dat"
done
if [[ -n $visible ]]; then
    echo
    echo "Write-to-visible delay, two storefront instances on one PostgreSQL database ($visible_samples samples: create"
    echo "on A, poll B's cached page /api/v1/products?offset=0&limit=100 until the title is on it; then delete and"
    echo "wait until it is gone):"
    echo
    echo "| measured from | median ms | p95 ms | max ms |"
    echo "|---|---:|---:|---:|"
    awk -F' \\| ' '{
        for (i = 2; i <= NF; i++) {
            split($i, part, ": "); n = split(part[2], kv, " ")
            for (j = 1; j <= n; j++) { split(kv[j], x, "="); v[x[1]] = x[2] }
            printf "| %s | %s | %s | %s |\n", part[1], v["median_ms"], v["p95_ms"], v["max_ms"]
        }
    }' <<<"$visible" | sed 's/^| from POST sent |/| the create request sent to A |/; s/^| from 201 |/| A'"'"'s 201 answer |/;
        s/^| delete |/| delete on A answered → gone from B |/'
fi
} | tee "$results_dir/storage.md"

# --- charts ------------------------------------------------------------------------------------------
if [[ $do_charts == 1 ]]; then
    bars_chart "$results_dir/storage_pages.dat" "$results_dir/storage_pages_rps.png" \
        "products pages per backend: storefront vs nginx serving the same bytes" "requests/s" 2 3
    bars_chart "$results_dir/storage_pages.dat" "$results_dir/storage_pages_p99.png" \
        "products pages per backend: p99 latency, storefront vs nginx (log scale)" "p99 latency, ms" 4 5 1
    bars_chart "$results_dir/storage_writes.dat" "$results_dir/storage_writes.png" \
        "durable writes per second per backend (2xx only, log scale)" "writes/s" 2 3 1 \
        "create product (admin token)" "register user (Argon2id)"
    bars_chart "$results_dir/storage_read_under_write.dat" "$results_dir/storage_read_under_write.png" \
        "products page req/s: reads alone vs while a writer creates and deletes products" "requests/s" 2 3 0 \
        "reads only" "reads while a writer writes"
fi
