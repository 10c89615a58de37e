#!/usr/bin/env bash
# The Debian package on this machine, as on a fresh Debian 12 with systemd: builds it in the given build
# directory (`cmake --build <build> --target deb`), checks its files and control fields, runs lintian
# (no E: line), installs it with apt-get, checks the storefront user, the state directory, the conffile's mode
# and the generated secrets, `systemd-analyze verify` on the installed units, runs the installed binary as
# the storefront user with the installed environment file and gets /api/v1/products, reinstalls it (the
# secrets stay), removes it (configuration and data stay), purges it and checks nothing is left.
# usage: tests/package/package_install.sh <build dir> <source dir>
# Exit 77 (ctest SKIP_RETURN_CODE) with the reason when it cannot run: not root, or a storefront package is
# already installed (this test does not replace someone's installation).
# A && B || fail: fail runs when any check of the list fails, which is what is meant (SC2015).
# shellcheck disable=SC2015
set -euo pipefail

build=$(realpath "$1")
src=$(realpath "$2")

skip() {
    echo "package_install: skipped: $*"
    exit 77
}
fail() {
    echo "package_install: FAIL: $*" >&2
    exit 1
}
step() { printf '\n=== package_install: %s ===\n' "$*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (installs and purges the package on this machine); run ctest as root"
# dpkg's state of the storefront package: empty or not-installed when dpkg has nothing of it.
package_state() { dpkg-query -W -f='${db:Status-Status}' storefront 2>/dev/null || true; }
case $(package_state) in
    "" | not-installed) ;;
    *) skip "a storefront package is on this machine ($(package_state)); purge it first (apt-get purge storefront)" ;;
esac
for tool in dpkg-deb apt-get lintian systemd-analyze curl setpriv python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (./deploy/quickstart.sh test installs it)"
done

export DEBIAN_FRONTEND=noninteractive
work=$(mktemp -d)
server_pid=
installed=0
cleanup() {
    status=$?
    if [ -n "$server_pid" ]; then
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "$installed" = 1 ]; then
        echo "package_install: cleaning up: purging the package" >&2
        timeout 120 dpkg --purge storefront >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || fail "no CMAKE_PROJECT_VERSION in $build/CMakeCache.txt"
deb=$build/storefront_${version}_amd64.deb

step "build the package ($deb)"
rm -f "$deb"
timeout 1200 cmake --build "$build" -j2 --target deb
[ -f "$deb" ] || fail "$deb was not built"
ls -l "$deb"

step "control fields"
dpkg-deb -f "$deb"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = storefront ] || fail "Package is not storefront"
[ "$(field Version)" = "$version" ] || fail "Version $(field Version) is not the project version $version"
[ "$(field Architecture)" = amd64 ] || fail "Architecture is not amd64"
depends=$(field Depends)
# The package names of Depends, one per line (versions and alternatives dropped).
depends_names=$(tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/[ |].*//')
for lib in adduser libc6 libstdc++6 libsodium23 libssl3 libsqlite3-0 libpq5 libgd3 libsystemd0 libjemalloc2 liburing2 \
    libboost-json1.81.0 libboost-url1.81.0 libboost-program-options1.81.0; do
    grep -qxF "$lib" <<<"$depends_names" || fail "Depends lacks $lib: $depends"
done
if grep -q "unit-test-framework" <<<"$depends"; then
    fail "Depends names the test framework (a test binary in the package?): $depends"
fi
# Listings go to files first: under pipefail, `grep -q` quitting at its match can SIGPIPE the writer and
# fail the pipeline although the line is there (seen once in a ctest -j2 run).
dpkg-deb --ctrl-tarfile "$deb" | tar -tf - >"$work/control-files"
grep -qx './conffiles' "$work/control-files" || fail "no conffiles"
dpkg-deb -I "$deb" conffiles >"$work/conffiles"
grep -qx /etc/storefront/storefront.env "$work/conffiles" || fail "storefront.env is not a conffile"

step "contents"
dpkg-deb -c "$deb" | tee "$work/contents"
files=$(awk '$1 !~ /^d/ {print $6}' "$work/contents" | sort)
expected=$(printf '%s\n' ./etc/storefront/storefront.env ./lib/systemd/system/storefront.service \
    ./lib/systemd/system/storefront@.service ./usr/bin/storefront ./usr/share/doc/storefront/changelog.gz \
    ./usr/share/doc/storefront/copyright | sort)
[ "$files" = "$expected" ] || fail "unexpected files (test binaries?):"$'\n'"$(diff <(echo "$expected") <(echo "$files"))"
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./etc/storefront/storefront.env >"$work/shipped.env"
if grep -Eq '^[^#]*SECRET=' "$work/shipped.env"; then
    fail "the shipped storefront.env sets a secret"
fi
# Every setting of `storefront --help` (actions aside) is in the shipped file, commented, with its default.
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/bin/storefront >"$work/storefront"
chmod +x "$work/storefront"
"$work/storefront" --help | grep -oE '^  --[a-z-]+' | sed 's/^  --//' | while read -r option; do
    case $option in help | version | reset-data) continue ;; esac
    name=STOREFRONT_$(tr 'a-z-' 'A-Z_' <<<"$option")
    grep -q "^#$name=" "$work/shipped.env" || fail "storefront.env does not list $name"
