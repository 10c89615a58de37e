#!/usr/bin/env bash
# One-command set-up for a fresh Debian 12 machine.
#   deploy/quickstart.sh run    install what is missing, build the server alone, start it on 127.0.0.1:8080
#   deploy/quickstart.sh test   install what is missing, build, run every test (what CI runs):
#       1. the shipped build (g++ -O2, build/: the storefront executable alone) from outside: browsers, API
#          document and client tests, metrics, systemd unit, layer probes, cluster drills, smuggling, container
#          image, Debian package (every ctest test without the label test_executable)
#       2. the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer, in one clang build
#          (build-asan/) whose objects also carry libFuzzer's coverage instrumentation
#       3. the test executables' suites (unit, in-process and end-to-end: core, storage, GraphQL, server) under
#          ThreadSanitizer, g++ -O2 (build-tsan/)
#       4. each libFuzzer harness of stage 2's build (ASan + UBSan) for STOREFRONT_FUZZ_SECONDS (default 30)
#          seconds; alone it builds just the harnesses there
#   STOREFRONT_TEST_STAGES=1 (or "1 2", ...) runs only some stages, for quick local iterations.
set -euo pipefail

mode=${1:-}
case "$mode" in
    run | test) ;;
    *)
        echo "usage: $0 run|test" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STOREFRONT_BUILD_DIR:-$root/build}

# Debian 12 packages: the build's (deploy/lib/build-packages.sh), and for test those of the tests.
# shellcheck source=SCRIPTDIR/lib/build-packages.sh
. "$root/deploy/lib/build-packages.sh"
packages=("${build_packages[@]}")
# lld links every build (STOREFRONT_LINKER): server_tests in about a fifth of GNU ld's CPU time. Ninja runs
# every build: it compiles a test file while the library it links with is still compiling (make waits for
# each target's link before the next target's files start), so both cores stay busy.
packages+=(lld ninja-build)
# postgresql-15: tests/pg/with_pg_cluster.sh runs throw-away clusters for the PostgreSQL tests; nodejs (the
# machine's NodeSource 20 or newer counts) and prometheus (promtool) for the API document and metrics tests;
# haproxy, wrk, curl and openssl for the cluster drills (tests/cluster/drills.sh via deploy/cluster.sh); lintian
# for the Debian package test (tests/package/package_install.sh); podman, runc and mmdebstrap (base images made
# from Debian packages) and docker-compose (compose.yaml validation) for the container test
# (tests/container/container_image.sh).
[ "$mode" = test ] && packages+=(clang-14 libclang-rt-14-dev systemd chromium python3 postgresql-15 nodejs prometheus
    haproxy wrk curl openssl lintian podman runc mmdebstrap docker-compose)
install_missing quickstart "${packages[@]}"

