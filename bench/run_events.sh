#!/usr/bin/env bash
# Change feed benchmark (issue 43), on SQLite as shipped (a fresh file in the temp dir; --storage to change),
# loopback only; stops everything it started, also on failure. Prints a markdown report.
#
#   bench/run_events.sh [--threads N] [--duration SECONDS] [--connections N] [--rounds N] [--storage SPEC]
#                       [--build-dir DIR] [--server-bin PATH] [--driver-bin PATH] [--no-build] [--no-install]
#                       (environment SUBSCRIBERS="100 1000 10000", THREAD_SETS="1 default", WRITES=30,
#                        INTERVAL_MS=100, HOLD_SUBSCRIBERS=1000, STALLED_SUBSCRIBERS=1000)
#
# 1. Delivery latency: for each server thread setting of THREAD_SETS ("default" = storefront's own, one per
#    core) and each N of SUBSCRIBERS, bench/load/sse_latency.cpp opens N SSE subscribers
#    (`?types=product.created`) from one process, waits until /metrics counts all N, then runs --rounds
#    rounds of WRITES creates (POST /api/v1/products with the seed admin's token, INTERVAL_MS apart, on one
#    keep-alive connection). Per subscriber and event: receipt time minus the time the 201 arrived (commit
#    acknowledged; negative when the event overtook the answer) and minus the time the POST was sent (the
#    upper bound). The table gives the median round (by p99 from the answer) with the min–max of the rounds.
# 2. Throughput: wrk on GET /api/v1/products?offset=0&limit=10 (--threads, default 1) while HOLD_SUBSCRIBERS
#    idle subscribers are connected (sse_latency --hold) against the page alone, --rounds alternating rounds.
# 3. The worst case a client can send the feed: STALLED_SUBSCRIBERS subscribers that stop reading after the
#    head (sse_latency --stall: smallest receive buffers) while one client creates and deletes products
#    (bench/load/write.lua churn, as goal 3's page under a writer): the products page then against the page
#    under the same writer without them, --rounds alternating rounds; per round, the streams the server
#    closed as overflowed (storefront_event_overflow_closes_total), the server's largest RSS, and how long
#    after the writer stopped the server still counted them (it closes a stream whose last write does not
#    complete within --write-timeout, 30 s as shipped, and is not waited for longer than 45 s). 0 skips it.
#
# The server runs with the shipped connection limits (--max-connections and --events-max-connections both
# 10,000; a stream does not count against --max-connections). RLIMIT_NOFILE is raised to the hard limit for
# the server and the driver (both need > N).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command_line="bench/run_events.sh $*"
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
log_tag=run_events
driver_bin=""
own_flag() {
    took=0
    [[ $1 != --driver-bin ]] || { driver_bin=$2; took=2; }
}
bench_flags '2,24p' '' "$@"
subscriber_counts=${SUBSCRIBERS:-100 1000 10000}
thread_sets=${THREAD_SETS:-1 default}
writes=${WRITES:-30}
interval_ms=${INTERVAL_MS:-100}
hold_subscribers=${HOLD_SUBSCRIBERS:-1000}
stalled_subscribers=${STALLED_SUBSCRIBERS:-1000}

# The driver lives in bench/CMakeLists.txt, built with the micro benchmarks (Google Benchmark).
[[ $do_install == 0 ]] || install_tools "${common_tools[@]}" /usr/include/benchmark/benchmark.h:libbenchmark-dev
if [[ $do_build == 1 && ( -z $server_bin || -z $driver_bin ) ]]; then
    build_as_shipped "$build_dir" 1 storefront sse_latency
fi
server_bin=${server_bin:-$build_dir/server/storefront}
driver_bin=${driver_bin:-$build_dir/bench/sse_latency}
require_bin "$server_bin"
require_bin "$driver_bin"

largest=$hold_subscribers
for n in $subscriber_counts; do ((n > largest)) && largest=$n; done
ulimit -n "$(ulimit -Hn)"
(($(ulimit -n) >= largest + 1000)) ||
    { echo "RLIMIT_NOFILE hard limit $(ulimit -Hn) is too low for $largest subscribers" >&2; exit 1; }

