#!/usr/bin/env bash
# Checks deploy/storefront.service and the templated deploy/storefront@.service with `systemd-analyze
# verify`, pointing ExecStart at a built binary. A template is verified as an instance (storefront@1).
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
status=0
verify() {  # verify <unit file in deploy/> <name to verify it as>
    sed "s|^ExecStart=/usr/bin/storefront|ExecStart=$binary|" "$here/$1" >"$tmp/$2"
    if ! grep -q "^ExecStart=$binary" "$tmp/$2"; then
        echo "$1: no ExecStart=/usr/bin/storefront line" >&2
        status=1
    fi
    out=$(systemd-analyze verify "$tmp/$2" 2>&1 || true)
    echo "$out"
    # Any warning about our unit file fails the check (lines about other units are systemd's own noise).
    if grep -q "${2%.service}" <<<"$out"; then
        status=1
    fi
}
verify storefront.service storefront.service
verify storefront@.service storefront@1.service
exit $status
