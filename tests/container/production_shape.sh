#!/usr/bin/env bash
# compose.yaml's shape with the container image, where compose itself cannot run (no registry for its postgres
# and haproxy images): three containers of IMAGE on PostgreSQL 15 (a throw-away cluster on the host) with one
# set of token secrets, and Debian's HAProxy with the shipped deploy/haproxy.cfg in front, everything on host
# network and 127.0.0.1. Run by tests/container/container_image.sh through tests/pg/with_pg_cluster.sh:
#   tests/pg/with_pg_cluster.sh tests/container/production_shape.sh IMAGE
# Checks: HAProxy sees the three instances UP (their /readyz); a product written through HAProxy is read on
# every instance; a token from a login through HAProxy is accepted by every instance; after SIGTERM to one
# container HAProxy takes it out and keeps answering. Containers are removed on exit, failure or Ctrl-C.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
image=${1:?usage: $0 IMAGE (with TEST_PG_DSN set)}
: "${TEST_PG_DSN:?run through tests/pg/with_pg_cluster.sh}"
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)

say() { echo "production_shape: $*"; }
fail() {
    echo "production_shape: FAIL: $*" >&2
    exit 1
}

work=$(mktemp -d "${TMPDIR:-/tmp}/storefront-shape.XXXXXX")
names=(storefront-shape-$$-1 storefront-shape-$$-2 storefront-shape-$$-3)
haproxy_pid=
cleanup() {
    local status=$? n
    trap - EXIT INT TERM
    [ -z "$haproxy_pid" ] || kill -TERM "$haproxy_pid" 2>/dev/null || true
    for n in "${names[@]}"; do
        if [ "$status" -ne 0 ] && podman container exists "$n" 2>/dev/null; then
            echo "--- logs of $n" >&2
            podman logs --tail 10 "$n" >&2 2>&1 || true
        fi
        podman rm -f -v -t 0 "$n" >/dev/null 2>&1 || true
    done
    [ "$status" -eq 0 ] || tail -n 20 "$work/haproxy.log" >&2 2>/dev/null || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

read -r -a ports <<<"$(python3 -c '
import socket
socks = [socket.socket() for _ in range(6)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')"
http=${ports[0]} https=${ports[1]} stats=${ports[2]} inst=("${ports[@]:3:3}")

# One environment file for the three, as compose.yaml gives them: the database and shared token secrets.
(
    umask 077
    cat >"$work/storefront.env" <<EOF
STOREFRONT_STORAGE=$TEST_PG_DSN
STOREFRONT_ACCESS_SECRET=$(openssl rand -hex 32)
STOREFRONT_REFRESH_SECRET=$(openssl rand -hex 32)
STOREFRONT_PET_TOKEN_SECRET=$(openssl rand -hex 32)
STOREFRONT_ADDRESS=127.0.0.1
STOREFRONT_TRUSTED_PROXIES=127.0.0.1
STOREFRONT_DRAIN_SECONDS=2
STOREFRONT_ACCESS_LOG=false
EOF
)
for i in 0 1 2; do
    podman run -d --name "${names[i]}" --network host --env-file "$work/storefront.env" \
        -e STOREFRONT_PORT="${inst[i]}" "$image" >/dev/null 2>>"$work/podman.log"
done

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=localhost \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
cat "$work/cert.pem" "$work/key.pem" >"$work/site.pem"
SF_HTTP_BIND=127.0.0.1:$http SF_HTTPS_BIND=127.0.0.1:$https SF_STATS_BIND=127.0.0.1:$stats \
    SF_TLS_CERT=$work/site.pem SF_INSTANCE_1=127.0.0.1:${inst[0]} SF_INSTANCE_2=127.0.0.1:${inst[1]} \
    SF_INSTANCE_3=127.0.0.1:${inst[2]} "$haproxy_bin" -db -f "$root/deploy/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
haproxy_pid=$!

up_count() {
    { curl -s --max-time 2 "http://127.0.0.1:$stats/;csv" 2>/dev/null || true; } |
        awk -F, '$1 == "be_storefront" && $2 ~ /^s[0-9]$/ && $18 == "UP"' | wc -l
}
for ((i = 0; i < 300; i++)); do
    [ "$(up_count)" -eq 3 ] && break
    sleep 0.1
done
[ "$(up_count)" -eq 3 ] || fail "HAProxy does not see the three containers UP after 30 s"
say "HAProxy 127.0.0.1:$http in front of containers on ${inst[*]}, PostgreSQL $(cut -d@ -f2 <<<"$TEST_PG_DSN")"

lb=http://127.0.0.1:$http
title="Shape mug $$"
created=$(curl -s --max-time 5 -X POST -H 'Content-Type: application/json' -w '\n%{http_code}' \
    -d "{\"title\":\"$title\",\"price\":9,\"description\":\"d\",\"categoryId\":1,\"images\":[\"https://placehold.co/1\"]}" \
    "$lb/api/v1/products")
[ "$(tail -n 1 <<<"$created")" = 201 ] || fail "product create through HAProxy: $created"
id=$(head -n 1 <<<"$created" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
token=$(curl -s --max-time 10 -X POST -H 'Content-Type: application/json' \
    -d '{"email":"john@mail.com","password":"changeme"}' "$lb/api/v1/auth/login" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])') || fail "login through HAProxy"
for port in "${inst[@]}"; do
    curl -s --max-time 3 "http://127.0.0.1:$port/api/v1/products/$id" | grep -qF "\"title\":\"$title\"" ||
        fail "product $id not read on the instance on $port"
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -H "Authorization: Bearer $token" \
        "http://127.0.0.1:$port/api/v1/auth/profile")
    [ "$code" = 200 ] || fail "the instance on $port answers $code to a token issued through HAProxy"
done
say "product $id written through HAProxy is read on all three; a login's token works on all three"

podman kill --signal TERM "${names[0]}" >/dev/null
for ((i = 0; i < 50; i++)); do
    [ "$(up_count)" -eq 2 ] && break
    sleep 0.1
done
[ "$(up_count)" -eq 2 ] || fail "HAProxy still counts 3 servers UP 5 s after SIGTERM to one container"
for ((i = 0; i < 20; i++)); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$lb/api/v1/products/$id")
    [ "$code" = 200 ] || fail "GET through HAProxy answered $code with one container stopping"
done
status=$(timeout 15 podman wait "${names[0]}") || fail "the stopped container did not exit within 15 s"
[ "$status" = 0 ] || fail "the stopped container exited with $status"
say "SIGTERM to one container: out of HAProxy's pool, 20 reads through HAProxy all 200, exit status 0"