make_work storefront-events
STOREFRONT_ACCESS_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
STOREFRONT_REFRESH_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export STOREFRONT_ACCESS_SECRET STOREFRONT_REFRESH_SECRET
db_count=0
# start_events_server THREADS: storefront on a fresh store, product writes for admins only (a shared
# instance's policy), room for every subscriber plus the writer and wrk.
start_events_server() {
    local saved=$threads spec=$storage
    threads=$1
    db_count=$((db_count + 1))
    [[ -n $spec ]] || spec="sqlite:$work/events-$db_count.db"
    start_server --storage "$spec" --write-policy roles
    threads=$saved
    base="http://127.0.0.1:$server_port"
}
admin_token() {
    curl -sf -X POST -H 'Content-Type: application/json' \
        -d '{"email":"admin@mail.com","password":"admin123"}' "$base/api/v1/auth/login" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])'
}
subscribers_now() { curl -sf "$base/metrics" | awk '$1 == "storefront_event_subscribers" {print $2}'; }
wait_no_subscribers() {
    for _ in $(seq 1 200); do
        [[ $(subscribers_now) == 0 ]] && return 0
        sleep 0.05
    done
    echo "subscribers still counted: $(subscribers_now)" >&2
    return 1
}

# hold_subscribers_in_background N MODE (--hold or --stall): the driver holding N subscribers, in extra_pids,
# once every one is connected (it prints READY).
hold_subscribers_in_background() {
    "$driver_bin" --port "$server_port" --subscribers "$1" "$2" >"$work/hold.out" 2>"$work/hold.err" &
    local pid=$!
    extra_pids+=("$pid")
    for _ in $(seq 1 600); do
        grep -q '^READY' "$work/hold.out" && return 0
        kill -0 "$pid" 2>/dev/null || { cat "$work/hold.err" >&2; exit 1; }
        sleep 0.05
    done
    echo "the subscribers ($2) never connected" >&2
    exit 1
}

# --- 1. delivery latency ------------------------------------------------------------------------------
: >"$work/latency"
for set in $thread_sets; do
    t=$set
    [[ $set == default ]] && t=0
    start_events_server "$t"
    token=$(admin_token)
    for n in $subscriber_counts; do
        log "latency: threads $set, $n subscribers, $rounds rounds of $writes writes ${interval_ms} ms apart"
        rss_idle=$(rss_kib "$server_pid" VmRSS)
        cpu_before=$(cpu_ticks "sf|")
        BENCH_TOKEN=$token timeout 900 "$driver_bin" --port "$server_port" --subscribers "$n" --writes "$writes" \
            --interval-ms "$interval_ms" --rounds "$rounds" >"$work/driver.out" 2>"$work/driver.err" &
        driver_pid=$!
        extra_pids+=("$driver_pid")
        # The server's RSS while the subscribers are connected: sampled every 0.2 s, the largest kept.
        rss_max=0
        while kill -0 "$driver_pid" 2>/dev/null; do
            r=$(rss_kib "$server_pid" VmRSS)
            ((r > rss_max)) && rss_max=$r
            sleep 0.2
        done
        wait "$driver_pid" || { cat "$work/driver.err" >&2; exit 1; }
        extra_pids=()
        # The server's CPU time (user + system, all threads) per event copy delivered, over the whole run
        # (connecting and the creates included): what the machine's other load barely moves.
        copy_ns=$(( ($(cpu_ticks "sf|") - cpu_before) * 1000000000 / $(getconf CLK_TCK) / (n * writes * rounds) ))
        sed "s/^RESULT /threads=$set rss_idle_kib=$rss_idle rss_kib=$rss_max copy_ns=$copy_ns /" "$work/driver.out" |
            tee -a "$work/latency" >&2
        wait_no_subscribers
    done
    stop_server
done

# --- 2. the products page with and without subscribers ------------------------------------------------
start_events_server "$threads"
page="$base/api/v1/products?offset=0&limit=10"
wrk -t1 -c"$connections" -d1s "$page" >/dev/null
with_label="products page, $hold_subscribers subscribers connected"
alone_label='products page alone'
for _ in $(seq 1 "$rounds"); do
    hold_subscribers_in_background "$hold_subscribers" --hold
    held=$(subscribers_now)
    wrk_run "sf|$with_label" "$page" "$connections" "$wrk_threads"
    echo "$held" >>"$work/held"
    stop_extra
    wait_no_subscribers
    wrk_run "sf|$alone_label" "$page" "$connections" "$wrk_threads"
