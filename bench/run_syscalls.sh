#!/usr/bin/env bash
# System calls and CPU per request, storefront and nginx side by side (issue 46 goal 1): for each row (the
# products page, one product, the gzip page), wrk -t1 -c64 runs against storefront and against nginx serving
# the same bytes, alternately, ROUNDS times: once plain (/proc gives the server's user and system CPU), once
# while `perf stat` counts the system calls its processes enter (tracepoints, all threads).
# Prints one table: per request, the median over the rounds of each system call of a request's path that was
# entered at least 0.05 times per request and of all system calls (from runs under perf), and of requests per
# second and user and system CPU microseconds per request (from runs with nothing attached).
#   bench/run_syscalls.sh [--server-bin BIN] [--compare-bin BIN2] [--storage sqlite|memory|DSN] [--rounds N]
#                         [--duration S] [--no-install] [--no-build] [--results-dir DIR] [-- storefront flags]
# --compare-bin adds a second storefront build (e.g. -DSTOREFRONT_IO_URING=ON) to every round, on its own data.
# Needs perf (linux-perf) with tracepoints readable: run as root, or with kernel.perf_event_paranoid <= -1.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
help_lines='2,12p'
# shellcheck source=bench/lib/common.sh
. "$repo/bench/lib/common.sh"

results_dir=""
compare_bin=""
extra=()
own_flag() {
    case $1 in
        --results-dir) results_dir=$2; took=2 ;;
        --compare-bin) compare_bin=$2; took=2 ;;
        --) shift; extra=("$@"); took=$(( $# + 1 )) ;;
        *) took=0 ;;
    esac
}
small_bench_setup syscalls "$help_lines" storage "$@"
[[ $do_install == 0 ]] || install_tools perf:linux-perf
storage=${storage:-sqlite}
make_work storefront-syscalls

# storage_flag N: the --storage argument of server N (SQLite: a file each).
storage_flag() {
    case $storage in
        sqlite) echo "sqlite:$work/store$1.db" ;;
        *) echo "$storage" ;;
    esac
}
second_pid="" second_port=""
if [[ -n $compare_bin ]]; then
    require_bin "$compare_bin"
    main_bin=$server_bin
    server_bin=$compare_bin
    start_server --storage "$(storage_flag 2)" ${extra[@]+"${extra[@]}"}
    second_pid=$server_pid second_port=$server_port
    extra_pids+=("$second_pid")
    server_bin=$main_bin
fi
start_server --storage "$(storage_flag 1)" ${extra[@]+"${extra[@]}"}
save_body "/api/v1/products?offset=0&limit=10" page.json
save_body "/api/v1/products/1" item.json
mkdir -p "$work/static/gz"
cp "$work/static/page.json" "$work/static/gz/page.json"
gzip -k -9 "$work/static/gz/page.json"
start_nginx

# pids_of sf|ng: the processes whose system calls count (nginx: its workers; the master only accepts signals).
pids_of() {
    case $1 in
        sf) echo "$server_pid" ;;
        sf2) echo "$second_pid" ;;
        ng) pgrep -P "$nginx_pid" | paste -sd, ;;
    esac
}

# one_run SIDE ROW URL [header]: wrk for $duration s with nothing attached (requests and the server's CPU),
# then wrk for 2 s under perf stat (system calls: a tracepoint per call would tax the side that makes more of
# them); appends "SIDE ROW requests=N user_ticks=U sys_ticks=S traced=M name=count..." to $work/syscalls.
one_run() {
    local side=$1 row=$2 url=$3 header=${4:-}
    local pids before_u before_s after_u after_s out requests traced p
    pids=$(pids_of "$side")
    read -r before_u before_s < <(ticks "$pids")
    out=$(timeout $((duration + 30)) wrk -t1 -c"$connections" -d"${duration}s" ${header:+-H "$header"} "$url")
    read -r after_u after_s < <(ticks "$pids")
    requests=$(awk '/requests in/ {print $1}' <<<"$out")
    perf stat -x, -e "$events" -p "$pids" -o "$work/perf.out" -- sleep 6 &
    local perf_pid=$!
    sleep 2  # attaching to every thread takes a while on a loaded machine: no request may go uncounted
    out=$(timeout 60 wrk -t1 -c"$connections" -d2s ${header:+-H "$header"} "$url")
    wait "$perf_pid" || true
    traced=$(awk '/requests in/ {print $1}' <<<"$out")
    p=$(awk -F, '$1 + 0 > 0 {sub("raw_syscalls:sys_enter", "all", $3); sub("syscalls:sys_enter_", "", $3)
        printf "%s=%s ", $3, $1}' "$work/perf.out")
    echo "$side $row requests=$requests user_ticks=$((after_u - before_u)) sys_ticks=$((after_s - before_s)) \
cpu_ticks=$((after_u - before_u + after_s - before_s)) traced=$traced $p" >>"$work/syscalls"
    log "$side $row requests=$requests traced=$traced $p"
}

