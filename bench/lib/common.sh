# shellcheck shell=bash disable=SC2154,SC2034  # sourced: the caller sets the variables named below
# Shell helpers shared by the bench/run_*.sh scripts (sourced, never run): their common flags, tools, a temp
# dir with an EXIT trap that stops everything started here, free loopback ports, storefront and nginx
# start/stop, wrk runs with a machine-readable RESULT line, the plain sqlite3 loop, storefront/nginx pairs
# and the report's rows.
#
# The sourcing script sets before calling anything here: repo, threads, duration, connections, rounds,
# wrk_threads, server_bin, log_tag. Everything listens on 127.0.0.1 only.

log() { echo "[$log_tag] $*" >&2; }

# install_tools PACKAGE...: Debian packages to install when their command is missing, as "command:package"
# (apt-get, with sudo when not root). Debian starts a packaged nginx service on install; the benchmarks run
# their own instance only.
install_tools() {
    local missing=() spec cmd pkg
    for spec in "$@"; do
        cmd=${spec%%:*}
        pkg=${spec#*:}
        if [[ $cmd == /* ]]; then
            [[ -e $cmd ]] || missing+=("$pkg")
        else
            command -v "$cmd" >/dev/null || [[ -x /usr/sbin/$cmd ]] || missing+=("$pkg")
        fi
    done
    [[ ${#missing[@]} -gt 0 ]] || return 0
    local sudo=""
    [[ $(id -u) == 0 ]] || sudo=sudo
    log "installing ${missing[*]}"
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2 ||
        { $sudo apt-get update >&2 && $sudo apt-get install -y --no-install-recommends "${missing[@]}" >&2; }
}
# What both scripts need; gnuplot-nox draws the charts (no X libraries).
common_tools=(wrk:wrk nginx:nginx-light curl:curl cmake:cmake gnuplot:gnuplot-nox python3:python3)

# build_as_shipped DIR BENCH(0|1) TARGET...: configure DIR as the README, quickstart and the Debian package
# build (RelWithDebInfo: what users run is what is measured), with the micro benchmarks when BENCH is 1, and
# build TARGETs with -j2.
build_as_shipped() {
    local dir=$1 bench=$2
    shift 2
    log "building RelWithDebInfo in $dir: $*"
    cmake -S "$repo" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTOREFRONT_BUILD_BENCH="$bench" >&2
    cmake --build "$dir" -j2 --target "$@" >&2
}

# --- flags ------------------------------------------------------------------------------------------
# bench_flags HELP_LINES STORAGE_DEFAULT|- ARGS...: the flags every benchmark takes (--threads, --duration,
# --connections, --rounds, --server-bin, --build-dir, --no-build, --no-install, -h; --storage unless the
# second argument is "-", which is otherwise the default of `storage`). Sets threads, duration, connections,
# rounds (environment THREADS, DURATION, CONNECTIONS, ROUNDS), server_bin (empty unless given), build_dir
# (BUILD_DIR), storage, do_build, do_install and wrk_threads. Any other argument goes to the script's own
# function `own_flag ARGS...` when it defines one: it sets what the argument says and tells how many
# arguments it took in `took` (0: not one of its flags, an unknown argument).
bench_flags() {
    local help_lines=$1 storage_default=$2
    shift 2
    threads=${THREADS:-1}
    duration=${DURATION:-3}
    connections=${CONNECTIONS:-64}
    rounds=${ROUNDS:-7}
    server_bin=""
    build_dir=${BUILD_DIR:-$repo/build-bench}
    storage=""
    [[ $storage_default == - ]] || storage=$storage_default
    do_build=1
    do_install=1
    while [[ $# -gt 0 ]]; do
        case $1 in
            --threads) threads=$2; shift 2 ;;
            --duration) duration=$2; shift 2 ;;
            --connections) connections=$2; shift 2 ;;
            --rounds) rounds=$2; shift 2 ;;
            --server-bin) server_bin=$2; shift 2 ;;
            --build-dir) build_dir=$2; shift 2 ;;
            --no-build) do_build=0; shift ;;
            --no-install) do_install=0; shift ;;
            --storage) [[ $storage_default != - ]] || { echo "unknown argument: $1" >&2; exit 2; }
                storage=$2; shift 2 ;;
            -h|--help) sed -n "$help_lines" "$0"; exit 0 ;;
            *)
                took=0
                ! declare -F own_flag >/dev/null || own_flag "$@"
                ((took > 0)) || { echo "unknown argument: $1" >&2; exit 2; }
                shift "$took" ;;
        esac
    done
    wrk_threads=$(( threads < 2 ? 1 : 2 ))
}

# require_bin PATH: exits unless PATH is an executable (built, or given).
require_bin() {
    [[ -x $1 ]] || { echo "no $1 (build first or drop --no-build)" >&2; exit 1; }
}

# --- the single-purpose scripts (run_caching.sh, run_items.sh, ...) -----------------------------------
# small_bench_setup LOG_TAG HELP_LINES storage|- ARGS...: bench_flags (with --storage, empty by default, when
# the third argument is "storage"), the tools, the build of storefront as shipped unless --server-bin names
# one, and server_bin.
small_bench_setup() {
    log_tag=$1
    local help_lines=$2 storage_default=-
    [[ $3 != storage ]] || storage_default=""
    shift 3
    bench_flags "$help_lines" "$storage_default" "$@"
    [[ -z $server_bin ]] || do_build=0
    [[ $do_install == 0 ]] || install_tools "${common_tools[@]}"
    [[ $do_build == 0 ]] || build_as_shipped "$build_dir" 0 storefront
    server_bin=${server_bin:-$build_dir/server/storefront}
    require_bin "$server_bin"
}

# --- temp dir and clean-up of everything started here ------------------------------------------------
server_pid=""
nginx_pid=""
writer_pid=""
extra_pids=()  # more processes to stop on exit (a second storefront, a background wrk)
work=""
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
stop_extra() {
    local p
    for p in "${extra_pids[@]}"; do
        kill -TERM "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    extra_pids=()
}
bench_cleanup() {
    if [[ -n $writer_pid ]]; then kill "$writer_pid" 2>/dev/null || true; fi
    stop_extra
    stop_server
    stop_nginx
    [[ -z $work ]] || rm -rf "$work"
}
# make_work PREFIX: the temp dir ($work) and the trap; call once, early.
make_work() {
    work=$(mktemp -d "/tmp/$1.XXXXXX")
    chmod 755 "$work"  # nginx workers run as an unprivileged user when started as root
    mkdir -p "$work/static"
    : >"$work/results"
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}

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

# Starts storefront with extra arguments; sets server_pid and server_port. As shipped: metrics on and the
# access log on, its lines going to a file as they would go to journald (ACCESS_LOG=false turns it off).
start_server() {
    server_port=$(free_port)
    "$server_bin" --address 127.0.0.1 --port "$server_port" --threads "$threads" \
        --access-log "${ACCESS_LOG:-true}" "$@" >>"$work/server.log" 2>&1 &
    server_pid=$!
    wait_port "$server_port" || { tail -n 5 "$work/server.log" >&2; return 1; }
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
    # Tuned as users serving static files tune it: descriptors and sizes cached, connections kept.
    keepalive_requests 100000;
    open_file_cache max=10000 inactive=60s;
    open_file_cache_valid 60s;
    open_file_cache_errors on;
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
        # The compressed rows: <file>.gz, made once beforehand, for Accept-Encoding: gzip.
        location /gz/ {
            gzip_static on;
            add_header Access-Control-Allow-Origin "*";
            add_header X-Content-Type-Options nosniff;
            add_header Vary Accept-Encoding;
        }
    }
}
EOF
    chmod -R a+rX "$work/static"
    "$nginx_bin" -p "$work/nginx" -c "$work/nginx/nginx.conf" -e "$work/nginx/error.log" &
    nginx_pid=$!
    wait_port "$nginx_port"
}
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

# CPU clock ticks (user + system, all threads) used so far by the server behind NAME: "sf|…" storefront,
# "ng|…" nginx and its workers, any other "TAG|…" the processes listed in the variable TAG_pids (e.g. pub_pids).
cpu_ticks() {
    local pids total=0 p var
    case $1 in
        sf\|*) pids=$server_pid ;;
        ng\|*) pids="$nginx_pid $(pgrep -P "$nginx_pid" | tr '\n' ' ')" ;;
        *) var=${1%%|*}_pids; pids=${!var} ;;
    esac
    for p in $pids; do
        total=$((total + $(awk '{print $14 + $15}' "/proc/$p/stat")))
    done
    echo "$total"
}

# Extra request headers for every wrk run while set, e.g. wrk_headers=(-H 'Accept-Encoding: gzip').
wrk_headers=()

# wrk_run NAME URL CONNS WRK_THREADS [lua args...] -> appends "NAME key=value..." to $work/results, with
# the server's CPU time per request (robust against other load on the machine, unlike requests/s).
# A first lua argument "map:" selects map_origins.lua, "write:" write.lua, "graphql:" graphql.lua, "pages:"
# pages.lua; other arguments origin.lua.
wrk_run() {
    local name=$1 url=$2 conns=$3 wthreads=$4
    shift 4
    local script=$repo/bench/load/report.lua
    if [[ $# -gt 0 ]]; then
        script=$repo/bench/load/origin.lua
        case $1 in
            map:) script=$repo/bench/load/map_origins.lua; shift ;;
            write:) script=$repo/bench/load/write.lua; shift ;;
            graphql:) script=$repo/bench/load/graphql.lua; shift ;;
            pages:) script=$repo/bench/load/pages.lua; shift ;;
        esac
    fi
    local line before after
    before=$(cpu_ticks "$name")
    # timeout: a wedged wrk must not hang the benchmark (wrk stops itself after -d).
    line=$(timeout $((duration + 30)) wrk -t"$wthreads" -c"$conns" -d"${duration}s" --timeout 5s -s "$script" \
        ${wrk_headers[@]+"${wrk_headers[@]}"} "$url" ${1+--} "$@" | grep '^RESULT') ||
        { echo "wrk failed for $name" >&2; return 1; }
    after=$(cpu_ticks "$name")
    # The access log grows by ~10 MB/s under load: keep only its last quarter GiB (appended, so truncating
    # it is safe while the server writes).
    if [[ -f $work/server.log ]] && (($(stat -c %s "$work/server.log") > 256 * 1024 * 1024)); then
        : >"$work/server.log"
    fi
    line="$line cpu_ns=$(( (after - before) * 1000000000 / $(getconf CLK_TCK) ))"
    echo "$name ${line#RESULT }" >>"$work/results"
    log "$name ${line#RESULT }"
}

# timed_sqlite_loop FILE INPUT: the plain loop the write benchmarks compare with: INPUT's transactions
# through the sqlite3 CLI on FILE for $duration s (INPUT holds more than that can commit; it is stopped by
# time). FILE's WAL is checkpointed first, so the timed loop does not pay for the server's. Sets loop_us.
timed_sqlite_loop() {
    local start end
    sqlite3 "$1" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
    start=$(date +%s%N)
    timeout "$duration" sqlite3 "$1" <"$2" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    loop_us=$(( (end - start) / 1000 ))
}

# Saves the body storefront answers for PATH as static file FILE.
save_body() {
    curl -sf "http://127.0.0.1:$server_port$1" -o "$work/static/$2"
}

declare -A body_bytes
labels=()

# bench_pair LABEL SERVER_PATH STATIC_FILE [origins-file]: storefront and nginx alternately, $rounds times
# each, same settings; the report shows each side's median round with the min–max of all rounds.
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

# --- report ------------------------------------------------------------------------------------------
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" <<<" $1"; }
# Every round of NAME exactly (not of another name that starts with it: "products/7 while a client writes").
rounds_of() { awk -v p="$1 requests=" 'index($0, p) == 1' "$work/results"; }
# The median round of NAME by FIELD per second (default: all answers): single rounds swing by ±30 % on this
# machine, so neither the best nor one round says much; the middle of 7 or more alternating rounds does.
row_of() {
    local counter=${2:-requests}
    rounds_of "$1" | awk -v k="$counter=" '{
        c = 0; d = 1
        for (i = 1; i <= NF; i++) {
            if (index($i, k) == 1) { c = substr($i, length(k) + 1) }
            if ($i ~ /^duration_us=/) { d = substr($i, 13) }
        }
        printf "%.9f\t%s\n", c / d, $0
    }' | sort -g | awk -F '\t' '{ rows[NR] = $2 } END { if (NR > 0) print rows[int((NR + 1) / 2)] }'
}
# rates_of FIELD NAME: FIELD per second (FIELD ÷ duration_us) of NAME's rounds, in the order they ran.
rates_of() {
    rounds_of "$2" | awk -v key="$1=" '{
        n = 0; d = 1
        for (i = 1; i <= NF; i++) {
            if (index($i, key) == 1) { n = substr($i, length(key) + 1) }
            if ($i ~ /^duration_us=/) { d = substr($i, 13) }
        }
        print n / d * 1e6
    }'
}
# rate_range FIELD NAME: "min–max" of rates_of, to show how far the rounds spread around the median.
rate_range() {
    rates_of "$1" "$2" | sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.0f–%.0f", lo, hi }'
}
rps_range() { rate_range requests "$1"; }
fmt_ms() { awk -v u="$1" 'BEGIN {printf "%.2f", u / 1000}'; }
# The server's CPU µs per request of a RESULT row.
cpu_us() { awk -v c="$(field "$1" cpu_ns)" -v r="$(field "$1" requests)" 'BEGIN {printf "%.1f", c / r / 1000}'; }
# rps_list NAME: requests/s of NAME's rounds, in the order they ran.
rps_list() { rates_of requests "$1"; }
# round_ratio A B: the median over rounds of A's req/s ÷ B's in the same round (robust against the load of
# other work drifting between rounds, which moves both sides of a round together).
round_ratio() {
    paste <(rps_list "$1") <(rps_list "$2") | awk '{ print $1 / $2 }' | sort -g |
        awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] }'
}
# Rows created per second in the median round of NAME (by created=), and "min–max" over its rounds: the
# write benchmarks' rows, the server's and the plain loop's alike.
created_per_s() {
    local row
    row=$(row_of "$1" created)
    awk -v c="$(field "$row" created)" -v d="$(field "$row" duration_us)" 'BEGIN {printf "%.0f", c / d * 1e6}'
}
created_per_s_range() { rate_range created "$1"; }
# Requests per second of a RESULT row.
rps_row() { awk -v r="$(field "$1" requests)" -v d="$(field "$1" duration_us)" 'BEGIN {printf "%.0f", r / d * 1e6}'; }
rps_of() { rps_row "$(row_of "$1")"; }

# pair_table DATFILE LABEL...: the markdown table of storefront/nginx pairs on stdout, and one tab-separated
# line per pair in DATFILE for the charts: label, sf req/s, nginx req/s, sf p99 ms, nginx p99 ms, ratio.
pair_table() {
    local dat=$1 label sf ng sf_rps ng_rps ratio p99_ratio sf_cpu ng_cpu cpu_ratio sf_wire ng_wire
    shift
    printf '# label\tstorefront_rps\tnginx_rps\tstorefront_p99_ms\tnginx_p99_ms\tratio\n' >"$dat"
    echo "| path | storefront req/s (min–max) | nginx req/s (min–max) | ratio | sf p50 / p99 ms | nginx p50 / p99 ms | p99 ratio | body B | CPU µs/req sf / nginx | CPU ratio | wire B/resp sf / nginx | non-2xx sf / nginx |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for label in "$@"; do
        sf=$(row_of "sf|$label")
        ng=$(row_of "ng|$label")
        sf_rps=$(rps_row "$sf")
        ng_rps=$(rps_row "$ng")
        ratio=$(awk -v a="$sf_rps" -v b="$ng_rps" 'BEGIN {printf "%.2f", a / b}')
        p99_ratio=$(awk -v a="$(field "$sf" p99_us)" -v b="$(field "$ng" p99_us)" 'BEGIN {printf "%.2f", a / b}')
        sf_cpu=$(awk -v c="$(field "$sf" cpu_ns)" -v r="$(field "$sf" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
        ng_cpu=$(awk -v c="$(field "$ng" cpu_ns)" -v r="$(field "$ng" requests)" 'BEGIN {printf "%.1f", c / r / 1000}')
        cpu_ratio=$(awk -v a="$sf_cpu" -v b="$ng_cpu" 'BEGIN {printf "%.2f", b / a}')
        sf_wire=$(awk -v b="$(field "$sf" bytes)" -v r="$(field "$sf" requests)" 'BEGIN {printf "%.0f", b / r}')
        ng_wire=$(awk -v b="$(field "$ng" bytes)" -v r="$(field "$ng" requests)" 'BEGIN {printf "%.0f", b / r}')
        echo "| \`$label\` | $sf_rps ($(rps_range "sf|$label")) | $ng_rps ($(rps_range "ng|$label")) | **${ratio}×** | $(fmt_ms "$(field "$sf" p50_us)") / $(fmt_ms "$(field "$sf" p99_us)") |" \
            "$(fmt_ms "$(field "$ng" p50_us)") / $(fmt_ms "$(field "$ng" p99_us)") | ${p99_ratio}× | ${body_bytes[$label]} |" \
            "$sf_cpu / $ng_cpu | ${cpu_ratio}× | $sf_wire / $ng_wire | $(field "$sf" non2xx) / $(field "$ng" non2xx) |"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$sf_rps" "$ng_rps" "$(fmt_ms "$(field "$sf" p99_us)")" \
            "$(fmt_ms "$(field "$ng" p99_us)")" "$ratio" >>"$dat"
    done
}

# bars_chart DATFILE PNG TITLE XLABEL COLUMN_A COLUMN_B [LOGX [NAME_A NAME_B]]: bench/charts/bars.gp,
# column A (storefront) beside column B (nginx) per row of a tab-separated data file (pair_table's).
bars_chart() {
    local names=""
    [[ -z ${8:-} ]] || names="; name_a='$8'; name_b='$9'"
    gnuplot -e "datafile='$1'; outfile='$2'; plottitle='$3'; xlabel='$4'; col_a=$5; col_b=$6; logx=${7:-0}$names" \
        "$repo/bench/charts/bars.gp"
    log "chart $2"
}
