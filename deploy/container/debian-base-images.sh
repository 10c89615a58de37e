#!/usr/bin/env bash
# Makes the Debian 12 base images the Containerfile starts from, out of Debian packages, for machines that
# reach Debian's package mirror but no image registry. With mmdebstrap (minbase, bookworm + updates + security):
#   slim  -> docker.io/library/debian:12-slim   (no manuals, docs or locales, as Debian's official slim image)
#   full  -> docker.io/library/debian:12        (minbase with documentation)
#   deploy/container/debian-base-images.sh slim|full|both
# An image already in podman's store is kept. Each root file system is cached as a tarball in
# ${STOREFRONT_CONTAINER_CACHE:-/var/cache/storefront-test} and reused for 7 days (security updates come in
# after that), so only the first run downloads anything. Run as root (podman's system store; mmdebstrap's root
# mode); installs mmdebstrap and podman when missing. The mirror: STOREFRONT_DEBIAN_MIRROR, default the
# machine's deb.debian.org.
set -euo pipefail

cache=${STOREFRONT_CONTAINER_CACHE:-/var/cache/storefront-test}
mirror=${STOREFRONT_DEBIAN_MIRROR:-http://deb.debian.org}
max_age_days=7

die() {
    echo "debian-base-images: $*" >&2
    exit 1
}
[ "$(id -u)" -eq 0 ] || die "run as root (podman's system store and mmdebstrap's root mode)"

case "${1:-}" in
    slim) variants=(slim) ;;
    full) variants=(full) ;;
    both) variants=(slim full) ;;
    *) die "usage: $0 slim|full|both" ;;
esac

missing=()
for p in mmdebstrap podman runc; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "debian-base-images: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Debian's slim images leave these out (debuerreotype's --slim), keeping the copyright files.
slim_options=(
    --dpkgopt='path-exclude=/usr/share/man/*'
    --dpkgopt='path-exclude=/usr/share/doc/*'
    --dpkgopt='path-include=/usr/share/doc/*/copyright'
    --dpkgopt='path-exclude=/usr/share/info/*'
    --dpkgopt='path-exclude=/usr/share/locale/*'
    --dpkgopt='path-include=/usr/share/locale/locale.alias'
    --dpkgopt='path-exclude=/usr/share/lintian/*'
)

make_image() {
    local variant=$1 name tarball options=()
    case "$variant" in
        slim) name=docker.io/library/debian:12-slim options=("${slim_options[@]}") ;;
        full) name=docker.io/library/debian:12 ;;
    esac
    if podman image exists "$name"; then
        echo "debian-base-images: $name is in podman's store"
        return 0
    fi
    tarball=$cache/debian-12-$variant.tar
    if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +"$max_age_days" 2>/dev/null)" ]; then
        echo "debian-base-images: mmdebstrap bookworm ($variant) into $tarball"
        mkdir -p "$cache"
        # mmdebstrap writes the tarball only when it succeeded; a partial one never takes the cached name.
        # merged /usr set up by mmdebstrap's hook, not the usrmerge package (which would pull in perl). The
        # customize hook runs in a shell of mmdebstrap's, "$1" being the root file system.
        # shellcheck disable=SC2016
        mmdebstrap --quiet --variant=minbase --format=tar --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
            "${options[@]}" \
            --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
            bookworm "$tarball.tmp" \
            "deb $mirror/debian bookworm main" \
            "deb $mirror/debian bookworm-updates main" \
            "deb $mirror/debian-security bookworm-security main"
        mv "$tarball.tmp" "$tarball"
    fi
    echo "debian-base-images: importing $tarball as $name"
    podman import --quiet --change 'CMD ["bash"]' \
        --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' "$tarball" "$name" >/dev/null
}

for v in "${variants[@]}"; do
    make_image "$v"
done