done
stop_server

# --- 3. subscribers that stop reading, under a writer ---------------------------------------------------
stalled_label="products page under a writer, $stalled_subscribers stalled subscribers"
unstalled_label='products page under a writer'
: >"$work/stalled"
overflow_closes() { curl -sf "$base/metrics" | awk '$1 == "storefront_event_overflow_closes_total" {print $2}'; }
# churn_page LABEL: the page under one churning writer (started first, stopped after wrk).
churn_page() {
    BENCH_TOKEN=$token wrk -t1 -c1 -d"$((duration + 1))s" -s "$repo/bench/load/write.lua" "$base/api/v1/products" \
        -- churn "stall$RANDOM" >"$work/churn.out" 2>&1 &
    local writer=$!
    sleep 0.5
    wrk_run "sf|$1" "$page" "$connections" "$wrk_threads"
    wait "$writer"
}
if ((stalled_subscribers > 0)); then
    start_events_server "$threads"
    token=$(admin_token)
    page="$base/api/v1/products?offset=0&limit=10"
    wrk -t1 -c"$connections" -d1s "$page" >/dev/null
    for r in $(seq 1 "$rounds"); do
        log "stalled: round $r, $stalled_subscribers subscribers that do not read"
        hold_subscribers_in_background "$stalled_subscribers" --stall
        closes_before=$(overflow_closes)
        churn_page "$stalled_label"
        stopped=$SECONDS
        rss_max=$(rss_kib "$server_pid" VmRSS)
        # Until the server no longer counts them (closed by the write timeout), at most 45 s.
        while (($(subscribers_now) > 0 && SECONDS - stopped < 45)); do
            r_now=$(rss_kib "$server_pid" VmRSS)
            ((r_now > rss_max)) && rss_max=$r_now
            sleep 0.5
        done
        echo "round=$r overflowed=$(($(overflow_closes) - closes_before)) counted_after_s=$((SECONDS - stopped))" \
            "left=$(subscribers_now) rss_kib=$rss_max writes=$(grep -o 'created=[0-9]*' "$work/churn.out" | head -1)" |
            tee -a "$work/stalled" >&2
        stop_extra
        wait_no_subscribers
        churn_page "$unstalled_label"
    done
    stop_server
fi

