#!/usr/bin/env bash
# Sandboxes benchmark (issue 20): storefront against itself, on the default backend (SQLite, a fresh file in
# the temp dir) unless --storage says otherwise. Median of --rounds (7) alternating rounds with min–max; wrk
# -t1 on loopback; stops everything it started. Prints a markdown table.
#
#   bench/run_sandboxes.sh [--storage SPEC] [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                          [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install]
#                          (environment SCALE_SANDBOXES=1000, SCALE_WRITES=20, SCALE_JOBS=4)
#
# 1. Ratio: the products page (offset=0&limit=20) in a sandbox that made 5 creates, and in a never-written
#    sandbox, against the same page in the shared view (one alternation: shared, written, never written).
# 2. Isolation: the shared page alone against the shared page while one client creates and deletes products
#    in a sandbox as fast as it can (wrk -c1, keep-alive, its own Lua script); and the written sandbox's page
#    alone against the same while ANOTHER sandbox is written. The writer runs during the "while" rounds only.
# 3. Scale: a fresh server (--sandbox-max 2000) gets SCALE_WRITES creates in each of SCALE_SANDBOXES
#    sandboxes (SCALE_JOBS curl processes, keep-alive); the report gives VmRSS before and after, the
#    <db>.sandboxes/ directory's size (du -sb), and the time.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command_line="bench/run_sandboxes.sh $*"
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
small_bench_setup run_sandboxes '2,16p' storage "$@"
scale_sandboxes=${SCALE_SANDBOXES:-1000}
scale_writes=${SCALE_WRITES:-20}
scale_jobs=${SCALE_JOBS:-4}

make_work storefront-sandboxes
storage=${storage:-sqlite:$work/sandboxes.db}
start_server --storage "$storage" --sandbox-max 2000

page='/api/v1/products?offset=0&limit=20'
base="http://127.0.0.1:$server_port"
product_json() { printf '{"title":"%s","price":12,"description":"d","categoryId":1,"images":["https://placehold.co/600x400"]}' "$1"; }
# create SANDBOX TITLE: one product in the sandbox; fails unless 201.
create() {
    local code
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        -d "$(product_json "$2")" "$base/sandbox/$1/api/v1/products")
    [[ $code == 201 ]] || { echo "create in sandbox $1 answered $code" >&2; return 1; }
}
for i in 1 2 3 4 5; do create bench-w "Bench W$i"; done
curl -s -o /dev/null -X DELETE "$base/sandbox/bench-iso"  # nothing to reset; makes sure the id is valid
for path in "$page" "/sandbox/bench-w$page" "/sandbox/bench-n$page"; do
    curl -sf "$base$path" -o /dev/null || { echo "GET $path failed" >&2; exit 1; }
done
body_shared=$(curl -sf "$base$page" | wc -c)
body_w=$(curl -sf "$base/sandbox/bench-w$page" | wc -c)
body_n=$(curl -sf "$base/sandbox/bench-n$page" | wc -c)
for path in "$page" "/sandbox/bench-w$page" "/sandbox/bench-n$page"; do
    wrk -t1 -c"$connections" -d1s "$base$path" >/dev/null
done

