#!/usr/bin/env bash
# The full multi-stage build of deploy/container/Containerfile (compile on Debian 12, run on Debian 12 slim),
# timed, tagged localhost/storefront:latest (or $1), with the image's size printed:
#   deploy/container/build.sh [TAG]
# With podman (docker format, so the HEALTHCHECK is kept), or docker when podman is missing. As root without a
# registry (STOREFRONT_LOCAL_BASE_IMAGES=1) it first makes the Debian base images from Debian packages
# (deploy/container/debian-base-images.sh). Build jobs: the build stage uses every core it is given.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tag=${1:-localhost/storefront:latest}

if command -v podman >/dev/null; then
    engine=(podman build --format docker)
else
    engine=(docker build)
fi
if [ "${STOREFRONT_LOCAL_BASE_IMAGES:-0}" = 1 ]; then
    "$root/deploy/container/debian-base-images.sh" both
fi
start=$(date +%s)
"${engine[@]}" -f "$root/deploy/container/Containerfile" --target runtime -t "$tag" "$root"
end=$(date +%s)
size=$(${engine[0]} image inspect --format '{{.Size}}' "$tag")
echo "build.sh: $tag built in $((end - start)) s; size $((size / 1000000)) MB ($size bytes)"