if [ "$mode" = test ]; then
    # The browser, OpenAPI lint and response validation tests' npm packages, pinned by package-lock.json;
    # npm ci runs again only when the lock file changed (its hash is kept beside the modules).
    browser=$root/tests/browser
    lock_hash=$(sha256sum "$browser/package-lock.json" | cut -d' ' -f1)
    if [ "$(cat "$browser/node_modules/.storefront-lock-sha256" 2>/dev/null)" != "$lock_hash" ]; then
        command -v npm >/dev/null || { echo "quickstart: npm is missing (Node.js 20.19+ with npm)" >&2; exit 1; }
        echo "quickstart: npm ci in tests/browser"
        (cd "$browser" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$lock_hash" >"$browser/node_modules/.storefront-lock-sha256"
    fi
fi

# run builds the one executable it starts; a new build directory is configured without the tests, which only
# test builds (an existing one keeps its setting, so run after test does not drop the suite).
lld=-DSTOREFRONT_LINKER=lld
# Every build compiles the libraries as unity builds (CMakeLists.txt, STOREFRONT_UNITY), measured from a clean
# clone: build/ 772 -> 667 job-s of Ninja's log, build-asan/ 1,089 -> 855 (the test files stay file by file).
unity=-DSTOREFRONT_UNITY=ON
# Every build keeps line tables only (-g1): reports, backtraces and perf still name file:line and function, and
# a file compiles in about 30% less time than with full debug information (-g). A debugger's view of local
# variables needs -g: configure a build directory of your own for that.
relwithdebinfo_g1=-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
configure=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$relwithdebinfo_g1" "$lld" "$unity")
# A build directory that an older version of this script configured for make starts afresh (CMake cannot change
# the generator of a directory).
forget_make_build() {
    if [ -f "$1/CMakeCache.txt" ] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$1/CMakeCache.txt"; then
        rm -rf "$1"
    fi
}
if [ "$mode" = test ]; then
    configure+=(-DSTOREFRONT_BUILD_TESTS=ON)
elif [ ! -f "$build/CMakeCache.txt" ]; then
    configure+=(-DSTOREFRONT_BUILD_TESTS=OFF)
fi
stages=${STOREFRONT_TEST_STAGES:-1 2 3 4}
stage() { [[ " $stages " == *" $1 "* ]]; }
banner() { printf '\n=== quickstart test: %s ===\n' "$*"; }

# build/ is run's and stage 1's; the other stages build in their own directories.
if [ "$mode" = run ]; then
    forget_make_build "$build"
    cmake -S "$root" -B "$build" "${configure[@]}"
    cmake --build "$build" -j2 --target storefront
elif stage 1; then
    # Stage 1 tests the executable users run from outside; the test executables are built and run in the
    # sanitizer builds (stages 2 and 3), so build/ does not compile them a third time.
    forget_make_build "$build"
    cmake -S "$root" -B "$build" "${configure[@]}"
    cmake --build "$build" -j2 --target storefront
fi

if [ "$mode" = run ]; then
    echo "quickstart: starting storefront (default http://127.0.0.1:8080/api/v1; the \"listening\" line below has the address; Ctrl-C stops it)"
    exec "$build/server/storefront" "${@:2}"
fi

# Stages 2 and 4 share one build: clang, ASan + UBSan, Debug (-O0; with g++, -O1 compiled a file in 2.5 times
# the CPU time with both sanitizers), line tables only (-g1), and with STOREFRONT_FUZZ every object also compiled with
# -fsanitize=fuzzer-no-link, so the harnesses link libFuzzer against the same objects the suite tests.
asan=$build-asan
configure_asan() {
    # A directory configured by an older version of this script with another compiler starts afresh.
    if [ -f "$asan/CMakeCache.txt" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-14$' "$asan/CMakeCache.txt"; then
        rm -rf "$asan"
    fi
    forget_make_build "$asan"
    cmake -S "$root" -B "$asan" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g1 \
        -DCMAKE_CXX_COMPILER=clang++-14 -DSTOREFRONT_SANITIZE=address,undefined -DSTOREFRONT_FUZZ=ON \
        -DSTOREFRONT_BUILD_TESTS=ON "$lld" "$unity"
}
harnesses=(request json_body query jwt graphql shop feed)

# Stage 3's executables: every Boost.Test suite (the fuzz harnesses' seeds run in stage 2).
tsan_targets=(storefront server_tests core_tests storage_tests graphql_tests)
configure_tsan() {
    forget_make_build "$build-tsan"
    cmake -S "$root" -B "$build-tsan" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$relwithdebinfo_g1" \
        -DSTOREFRONT_SANITIZE=thread "$lld" "$unity"
}

# The sanitizer builds run behind the tests of the stage before them: stage 1's and stage 2's tests mostly wait
# (sockets, child processes, PostgreSQL, Chromium), so one background job at the lowest CPU and I/O priority
# builds build-asan/ and then build-tsan/ with the cores the tests leave idle; a stage waits only for what is
# left of its build. Its output goes to a log that is printed when a build fails.
builds_log=$(mktemp -d)
background_pid=""
stop_background() {
    [ -n "$background_pid" ] || return 0
    local pids=("$background_pid") pid child
    for ((i = 0; i < ${#pids[@]}; i++)); do
        for child in $(pgrep -P "${pids[$i]}" 2>/dev/null); do pids+=("$child"); done
    done
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    background_pid=""
}
trap 'stop_background; rm -rf "$builds_log"' EXIT
build_in_background() {
    (
        set +e
        renice -n 19 -p "$BASHPID" >/dev/null
        ionice -c 3 -p "$BASHPID" 2>/dev/null || true
        if stage 2; then
            { configure_asan && cmake --build "$asan" -j2; } >"$builds_log/asan.log" 2>&1
            echo $? >"$builds_log/asan.rc"
        elif stage 4; then
            { configure_asan && cmake --build "$asan" -j2 --target "${harnesses[@]/#/fuzz_}"; } >"$builds_log/asan.log" 2>&1
            echo $? >"$builds_log/asan.rc"
        fi
        if stage 3; then
            { configure_tsan && cmake --build "$build-tsan" -j2 --target "${tsan_targets[@]}"; } >"$builds_log/tsan.log" 2>&1
            echo $? >"$builds_log/tsan.rc"
        fi
    ) &
    background_pid=$!
}
# Waits for one background build (asan or tsan) and fails with the end of its log if it failed.
await_build() {
    local name=$1 started=$SECONDS
    while [ ! -f "$builds_log/$name.rc" ]; do
        kill -0 "$background_pid" 2>/dev/null || [ -f "$builds_log/$name.rc" ] || {
            echo "quickstart: the background build ended without building $name" >&2
            exit 1
        }
        sleep 1
    done
    if [ "$(cat "$builds_log/$name.rc")" != 0 ]; then
        tail -n 60 "$builds_log/$name.log"
        echo "quickstart: the $name build failed (its log above)" >&2
        exit 1
    fi
    echo "quickstart: build-$name ready (waited $((SECONDS - started)) s for it)"
}
build_in_background

if stage 1; then
    banner "1. the shipped build from outside"
    # Two tests at a time (2 cores): most of them wait on sockets, processes or Chromium; the ones that need the
    # machine alone (cluster_drills, container_image, package_install) are RUN_SERIAL in tests/CMakeLists.txt.
    ctest --test-dir "$build" --output-on-failure -j2 -LE test_executable
fi

if stage 2; then
    banner "2. the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer"
    await_build asan
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir "$asan" --output-on-failure -j2
fi

if stage 3; then
    banner "3. the suites under ThreadSanitizer"
    await_build tsan
    # core, storage and GraphQL suites and server_tests in its five parts (tests/server/CMakeLists.txt), two at a
    # time; the PostgreSQL suites and the fuzz seeds run in stage 2.
    TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
        ctest --test-dir "$build-tsan" --output-on-failure -j2 -L test_executable -LE 'postgresql|fuzz'
fi

if stage 4; then
    seconds=${STOREFRONT_FUZZ_SECONDS:-30}
    banner "4. fuzzing, ${seconds}s per harness (libFuzzer, clang, ASan + UBSan)"
    # After stage 2 this compiles nothing; alone the background job built only the harnesses.
    await_build asan
    # Each harness fuzzes for the whole time, two at a time (one per core); each prints its last lines when it
    # ends. A finding fails the stage and keeps its directory (the artifact's path is in those lines).
    fuzz_one() {
        local harness=$1 dict=$root/tests/fuzz/json.dict work status=0
        [[ $harness == request || $harness == query ]] && dict=$root/tests/fuzz/http.dict
        [[ $harness == graphql ]] && dict=$root/tests/fuzz/graphql.dict
        work=$(mktemp -d)
        UBSAN_OPTIONS=print_stacktrace=1 "$asan/tests/fuzz/fuzz_$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
            -dict="$dict" -artifact_prefix="$work/" "$work" "$root/tests/fuzz/corpus/$harness" \
            >"$work/fuzz.log" 2>&1 || status=$?
        echo "--- fuzz_$harness"
        tail -n 4 "$work/fuzz.log"
        ((status == 0)) && rm -rf "$work"
        return "$status"
    }
    running=()
    # shop: the money and cart rules of core (JSON number texts, so json.dict); feed: a WebSocket text message to
    # the change feed (JSON commands, so json.dict)
    for harness in "${harnesses[@]}"; do
        if ((${#running[@]} == 2)); then
            wait "${running[0]}"
            running=("${running[@]:1}")
        fi
        fuzz_one "$harness" &
        running+=($!)
    done
    for pid in "${running[@]}"; do wait "$pid"; done
fi