# Every system call entered (raw_syscalls: "all calls") and, by name, those a request's path can make.
events=raw_syscalls:sys_enter
for name in recvmsg recvfrom read sendmsg sendto write writev sendfile64 epoll_wait epoll_pwait io_uring_enter \
    setsockopt futex timerfd_settime accept4; do
    events+=,syscalls:sys_enter_$name
done

# ticks PIDS: user and system clock ticks of the comma-separated processes, all threads.
ticks() {
    local u=0 s=0 p
    for p in ${1//,/ }; do
        read -r pu ps < <(awk '{print $14, $15}' "/proc/$p/stat")
        u=$((u + pu))
        s=$((s + ps))
    done
    echo "$u $s"
}

: >"$work/syscalls"
sides=(sf ng)
[[ -z $compare_bin ]] || sides=(sf sf2 ng)
for _ in $(seq 1 "$rounds"); do
    for side in "${sides[@]}"; do
        case $side in
            sf) base="http://127.0.0.1:$server_port" ;;
            sf2) base="http://127.0.0.1:$second_port" ;;
            ng) base="http://127.0.0.1:$nginx_port" ;;
        esac
        page=/api/v1/products?offset=0\&limit=10 item=/api/v1/products/1 gz=/api/v1/products?offset=0\&limit=10
        [[ $side != ng ]] || { page=/page.json; item=/item.json; gz=/gz/page.json; }
        one_run "$side" page "$base$page"
        one_run "$side" item "$base$item"
        one_run "$side" gzip "$base$gz" "Accept-Encoding: gzip"
    done
done

# The table: medians over the rounds, per request.
python3 - "$work/syscalls" "$(getconf CLK_TCK)" "$duration" "$(basename "$(dirname "$(dirname "$server_bin")")")" \
    "$(basename "$(dirname "$(dirname "${compare_bin:-x/x/x}")")")" <<'PY' | tee "$work/table.md"
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    side, row, kv = f[0], f[1], dict(x.split("=", 1) for x in f[2:])
    rows.setdefault((row, side), []).append(kv)
tck, duration = int(sys.argv[2]), float(sys.argv[3])
names = sorted({k for runs in rows.values() for kv in runs for k in kv
                if k not in ("requests", "user_ticks", "sys_ticks", "cpu_ticks", "traced", "all")})
def med(runs, key, per="traced"):
    return statistics.median(float(kv.get(key, 0)) / float(kv[per]) for kv in runs)
shown = [n for n in names if any(med(runs, n) >= 0.05 for runs in rows.values())]
print("| row | server | req/s | " + " | ".join(shown) + " | all calls | user µs | sys µs | CPU µs |")
print("|---|---|---:|" + "---:|" * (len(shown) + 4))
for row in ("page", "item", "gzip"):
    for side, label in (("sf", f"storefront ({sys.argv[4]})"), ("sf2", f"storefront ({sys.argv[5]})"),
                        ("ng", "nginx")):
        runs = rows.get((row, side))
        if not runs:
            continue
        rps = statistics.median(float(kv["requests"]) / duration for kv in runs)
        total = med(runs, "all")
        user = med(runs, "user_ticks", "requests") * 1e6 / tck
        sys_ = med(runs, "sys_ticks", "requests") * 1e6 / tck
        cells = " | ".join(f"{med(runs, n):.2f}" for n in shown)
        cpu = med(runs, "cpu_ticks", "requests") * 1e6 / tck
        print(f"| {row} | {label} | {rps:,.0f} | {cells} | {total:.2f} | {user:.2f} | {sys_:.2f} | {cpu:.2f} |")
PY
if [[ -n $results_dir ]]; then
    mkdir -p "$results_dir"
    cp "$work/syscalls" "$work/table.md" "$results_dir/"
fi
