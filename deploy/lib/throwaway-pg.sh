# shellcheck shell=bash
# Sourced by tests/pg/with_pg_cluster.sh and deploy/cluster.sh: the pieces of a throw-away PostgreSQL 15
# cluster (Debian postgresql-15) on 127.0.0.1 that both need, written once.
#   pg_check_tools WHO        fails with a message naming the Debian package when a tool is missing
#   pg_take_dir DIR           as root, gives DIR to the postgres system user (or nobody) and sets pg_as_owner,
#                             the command prefix that runs initdb/pg_ctl as that user (initdb and postgres
#                             refuse to run as root); otherwise pg_as_owner is empty
#   pg_free_port              prints a free TCP port on 127.0.0.1
#   pg_write_ctl DIR DATA PORT [SERVER OPTIONS]
#                             writes DIR/pg_ctl.sh: "stop" (fast), "start" (waits until ready), "status", ...
#                             run as the owner, listening on 127.0.0.1:PORT and a Unix socket in DIR
pg_bindir=${STOREFRONT_PG_BINDIR:-/usr/lib/postgresql/15/bin}
pg_as_owner=()

pg_check_tools() {
    local tool
    for tool in initdb pg_ctl pg_isready; do
        if [ ! -x "$pg_bindir/$tool" ]; then
            echo "$1: $pg_bindir/$tool not found (install the Debian package postgresql-15)" >&2
            return 1
        fi
    done
}

pg_take_dir() {
    local owner
    pg_as_owner=()
    if [ "$(id -u)" -eq 0 ]; then
        owner=postgres
        id -u "$owner" >/dev/null 2>&1 || owner=nobody
        chown "$owner" "$1"
        pg_as_owner=(runuser -u "$owner" --)
    fi
}

pg_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pg_write_ctl() {
    local dir=$1 data=$2 port=$3 extra=${4:-}
    cat >"$dir/pg_ctl.sh" <<CTL
#!/bin/sh
# Runs pg_ctl on the throw-away cluster as its owner: stop (fast), start (waits until ready), restart, status.
cmd=\$1; shift
case "\$cmd" in
    stop) set -- -m fast "\$@" ;;
esac
exec ${pg_as_owner[*]} "$pg_bindir/pg_ctl" -D "$data" -l "$dir/server.log" -w -t 30 \\
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$dir $extra" \\
    "\$cmd" "\$@"
CTL
    chmod 755 "$dir/pg_ctl.sh"
}
