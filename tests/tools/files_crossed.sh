#!/usr/bin/env bash
# Measures which files of server/src one request crosses, instead of reading the code and guessing: a gcc
# --coverage build of `storefront` (-O0, its own build directory) is started on 127.0.0.1 several times, and
# the line execution counts of a run that answers the request are compared with those of runs that start,
# take the same warm-up requests and stop without it. A file is crossed when a line of it ran more often
# with the request; lines whose counts differ between the runs without the request (timers, the log
# thread's batches) are left out of the comparison. The README's request walk names these files.
#
#   tests/tools/files_crossed.sh [get|post|both]      (default: both)
#
# Environment: BUILD_DIR (default build-coverage/ in the repository; configured and built here, with ccache
# where it is installed), STORAGE (default sqlite, in a temporary directory; or memory), WARM (default 0:
# the measured request is the first of its kind, as after a start or a write; 1: every run first sends a
# POST and a GET like the measured ones, so the GET finds its list serialised and the caches filled),
# TIMEOUT_SECONDS (default 60: the longest wait for a start, a request or a stop). Needs gcov (gcc's, with
# --json-format), curl and python3.
# A developer tool: not part of ctest. Everything it starts binds 127.0.0.1 and is stopped on exit.

set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
which_requests="${1:-both}"
case "$which_requests" in
    get | post | both) ;;
    *)
        echo "usage: $0 [get|post|both]" >&2
        exit 2
        ;;
esac
build_dir="${BUILD_DIR:-$repo/build-coverage}"
storage_kind="${STORAGE:-sqlite}"
warm="${WARM:-0}"
timeout_seconds="${TIMEOUT_SECONDS:-60}"
for tool in gcov curl python3 cmake; do
    command -v "$tool" >/dev/null || {
        echo "files_crossed: $tool not found" >&2
        exit 1
    }
done

work="$(mktemp -d /tmp/files_crossed.XXXXXX)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# --- the coverage build ---------------------------------------------------------------------------------
# ccache only where it is installed: a fresh machine (quickstart installs none) builds without it.
if [[ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]] && command -v ccache >/dev/null; then
    export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$repo}" CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
if [[ ! -f "$build_dir/CMakeCache.txt" ]]; then
    # A build type of its own ("Coverage": no flags of its own), so -O0 is not overridden by -O2.
    cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Coverage \
        -DCMAKE_CXX_FLAGS="-O0 --coverage" -DCMAKE_EXE_LINKER_FLAGS=--coverage \
        -DSTOREFRONT_BUILD_TESTS=OFF >"$work/configure.log" || {
        cat "$work/configure.log" >&2
        exit 1
    }
fi
cmake --build "$build_dir" -j2 --target storefront >"$work/build.log" 2>&1 || {
    tail -n 40 "$work/build.log" >&2
    exit 1
}
binary="$build_dir/server/storefront"
server_objects="$build_dir/server"

# --- one run: start, warm up, maybe the request, stop, and the counts of server/src lines ------------------
base_url=""
start_server() {
    local run="$1" storage
    if [[ "$storage_kind" == memory ]]; then
        storage=memory
    else
        storage="sqlite:$work/$run.db"
    fi
    # One I/O thread, no drain, a small generated location set: the same start every run, and a quick one.
    "$binary" --address 127.0.0.1 --port 0 --threads 1 --storage "$storage" --drain-seconds 0 \
        --generated-locations 1000 --access-secret files-crossed-access-secret \
        --refresh-secret files-crossed-refresh-secret >"$work/$run.log" 2>&1 &
    server_pid=$!
    local port="" waited=0
    while [[ -z "$port" ]]; do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "files_crossed: storefront did not start:" >&2
            tail -n 20 "$work/$run.log" >&2
            exit 1
        fi
        if ((waited >= timeout_seconds * 10)); then
            echo "files_crossed: storefront did not listen within ${timeout_seconds} s" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
        port="$(sed -n 's/.*"event":"listening".*"port":\([0-9]*\).*/\1/p' "$work/$run.log" | head -n 1)"
    done
    base_url="http://127.0.0.1:$port"
}

stop_server() {
    kill -TERM "$server_pid"
    local waited=0
    while kill -0 "$server_pid" 2>/dev/null; do
        if ((waited >= timeout_seconds * 10)); then
            echo "files_crossed: storefront did not stop within ${timeout_seconds} s" >&2
            exit 1
        fi
        sleep 0.1
        waited=$((waited + 1))
    done
    local status=0
    wait "$server_pid" || status=$?
    server_pid=""
    if ((status != 0)); then
        echo "files_crossed: storefront exited with $status (its counts are incomplete)" >&2
        exit 1
    fi
}

http() { curl --silent --show-error --max-time "$timeout_seconds" "$@"; }

# The same warm-up in every run: a probe, and the admin's login whose token the POST presents (README,
# Accounts and sessions; tests/server log in the same way); with WARM=1 also a POST and a GET like the
# measured ones (another title; another header, so the measured GET is not replayed from its bytes).
token=""
warm_up() {
    http --output /dev/null "$base_url/healthz"
    token="$(http -X POST -H 'Content-Type: application/json' \
        -d '{"email":"admin@mail.com","password":"admin123"}' "$base_url/api/v1/auth/login" |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')"
    if [[ "$warm" == 1 ]]; then
        send_post "Files Crossed Warm-up" >/dev/null
        http --output /dev/null -H 'X-Files-Crossed: warm-up' "$base_url/api/v1/products?offset=0&limit=10"
    fi
}

