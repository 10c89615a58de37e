#!/usr/bin/env bash
# Every benchmark of issue 46's five goals, one after the other, on one build, each as it is documented in
# bench/RESULTS.md (median of 7 alternating rounds against its reference in the same run). Each step's
# report goes to RESULTS_DIR/NN-name.md with its command, start time and duration; a step that fails is
# recorded and the run goes on. About 80 minutes on the 2-core machine; run it on a quiet machine.
#   bench/run_goals.sh --build-dir DIR [--results-dir DIR] [--only NAME[,NAME...]]
# DIR is a build configured with -DSTOREFRONT_BUILD_BENCH=ON (server, micro benchmark and the drivers).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build="" results="" only=""
while [ $# -gt 0 ]; do
    case $1 in
        --build-dir) build=$(cd "$2" && pwd); shift 2 ;;
        --results-dir) results=$2; shift 2 ;;
        --only) only=",$2,"; shift 2 ;;
        *) echo "usage: $0 --build-dir DIR [--results-dir DIR] [--only NAME,...]" >&2; exit 2 ;;
    esac
done
B=$build/server/storefront
M=$build/bench/storefront_micro_bench
for f in "$B" "$M" "$build/bench/sse_latency" "$build/bench/checkout_buyers"; do
    [ -x "$f" ] || { echo "run_goals: missing $f (configure the build with -DSTOREFRONT_BUILD_BENCH=ON)" >&2; exit 2; }
done
results=${results:-$(mktemp -d /tmp/storefront-goals.XXXXXX)}
mkdir -p "$results"
step=0 failed=0
# run NAME COMMAND...: one step, its report and its duration.
run() {
    local name=$1; shift
    step=$((step + 1))
    [ -z "$only" ] || [[ $only == *",$name,"* ]] || return 0
    local out
    out=$(printf '%s/%02d-%s.md' "$results" "$step" "$name")
    local started
    started=$(date +%s)
    {
        echo "<!-- $(date -u +%FT%TZ) $name: $* -->"
        (cd "$root" && "$@") 2>&1
    } >"$out"
    local rc=$?
    echo "$(date -u +%T) $name: rc $rc, $(($(date +%s) - started)) s -> $out"
    [ $rc -eq 0 ] || failed=$((failed + 1))
}
with_pg() { TEST_PG_FSYNC=on tests/pg/with_pg_cluster.sh bash -c "$*"; }

echo "run_goals: build $build ($(git -C "$root" rev-parse --short HEAD)), results in $results"
# Goal 1: the products page, one product and the gzip page against nginx, with system calls and CPU.
run syscalls-sqlite bench/run_syscalls.sh --server-bin "$B" --rounds 7 --no-install --no-build
run syscalls-memory bench/run_syscalls.sh --server-bin "$B" --rounds 7 --no-install --no-build --storage memory
run syscalls-pg with_pg "bench/run_syscalls.sh --server-bin '$B' --rounds 7 --no-install --no-build --storage \"\$TEST_PG_DSN\""
# Goal 2: nearest locations from random origins, 100,000 uniform and 1,000,000 clustered points.
run locations bench/run_load.sh --server-bin "$B" --micro-bin "$M" --locations-only --no-build --no-install \
    --no-charts --results-dir "$results/locations"
# Goal 3: the page under one writer (where the CPU goes, and per backend), 64 creators, a create's instructions.
run reader-writer bench/run_reader_writer_split.sh --server-bin "$B" --rounds 7
run storage bench/run_storage.sh --storage all --server-bin "$B" --no-build --no-install --rounds 7 --duration 3 \
    --write-duration 3 --write-connections 1 --results-dir "$results/storage"
run group-commit bench/run_group_commit.sh --server-bin "$B" --no-build --no-install
run write-instructions bench/run_write_instructions.sh --server-bin "$B" --kind create
# Goal 4: the checkout storm on SQLite and PostgreSQL; the change feed at 10,000 subscribers.
run checkout bench/run_checkout.sh --server-bin "$B" --no-build --no-install --rounds 7 --duration 3 \
    --driver buyers --driver-bin "$build/bench/checkout_buyers"
run events env SUBSCRIBERS=10000 bench/run_events.sh --server-bin "$B" --driver-bin "$build/bench/sse_latency" \
    --no-build --no-install
# Goal 5: capacity of the production shape (HAProxy, 3 instances, PostgreSQL) under the open-loop mix.
run capacity bench/run_capacity.sh --server-bin "$B" --no-build --no-install --results-dir "$results/capacity"
echo "run_goals: $failed step(s) failed; reports in $results"
[ $failed -eq 0 ]
