#!/usr/bin/env bash
# The container image (deploy/container/Containerfile) built and run with Debian's podman:
#   tests/container/container_image.sh STOREFRONT_BINARY      (ctest: container_image; ~1 minute when cached)
# It builds the Containerfile's `prebuilt` target (the runtime stage with the binary the test command built,
# stripped; deploy/container/build.sh does the full multi-stage build) on Debian 12 base images made from
# Debian packages (deploy/container/debian-base-images.sh: no registry needed; the root file system is cached
# in /var/cache/storefront-test and the runtime-base layer in podman's store, so a second run is fast), then:
#   1. the image: its size (at most 150 MB), user, exposed port, volume, healthcheck
#   2. a container with a named volume answers its first request (the time from `podman run` is printed)
#   3. the server process runs as a non-root user
#   4. the HEALTHCHECK (GET /readyz) reports healthy
#   5. a product written over HTTP survives `podman restart`, and a new container on the same volume reads it
#   6. SIGTERM drains (/readyz 503 and the healthcheck failing while the API still answers) and the container
#      exits 0 within the drain time plus a margin
#   7. deploy/container/compose.yaml is valid for docker-compose (Debian's 1.29, `config`): compose itself
#      cannot run here, its postgres and haproxy images come from a registry this machine does not reach, so
#   8. its shape runs without it (tests/container/production_shape.sh): three containers of the image on a
#      throw-away PostgreSQL 15, Debian's HAProxy with deploy/haproxy.cfg in front, on host network
# Runs as root (podman's system store; CI runs as root), otherwise skipped (77). The server listens on a free
# port of 127.0.0.1 only (host network). Containers, the volume and the test image are removed on exit,
# failure or Ctrl-C; the base images and the runtime-base cache are kept on purpose.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:?usage: $0 STOREFRONT_BINARY}
drain_seconds=3
max_image_mb=150

say() { echo "container_image: $*"; }
fail() {
    echo "container_image: FAIL: $*" >&2
    exit 1
}
if [ "$(id -u)" -ne 0 ]; then
    say "skipped: needs root (podman's system store, mmdebstrap); CI runs it as root"
    exit 77
fi
for tool in podman runc mmdebstrap docker-compose haproxy openssl curl python3 strip; do
    command -v "$tool" >/dev/null || fail "$tool is missing (./deploy/quickstart.sh test installs it)"
done
[ -x "$bin" ] || fail "$bin is not an executable"

work=$(mktemp -d "${TMPDIR:-/tmp}/storefront-container.XXXXXX")
tag=localhost/storefront-test-$$:latest
volume=storefront-test-$$
containers=(storefront-test-$$-a storefront-test-$$-b)
# podman on these machines: runc (crun is not installed), no default ulimits (no CAP_SYS_RESOURCE), cgroupfs
# and file events (no systemd inside a CI container).
cat >"$work/containers.conf" <<'EOF'
[containers]
default_ulimits = []