# The writer: creates a product in the sandbox its path prefix names, deletes it, again, on one keep-alive
# connection (wrk -c1), as fast as the server answers. Prints RESULT with writes= (2xx answers).
cat >"$work/churn.lua" <<'EOF'
local prefix, tag
local counter = 0
local pending = nil
local threads = {}
writes = 0
setup = function(thread) threads[#threads + 1] = thread end
init = function(args) prefix = args[1]; tag = args[2] end
request = function()
    if pending then
        local id = pending
        pending = nil
        return wrk.format("DELETE", prefix .. "/api/v1/products/" .. id)
    end
    counter = counter + 1
    return wrk.format("POST", prefix .. "/api/v1/products", { ["Content-Type"] = "application/json" },
        string.format('{"title":"Churn %s %d","price":12,"description":"d","categoryId":1,' ..
            '"images":["https://placehold.co/600x400"]}', tag, counter))
end
response = function(status, headers, body)
    if status >= 200 and status < 300 then writes = writes + 1 end
    if status == 201 then pending = body:match('^{"id":(%d+)') end
end
done = function(summary, latency, requests)
    local ok = 0
    for _, t in ipairs(threads) do ok = ok + (t:get("writes") or 0) end
    io.write(string.format("RESULT requests=%d duration_us=%d writes=%d\n", summary.requests, summary.duration, ok))
end
EOF

# alternate LABEL|PATH|WRITTEN_SANDBOX ...: $rounds rounds, each runs every spec once in order (wrk_run,
# results under "sf|LABEL"). WRITTEN_SANDBOX "-": no writer; else the churn writer runs in that sandbox
# from 1 s before the reader's run to 1 s after it (its writes/s go to $work/writers).
: >"$work/writers"
round=0
alternate() {
    local spec label path wsb wpid
    for _ in $(seq 1 "$rounds"); do
        round=$((round + 1))
        for spec in "$@"; do
            IFS='|' read -r label path wsb <<<"$spec"
            if [[ $wsb == - ]]; then
                wrk_run "sf|$label" "$base$path" "$connections" "$wrk_threads"
                continue
            fi
            timeout $((duration + 30)) wrk -t1 -c1 -d"$((duration + 2))s" --timeout 5s -s "$work/churn.lua" \
                "$base" -- "/sandbox/$wsb" "r$round" >"$work/writer.out" 2>&1 &
            wpid=$!
            extra_pids+=("$wpid")
            sleep 1
            wrk_run "sf|$label" "$base$path" "$connections" "$wrk_threads"
            wait "$wpid" || true
            extra_pids=()
            sed -n "s/^RESULT /$label|/p" "$work/writer.out" >>"$work/writers"
        done
    done
}

shared='shared view'
written='sandbox bench-w (5 creates)'
never='sandbox bench-n (never written)'
shared_w='shared view, while a client writes in sandbox bench-iso'
written_w='sandbox bench-w, while a client writes in sandbox bench-iso'
alternate "$shared|$page|-" "$written|/sandbox/bench-w$page|-" "$never|/sandbox/bench-n$page|-"
alternate "$shared (isolation rounds)|$page|-" "$shared_w|$page|bench-iso"
alternate "$written (isolation rounds)|/sandbox/bench-w$page|-" "$written_w|/sandbox/bench-w$page|bench-iso"
rss_main=$(rss_kib "$server_pid" VmRSS)
stop_server

# --- scale: a fresh server, SCALE_SANDBOXES sandboxes with SCALE_WRITES creates each ------------------
db=""
if [[ $storage == sqlite:* ]]; then
    db="$work/scale.db"
    scale_storage="sqlite:$db"
else
    scale_storage=$storage
fi
start_server --storage "$scale_storage" --sandbox-max 2000
base="http://127.0.0.1:$server_port"
curl -sf "$base$page" -o /dev/null
curl -sf "$base/sandbox/warm-up$page" -o /dev/null
rss_before=$(rss_kib "$server_pid" VmRSS)
# One curl config per job: job j takes sandboxes j, j+jobs, …; every request on one keep-alive connection.
for j in $(seq 0 $((scale_jobs - 1))); do
    for ((s = j + 1; s <= scale_sandboxes; s += scale_jobs)); do
        for ((w = 1; w <= scale_writes; w++)); do
            printf 'url = "%s/sandbox/scale-%04d/api/v1/products"\nrequest = "POST"\nheader = "Content-Type: application/json"\n' \
                "$base" "$s"
            printf 'data = "{\\"title\\":\\"S%d-%d\\",\\"price\\":12,\\"description\\":\\"d\\",\\"categoryId\\":1,\\"images\\":[\\"https://placehold.co/600x400\\"]}"\n' \
                "$s" "$w"
            printf 'output = "/dev/null"\nwrite-out = "%%{http_code}\\n"\nsilent\nnext\n'
        done
    done | sed '$d' >"$work/scale-$j.curl"  # no "next" after the last request
done
log "scale: $scale_sandboxes sandboxes x $scale_writes creates, $scale_jobs curl processes"
start_ns=$(date +%s%N)
scale_pids=()
for j in $(seq 0 $((scale_jobs - 1))); do
    curl -K "$work/scale-$j.curl" >"$work/scale-$j.codes" 2>"$work/scale-$j.err" &
    scale_pids+=("$!")
    extra_pids+=("$!")
done
for p in "${scale_pids[@]}"; do wait "$p" || true; done
extra_pids=()
end_ns=$(date +%s%N)
rss_after=$(rss_kib "$server_pid" VmRSS)
hwm_after=$(rss_kib "$server_pid" VmHWM)
scale_s=$(awk -v a="$start_ns" -v b="$end_ns" 'BEGIN {printf "%.1f", (b - a) / 1e9}')
created=$(cat "$work"/scale-*.codes | grep -c '^201$' || true)
codes=$(cat "$work"/scale-*.codes | sort | uniq -c | awk '{printf "%s%s×%s", (NR > 1 ? ", " : ""), $1, $2}')
# An early sandbox (long out of the open LRU) still answers its 20 rows.
first_rows=$(curl -sf "$base/sandbox/scale-0001/api/v1/products?offset=0&limit=100" |
    python3 -c 'import json, sys; print(sum(1 for p in json.load(sys.stdin) if p["title"].startswith("S1-")))' ||
    echo '?')
disk_total="" disk_files=""
if [[ -n $db && -d $db.sandboxes ]]; then
    disk_total=$(du -sb "$db.sandboxes" | cut -f1)
    disk_files=$(find "$db.sandboxes" -type f | wc -l)
fi

# --- report --------------------------------------------------------------------------------------------
p50_99() { echo "$(fmt_ms "$(field "$1" p50_us)") / $(fmt_ms "$(field "$1" p99_us)")"; }
# Median writes/s of the writer over the rounds of LABEL.
writer_rate() {
    awk -F '|' -v l="$1" '$1 == l {
        split($2, f, " "); r = 0; d = 1
        for (i in f) { if (f[i] ~ /^writes=/) r = substr(f[i], 8); if (f[i] ~ /^duration_us=/) d = substr(f[i], 13) }
        print r / d * 1e6
    }' "$work/writers" | sort -g | awk '{ v[NR] = $1 } END { if (NR > 0) printf "%.0f", v[int((NR + 1) / 2)]; else print "-" }'
}
# ratio_row WHAT A_LABEL B_LABEL GOAL: one row, A against B (median rounds, min–max, ratio A/B).
ratio_row() {
    local a b a_rps b_rps
    a=$(row_of "sf|$2")
    b=$(row_of "sf|$3")
    a_rps=$(rps_row "$a")
    b_rps=$(rps_row "$b")
    echo "| $1 | $a_rps ($(rps_range "sf|$2")) | $b_rps ($(rps_range "sf|$3")) |" \
        "**$(awk -v x="$a_rps" -v y="$b_rps" 'BEGIN {printf "%.2f", x / y}')×** | $(round_ratio "sf|$2" "sf|$3")× | $4 | $(p50_99 "$a") | $(p50_99 "$b") |" \
        "$(cpu_us "$a") / $(cpu_us "$b") | $(field "$a" non2xx) / $(field "$b" non2xx) | $(writer_rate "$2") |"
}
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?')" \
    "$("$server_bin" --version 2>/dev/null | sed 's/^storefront //') ($server_bin) on ${storage%%:*}," \
    "$(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1,2), curl $(curl --version | head -n 1 | cut -d' ' -f2):" \
    "$threads server thread(s); wrk -t$wrk_threads -c$connections -d${duration}s, median of $rounds alternating" \
    "rounds (min–max); $(nproc) cores; uptime: $(uptime); command: \`$command_line\`"
