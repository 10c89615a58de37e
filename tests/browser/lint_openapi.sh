#!/usr/bin/env bash
# Redocly CLI (pinned in tests/browser/package.json) lints both OpenAPI documents, the files the build embeds
# and serves, with the rules in redocly.yaml. Telemetry and the update check are off: no request leaves the
# machine. Fails, never skips, when the node modules are missing.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
redocly=$here/node_modules/.bin/redocly
if [[ ! -x $redocly ]]; then
    echo "FAIL: $redocly missing: run npm ci in tests/browser (./deploy/quickstart.sh test does)" >&2
    exit 1
fi
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1
cd "$here"
"$redocly" lint --config "$here/redocly.yaml" --format stylish \
    "$root/server/openapi/store-v1.json" "$root/server/openapi/petstore-v3.json"
