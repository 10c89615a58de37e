#!/usr/bin/env bash
# Load benchmark: storefront against nginx serving the same response bytes as static files, same machine,
# same run, equal threads/workers. Prints a markdown table. Loopback only; stops everything it started.
#
#   bench/run_load.sh [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                     [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install] [--locations-only]
#
# Environment equivalents: THREADS, DURATION, CONNECTIONS, ROUNDS, BUILD_DIR. See bench/README.md.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
threads=${THREADS:-1}
duration=${DURATION:-5}
connections=${CONNECTIONS:-64}
rounds=${ROUNDS:-2}
server_bin=""
build_dir=${BUILD_DIR:-$repo/build-bench}
do_build=1
do_install=1
big_count=1000000
radius_km=100
map_radius_km=1000  # the within-radius rows over uniformly random origins
map_origin_count=2000
locations_only=0

while [[ $# -gt 0 ]]; do
    case $1 in
        --threads) threads=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --rounds) rounds=$2; shift 2 ;;
        --server-bin) server_bin=$2; do_build=0; shift 2 ;;
        --build-dir) build_dir=$2; shift 2 ;;
        --no-build) do_build=0; shift ;;
        --no-install) do_install=0; shift ;;
        --locations-only) locations_only=1; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
wrk_threads=$(( threads < 2 ? 1 : 2 ))

log() { echo "[run_load] $*" >&2; }