echo
echo "| products page \`offset=0&limit=20\`: A vs B | A req/s (min–max) | B req/s (min–max) | A/B (medians) | A/B per round, median | goal | A p50 / p99 ms | B p50 / p99 ms | CPU µs/req A / B | non-2xx A / B | writer writes/s during A |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
ratio_row "sandbox with 5 creates vs shared view" "$written" "$shared" '≥ 0.8'
ratio_row "never-written sandbox vs shared view" "$never" "$shared" '≥ 0.8'
ratio_row "shared view while a sandbox is written vs alone" "$shared_w" "$shared (isolation rounds)" '≈ 1 (CPU shared)'
ratio_row "sandbox bench-w while ANOTHER sandbox is written vs alone" "$written_w" "$written (isolation rounds)" '≈ 1 (CPU shared)'
echo
echo "Bodies: shared $body_shared B, bench-w $body_w B, bench-n $body_n B. RSS after these rows: $(mib "$rss_main") MiB." \
    "The writer (wrk -c1, create then delete, one keep-alive connection) runs only during the \"while\" rounds;" \
    "the CPU µs/req of those rows includes the server's work on the writes."
echo
echo "Scale (fresh server, \`--storage ${scale_storage%%:*} --sandbox-max 2000\`): $scale_sandboxes sandboxes ×" \
    "$scale_writes creates = $((scale_sandboxes * scale_writes)) requests from $scale_jobs keep-alive curl processes in" \
    "${scale_s} s ($(awk -v n="$created" -v s="$scale_s" 'BEGIN {printf "%.0f", n / s}') writes/s); answers: $codes." \
    "VmRSS $(mib "$rss_before") → $(mib "$rss_after") MiB (VmHWM $(mib "$hwm_after") MiB), +$(awk -v a="$rss_before" \
    -v b="$rss_after" -v n="$scale_sandboxes" 'BEGIN {printf "%.1f", (b - a) / n}') KiB per sandbox."
if [[ -n $disk_total ]]; then
    echo "On disk: \`<db>.sandboxes/\` $(mib "$((disk_total / 1024))") MiB in $disk_files files, $(awk -v t="$disk_total" \
        -v n="$scale_sandboxes" 'BEGIN {printf "%.0f", t / n / 1024}') KiB per sandbox (du -sb)."
else
    echo "On disk: not measured (not SQLite)."
fi
echo "Sandbox scale-0001 (long out of the open LRU) read back $first_rows of its $scale_writes rows."
}
