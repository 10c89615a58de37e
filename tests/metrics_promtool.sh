#!/usr/bin/env bash
# promtool (Debian package prometheus) checks the live /metrics output of a real storefront after a few
# requests: the text format, metric names, help and types. Loopback only; the server stops on exit, also
# after a failure. Fails, never skips, without promtool.
#
#   tests/metrics_promtool.sh PATH/TO/storefront
set -euo pipefail
server_bin=${1:?usage: metrics_promtool.sh PATH/TO/storefront}
promtool=$(command -v promtool || true)
if [[ -z $promtool ]]; then
    echo "FAIL: promtool is not installed (Debian package prometheus; ./deploy/quickstart.sh test installs it)" >&2
    exit 1
fi
work=$(mktemp -d /tmp/storefront-metrics.XXXXXX)
pid=
cleanup() {
    [[ -n $pid ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

"$server_bin" --address 127.0.0.1 --port 0 --threads 1 --generated-locations 1000 --access-log false \
    >"$work/server.log" 2>&1 &
pid=$!
port=
for _ in $(seq 1 100); do
    port=$(sed -n 's/.*"event":"listening".*"port":\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || { echo "FAIL: server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

python3 - "$port" >"$work/metrics.txt" <<'PY'
import sys, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for path in ["/api/v1/products?limit=2", "/api/v1/products/1", "/api/v1/products/9999", "/nope", "/api/v3/pet/findByStatus"]:
    try:
        urllib.request.urlopen(base + path, timeout=5).read()
    except urllib.error.HTTPError:
        pass
# Other verbs on the same pattern: each route keeps its own series (a duplicate would fail promtool).
for method in ["DELETE", "HEAD"]:
    try:
        urllib.request.urlopen(urllib.request.Request(base + "/api/v1/products/1", method=method), timeout=5).read()
    except urllib.error.HTTPError:
        pass
sys.stdout.write(urllib.request.urlopen(base + "/metrics", timeout=5).read().decode())
PY
grep -q 'storefront_http_requests_total{route="/api/v1/products/{id}",operation="getProduct",method="GET",status="404"} 1' "$work/metrics.txt" ||
    { echo "FAIL: the 404 of /api/v1/products/9999 is not counted under its pattern" >&2; exit 1; }
"$promtool" check metrics <"$work/metrics.txt"
echo "ok: promtool check metrics passes on $(grep -vc '^#' "$work/metrics.txt") samples"