send_post() {
    http --output /dev/null --write-out '%{http_code}' -X POST \
        -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
        -d "{\"title\":\"$1\",\"price\":12.5,\"description\":\"A mug\",\"categoryId\":2,\"images\":[\"https://placehold.co/600x400\"]}" \
        "$base_url/api/v1/products"
}

# Sends the measured request and checks its status, so a refused request is not measured as the path.
measured_request() {
    local status
    case "$1" in
        get)
            status="$(http --output /dev/null --write-out '%{http_code}' \
                "$base_url/api/v1/products?offset=0&limit=10")"
            [[ "$status" == 200 ]]
            ;;
        post)
            status="$(send_post "Files Crossed Mug")"
            [[ "$status" == 201 ]]
            ;;
    esac || {
        echo "files_crossed: $1 answered $status" >&2
        exit 1
    }
}

# The execution count of every line of server/src in the run just stopped, as JSON {file: {line: count}}.
collect_counts() {
    local run="$1" gcov_dir="$work/gcov-$1"
    mkdir -p "$gcov_dir"
    find "$server_objects" -name '*.gcda' -print0 >"$work/gcda.list"
    # gcov writes one .gcov.json.gz per object into the current directory (named by its path: some share a name).
    (cd "$gcov_dir" && xargs -0 -n 32 gcov --json-format --preserve-paths >/dev/null 2>&1 <"$work/gcda.list")
    python3 - "$gcov_dir" "$repo/server/src/" "$work/$run.counts.json" <<'EOF'
import glob, gzip, json, os, sys
gcov_dir, src, out = sys.argv[1:4]
counts = {}
for name in glob.glob(os.path.join(gcov_dir, "*.gcov.json.gz")):
    with gzip.open(name) as f:
        data = json.load(f)
    cwd = data.get("current_working_directory", "")
    for entry in data["files"]:
        path = os.path.normpath(os.path.join(cwd, entry["file"]))
        if not path.startswith(src):
            continue
        lines = counts.setdefault(path[len(src):], {})
        for line in entry["lines"]:
            number = str(line["line_number"])
            lines[number] = lines.get(number, 0) + line["count"]  # a header's lines, summed over objects
with open(out, "w") as f:
    json.dump(counts, f)
EOF
    rm -rf "$gcov_dir"
}

measure() {
    local run="$1" request="$2"
    find "$server_objects" -name '*.gcda' -delete
    start_server "$run"
    warm_up
    if [[ "$request" != none ]]; then
        measured_request "$request"
    fi
    stop_server
    collect_counts "$run"
}

# --- the runs and the comparison --------------------------------------------------------------------------
measure quiet-1 none
measure quiet-2 none
requests=()
[[ "$which_requests" != post ]] && requests+=(get)
[[ "$which_requests" != get ]] && requests+=(post)
for request in "${requests[@]}"; do
    measure "$request" "$request"
done

python3 - "$work" "$warm" "${requests[@]}" <<'EOF'
import json, os, sys
work, warm, requests = sys.argv[1], sys.argv[2] == "1", sys.argv[3:]
def load(run):
    with open(os.path.join(work, run + ".counts.json")) as f:
        return json.load(f)
quiet, quiet_again = load("quiet-1"), load("quiet-2")
def count(run, path, line):
    return run.get(path, {}).get(line, 0)
for request in requests:
    run = load(request)
    crossed = {}  # path -> lines that ran more often with the request
    for path, lines in run.items():
        for line, n in lines.items():
            before = count(quiet, path, line)
            if count(quiet_again, path, line) != before:
                continue  # differs without any request: timing, not the request
            if n > before:
                crossed[path] = crossed.get(path, 0) + 1
    sources = sorted(p for p in crossed if p.endswith(".cpp"))
    headers = sorted(p for p in crossed if not p.endswith(".cpp"))
    label = {"get": "GET /api/v1/products?offset=0&limit=10", "post": "POST /api/v1/products"}[request]
    state = "warm" if warm else "cold"
    print(f"{label} ({state}): {len(sources)} .cpp files of server/src crossed (+ {len(headers)} headers with code run)")
    for title, paths in (("sources", sources), ("headers", headers)):
        folders = {}
        for p in paths:
            folder = p.split("/include/")[0] if "/include/" in p else os.path.dirname(p)
            folders.setdefault(folder or ".", []).append(p)
        print(f"  {title}:")
        for folder in sorted(folders):
            names = ", ".join(f"{os.path.basename(p)} ({crossed[p]})" for p in folders[folder])
            print(f"    {folder}/ [{len(folders[folder])}]: {names}")
    print()
noisy = {}
for path, lines in quiet.items():
    for line, n in lines.items():
        if count(quiet_again, path, line) != n:
            noisy[path] = noisy.get(path, 0) + 1
print("(n): lines of that file the request ran more often than a run without it")
print("left out, as they differ between the two runs without a request: " +
      (", ".join(f"{p} ({noisy[p]})" for p in sorted(noisy)) or "nothing"))
EOF
