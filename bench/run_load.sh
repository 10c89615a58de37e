#!/usr/bin/env bash
# Load benchmark: storefront against nginx serving the same response bytes as static files, same machine,
# same run, equal threads/workers. Prints a markdown table and writes it, its data and PNG charts to the
# results dir. Loopback only; stops everything it started.
#
#   bench/run_load.sh [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                     [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install] [--locations-only]
#                     [--storage SPEC] [--results-dir DIR] [--micro-bin PATH] [--no-micro] [--no-charts]
#
# Environment equivalents: THREADS, DURATION, CONNECTIONS, ROUNDS, BUILD_DIR. See bench/README.md.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
big_count=1000000
radius_km=100
map_radius_km=1000  # the within-radius rows over uniformly random origins
map_origin_count=2000
locations_only=0
results_dir=$repo/bench/results
micro_bin=""
do_micro=1
do_charts=1

# This script's flags besides the common ones (bench_flags in bench/lib/common.sh).
own_flag() {
    took=1
    case $1 in
        --locations-only) locations_only=1 ;;
        --results-dir) results_dir=$2; took=2 ;;
        --micro-bin) micro_bin=$2; took=2 ;;
        --no-micro) do_micro=0 ;;
        --no-charts) do_charts=0 ;;
        *) took=0 ;;
    esac
}
log_tag=run_load
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
# storefront's own default is sqlite:storefront.db in the current directory; the page benchmark measures
# the server, and bench/run_storage.sh compares the backends.
bench_flags '2,10p' memory "$@"
[[ -z $server_bin ]] || do_build=0

# --- tools -------------------------------------------------------------------------------------------
if [[ $do_install == 1 ]]; then
    tools=("${common_tools[@]}")
    # The micro benchmark (chart of the location index) needs Google Benchmark to build.
    [[ $do_micro == 0 || $do_build == 0 ]] || tools+=(/usr/include/benchmark/benchmark.h:libbenchmark-dev)
    install_tools "${tools[@]}"
fi
[[ $do_charts == 0 ]] || command -v gnuplot >/dev/null ||
    { echo "gnuplot is missing (Debian gnuplot-nox; drop --no-install or pass --no-charts)" >&2; exit 1; }

# --- build -------------------------------------------------------------------------------------------
if [[ $do_build == 1 ]]; then
    targets=(storefront)
    [[ $do_micro == 0 ]] || targets+=(storefront_micro_bench)
    build_as_shipped "$build_dir" "$do_micro" "${targets[@]}"
fi
server_bin=${server_bin:-$build_dir/server/storefront}
require_bin "$server_bin"
micro_bin=${micro_bin:-$build_dir/bench/storefront_micro_bench}
if [[ $do_micro == 1 && ! -x $micro_bin ]]; then
    echo "no $micro_bin (configure with -DSTOREFRONT_BUILD_BENCH=ON and build storefront_micro_bench," \
        "or pass --no-micro)" >&2
    exit 1
fi
mkdir -p "$results_dir"

big_csv=$build_dir/bench-locations-$big_count.csv
if [[ ! -s $big_csv ]]; then
    mkdir -p "$build_dir"  # with --server-bin, nothing else made it
    log "generating $big_count locations into $big_csv"
    c++ -O2 -std=c++20 "$repo/bench/load/gen_locations.cpp" -o "$build_dir/gen_locations"
    "$build_dir/gen_locations" "$big_count" "$big_csv.tmp"
    mv "$big_csv.tmp" "$big_csv"
fi

make_work storefront-load

# Origins "lat,lng" taken from random samples of the served set, so every search finds neighbours.
save_origins() {
    : >"$1"
    for _ in $(seq 1 20); do
        curl -sf "http://127.0.0.1:$server_port/api/v1/locations?size=50" |
            grep -o '"latitude":[-0-9.e]*,"longitude":[-0-9.e]*' |
            sed 's/"latitude":\([^,]*\),"longitude":\(.*\)/\1,\2/' >>"$1"
    done
}