# --- tools -------------------------------------------------------------------------------------------
if [[ $do_install == 1 ]]; then
    missing=()
    command -v wrk >/dev/null || missing+=(wrk)
    command -v nginx >/dev/null || [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
    command -v curl >/dev/null || missing+=(curl)
    command -v cmake >/dev/null || missing+=(cmake)
    if [[ ${#missing[@]} -gt 0 ]]; then
        sudo=""
        [[ $(id -u) == 0 ]] || sudo=sudo
        log "installing ${missing[*]}"
        $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
            { $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
        # Debian starts the packaged nginx service on install; this benchmark runs its own instance only.
    fi
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

# --- build -------------------------------------------------------------------------------------------
if [[ $do_build == 1 ]]; then
    log "building Release in $build_dir"
    cmake -S "$repo" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >&2
    cmake --build "$build_dir" -j2 --target storefront >&2
fi
server_bin=${server_bin:-$build_dir/server/storefront}
[[ -x $server_bin ]] || { echo "no $server_bin (build first or drop --no-build)" >&2; exit 1; }

big_csv=$build_dir/bench-locations-$big_count.csv
if [[ ! -s $big_csv ]]; then
    log "generating $big_count locations into $big_csv"
    c++ -O2 -std=c++20 "$repo/bench/load/gen_locations.cpp" -o "$build_dir/gen_locations"
    "$build_dir/gen_locations" "$big_count" "$big_csv.tmp"
    mv "$big_csv.tmp" "$big_csv"
fi

# --- clean-up of everything started here -------------------------------------------------------------
work=$(mktemp -d /tmp/storefront-load.XXXXXX)
chmod 755 "$work"  # nginx workers run as an unprivileged user when started as root
server_pid=""
nginx_pid=""
writer_pid=""
stop_server() {
    if [[ -n $server_pid ]]; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
        server_pid=""
    fi
}
stop_nginx() {
    if [[ -n $nginx_pid ]]; then
        kill -QUIT "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
        nginx_pid=""
    fi
}
cleanup() {
    if [[ -n $writer_pid ]]; then kill "$writer_pid" 2>/dev/null || true; fi
    stop_server
    stop_nginx
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

wait_port() {
    for _ in $(seq 1 300); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "nothing listens on port $1" >&2
    return 1
}

# Starts storefront with extra arguments; sets server_pid and server_port.
start_server() {
    server_port=$(free_port)
    "$server_bin" --address 127.0.0.1 --port "$server_port" --threads "$threads" --access-log false \
        "$@" >"$work/server.log" 2>&1 &
    server_pid=$!
    wait_port "$server_port"
}

rss_kib() { awk -v k="$2" '$1 == k":" {print $2}' "/proc/$1/status"; }
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }

start_nginx() {
    nginx_port=$(free_port)
    mkdir -p "$work/nginx/tmp"
    cat >"$work/nginx/nginx.conf" <<EOF
worker_processes $threads;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
daemon off;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    tcp_nodelay on;
    keepalive_timeout 65;
    keepalive_requests 1000;
    etag off;
    client_body_temp_path $work/nginx/tmp/body;
    proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi;
    uwsgi_temp_path $work/nginx/tmp/uwsgi;
    scgi_temp_path $work/nginx/tmp/scgi;
    types { }
    default_type "application/json; charset=utf-8";
    server {
        listen 127.0.0.1:$nginx_port reuseport;
        root $work/static;
        add_header Access-Control-Allow-Origin "*";
        add_header X-Content-Type-Options nosniff;
    }
}
EOF
    chmod -R a+rX "$work/static"
    "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
    nginx_pid=$!
    wait_port "$nginx_port"
}

# CPU clock ticks (user + system, all threads) used so far by the server behind NAME ("sf|…" or "ng|…").
cpu_ticks() {
    local pids total=0 p
    if [[ $1 == sf\|* ]]; then pids=$server_pid; else pids="$nginx_pid $(pgrep -P "$nginx_pid" | tr '\n' ' ')"; fi
    for p in $pids; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
    done
    echo "$total"
}

# wrk_run NAME URL CONNS WRK_THREADS [lua args...] -> appends "NAME key=value..." to $work/results, with
# the server's CPU time per request (robust against other load on the machine, unlike requests/s).
wrk_run() {
    local name=$1 url=$2 conns=$3 wthreads=$4
    shift 4
    local script=$repo/bench/load/report.lua
    if [[ $# -gt 0 ]]; then
        script=$repo/bench/load/origin.lua
        if [[ $1 == map: ]]; then
            script=$repo/bench/load/map_origins.lua
            shift
        fi
    fi
    local line before after
    before=$(cpu_ticks "$name")
    line=$(wrk -t"$wthreads" -c"$conns" -d"${duration}s" --timeout 5s -s "$script" "$url" ${1+--} "$@" |
        grep '^RESULT') || { echo "wrk failed for $name" >&2; return 1; }
    after=$(cpu_ticks "$name")
    line="$line cpu_ns=$(( (after - before) * 1000000000 / $(getconf CLK_TCK) ))"
    echo "$name ${line#RESULT }" >>"$work/results"
    log "$name ${line#RESULT }"
}

# Saves the body storefront answers for PATH as static file FILE.
save_body() {
    curl -sf "http://127.0.0.1:$server_port$1" -o "$work/static/$2"
}

# Origins "lat,lng" taken from random samples of the served set, so every search finds neighbours.
save_origins() {
    : >"$1"
    for _ in $(seq 1 20); do
        curl -sf "http://127.0.0.1:$server_port/api/v1/locations?size=50" |
            grep -o '"latitude":[-0-9.e]*,"longitude":[-0-9.e]*' |
            sed 's/"latitude":\([^,]*\),"longitude":\(.*\)/\1,\2/' >>"$1"
    done
}

# bench_pair LABEL SERVER_PATH STATIC_FILE [origins-file]: storefront and nginx alternately, $rounds times
# each, same settings; the report keeps each side's best round (other load on the machine only slows).
bench_pair() {
    local label=$1 path=$2 file=$3 origins=${4:-}
    for _ in $(seq 1 "$rounds"); do
        if [[ -n $origins ]]; then
            wrk_run "sf|$label" "http://127.0.0.1:$server_port" "$connections" "$wrk_threads" \
                "$path" "$origins" "$radius_km"
            wrk_run "ng|$label" "http://127.0.0.1:$nginx_port" "$connections" "$wrk_threads" \
                "/$file" "$origins" "$radius_km"
        else
            wrk_run "sf|$label" "http://127.0.0.1:$server_port$path" "$connections" "$wrk_threads"
            wrk_run "ng|$label" "http://127.0.0.1:$nginx_port/$file" "$connections" "$wrk_threads"
        fi
    done
    body_bytes[$label]=$(stat -c %s "$work/static/$file")
    labels+=("$label")
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

# A client that keeps writing while a pair runs: creates a product, deletes it, again, so every read of
# the products page meets a freshly invalidated cache (the worst case of the write path). Sets writer_pid.
start_writer() {
    local port=$1
    : >"$work/writes"
    (
        while :; do
            id=$(curl -s -X POST -H 'Content-Type: application/json' \
                -d '{"title":"Bench Writer","price":1,"description":"d","categoryId":1,"images":["https://x.com/a.png"]}' \
                "http://127.0.0.1:$port/api/v1/products" | sed -n 's/^{"id":\([0-9]*\).*/\1/p')
            [[ -n $id ]] && curl -s -o /dev/null -X DELETE "http://127.0.0.1:$port/api/v1/products/$id" &&
                echo >>"$work/writes"
        done
    ) &
    writer_pid=$!
}
stop_writer() {
    kill "$writer_pid" 2>/dev/null || true
    wait "$writer_pid" 2>/dev/null || true
    writer_pid=""
    log "writer: $(wc -l <"$work/writes") create+delete pairs"
}

declare -A body_bytes city_label far_label
labels=()
rss_before_256=0
rss_load_max=0
hwm_default=0
nginx_rss=0
mkdir -p "$work/static"
: >"$work/results"

# --- default data set --------------------------------------------------------------------------------
log "storefront (default data set), $threads thread(s); wrk -t$wrk_threads -c$connections -d${duration}s"
start_server
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
start_server --location-file "$big_csv"
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
start_server --generated-locations "$big_count"
rss_idle_gen=$(rss_kib "$server_pid" VmRSS)
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/locations?size=5" >/dev/null
map_rows big "1M generated set"
hwm_gen=$(rss_kib "$server_pid" VmHWM)
stop_server
stop_nginx

# --- report ------------------------------------------------------------------------------------------
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<" $1"; }
# The best round (highest requests/s) of NAME.
row_of() {
    grep -F "$1 " "$work/results" | awk '{
        r = 0; d = 1
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^requests=/) { r = substr($i, 10) }
            if ($i ~ /^duration_us=/) { d = substr($i, 13) }
        }
        if (r / d > best) { best = r / d; line = $0 }
    } END { print line }'
}
fmt_ms() { awk -v u="$1" 'BEGIN {printf "%.2f", u / 1000}'; }

echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?') vs nginx $("$nginx_bin" -v 2>&1 |
    sed 's/.*nginx\///'): $threads server thread(s) / nginx worker(s); wrk -t$wrk_threads" \
    "-c$connections -d${duration}s, best of $rounds alternating rounds (256-connection rows: wrk -t2 -c256); $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| path | storefront req/s | nginx req/s | ratio | sf p50 / p99 ms | nginx p50 / p99 ms | p99 ratio | body B | CPU µs/req sf / nginx | CPU ratio | wire B/resp sf / nginx | non-2xx sf / nginx |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for label in "${labels[@]}"; do
    sf=$(row_of "sf|$label")
    ng=$(row_of "ng|$label")
    sf_rps=$(awk -v r="$(field "$sf" requests)" -v d="$(field "$sf" duration_us)" 'BEGIN {printf "%.0f", r / d * 1e6}')
    ng_rps=$(awk -v r="$(field "$ng" requests)" -v d="$(field "$ng" duration_us)" 'BEGIN {printf "%.0f", r / d * 1e6}')
    ratio=$(awk -v a="$sf_rps" -v b="$ng_rps" 'BEGIN {printf "%.2f", a / b}')
    p99_ratio=$(awk -v a="$(field "$sf" p99_us)" -v b="$(field "$ng" p99_us)" 'BEGIN {printf "%.2f", a / b}')
    sf_cpu=$(awk -v c="$(field "$sf" cpu_ns)" -v r="$(field "$sf" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
    ng_cpu=$(awk -v c="$(field "$ng" cpu_ns)" -v r="$(field "$ng" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
    cpu_ratio=$(awk -v a="$sf_cpu" -v b="$ng_cpu" 'BEGIN {printf "%.2f", b / a}')
    sf_wire=$(awk -v b="$(field "$sf" bytes)" -v r="$(field "$sf" requests)" 'BEGIN {printf "%.0f", b / r}')
    ng_wire=$(awk -v b="$(field "$ng" bytes)" -v r="$(field "$ng" requests)" 'BEGIN {printf "%.0f", b / r}')
    echo "| \`$label\` | $sf_rps | $ng_rps | **${ratio}×** | $(fmt_ms "$(field "$sf" p50_us)") / $(fmt_ms "$(field "$sf" p99_us)") |" \
        "$(fmt_ms "$(field "$ng" p50_us)") / $(fmt_ms "$(field "$ng" p99_us)") | ${p99_ratio}× | ${body_bytes[$label]} |" \
        "$sf_cpu / $ng_cpu | ${cpu_ratio}× | $sf_wire / $ng_wire | $(field "$sf" non2xx) / $(field "$ng" non2xx) |"
done
echo
rps_of() {
    local row
    row=$(row_of "sf|$1")
    awk -v r="$(field "$row" requests)" -v d="$(field "$row" duration_us)" 'BEGIN {printf "%.0f", r / d * 1e6}'
}
for tag in default big; do
    far=$(rps_of "${far_label[$tag]}")
    city=$(rps_of "${city_label[$tag]}")
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
echo "ratio: storefront ÷ nginx requests/s (best round each). CPU ratio: nginx ÷ storefront CPU time per"
echo "request (user + system, all threads/workers, best round each), which other load on the machine barely moves."
echo "Random and origin rows: nginx serves one representative response for every request (same URL shape"
echo "from the same wrk Lua script); storefront computes each answer. Radius ${radius_km} km, size 5, origins"
echo "sampled from the served set. Rows marked 'random origins': $map_origin_count origins drawn uniformly over latitude"
echo "-60..60 and all longitudes (bench/load/map_origins.lua), one picked at random per request on both sides; nginx"
echo "serves storefront's own answer for that origin, so both send the same bytes (Body B: the mean)."