done
[ "$("$work/storefront" --version)" = "storefront $version" ] || fail "--version does not print $version"

step "lintian"
# lintian's exit status also counts warnings; only E: lines fail the test.
lintian_out=$(timeout 600 lintian --tag-display-limit 0 "$deb" 2>&1 || true)
echo "${lintian_out:-(no tags)}"
if grep -q '^E: ' <<<"$lintian_out"; then
    fail "lintian errors"
fi

step "install"
installed=1
timeout 600 apt-get install -y --no-install-recommends "$deb"
[ -x /usr/bin/storefront ] || fail "/usr/bin/storefront missing"
passwd=$(getent passwd storefront) || fail "no storefront user"
group=$(getent group storefront) || fail "no storefront group"
echo "$passwd"$'\n'"$group"
uid=$(cut -d: -f3 <<<"$passwd")
[ "$uid" -lt 1000 ] || fail "storefront is not a system user (uid $uid)"
[ "$(cut -d: -f4 <<<"$passwd")" = "$(cut -d: -f3 <<<"$group")" ] || fail "storefront's group is not storefront"
[ "$(stat -c '%U:%G' /var/lib/storefront)" = storefront:storefront ] || fail "/var/lib/storefront owner: $(stat -c '%U:%G' /var/lib/storefront)"
env_file=/etc/storefront/storefront.env
[ "$(stat -c '%a %U:%G' "$env_file")" = "640 root:storefront" ] || fail "$env_file mode: $(stat -c '%a %U:%G' "$env_file")"
[ -L /etc/systemd/system/multi-user.target.wants/storefront.service ] || fail "storefront.service not enabled"
secrets=()
for name in STOREFRONT_ACCESS_SECRET STOREFRONT_REFRESH_SECRET STOREFRONT_PET_TOKEN_SECRET; do
    value=$(sed -n "s/^$name=//p" "$env_file")
    [ "$(wc -l <<<"$value")" = 1 ] && [ ${#value} -ge 32 ] || fail "$name not generated once with 32+ characters"
    if git -C "$src" grep -qF "$value" 2>/dev/null || grep -rqF --exclude-dir=.git --exclude-dir='build*' \
        --exclude-dir=node_modules "$value" "$src"; then
        fail "$name's value is in the repository"
    fi
    secrets+=("$value")
done
[ "${secrets[0]}" != "${secrets[1]}" ] && [ "${secrets[0]}" != "${secrets[2]}" ] &&
    [ "${secrets[1]}" != "${secrets[2]}" ] || fail "generated secrets are not all different"
echo "secrets: 3 generated, all different, none in the repository"
env_sum=$(sha256sum "$env_file")

step "systemd-analyze verify on the installed units"
cp /lib/systemd/system/storefront@.service "$work/storefront@1.service"
for unit in /lib/systemd/system/storefront.service "$work/storefront@1.service"; do
    out=$(timeout 60 systemd-analyze verify "$unit" 2>&1 || true)
    echo "$unit: ${out:-ok}"
    name=$(basename "$unit")
    if grep -q "${name%.service}" <<<"$out"; then
        fail "systemd-analyze verify complains about $name"
    fi
done

step "run /usr/bin/storefront as storefront with $env_file"
log=$work/server.log
(
    set -a
    # shellcheck source=/dev/null
    . "$env_file"
    set +a
    # As the unit: its working and state directory, its storage line; port 0 picks a free port (logged),
    # and no drain, so the stop is quick.
    export STOREFRONT_PORT=0 STOREFRONT_STORAGE=sqlite:/var/lib/storefront/storefront.db STOREFRONT_DRAIN_SECONDS=0
    cd /var/lib/storefront
    exec setpriv --reuid=storefront --regid=storefront --init-groups /usr/bin/storefront
) >"$log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 1 120); do
    port=$(sed -n 's/.*"event":"listening".*"port":\([0-9]*\).*/\1/p' "$log" | head -n 1)
    [ -n "$port" ] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$log"; fail "storefront exited before listening"; }
    sleep 0.5
done
[ -n "$port" ] || { cat "$log"; fail "storefront did not log its listening line within 60 s"; }
grep '"event":"listening"' "$log"
status=$(curl -sS -m 10 -o "$work/products.json" -w '%{http_code}' "http://127.0.0.1:$port/api/v1/products")
[ "$status" = 200 ] || { cat "$log"; fail "GET /api/v1/products answered $status"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert isinstance(d, list) and d, d' \
    "$work/products.json" || fail "/api/v1/products is not a non-empty JSON array"
echo "GET /api/v1/products: 200, a JSON array of $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$work/products.json") products"
if grep -q '"generated_token_secrets"' "$log"; then
    fail "storefront generated its own token secrets: the environment file's were not used"
fi
[ "$(stat -c '%U' /var/lib/storefront/storefront.db)" = storefront ] || fail "the database is not the storefront user's"
kill -TERM "$server_pid"
timeout 30 tail --pid="$server_pid" -f /dev/null || fail "storefront did not stop within 30 s of SIGTERM"
wait "$server_pid" && stop_status=0 || stop_status=$?
server_pid=
[ "$stop_status" = 0 ] || fail "storefront exited $stop_status after SIGTERM"

step "reinstall (the upgrade path of postinst): secrets and data stay"
timeout 600 dpkg -i "$deb"
[ "$(sha256sum "$env_file")" = "$env_sum" ] || fail "the environment file changed on reinstall"
[ -f /var/lib/storefront/storefront.db ] || fail "the data is gone after reinstall"

step "remove: configuration, data and user stay"
timeout 300 apt-get remove -y storefront
[ ! -e /usr/bin/storefront ] || fail "/usr/bin/storefront left after remove"
[ -f "$env_file" ] && [ -f /var/lib/storefront/storefront.db ] && getent passwd storefront >/dev/null ||
    fail "remove deleted configuration, data or the user"

step "purge: nothing left"
timeout 300 apt-get purge -y storefront
installed=0
left=()
for path in /usr/bin/storefront /lib/systemd/system/storefront.service /lib/systemd/system/storefront@.service \
    /etc/storefront /var/lib/storefront /usr/share/doc/storefront \
    /etc/systemd/system/multi-user.target.wants/storefront.service; do
    if [ -e "$path" ] || [ -L "$path" ]; then
        left+=("$path")
    fi
done
getent passwd storefront >/dev/null && left+=("user storefront")
getent group storefront >/dev/null && left+=("group storefront")
case $(package_state) in
    "" | not-installed) ;;
    *) left+=("dpkg state $(package_state)") ;;
esac
((${#left[@]} == 0)) || fail "left after purge: ${left[*]}"
echo "package_install: ok"
