#!/usr/bin/env bash
# Checks what the compiler cannot: core includes nothing of storage/ or server/ (nor Asio, Beast, JSON,
# URL), storage includes nothing of server/, the GraphQL engine includes no Asio or Beast (all three see
# Boost's headers, so only their include lines tell), and no server file reaches another folder through a
# relative path ("../"), which would go around the layers.
# The server layers themselves are enforced by the build: one library per folder of server/src, each
# seeing only its own headers and those of the layers below it that it links (server/CMakeLists.txt);
# ctest include_layers_enforced shows that an upward include does not compile.
# Usage: check_includes.sh [repository root]   (default: this script's repository)
set -euo pipefail

root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$root"
status=0

fail() {
    echo "check_includes: $*" >&2
    status=1
}

while IFS= read -r hit; do
    fail "core includes a higher layer or an I/O library: $hit"
done < <(grep -rnE '#include[[:space:]]*("(storage|server)/|<boost/(asio|beast|json|url)[/.])' core --include='*.?pp' || true)
while IFS= read -r hit; do
    fail "storage includes server: $hit"
done < <(grep -rnE '#include[[:space:]]*"server/' storage --include='*.?pp' || true)
while IFS= read -r hit; do
    fail "the GraphQL engine includes Asio or Beast: $hit"
done < <(grep -rnE '#include[[:space:]]*<boost/(asio|beast)[/.]' server/src/graphql --include='*.?pp' || true)
while IFS= read -r hit; do
    fail "a server file includes through a relative parent path: $hit"
done < <(grep -rnE '#include[[:space:]]*"\.\./' server --include='*.?pp' || true)

if ((status == 0)); then
    echo "check_includes: core -> nothing, storage -> core, engine without Asio/Beast, no ../ in server"
fi
exit "$status"
