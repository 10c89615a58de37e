#!/usr/bin/env bash
# Builds the Debian package storefront_<version>_amd64.deb (deploy/debian/package.cmake) with
# `cmake --build <build> --target deb` (storefront alone, then CPack), in a build directory configured for it:
# without the tests and with Debian's hardening flags from dpkg-buildflags.
#   deploy/package.sh            build directory build-deb/ (or $STOREFRONT_BUILD_DIR)
#   deploy/package.sh <dir>      another build directory
# The Maintainer field defaults to a placeholder address: set yours once with
# `cmake -B build-deb -DSTOREFRONT_PACKAGE_CONTACT="Name <address>"`.
# Installs the build packages that are missing first, as ./deploy/quickstart.sh does (dpkg-dev, for
# dpkg-shlibdeps, comes with build-essential). Install the result with
# `sudo apt install ./build-deb/storefront_<version>_amd64.deb`.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-${STOREFRONT_BUILD_DIR:-$root/build-deb}}

# shellcheck source=SCRIPTDIR/lib/build-packages.sh
. "$root/deploy/lib/build-packages.sh"
install_missing package.sh "${build_packages[@]}"

cd "$root"  # dpkg-buildflags maps the working directory out of the debug paths
export DEB_BUILD_MAINT_OPTIONS=hardening=+all
cxxflags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)"
ldflags=$(dpkg-buildflags --get LDFLAGS)

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTOREFRONT_BUILD_TESTS=OFF \
    -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags"
cmake --build "$build" -j2 --target deb
ls -l "$build"/storefront_*_amd64.deb
