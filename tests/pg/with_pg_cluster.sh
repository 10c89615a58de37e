#!/usr/bin/env bash
# Runs a command against a throw-away PostgreSQL 15 cluster (Debian postgresql-15), then removes it:
#   tests/pg/with_pg_cluster.sh CMD ARGS...
# The cluster lives in a mktemp -d directory, listens on 127.0.0.1 on a free port and on a Unix socket in that
# directory, trusts local connections, and is stopped and deleted on exit, failure or Ctrl-C. The command
# sees:
#   TEST_PG_DSN      libpq URL of the superuser "storefront" (may CREATE DATABASE), database "postgres"
#   TEST_PG_DATA     the data directory
#   TEST_PG_CTL      the pg_ctl binary
#   TEST_PG_CTL_CMD  a script running pg_ctl as the cluster's owner with the right options:
#                    "$TEST_PG_CTL_CMD stop" (fast), "$TEST_PG_CTL_CMD start" (waits until ready), "... status"
# TEST_PG_FSYNC=on in the caller's environment keeps PostgreSQL's fsync (default off: tests need speed; the
# storage benchmark measures durable writes and sets it).
# Exits with the command's status, or non-zero with a message when PostgreSQL cannot start.
set -euo pipefail

if [ $# -lt 1 ]; then
    echo "usage: $0 CMD ARGS..." >&2
    exit 2
fi
# shellcheck source=SCRIPTDIR/../../deploy/lib/throwaway-pg.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../deploy/lib/throwaway-pg.sh"
pg_check_tools with_pg_cluster
bindir=$pg_bindir

pg_fsync=${TEST_PG_FSYNC:-off}
case $pg_fsync in
    on | off) ;;
    *) echo "with_pg_cluster: TEST_PG_FSYNC must be on or off" >&2; exit 2 ;;
esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/storefront-pg.XXXXXX")
chmod 755 "$dir"
data=$dir/data
# initdb and postgres refuse to run as root: run them as the postgres system user (or nobody).
pg_take_dir "$dir"
as_owner=("${pg_as_owner[@]}")

cleanup() {
    local status=$?
    trap - EXIT INT TERM
    if [ -f "$data/postmaster.pid" ]; then
        "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" stop -m fast -w -t 15 >/dev/null 2>&1 ||
            "${as_owner[@]}" "$bindir/pg_ctl" -D "$data" stop -m immediate -w -t 15 >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if ! "${as_owner[@]}" "$bindir/initdb" -D "$data" -U storefront --auth=trust --encoding=UTF8 --locale=C \
    >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    echo "with_pg_cluster: initdb failed" >&2
    exit 1
fi

started=
for _ in 1 2 3 4 5; do
    port=$(pg_free_port)
    # A throw-away cluster: no fsync unless TEST_PG_FSYNC=on (tests need speed, not durability), room for
    # many test connections.
    pg_write_ctl "$dir" "$data" "$port" "-c fsync=$pg_fsync -c max_connections=300"
    if "$dir/pg_ctl.sh" start >/dev/null 2>&1 &&
        "$bindir/pg_isready" -q -h 127.0.0.1 -p "$port" -t 30; then
        started=yes
        break
    fi
    "$dir/pg_ctl.sh" stop >/dev/null 2>&1 || true  # the port was taken meanwhile: try another one
done
if [ -z "$started" ]; then
    tail -n 20 "$dir/server.log" >&2 || true
    echo "with_pg_cluster: PostgreSQL did not start" >&2
    exit 1
fi

export TEST_PG_DSN="postgresql://storefront@127.0.0.1:$port/postgres"
export TEST_PG_DATA=$data
export TEST_PG_CTL=$bindir/pg_ctl
export TEST_PG_CTL_CMD=$dir/pg_ctl.sh
echo "with_pg_cluster: PostgreSQL 15 on 127.0.0.1:$port (data in $data)"

set +e
"$@"
status=$?
set -e
exit "$status"