# Origins for a map panning anywhere: latitude -60..60, any longitude (oceans included), fixed seed.
save_map_origins() {
    awk -v n="$map_origin_count" 'BEGIN {
        srand(20261123)
        for (i = 0; i < n; i++) printf "%.4f,%.4f\n", rand() * 120 - 60, rand() * 360 - 180
    }' >"$1"
}

# map_pair LABEL SUFFIX DIR ORIGINS: storefront answers /api/v1/locations?origin=<o>SUFFIX for origins
# drawn at random from ORIGINS; nginx serves DIR/<i>.json, storefront's own answer for origin i, saved
# first, so both sides send the same bytes for the same draw. Body B is the mean over the origins.
map_pair() {
    local label=$1 suffix=$2 dir=$3 origins=$4 i=0
    mkdir -p "$work/static/$dir"
    : >"$work/curl.cfg"
    while IFS= read -r o; do
        i=$((i + 1))
        printf 'url = "http://127.0.0.1:%s/api/v1/locations?origin=%s%s"\noutput = "%s"\n' \
            "$server_port" "$o" "$suffix" "$work/static/$dir/$i.json" >>"$work/curl.cfg"
    done <"$origins"
    curl -sf -K "$work/curl.cfg"
    chmod -R a+rX "$work/static/$dir"
    for _ in $(seq 1 "$rounds"); do
        wrk_run "sf|$label" "http://127.0.0.1:$server_port" "$connections" "$wrk_threads" map: \
            "/api/v1/locations?origin=" "$suffix" "$origins"
        wrk_run "ng|$label" "http://127.0.0.1:$nginx_port" "$connections" "$wrk_threads" map: \
            "/$dir/" ".json" "$origins" by-index
    done
    body_bytes[$label]=$(( $(cat "$work/static/$dir"/*.json | wc -c) / i ))
    labels+=("$label")
}

# The worst case of issue 12 on the running server, files prefixed TAG: 5 nearest and 5 nearest within
# $map_radius_km km from uniformly random origins, then from a city centre and from the middle of the
# Pacific (far from every point), each against nginx serving storefront's bytes.
map_rows() {
    local tag=$1 set=$2
    map_pair "locations 5 nearest, random origins ($set)" '&size=5' "map_${tag}" "$work/map_origins.txt"
    map_pair "locations 5 nearest within ${map_radius_km} km, random origins ($set)" \
        "&size=5&radius=${map_radius_km}" "map_r_${tag}" "$work/map_origins.txt"
    map_pair "locations 5 nearest withDistance, random origins ($set)" '&size=5&withDistance=true' \
        "map_d_${tag}" "$work/map_origins.txt"
    save_body '/api/v1/locations?origin=4.6482784,-74.2726198&size=5' "city_${tag}.json"
    save_body '/api/v1/locations?origin=0,-140&size=5' "pacific_${tag}.json"
    city_label[$tag]="locations 5 nearest from Bogotá's centre ($set)"
    far_label[$tag]="locations 5 nearest from 0,-140, mid-Pacific ($set)"
    bench_pair "${city_label[$tag]}" '/api/v1/locations?origin=4.6482784,-74.2726198&size=5' "city_${tag}.json"
    bench_pair "${far_label[$tag]}" '/api/v1/locations?origin=0,-140&size=5' "pacific_${tag}.json"
}

declare -A city_label far_label
rss_before_256=0
rss_load_max=0
hwm_default=0
nginx_rss=0

# --- micro benchmark: the location index against brute force ---------------------------------------
# First, alone on the machine (no server yet), and so that a failure here costs no load run. Google
# Benchmark's JSON, then one row per number of points (CPU µs per query) for the chart.
if [[ $do_micro == 1 ]]; then
    log "micro benchmark: location index vs brute force ($micro_bin)"
    timeout 900 "$micro_bin" --benchmark_filter='^BM_(kd|brute)_(nearest5|nearest5_within100km|within100km)/' \
        --benchmark_format=json --benchmark_min_time=0.2 >"$results_dir/location_index.json" 2>"$work/micro.err" ||
        { cat "$work/micro.err" >&2; exit 1; }
    python3 "$repo/bench/load/location_index_dat.py" "$results_dir/location_index.json" \
        >"$results_dir/location_index.dat"
fi

# --- default data set --------------------------------------------------------------------------------
log "storefront (default data set), $threads thread(s); wrk -t$wrk_threads -c$connections -d${duration}s"
start_server --storage "$storage"
rss_idle_default=$(rss_kib "$server_pid" VmRSS)
save_body '/api/v1/products?offset=0&limit=10' products_0.json
save_body '/api/v1/products?offset=40&limit=10' products_40.json
save_body '/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1' products_filtered.json
save_body '/api/v1/products/51' product_51.json
save_body '/api/v1/categories' categories.json
save_body '/api/v1/users?limit=10' users.json
save_body '/api/v1/locations?size=5' random_default.json
save_body '/api/v1/locations?origin=4.6482784,-74.2726198&radius=100&size=5' origin_default.json
save_origins "$work/origins_default.txt"
save_map_origins "$work/map_origins.txt"
start_nginx

# Warm both servers (first-touch page faults, lazy caches) before measuring.
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" >/dev/null
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$nginx_port/products_0.json" >/dev/null

if [[ $locations_only == 0 ]]; then
bench_pair 'products?offset=0&limit=10' '/api/v1/products?offset=0&limit=10' products_0.json
bench_pair 'products?offset=40&limit=10' '/api/v1/products?offset=40&limit=10' products_40.json
bench_pair 'products filtered (title+price range+category)' \
    '/api/v1/products?title=classic&price_min=10&price_max=50&categoryId=1' products_filtered.json
bench_pair 'products/51' '/api/v1/products/51' product_51.json
start_writer "$server_port"
bench_pair 'products?offset=0&limit=10 while a client writes' '/api/v1/products?offset=0&limit=10' products_0.json
stop_writer
bench_pair 'categories' '/api/v1/categories' categories.json
bench_pair 'users?limit=10' '/api/v1/users?limit=10' users.json

# Compressed: storefront gzips a cached page once per revision and keeps it with the page; nginx serves the
# same gzip bytes, saved from storefront, with gzip_static. Both for Accept-Encoding: gzip.
mkdir -p "$work/static/gz"
cp "$work/static/products_0.json" "$work/static/gz/products_0.json"
curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" \
    -o "$work/static/gz/products_0.json.gz"
chmod -R a+rX "$work/static/gz"
label_gzip='products?offset=0&limit=10, Accept-Encoding: gzip'
wrk_headers=(-H 'Accept-Encoding: gzip')
bench_pair "$label_gzip" '/api/v1/products?offset=0&limit=10' gz/products_0.json
wrk_headers=()
gzip_bytes=$(stat -c %s "$work/static/gz/products_0.json.gz")

# Revalidation: the same page with its current ETag in If-None-Match, answered 304 without a body; its CPU
# per request against the full page in rounds alternating with it (storefront alone: nginx here runs with
# etag off), so a change in the machine's load between rows does not decide the comparison.
page_etag=$(curl -sfI "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" |
    sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^[:space:]]*\).*/\1/p')
label_304='products?offset=0&limit=10, If-None-Match → 304'
label_full_alternating='products?offset=0&limit=10, full 200 (alternating with the 304 rounds)'
for _ in $(seq 1 "$rounds"); do
    wrk_headers=(-H "If-None-Match: $page_etag")
    wrk_run "sf|$label_304" "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" \
        "$connections" "$wrk_threads"
    wrk_headers=()
    wrk_run "sf|$label_full_alternating" "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" \
        "$connections" "$wrk_threads"
done
fi
bench_pair 'locations?size=5 (random, default set)' '/api/v1/locations?size=5' random_default.json
bench_pair "locations origin+radius=${radius_km}km (default set)" '/api/v1/locations' origin_default.json \
    "$work/origins_default.txt"
map_rows default 'default set'

if [[ $locations_only == 0 ]]; then

# 256 connections: the memory target, plus throughput at high concurrency.
rss_before_256=$(rss_kib "$server_pid" VmRSS)
rss_load_max=0
label256='products?offset=0&limit=10, 256 conns'
for _ in $(seq 1 "$rounds"); do
    wrk_run "sf|$label256" "http://127.0.0.1:$server_port/api/v1/products?offset=0&limit=10" 256 2 &
    wrk_bg=$!
    while kill -0 "$wrk_bg" 2>/dev/null; do
        r=$(rss_kib "$server_pid" VmRSS)
        ((r > rss_load_max)) && rss_load_max=$r
        sleep 0.2
    done
    wait "$wrk_bg"
    wrk_run "ng|$label256" "http://127.0.0.1:$nginx_port/products_0.json" 256 2
done
hwm_default=$(rss_kib "$server_pid" VmHWM)
body_bytes[$label256]=${body_bytes['products?offset=0&limit=10']}
labels+=("$label256")
nginx_rss=0
for p in $(pgrep -P "$nginx_pid") "$nginx_pid"; do
    nginx_rss=$((nginx_rss + $(rss_kib "$p" VmRSS)))
done
fi
stop_server

# --- 1,000,000 locations -----------------------------------------------------------------------------
log "storefront with $big_count locations from $big_csv"
start_server --storage "$storage" --location-file "$big_csv"
rss_idle_big=$(rss_kib "$server_pid" VmRSS)
save_body '/api/v1/locations?size=5' random_big.json
save_body "/api/v1/locations?origin=4.6482784,-74.2726198&radius=${radius_km}&size=5" origin_big.json
save_origins "$work/origins_big.txt"
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/locations?size=5" >/dev/null
bench_pair 'locations?size=5 (random, 1M set)' '/api/v1/locations?size=5' random_big.json
bench_pair "locations origin+radius=${radius_km}km (1M set)" '/api/v1/locations' origin_big.json \
    "$work/origins_big.txt"
hwm_big=$(rss_kib "$server_pid" VmHWM)
stop_server

# --- 1,000,000 generated locations: clustered around cities like the default set, so most of the map
# is far from every point (the uniform CSV above has a point near every origin).
log "storefront with $big_count generated locations"
start_server --storage "$storage" --generated-locations "$big_count"
rss_idle_gen=$(rss_kib "$server_pid" VmRSS)
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/locations?size=5" >/dev/null
map_rows big "1M generated set"
hwm_gen=$(rss_kib "$server_pid" VmHWM)
stop_server
stop_nginx

# --- report ------------------------------------------------------------------------------------------
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?') vs nginx $("$nginx_bin" -v 2>&1 |
    sed 's/.*nginx\///'): $threads server thread(s) / nginx worker(s); wrk -t$wrk_threads" \
    "-c$connections -d${duration}s, median of $rounds alternating rounds (256-connection rows: wrk -t2 -c256); storage $storage;" \
    "$(nproc) cores; uptime: $(uptime)"
echo
pair_table "$results_dir/load.dat" "${labels[@]}"
echo
if [[ $locations_only == 0 ]]; then
    cpu_us() { awk -v c="$(field "$1" cpu_ns)" -v r="$(field "$1" requests)" 'BEGIN {printf "%.1f", c / r / 1000}'; }
    full=$(row_of "sf|$label_full_alternating")
    revalidated=$(row_of "sf|$label_304")
    echo "Accept-Encoding: gzip row: both send the same $gzip_bytes gzip bytes (body B is the identity size)."
    echo "304 vs full page (storefront, products?offset=0&limit=10, alternating rounds, median round each): $(rps_row "$revalidated") vs" \
        "$(rps_row "$full") req/s, CPU $(cpu_us "$revalidated") vs $(cpu_us "$full") µs/req; wire" \
        "$(awk -v b="$(field "$revalidated" bytes)" -v r="$(field "$revalidated" requests)" 'BEGIN {printf "%.0f", b / r}') vs" \
        "$(awk -v b="$(field "$full" bytes)" -v r="$(field "$full" requests)" 'BEGIN {printf "%.0f", b / r}') B/resp."
    echo
fi
for tag in default big; do
    far=$(rps_of "sf|${far_label[$tag]}")
    city=$(rps_of "sf|${city_label[$tag]}")
    echo "far ÷ city-centre (storefront req/s, ${tag}): $far / $city = $(awk -v a="$far" -v b="$city" 'BEGIN {printf "%.2f", a / b}')"
done
echo
echo "| storefront memory | default set (100,000 generated) | 1,000,000 CSV set | 1,000,000 generated |"
echo "|---|---:|---:|---:|"
echo "| RSS idle after start-up | $(mib "$rss_idle_default") MiB | $(mib "$rss_idle_big") MiB | $(mib "$rss_idle_gen") MiB |"
echo "| RSS before the 256-connection run | $(mib "$rss_before_256") MiB | – | – |"
echo "| max RSS sampled during the 256-connection run | $(mib "$rss_load_max") MiB | – | – |"
echo "| peak RSS (VmHWM) at the end | $(mib "$hwm_default") MiB | $(mib "$hwm_big") MiB | $(mib "$hwm_gen") MiB |"
echo
echo "nginx ($threads worker(s) + master) RSS after the 256-connection run: $(mib "$nginx_rss") MiB."
echo "ratio: storefront ÷ nginx requests/s (median round each). CPU ratio: nginx ÷ storefront CPU time per"
echo "request (user + system, all threads/workers, median round each), which other load on the machine barely moves."
echo "Random and origin rows: nginx serves one representative response for every request (same URL shape"
echo "from the same wrk Lua script); storefront computes each answer. Radius ${radius_km} km, size 5, origins"
echo "sampled from the served set. Rows marked 'random origins': $map_origin_count origins drawn uniformly over latitude"
echo "-60..60 and all longitudes (bench/load/map_origins.lua), one picked at random per request on both sides; nginx"
echo "serves storefront's own answer for that origin, so both send the same bytes (Body B: the mean)."
if [[ $do_micro == 1 ]]; then
    echo
    echo "Location index vs brute force (\`storefront_micro_bench\`, uniform points, k = 5, radius 100 km), CPU µs per query:"
    echo
    echo "| n | k-d 5 nearest | brute 5 nearest | speed-up | k-d 5 nearest ≤ 100 km | k-d within 100 km | brute within 100 km | speed-up |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
    awk -F'\t' '!/^#/ {printf "| %d | %.3f | %.3f | %.0f× | %.3f | %.3f | %.3f | %.0f× |\n", $1, $2, $3, $3 / $2, $4, $5, $6, $6 / $5}' \
        "$results_dir/location_index.dat"
fi
} | tee "$results_dir/load.md"

# --- charts ------------------------------------------------------------------------------------------
if [[ $do_charts == 1 ]]; then
    bars_chart "$results_dir/load.dat" "$results_dir/load_rps.png" \
        "requests/s per path: storefront vs nginx serving the same bytes" "requests/s" 2 3
    bars_chart "$results_dir/load.dat" "$results_dir/load_p99.png" \
        "p99 latency per path: storefront vs nginx (log scale)" "p99 latency, ms" 4 5 1
    if [[ $do_micro == 1 ]]; then
        gnuplot -e "datafile='$results_dir/location_index.dat'; outfile='$results_dir/location_index.png'" \
            "$repo/bench/charts/location_index.gp"
        log "chart $results_dir/location_index.png"
    fi
fi
