#!/usr/bin/env bash
# Checks the include layers: core includes nothing of storage/ or server/ (nor Asio, Beast, JSON, URL),
# storage includes core only, and inside server/ every include points to a lower folder of this order:
#
#   root (main.cpp, composition_root)  >  transport, sandboxes  >  api/graphql  >  api/store, api/petstore,
#   api/docs, ops  >  routing  >  services  >  caches  >  telemetry  >  codec  >  graphql
#
# caches/ (the data revision and every answer kept per revision) knows nothing of routing or the surfaces:
# what it keeps is passed in.
# graphql/ (the GraphQL engine, its own target graphql_lib) includes no other server folder, nor Asio or Beast.
#
# api/graphql resolves through the store surface's services and JSON mapping, so it sits above api/store.
# Folders of one rank (the surfaces) do not include each other; an include cycle among server folders
# fails too. Usage: check_includes.sh [repository root]   (default: this script's repository)
set -euo pipefail

root="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
cd "$root"
status=0

fail() {
    echo "check_includes: $*" >&2
    status=1
}

# --- core and storage
while IFS= read -r hit; do
    fail "core includes a higher layer or an I/O library: $hit"
done < <(grep -rnE '#include[[:space:]]*("(storage|server)/|<boost/(asio|beast|json|url)[/.])' core --include='*.?pp' || true)
while IFS= read -r hit; do
    fail "storage includes server: $hit"
done < <(grep -rnE '#include[[:space:]]*"server/' storage --include='*.?pp' || true)

while IFS= read -r hit; do
    fail "graphql includes Asio or Beast: $hit"
done < <(grep -rnE '#include[[:space:]]*<boost/(asio|beast)[/.]' server/include/server/graphql server/src/graphql --include='*.?pp' || true)

# --- server folders
# Every include of a server file, as "from-folder to-folder file:line", resolved the way the compiler
# does: "server/…" from include/, anything else from the including file's folder, then from src/.
edges="$(
    find server -name '*.?pp' | sort | while IFS= read -r file; do
        grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | while IFS= read -r line; do
            target="$(sed -E 's/^[0-9]+:[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<<"$line")"
            resolved=""
            if [[ "$target" == server/* && -f "server/include/$target" ]]; then
                resolved="server/include/$target"
            elif [[ -f "$(dirname "$file")/$target" ]]; then
                resolved="$(dirname "$file")/$target"
            elif [[ -f "server/src/$target" ]]; then
                resolved="server/src/$target"
            fi
            if [[ -n "$resolved" ]]; then
                echo "$file $resolved ${line%%:*}"
            fi
        done
    done | awk '
        # The folder of a server file: the first folder under include/server/ or src/ ("api/x" for the
        # surfaces), "root" for files directly there (main, the composition root).
        function folder(path,   rest, n, parts) {
            rest = path
            sub(/^server\/include\/server\//, "", rest)
            sub(/^server\/src\//, "", rest)
            n = split(rest, parts, "/")
            if (n == 1) return "root"
            if (parts[1] == "api" && n > 2) return "api/" parts[2]
            return parts[1]
        }
        { print folder($1), folder($2), $1 ":" $3 }'
)"

declare -A rank=(
    [root]=10 [transport]=9 [sandboxes]=9 [api/graphql]=8
    [api/store]=7 [api/petstore]=7 [api/docs]=7 [ops]=7
    [routing]=6 [services]=5 [caches]=4 [telemetry]=3 [codec]=2 [graphql]=1
)
while read -r from to where; do
    [[ -z "$from" || "$from" == "$to" ]] && continue
    if [[ -z "${rank[$from]:-}" ]]; then
        fail "$where: folder server/…/$from/ is not in the layer order"
        continue
    fi
    if [[ -z "${rank[$to]:-}" ]]; then
        fail "$where: includes folder $to/, which is not in the layer order"
        continue
    fi
    if ((rank[$to] >= rank[$from])); then
        fail "$where: $from/ includes $to/ (not a lower folder)"
    fi
done <<<"$edges"

# Cycles: peel off folders that no remaining folder includes or that include no remaining folder; what is
# left lies on a cycle (or between two).
cycle="$(awk '$1 != $2 && $1 != "" { edge[$1 " " $2] = 1; node[$1] = 1; node[$2] = 1 }
    END {
        do {
            removed = 0
            for (n in node) {
                out = 0
                in_ = 0
                for (e in edge) {
                    split(e, p, " ")
                    if (!(p[1] in node) || !(p[2] in node)) continue
                    if (p[1] == n) out = 1
                    if (p[2] == n) in_ = 1
                }
                if (!out || !in_) { delete node[n]; removed = 1 }
            }
        } while (removed)
        for (n in node) printf "%s ", n
    }' <<<"$edges")"
if [[ -n "$cycle" ]]; then
    fail "include cycle among server folders: $cycle"
fi

if ((status == 0)); then
    echo "check_includes: core -> nothing, storage -> core, server folders point downward, no cycle"
fi
exit "$status"
