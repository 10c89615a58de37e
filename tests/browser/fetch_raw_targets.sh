#!/usr/bin/env bash
# Headless Chromium (Debian `chromium`) runs fetch() against a real storefront with URLs whose targets hold
# characters browsers send raw (| [ ] ^ { } \ ` and UTF-8 in the query, | [ ] ^ in the path). Each answer
# must equal the answer to the same URL percent-encoded by hand, so no target Chromium can send is refused
# for its characters. Loopback only; everything started here stops on exit, also after a failure.
#
#   tests/browser/fetch_raw_targets.sh PATH/TO/storefront
set -euo pipefail

server_bin=${1:?usage: fetch_raw_targets.sh PATH/TO/storefront}
chromium=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chromium ]]; then
    echo "FAIL: chromium is not installed (Debian package chromium; ./deploy/quickstart.sh test installs it)" >&2
    exit 1
fi

work=$(mktemp -d /tmp/storefront-browser.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
wait_port() {
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "FAIL: nothing listens on port $1" >&2
    exit 1
}

api_port=$(free_port)
"$server_bin" --address 127.0.0.1 --port "$api_port" --threads 1 --generated-locations 1000 --access-log false \
    >"$work/server.log" 2>&1 &
pids+=($!)
page_port=$(free_port)
mkdir "$work/site"
# The page comes from another loopback origin, as a front-end dev server would serve it (CORS applies).
python3 -m http.server --bind 127.0.0.1 --directory "$work/site" "$page_port" >"$work/site.log" 2>&1 &
pids+=($!)
wait_port "$api_port"
wait_port "$page_port"

cat >"$work/site/index.html" <<EOF
<!doctype html>
<html><body data-result="pending"><script>
const api = 'http://127.0.0.1:$api_port';
// [as the browser sends it, the same percent-encoded by hand]
const cases = [
  ['/api/v1/products?limit=2&x=a|b', '/api/v1/products?limit=2&x=a%7Cb'],
  ['/api/v1/products?limit=2&x=[1]', '/api/v1/products?limit=2&x=%5B1%5D'],
  ['/api/v1/products?limit=2&x={a}', '/api/v1/products?limit=2&x=%7Ba%7D'],
  ['/api/v1/products?limit=2&x=a^b', '/api/v1/products?limit=2&x=a%5Eb'],
  ['/api/v1/products?limit=2&x=a\`b', '/api/v1/products?limit=2&x=a%60b'],
  ['/api/v1/products?limit=2&x=a\\\\b', '/api/v1/products?limit=2&x=a%5Cb'],
  ['/api/v1/products?limit=2&x=café', '/api/v1/products?limit=2&x=caf%C3%A9'],
  ['/api/v1/products?title=[x]|y^', '/api/v1/products?title=%5Bx%5D%7Cy%5E'],
  ['/api/v1/products?title=hoodie|', '/api/v1/products?title=hoodie%7C'],
  ['/api/v1/products?title=é', '/api/v1/products?title=%C3%A9'],
  ['/api/v1/products/1|2', '/api/v1/products/1%7C2'],
  ['/api/v1/products/slug/a[b]^c|d', '/api/v1/products/slug/a%5Bb%5D%5Ec%7Cd'],
  ['/api/v1/categories/slug/shoes|', '/api/v1/categories/slug/shoes%7C'],
];
async function answer(path) {
  const r = await fetch(api + path);
  return r.status + ' ' + await r.text();
}
(async () => {
  const out = [];
  for (const [raw, encoded] of cases) {
    const [a, b] = [await answer(raw), await answer(encoded)];
    out.push(a === b && !a.includes('Malformed request target') ? 'ok' : 'FAIL ' + raw + ' -> ' + a.slice(0, 80));
  }
  document.body.dataset.result = out.join('; ');
})().catch(e => { document.body.dataset.result = 'ERROR ' + e; });
</script></body></html>
EOF

timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile" --virtual-time-budget=20000 --dump-dom \
    "http://127.0.0.1:$page_port/index.html" >"$work/dom.html" 2>"$work/chromium.log" || true

result=$(sed -n 's/.*data-result="\([^"]*\)".*/\1/p' "$work/dom.html" | head -1)
expected=$(printf 'ok; %.0s' $(seq 1 13))
expected=${expected%; }
if [[ $result != "$expected" ]]; then
    echo "FAIL: Chromium's fetch results: ${result:-<none>}" >&2
    tail -5 "$work/chromium.log" >&2 || true
    exit 1
fi
echo "ok: 13 raw targets sent by Chromium answered as their percent-encoded twins"
