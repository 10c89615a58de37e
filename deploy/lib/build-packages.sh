# shellcheck shell=bash
# Sourced by deploy/quickstart.sh and deploy/package.sh: the Debian 12 packages that build storefront, and
# the installation of those missing.
#   build_packages            array: what building the server needs
#   install_missing WHO PKG…  installs with apt-get those of PKG… not installed yet (with sudo when not root)

# libboost1.81-all-dev would not pull in the JSON and URL libraries, so each is named.
# shellcheck disable=SC2034  # used by the scripts that source this file
build_packages=(
    build-essential cmake pkg-config
    libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev
    libboost-program-options1.81-dev libboost-test1.81-dev
    libssl-dev libsodium-dev libgd-dev libsqlite3-dev libpq-dev libsystemd-dev zlib1g-dev libbrotli-dev
    libjemalloc-dev liburing-dev
)

install_missing() {
    local who=$1 p
    shift
    local missing=()
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if ((${#missing[@]})); then
        echo "$who: installing ${missing[*]}"
        local sudo_cmd=()
        [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
        "${sudo_cmd[@]}" apt-get update -qq
        DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
}
