#!/usr/bin/env bash
# Checks deploy/storefront.service with `systemd-analyze verify`, pointing ExecStart at a built binary.
# usage: deploy/verify-unit.sh <path-to-storefront-binary>
set -euo pipefail
binary=$(realpath "$1")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if ! command -v systemd-analyze >/dev/null; then
    echo "systemd-analyze not installed; skipping" >&2
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed "s|^ExecStart=.*|ExecStart=$binary|" "$here/storefront.service" >"$tmp/storefront.service"
out=$(systemd-analyze verify "$tmp/storefront.service" 2>&1 || true)
echo "$out"
# Any warning about our unit file fails the check (lines about other units are systemd's own noise).
if grep -q "storefront.service" <<<"$out"; then
    exit 1
fi