[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
export CONTAINERS_CONF=$work/containers.conf

cleanup() {
    local status=$? c
    trap - EXIT INT TERM
    for c in "${containers[@]}"; do
        if [ "$status" -ne 0 ] && podman container exists "$c" 2>/dev/null; then
            echo "--- logs of $c" >&2
            podman logs --tail 20 "$c" >&2 2>&1 || true
        fi
        podman rm -f -v -t 0 "$c" >/dev/null 2>&1 || true
    done
    # podman logs its missing systemd (no timer for the HEALTHCHECK; the test runs it itself) on every start.
    [ "$status" -eq 0 ] || grep -v 'systemd' "$work/podman.log" >&2 2>/dev/null || true
    podman volume rm -f "$volume" >/dev/null 2>&1 || true
    podman rmi -f "$tag" >/dev/null 2>&1 || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(now)"; }

# ---- compose.yaml: valid, with the shipped HAProxy configuration, refusing to start without its secrets ---
compose=$root/deploy/container/compose.yaml
: >"$work/empty.env"  # not a developer's deploy/container/.env
compose_config() { docker-compose --env-file "$work/empty.env" -f "$compose" config "$@"; }
resolved=$(POSTGRES_PASSWORD=p STOREFRONT_ACCESS_SECRET=a STOREFRONT_REFRESH_SECRET=r \
    STOREFRONT_PET_TOKEN_SECRET=t compose_config) || fail "docker-compose config rejects $compose"
for service in db storefront-1 storefront-2 storefront-3 haproxy tls; do
    grep -q "^  $service:\$" <<<"$resolved" || fail "compose.yaml has no service $service"
done
grep -qF "$root/deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" <<<"$resolved" ||
    fail "compose.yaml does not mount the shipped deploy/haproxy.cfg"
[ "$(grep -c 'STOREFRONT_STORAGE: postgresql://storefront:p@db:5432/storefront' <<<"$resolved")" = 3 ] ||
    fail "not every instance uses the PostgreSQL service"
if (unset POSTGRES_PASSWORD && compose_config -q 2>/dev/null); then
    fail "compose.yaml is accepted without POSTGRES_PASSWORD"
fi
say "compose.yaml: valid (docker-compose $(docker-compose version --short)), 3 instances on PostgreSQL," \
    "the shipped haproxy.cfg"

# ---- the image --------------------------------------------------------------------------------------------
"$root/deploy/container/debian-base-images.sh" slim
mkdir -p "$work/context/deploy/container"
strip -o "$work/context/storefront" "$bin"
cp "$root/deploy/container/healthcheck.sh" "$work/context/deploy/container/"
t0=$(now)
# Builds on the host's network: apt-get in the build needs no bridge or iptables (CI containers may have
# none).
# runtime-base is tagged so that its layer (apt-get install of the runtime libraries) is reused next time; a
# cache the Containerfile has moved past is removed (unless something still uses it).
cache=localhost/storefront-runtime-base:test-cache
old_cache=$(podman image inspect --format '{{.Id}}' "$cache" 2>/dev/null || true)
build() {
    podman build --quiet --format docker --network host -f "$root/deploy/container/Containerfile" "$@"
}
build --target runtime-base -t "$cache" "$work/context" >/dev/null
if [ -n "$old_cache" ] && [ "$old_cache" != "$(podman image inspect --format '{{.Id}}' "$cache")" ]; then
    podman rmi "$old_cache" >/dev/null 2>&1 || true
fi
build --target prebuilt -t "$tag" "$work/context" >/dev/null
say "image built in $(since "$t0") s (prebuilt target)"

size=$(podman image inspect --format '{{.Size}}' "$tag")
size_mb=$((size / 1000000))
say "image size: $size_mb MB ($size bytes)"
((size_mb <= max_image_mb)) || fail "image is $size_mb MB, over $max_image_mb MB"
format='{{.Config.User}}|{{json .Config.ExposedPorts}}|{{json .Config.Volumes}}|{{json .HealthCheck.Test}}'
config=$(podman image inspect --format "$format" "$tag")
say "image config: $config"
[[ $config == storefront:storefront\|* ]] || fail "image user is not storefront: $config"
[[ $config == *'"8080/tcp"'* ]] || fail "8080/tcp not exposed: $config"
[[ $config == *'"/var/lib/storefront"'* ]] || fail "/var/lib/storefront is no volume: $config"
[[ $config == *storefront-healthcheck* ]] || fail "no HEALTHCHECK: $config"

# ---- a container -------------------------------------------------------------------------------------------
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port
podman volume create "$volume" >/dev/null

# Host network, bound to 127.0.0.1 only; everything else as the image sets it (SQLite in the volume).
run_container() {
    podman run -d --name "$1" --network host -v "$volume:/var/lib/storefront" \
        -e STOREFRONT_ADDRESS=127.0.0.1 -e STOREFRONT_PORT="$port" \
        -e STOREFRONT_DRAIN_SECONDS="$drain_seconds" -e STOREFRONT_ACCESS_LOG=false --stop-timeout 20 "$tag" \
        >/dev/null 2>>"$work/podman.log"
}

code() { curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$@" 2>/dev/null || true; }

wait_ready() {
    local c=$1 i
    for ((i = 0; i < 300; i++)); do
        [ "$(code "$base/readyz")" = 200 ] && return 0
        [ "$(podman inspect --format '{{.State.Running}}' "$c")" = true ] || fail "$c exited"
        sleep 0.1
    done
    fail "$c not ready after 30 s"
}

t0=$(now)
run_container "${containers[0]}"
for ((i = 0; i < 300; i++)); do
    [ "$(code "$base/api/v1/categories/1")" = 200 ] && break
    sleep 0.1
done
[ "$(code "$base/api/v1/categories/1")" = 200 ] || fail "no 200 from /api/v1/categories/1 within 30 s"
say "first answer $(since "$t0") s after podman run"

pid=$(podman inspect --format '{{.State.Pid}}' "${containers[0]}")
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status")
say "server process: pid $pid on the host, uid $uid ($(podman exec "${containers[0]}" id -un))"
[ "$uid" -ne 0 ] || fail "the server runs as root"

wait_ready "${containers[0]}"
podman healthcheck run "${containers[0]}" >/dev/null ||
    fail "HEALTHCHECK reports unhealthy while /readyz is 200"
say "HEALTHCHECK: healthy"

title="Container mug $$ $(date +%s)"
created=$(curl -s --max-time 5 -X POST -H 'Content-Type: application/json' \
    -d "{\"title\":\"$title\",\"price\":12,\"description\":\"kept in the volume\",\"categoryId\":1,
         \"images\":[\"https://placehold.co/600x400\"]}" \
    -w '\n%{http_code}' "$base/api/v1/products")
[ "$(tail -n 1 <<<"$created")" = 201 ] || fail "product create: $created"
id=$(head -n 1 <<<"$created" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
has_product() { curl -s --max-time 3 "$base/api/v1/products/$id" | grep -qF "\"title\":\"$title\""; }
has_product || fail "product $id not read back"

podman restart -t 20 "${containers[0]}" >/dev/null 2>>"$work/podman.log"
wait_ready "${containers[0]}"
has_product || fail "product $id lost across podman restart"
say "product $id survives podman restart"

# ---- SIGTERM: drain, then a clean exit ---------------------------------------------------------------------
t0=$(now)
podman kill --signal TERM "${containers[0]}" >/dev/null
sleep 0.5
ready_code=$(code "$base/readyz")
api_code=$(code "$base/api/v1/categories/1")
healthy=yes
podman healthcheck run "${containers[0]}" >/dev/null 2>&1 || healthy=no
say "during the drain: /readyz $ready_code, /api/v1/categories/1 $api_code, HEALTHCHECK healthy: $healthy"
[ "$ready_code" = 503 ] || fail "/readyz is $ready_code during the drain, not 503"
[ "$api_code" = 200 ] || fail "the API answers $api_code during the drain, not 200"
[ "$healthy" = no ] || fail "HEALTHCHECK healthy while draining"
bound=$((drain_seconds + 10))
status=$(timeout "$bound" podman wait "${containers[0]}") || fail "still running $bound s after SIGTERM"
elapsed=$(since "$t0")
say "exited with status $status $elapsed s after SIGTERM (drain $drain_seconds s)"
[ "$status" = 0 ] || fail "exit status $status after SIGTERM"
drained() { python3 -c 'import sys; sys.exit(float(sys.argv[1]) < float(sys.argv[2]) - 0.5)' "$@"; }
drained "$elapsed" "$drain_seconds" || fail "exited after $elapsed s: it did not drain for $drain_seconds s"
podman logs "${containers[0]}" 2>&1 | grep -q '"level":"fatal"\|terminate called\|Segmentation' &&
    fail "an abnormal end in the container's log"

# ---- the volume holds the data: a new container on it ------------------------------------------------------
podman rm -v "${containers[0]}" >/dev/null
run_container "${containers[1]}"
wait_ready "${containers[1]}"
has_product || fail "product $id not in a new container on the same volume"
say "product $id read by a new container on the same volume"
podman stop -t 20 "${containers[1]}" >/dev/null

# ---- compose.yaml's shape: three containers on PostgreSQL behind HAProxy ---------------------------------
"$root/tests/pg/with_pg_cluster.sh" "$root/tests/container/production_shape.sh" "$tag"
say "passed"
