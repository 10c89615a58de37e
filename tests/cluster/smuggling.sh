#!/usr/bin/env bash
# Request smuggling through the shipped HAProxy configuration (deploy/haproxy.cfg, Debian's HAProxy 2.6) in
# front of two storefront instances (memory storage), all on free ports of 127.0.0.1:
# tests/cluster/smuggling.py sends each malformed or ambiguous request with a request pipelined behind it, over
# the HTTP and the HTTPS frontend, and checks that nothing desyncs.
#   tests/cluster/smuggling.sh [STOREFRONT_BINARY]      (ctest: balancer_smuggling; about 20 s)
# Everything is stopped and removed on exit, failure or Ctrl-C. Needs haproxy, python3, openssl, curl
# (./deploy/quickstart.sh test installs them).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=${1:-$root/build/server/storefront}
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)
for tool in "$haproxy_bin" python3 openssl curl; do
    command -v "$tool" >/dev/null || {
        echo "smuggling: $tool is missing (./deploy/quickstart.sh test installs it)" >&2
        exit 1
    }
done
[ -x "$bin" ] || {
    echo "smuggling: $bin is not an executable" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/storefront-smuggling.XXXXXX")
pids=()
cleanup() {
    local status=$? p
    trap - EXIT INT TERM
    for p in "${pids[@]}"; do
        kill -TERM "$p" 2>/dev/null || true
    done
    for p in "${pids[@]}"; do
        wait "$p" 2>/dev/null || true
    done
    if [ "$status" -ne 0 ]; then
        for p in "$work"/*.log; do
            [ -f "$p" ] || continue
            echo "--- tail of $(basename "$p")" >&2
            tail -n 20 "$p" >&2
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

read -r -a ports <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(5)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
http_port=${ports[0]} https_port=${ports[1]} stats_port=${ports[2]} inst1=${ports[3]} inst2=${ports[4]}

for n in 1 2; do
    port_var=inst$n
    "$bin" --address 127.0.0.1 --port "${!port_var}" --storage memory --threads 1 --access-log false \
        --trusted-proxies 127.0.0.1 --drain-seconds 0 >"$work/instance-$n.log" 2>&1 &
    pids+=($!)
done

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
cat "$work/cert.pem" "$work/key.pem" >"$work/site.pem"
# The shipped configuration has three servers; the third points at instance 1 again (two instances).
SF_HTTP_BIND=127.0.0.1:$http_port SF_HTTPS_BIND=127.0.0.1:$https_port SF_STATS_BIND=127.0.0.1:$stats_port \
    SF_TLS_CERT=$work/site.pem SF_INSTANCE_1=127.0.0.1:$inst1 SF_INSTANCE_2=127.0.0.1:$inst2 \
    SF_INSTANCE_3=127.0.0.1:$inst1 "$haproxy_bin" -db -f "$root/deploy/haproxy.cfg" \
    >"$work/haproxy.log" 2>&1 &
pids+=($!)

# Every server UP in HAProxy's view (its checks on /readyz), so each case may land on either instance.
up=0
for ((i = 0; i < 200; i++)); do
    up=$({ curl -s --max-time 2 "http://127.0.0.1:$stats_port/;csv" 2>/dev/null || true; } |
        awk -F, '$1 == "be_storefront" && $2 ~ /^s[0-9]$/ && $18 == "UP"' | wc -l)
    [ "$up" -eq 3 ] && break
    sleep 0.1
done
[ "$up" -eq 3 ] || {
    echo "smuggling: HAProxy does not report its servers UP after 20 s" >&2
    exit 1
}
echo "smuggling: HAProxy $("$haproxy_bin" -v | head -n 1 | cut -d' ' -f3) on 127.0.0.1:$http_port," \
    "storefront on $inst1 and $inst2"
python3 "$here/smuggling.py" 127.0.0.1 "$http_port" "$https_port"
