#!/usr/bin/env bash
# Request smuggling through the shipped HAProxy configuration (deploy/haproxy.cfg, Debian's HAProxy 2.6) in
# front of two storefront instances (memory storage), all on free ports of 127.0.0.1:
# tests/cluster/smuggling.py sends each malformed or ambiguous request with a request pipelined behind it, over
# the HTTP and the HTTPS frontend, and checks that nothing desyncs. Then the configuration's edge rules: the
# /metrics deny in every spelling, HSTS on TLS, the per-address login limit.
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

# The edge rules of the same configuration (issue 45), through a second HAProxy on the same instances. The
# shipped rules exempt loopback clients (monitoring, the drills' load), and every client here is loopback, so
# this copy drops that exemption from the /metrics deny and the login limit, and nothing else.
read -r -a edge <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
sed 's/ !{ src 127.0.0.0\/8 ::1 }//' "$root/deploy/haproxy.cfg" >"$work/edge.cfg"
SF_HTTP_BIND=127.0.0.1:${edge[0]} SF_HTTPS_BIND=127.0.0.1:${edge[1]} SF_STATS_BIND=127.0.0.1:${edge[2]} \
    SF_TLS_CERT=$work/site.pem SF_INSTANCE_1=127.0.0.1:$inst1 SF_INSTANCE_2=127.0.0.1:$inst2 \
    SF_INSTANCE_3=127.0.0.1:$inst1 "$haproxy_bin" -db -f "$work/edge.cfg" >"$work/haproxy-edge.log" 2>&1 &
pids+=($!)
http=http://127.0.0.1:${edge[0]}
code=000
for ((i = 0; i < 100; i++)); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$http/api/v1/products/1" || true)
    [ "$code" = 200 ] && break
    sleep 0.1
done
[ "$code" = 200 ] || {
    echo "edge rules: no answer through the second HAProxy" >&2
    exit 1
}
failed=0
# Every spelling that reaches the metrics route is refused; the API is not.
for spelling in /metrics /metrics/ //metrics /metrics// /%6Detrics /%6detrics/ /METRICS /Metrics/; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$http$spelling")
    [ "$code" = 403 ] || {
        echo "edge rules: GET $spelling answered $code, not 403" >&2
        failed=1
    }
done
# HSTS on the TLS frontend.
hsts=$(curl -sk -o /dev/null -D - "https://127.0.0.1:${edge[1]}/api/v1/products/1" |
    tr -d '\r' | grep -i '^strict-transport-security:' || true)
[[ $hsts == *max-age=31536000* ]] || {
    echo "edge rules: no Strict-Transport-Security on the TLS frontend ($hsts)" >&2
    failed=1
}
# More than 30 login attempts a minute from one address: HAProxy answers 429 itself, before any instance.
last=""
for ((i = 1; i <= 32; i++)); do
    last=$(curl -s -D - --max-time 5 -H 'Content-Type: application/json' -d '{"email":"edge@example.com","password":"x"}' \
        "$http/api/v1/auth/login" | tr -d '\r' | tr '[:upper:]' '[:lower:]')
done
# (HAProxy sends header names in lower case.)
if [[ $last != *" 429"* || $last != *"retry-after: 60"* || $last != *"from this address"* ]]; then
    echo "edge rules: the 32nd login attempt was not refused by the balancer:" >&2
    echo "$last" | head -n 12 >&2
    failed=1
fi
[ "$failed" -eq 0 ] || exit 1
echo "edge rules: /metrics refused in 8 spellings, HSTS on TLS, login attempts limited per address"
