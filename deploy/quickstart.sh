#!/usr/bin/env bash
# One-command set-up for a fresh Debian 12 machine.
#   deploy/quickstart.sh run    install what is missing, build, start storefront on 127.0.0.1:8080
#   deploy/quickstart.sh test   install what is missing, build, run every test (what CI runs)
set -euo pipefail

mode=${1:-}
case "$mode" in
    run | test) ;;
    *)
        echo "usage: $0 run|test" >&2
        exit 2
        ;;
esac

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${STOREFRONT_BUILD_DIR:-$root/build}

# Debian 12 packages. libboost1.81-all-dev would not pull in the JSON and URL libraries, so each is named.
packages=(
    build-essential cmake pkg-config
    libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
    libboost-program-options1.81-dev libboost-test1.81-dev
    libssl-dev libsodium-dev
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "quickstart: installing ${missing[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "$build" -j2

if [ "$mode" = run ]; then
    echo "quickstart: starting storefront on http://127.0.0.1:8080/api/v1 (Ctrl-C stops it)"
    exec "$build/server/storefront" "${@:2}"
fi
ctest --test-dir "$build" --output-on-failure
