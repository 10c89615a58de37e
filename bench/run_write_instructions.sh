#!/usr/bin/env bash
# Instructions per write, by thread (issue 46 goal 3: "a create costs <= 40,000 instructions on the I/O
# thread"): storefront under callgrind (--separate-threads=yes), --threads 1, --write-policy open, on the given
# storage (default SQLite in a temp dir). It sends WARM creates first, zeroes the counters, then sends N
# operations of the kind asked for on one keep-alive connection, dumps, and prints each thread's instructions
# per operation, named by the code that started it (the I/O thread, the write lane, the storage pool,
# the log writer). Instruction counts are deterministic to about 1 %: a busy machine does not change them.
#   bench/run_write_instructions.sh --server-bin B [--kind create|delete|page|replay] [--ops 200] [--warm 40]
#                                    [--storage sqlite|memory|DSN] [--keep DIR]
# `page` is the products page repeated after each create (the rebuild a write costs a reader); `replay` the
# products page alone, again and again (a read answered from the thread's replay cache: goal 1's hot path).
set -euo pipefail

bin="" kind=create ops=200 warm=40 storage=sqlite keep=""
while [ $# -gt 0 ]; do
    case $1 in
        --server-bin) bin=$2; shift 2 ;;
        --kind) kind=$2; shift 2 ;;
        --ops) ops=$2; shift 2 ;;
        --warm) warm=$2; shift 2 ;;
        --storage) storage=$2; shift 2 ;;
        --keep) keep=$2; shift 2 ;;  # a directory to copy the dumps into (for callgrind_annotate)
        *) echo "usage: $0 --server-bin B [--kind create|delete|page|replay] [--ops N] [--warm N] [--storage S]" >&2
           exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "run_write_instructions: --server-bin is not an executable: '$bin'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "run_write_instructions: valgrind is missing (apt-get install valgrind)" >&2; exit 1; }

work=$(mktemp -d)
server_pid=""
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT INT TERM

[ "$storage" = sqlite ] && storage="sqlite:$work/store.db"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$work/cg.out" \
    "$bin" --address 127.0.0.1 --port "$port" --threads 1 --storage "$storage" --write-policy open \
    >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 600); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log" >&2; exit 1; }
    sleep 0.2
done

# One keep-alive connection: WARM creates (and, for deletes, the rows to delete), counters zeroed, the
# measured operations, one dump.
python3 - "$port" "$kind" "$ops" "$warm" "$server_pid" <<'EOF'
import http.client, json, subprocess, sys
port, kind, ops, warm, server = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
def call(method, path, body=None):
    c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
    r = c.getresponse(); data = r.read()
    if r.status >= 300:
        sys.exit(f"{method} {path}: {r.status} {data[:200]!r}")
    return data
def create(title):
    body = json.dumps({"title": title, "price": 10 + len(title) % 50, "description": "measured",
                       "categoryId": 1, "images": ["https://placehold.co/600x400"]})
    return json.loads(call("POST", "/api/v1/products", body))["id"]
def callgrind(command):
    subprocess.run(["callgrind_control", command, server], capture_output=True, check=True)
made = [create(f"Warm-up {kind} {i}") for i in range(warm + (ops if kind == "delete" else 0))]
for _ in range(3):
    call("GET", "/api/v1/products?offset=0&limit=10")
callgrind("-z")
for i in range(ops):
    if kind == "delete":
        call("DELETE", f"/api/v1/products/{made[-ops + i]}")  # the last creates of the warm-up
        continue
    if kind == "replay":
        call("GET", "/api/v1/products?offset=0&limit=10")  # the same bytes again: the replay cache answers
        continue
    create(f"Measured {kind} {i}")
    if kind == "page":
        call("GET", "/api/v1/products?offset=0&limit=10")
callgrind("-d")
EOF
sleep 1

# Each thread's dump: its total (the "summary:" line) and the role its code names.
echo "instructions per operation by thread ($kind, $ops operations, storage ${storage%%:*}, $(basename "$bin"))"
for f in "$work"/cg.out*-*; do
    [ -f "$f" ] || continue
    total=$(awk '/^summary:/ {print $2}' "$f")
    [ -n "$total" ] && [ "$total" -gt 0 ] || continue
    role=other
    grep -q 'http_server::start' "$f" && role="I/O thread"
    [ "$role" = other ] && grep -q 'write_lane::serve' "$f" && role="write lane"
    [ "$role" = other ] && grep -q 'blocking_offload\|storage_pool' "$f" && role="storage pool"
    [ "$role" = other ] && grep -q 'flush_periodically' "$f" && role="log writer"
    printf '  %-14s %10d  (%s)\n' "$role" $((total / ops)) "$(basename "$f")"
done
if [ -n "$keep" ]; then
    mkdir -p "$keep" && cp "$work"/cg.out*-* "$keep"/
fi
