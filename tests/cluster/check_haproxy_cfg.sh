#!/usr/bin/env bash
# `haproxy -c` on deploy/haproxy.cfg with every variable it reads set and a throw-away self-signed certificate:
# the configuration the cluster and production use must parse on Debian's HAProxy 2.6, without warnings.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)
[ -x "$haproxy_bin" ] || {
    echo "check_haproxy_cfg: haproxy is missing (./deploy/quickstart.sh test installs it)" >&2
    exit 1
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
cat "$dir/cert.pem" "$dir/key.pem" >"$dir/site.pem"
out=$(SF_HTTP_BIND=127.0.0.1:8080 SF_HTTPS_BIND=127.0.0.1:8443 SF_TLS_CERT=$dir/site.pem SF_STATS_BIND=127.0.0.1:8404 \
    SF_INSTANCE_1=127.0.0.1:8081 SF_INSTANCE_2=127.0.0.1:8082 SF_INSTANCE_3=127.0.0.1:8083 \
    "$haproxy_bin" -c -f "$root/deploy/haproxy.cfg" 2>&1)
echo "$out"
if grep -q -E 'WARNING|ALERT' <<<"$out"; then
    echo "check_haproxy_cfg: warnings" >&2
    exit 1
fi