# --- report ---------------------------------------------------------------------------------------------
# field ROW KEY, also for negative values (a receipt before the 201 answer).
sfield() { sed -n "s/.* $2=\(-\{0,1\}[0-9]*\).*/\1/p" <<<" $1"; }
ms() { awk -v u="$1" 'BEGIN {printf "%.1f", u / 1000}'; }
# latency_row SET N: the median round by p99 from the answer, min–max over the rounds.
latency_row() {
    local rows median
    rows=$(awk -v s="threads=$1" -v n="subscribers=$2" '$1 == s && index($0, " " n " ") > 0' "$work/latency")
    median=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^p99_ack_us=/) print substr($i, 12) "\t" $0 }' <<<"$rows" |
        sort -g | awk -F '\t' '{ r[NR] = $2 } END { print r[int((NR + 1) / 2)] }')
    range() {
        awk -v k="$1=" '{ for (i = 1; i <= NF; i++) if (index($i, k) == 1) print substr($i, length(k) + 1) }' <<<"$rows" |
            sort -g | awk '{ v[NR] = $1 } END { printf "%.1f–%.1f", v[1] / 1000, v[NR] / 1000 }'
    }
    local missing
    missing=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^missing=/) s += substr($i, 9) } END { print s + 0 }' <<<"$rows")
    echo "| $1 | $2 | $(ms "$(sfield "$median" p50_ack_us)") ($(range p50_ack_us)) |" \
        "**$(ms "$(sfield "$median" p99_ack_us)")** ($(range p99_ack_us)) | $(ms "$(sfield "$median" max_ack_us)") |" \
        "$(ms "$(sfield "$median" p50_sent_us)") / $(ms "$(sfield "$median" p99_sent_us)") |" \
        "$(ms "$(sfield "$median" write_p50_us)") / $(ms "$(sfield "$median" write_max_us)") |" \
        "$(sfield "$median" connect_ms) | $missing | $(mib "$(sfield "$median" rss_idle_kib)") → $(mib "$(sfield "$median" rss_kib)") |" \
        "$(awk -v c="$(sfield "$median" copy_ns)" 'BEGIN {printf "%.1f", c / 1000}') |"
}
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$("$server_bin" --version 2>/dev/null | sed 's/^storefront //') on ${storage:-sqlite (fresh file)}," \
    "--write-policy roles; $(nproc) cores; uptime: $(uptime);" \
    "command: \`$command_line\`"
echo
echo "Delivery latency, commit to receipt: $rounds rounds of $writes creates ${interval_ms} ms apart on the same" \
    "subscribers (\`?types=product.created\`), one sample per subscriber and event; median round by p99 (min–max of the rounds)."
echo
echo "| server threads | subscribers | p50 ms from 201 | p99 ms from 201 (goal < 100 at 10,000) | max ms from 201 | p50 / p99 ms from POST sent | create answered p50 / max ms | connect all, ms | events missing (all rounds) | server RSS MiB before → max while connected | server CPU µs per event copy |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in $thread_sets; do
    for n in $subscriber_counts; do latency_row "$set" "$n"; done
done
echo
w=$(row_of "sf|$with_label")
a=$(row_of "sf|$alone_label")
w_rps=$(rps_row "$w")
a_rps=$(rps_row "$a")
echo "Products page \`GET /api/v1/products?offset=0&limit=10\`, $threads server thread(s), wrk -t$wrk_threads" \
    "-c$connections -d${duration}s, $rounds alternating rounds (subscribers counted by /metrics during the" \
    "rounds: $(sort -u "$work/held" | tr '\n' ' ')):"
echo
echo "| | req/s median (min–max) | p50 / p99 ms | CPU µs/req | non-2xx |"
echo "|---|---:|---:|---:|---:|"
echo "| $with_label | $w_rps ($(rps_range "sf|$with_label")) | $(fmt_ms "$(field "$w" p50_us)") / $(fmt_ms "$(field "$w" p99_us)") | $(cpu_us "$w") | $(field "$w" non2xx) |"
echo "| $alone_label | $a_rps ($(rps_range "sf|$alone_label")) | $(fmt_ms "$(field "$a" p50_us)") / $(fmt_ms "$(field "$a" p99_us)") | $(cpu_us "$a") | $(field "$a" non2xx) |"
echo
echo "Ratio with ÷ alone: **$(awk -v x="$w_rps" -v y="$a_rps" 'BEGIN {printf "%.2f", x / y}')×** (medians)," \
    "$(round_ratio "sf|$with_label" "sf|$alone_label")× (per round, median); goal ≥ 0.95×."
if ((stalled_subscribers > 0)); then
    s=$(row_of "sf|$stalled_label")
    u=$(row_of "sf|$unstalled_label")
    echo
    echo "$stalled_subscribers subscribers that stop reading after the head (smallest receive buffers), while one" \
        "client creates and deletes products; $rounds alternating rounds, the same wrk as above:"
    echo
    echo "| | req/s median (min–max) | p50 / p99 ms | CPU µs/req | non-2xx |"
    echo "|---|---:|---:|---:|---:|"
    for label in "$stalled_label" "$unstalled_label"; do
        row=$(row_of "sf|$label")
        echo "| $label | $(rps_row "$row") ($(rps_range "sf|$label")) | $(fmt_ms "$(field "$row" p50_us)") / $(fmt_ms "$(field "$row" p99_us)") | $(cpu_us "$row") | $(field "$row" non2xx) |"
    done
    echo
    echo "Ratio with ÷ without: **$(awk -v x="$(rps_row "$s")" -v y="$(rps_row "$u")" 'BEGIN {printf "%.2f", x / y}')×**" \
        "(medians), $(round_ratio "sf|$stalled_label" "sf|$unstalled_label")× (per round, median). Per round:" \
        "streams closed as overflowed, seconds the server still counted subscribers after the writer stopped" \
        "(it closes a stream whose write does not complete within --write-timeout), subscribers left then," \
        "the server's largest RSS, writes:"
    echo
    sed 's/^/    /' "$work/stalled"
fi
}
