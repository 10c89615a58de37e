#!/usr/bin/env bash
# A production-shaped storefront cluster on this machine, 127.0.0.1 only: a throw-away PostgreSQL 15, three
# storefront instances on it sharing one generated environment file (token secrets, database URL), and
# HAProxy 2.6 in front (deploy/haproxy.cfg: HTTP, HTTPS with a self-signed certificate, /readyz checks,
# retries of safe requests). For trying the production shape and for the fault drills (tests/cluster/).
set -euo pipefail

usage() {
    cat <<'EOF'
usage: deploy/cluster.sh COMMAND
  up          install what is missing (haproxy, postgresql-15, openssl, curl, python3; apt, with sudo when not
              root), build build/server/storefront if it is missing (STOREFRONT_BIN unset), start PostgreSQL,
              3 instances and HAProxy, wait (bounded) until HAProxy answers /readyz with 200 and every instance
              is UP in it, print the URLs. On failure it shows the logs, stops everything and exits 1.
  down        stop HAProxy, the instances (SIGTERM, SIGKILL after 20 s) and PostgreSQL; remove the state dir
  status      each process (pid, running or not), each instance's /readyz, HAProxy's view of the instances
  kill N      kill -9 instance N (1-3)
  stop N      SIGTERM instance N and wait until it has exited (it drains first)
  start N     start instance N again and wait until it and HAProxy report it ready
  restart N   stop N, then start N
  db-stop     stop PostgreSQL (fast shutdown)      db-start   start it again
  psql ARGS   psql on the cluster's database (as its owner, over the Unix socket)
  ports       print the ports as shell assignments (HTTP_PORT=..., for scripts)
Environment:
  STOREFRONT_BIN                 the binary (default: build/server/storefront of this checkout)
  STOREFRONT_CLUSTER_DIR         state: pid files, logs, data, secrets (default
                                 ${XDG_RUNTIME_DIR:-/tmp}/storefront-cluster)
  STOREFRONT_CLUSTER_HTTP_PORT   8080   HAProxy HTTP        STOREFRONT_CLUSTER_HTTPS_PORT  8443  HAProxy HTTPS
  STOREFRONT_CLUSTER_STATS_PORT  8404   HAProxy stats page  STOREFRONT_CLUSTER_PG_PORT     a free port
  STOREFRONT_CLUSTER_INSTANCE_PORTS  "8081 8082 8083"
  STOREFRONT_CLUSTER_THREADS     1 I/O thread per instance   STOREFRONT_CLUSTER_ACCESS_LOG  false
  STOREFRONT_CLUSTER_DRAIN_SECONDS  5 (instances keep answering this long after SIGTERM, /readyz 503)
EOF
}

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/throwaway-pg.sh
. "$root/deploy/lib/throwaway-pg.sh"

state=${STOREFRONT_CLUSTER_DIR:-${XDG_RUNTIME_DIR:-/tmp}/storefront-cluster}
bin=${STOREFRONT_BIN:-$root/build/server/storefront}
instances=(1 2 3)
# Debian installs haproxy in /usr/sbin, which is not on a normal user's PATH.
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)
stop_bound=20  # seconds between SIGTERM and SIGKILL: drain (5 s) + in-flight requests (--shutdown-timeout 10 s)

say() { echo "cluster: $*"; }
die() {
    echo "cluster: $*" >&2
    exit 1
}

# ---- processes --------------------------------------------------------------------------------------------

# Running and not a zombie (an exited child nobody reaped still answers kill -0).
alive() {
    local pid=$1 st
    [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || return 1
    st=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -d' ' -f1) || return 1
    [ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}

# A pid file holds "PID START-TIME" (field 22 of /proc/PID/stat), so a pid reused by another process after
# ours exited is never mistaken for ours (and never signalled).
start_time() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
pid_of() { cut -d' ' -f1 "$state/$1.pid" 2>/dev/null || true; }

# Is the process named by NAME's pid file still the one we started?
ours() {
    local name=$1 pid recorded
    pid=$(pid_of "$name")
    recorded=$(cut -d' ' -f2 "$state/$name.pid" 2>/dev/null) || return 1
    alive "$pid" && [ "$(start_time "$pid")" = "$recorded" ]
}

# Starts "$@" in its own session (Ctrl-C in the caller's terminal does not reach it) with output in NAME.log;
# setsid execs in place (the shell's background child is no group leader), so $! is the program's pid.
spawn() {
    local name=$1
    shift
    setsid "$@" >>"$state/$name.log" 2>&1 </dev/null &
    echo "$! $(start_time $!)" >"$state/$name.pid"
}

# SIGTERM, then SIGKILL after the bound; returns once the process is gone.
stop_process() {
    local name=$1 pid i
    pid=$(pid_of "$name")
    if ours "$name"; then
        kill -TERM "$pid" 2>/dev/null || true
        for ((i = 0; i < stop_bound * 10; i++)); do
            alive "$pid" || break
            sleep 0.1
        done
        if alive "$pid"; then
            say "$name did not exit within ${stop_bound}s after SIGTERM: SIGKILL"
            kill -KILL "$pid" 2>/dev/null || true
            for ((i = 0; i < 50; i++)); do
                alive "$pid" || break
                sleep 0.1
            done
        fi
    fi
    rm -f "$state/$name.pid"
}

# ---- set-up -----------------------------------------------------------------------------------------------

# The Debian packages this script needs, installed as quickstart.sh installs its own.
ensure_packages() {
    local missing=() p sudo_cmd=()
    for p in haproxy postgresql-15 openssl curl python3; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    say "installing ${missing[*]}"
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

ensure_binary() {
    [ -x "$bin" ] && return 0
    [ -z "${STOREFRONT_BIN:-}" ] || die "STOREFRONT_BIN=$bin is not an executable"
    say "building $bin (cmake --preset default, target storefront; ./deploy/quickstart.sh installs the build dependencies)"
    (cd "$root" && cmake --preset default >/dev/null && cmake --build build -j2 --target storefront)
}

# Free for a listener: SO_REUSEADDR as servers set it, so connections in TIME_WAIT from a previous run do not count.
port_free() {
    python3 -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen()' "$1" 2>/dev/null
}

load_ports() {
    [ -f "$state/cluster.ports" ] || die "no cluster in $state (run: $0 up)"
    # shellcheck source=/dev/null
    . "$state/cluster.ports"
    read -r -a inst_ports <<<"$INSTANCE_PORTS"
    bin=$BIN  # start/restart use the binary the cluster was started with
}

# psql as the database owner over the Unix socket (local connections are trusted; TCP needs the password).
pg_psql() { psql -h "$state/pg" -p "$PG_PORT" -U storefront -X "$@"; }

http_code() {
    curl -s -o /dev/null -w '%{http_code}' --max-time "${2:-2}" "$1" 2>/dev/null || true
}

# HAProxy's state of backend server sN (UP, DOWN, MAINT, "UP 1/2", ...) from its stats CSV.
lb_state() {
    curl -s --max-time 2 "http://127.0.0.1:$STATS_PORT/;csv" 2>/dev/null |
        awk -F, -v s="s$1" '$1 == "be_storefront" && $2 == s { print $18 }'
}

start_db() {
    "$state/pg/pg_ctl.sh" start >/dev/null || {
        tail -n 20 "$state/pg/server.log" >&2
        die "PostgreSQL did not start"
    }
}

setup_db() {
    local pg=$state/pg password=$1
    mkdir -p "$pg"
    chmod 700 "$pg"
    pg_take_dir "$pg"
    # The superuser's password is given to initdb in a file only the owner reads, removed right after.
    (umask 077 && printf '%s\n' "$password" >"$pg/pwfile")
    [ "$(id -u)" -ne 0 ] || chown "$(stat -c %U "$pg")" "$pg/pwfile"
    if ! "${pg_as_owner[@]}" "$pg_bindir/initdb" -D "$pg/data" -U storefront --pwfile="$pg/pwfile" \
        --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C >"$pg/initdb.log" 2>&1; then
        rm -f "$pg/pwfile"
        cat "$pg/initdb.log" >&2
        die "initdb failed"
    fi
    rm -f "$pg/pwfile"
    pg_write_ctl "$pg" "$pg/data" "$PG_PORT" "-c max_connections=100"
    start_db
    pg_psql -d postgres -qc 'CREATE DATABASE storefront' >/dev/null
}

start_instance() {
    local n=$1 port=${inst_ports[$1 - 1]}
    # The shared environment file (secrets, database URL); nothing secret on the command line, which ps shows.
    # Each instance gets its port explicitly (not --instance N, which would listen on --port + N).
    (
        set -a
        # shellcheck source=/dev/null
        . "$state/storefront.env"
        set +a
        spawn "instance-$n" "$bin" --port "$port"
    )
}

wait_instance_ready() {
    local n=$1 port=${inst_ports[$1 - 1]} i
    for ((i = 0; i < 600; i++)); do
        [ "$(http_code "http://127.0.0.1:$port/readyz")" = 200 ] && return 0
        if ! alive "$(pid_of "instance-$n")"; then
            tail -n 20 "$state/instance-$n.log" >&2
            die "instance $n exited"
        fi
        sleep 0.1
    done
    tail -n 20 "$state/instance-$n.log" >&2
    die "instance $n not ready after 60s"
}

wait_lb_up() {
    local n=$1 i
    for ((i = 0; i < 300; i++)); do
        [ "$(lb_state "$n")" = UP ] && return 0
        sleep 0.1
    done
    die "HAProxy does not report instance $n UP after 30s"
}

start_haproxy() {
    SF_HTTP_BIND=127.0.0.1:$HTTP_PORT SF_HTTPS_BIND=127.0.0.1:$HTTPS_PORT SF_STATS_BIND=127.0.0.1:$STATS_PORT \
        SF_TLS_CERT=$state/tls/storefront.pem \
        SF_INSTANCE_1=127.0.0.1:${inst_ports[0]} SF_INSTANCE_2=127.0.0.1:${inst_ports[1]} \
        SF_INSTANCE_3=127.0.0.1:${inst_ports[2]} \
        spawn haproxy "$haproxy_bin" -db -f "$root/deploy/haproxy.cfg"
}

# EXIT trap of "up": anything but success takes down what was started.
up_failed() {
    local status=$?
    trap - EXIT INT TERM
    if [ "$status" -ne 0 ]; then
        say "up failed: taking everything down"
        cmd_down >/dev/null 2>&1 || true
    fi
    exit "$status"
}

cmd_up() {
    [ ! -e "$state" ] || die "$state exists: a cluster is up or was not taken down ($0 status / $0 down)"
    ensure_packages
    pg_check_tools cluster
    ensure_binary

    HTTP_PORT=${STOREFRONT_CLUSTER_HTTP_PORT:-8080}
    HTTPS_PORT=${STOREFRONT_CLUSTER_HTTPS_PORT:-8443}
    STATS_PORT=${STOREFRONT_CLUSTER_STATS_PORT:-8404}
    INSTANCE_PORTS=${STOREFRONT_CLUSTER_INSTANCE_PORTS:-8081 8082 8083}
    PG_PORT=${STOREFRONT_CLUSTER_PG_PORT:-$(pg_free_port)}
    read -r -a inst_ports <<<"$INSTANCE_PORTS"
    [ "${#inst_ports[@]}" -eq 3 ] || die "STOREFRONT_CLUSTER_INSTANCE_PORTS needs 3 ports"
    local p
    for p in "$HTTP_PORT" "$HTTPS_PORT" "$STATS_PORT" "$PG_PORT" "${inst_ports[@]}"; do
        port_free "$p" || die "port $p on 127.0.0.1 is in use (the STOREFRONT_CLUSTER_*_PORT variables change them)"
    done

    mkdir -p "$state"
    chmod 711 "$state"  # the PostgreSQL owner (postgres when run as root) must reach its directory inside
    # From here on a failure (or Ctrl-C) takes down what was started.
    trap up_failed EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    cat >"$state/cluster.ports" <<EOF
HTTP_PORT=$HTTP_PORT
HTTPS_PORT=$HTTPS_PORT
STATS_PORT=$STATS_PORT
PG_PORT=$PG_PORT
INSTANCE_PORTS="$INSTANCE_PORTS"
BIN="$bin"
EOF

    # One environment file for every instance, 0600: the database URL with its password and the token
    # secrets (a token issued by one instance works on the others). Never printed.
    local password
    password=$(openssl rand -hex 24)
    (
        umask 077
        cat >"$state/storefront.env" <<EOF
# storefront cluster environment, generated by deploy/cluster.sh (secrets: keep it 0600)
STOREFRONT_STORAGE=postgresql://storefront:$password@127.0.0.1:$PG_PORT/storefront
STOREFRONT_ACCESS_SECRET=$(openssl rand -hex 32)
STOREFRONT_REFRESH_SECRET=$(openssl rand -hex 32)
STOREFRONT_PET_TOKEN_SECRET=$(openssl rand -hex 32)
STOREFRONT_ADDRESS=127.0.0.1
STOREFRONT_PUBLIC_URL=https://127.0.0.1:$HTTPS_PORT
STOREFRONT_TRUSTED_PROXIES=127.0.0.1
STOREFRONT_DRAIN_SECONDS=${STOREFRONT_CLUSTER_DRAIN_SECONDS:-5}
STOREFRONT_THREADS=${STOREFRONT_CLUSTER_THREADS:-1}
STOREFRONT_ACCESS_LOG=${STOREFRONT_CLUSTER_ACCESS_LOG:-false}
EOF
    )

    say "PostgreSQL 15 on 127.0.0.1:$PG_PORT"
    setup_db "$password"

    # A self-signed ECDSA certificate for the HTTPS frontend (certificate and key in one PEM, 0600).
    mkdir -p "$state/tls"
    (
        umask 077
        openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 30 -subj /CN=localhost \
            -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
            -keyout "$state/tls/key.pem" -out "$state/tls/cert.pem" 2>/dev/null
        cat "$state/tls/cert.pem" "$state/tls/key.pem" >"$state/tls/storefront.pem"
        rm -f "$state/tls/key.pem"
    )

    local n
    for n in "${instances[@]}"; do
        start_instance "$n"
    done
    for n in "${instances[@]}"; do
        wait_instance_ready "$n"
        say "instance $n ready on http://127.0.0.1:${inst_ports[n - 1]}"
    done

    start_haproxy
    local i
    for ((i = 0; i < 300; i++)); do
        [ "$(http_code "http://127.0.0.1:$HTTP_PORT/readyz")" = 200 ] && break
        alive "$(pid_of haproxy)" || {
            cat "$state/haproxy.log" >&2
            die "HAProxy exited"
        }
        sleep 0.1
    done
    [ "$(http_code "http://127.0.0.1:$HTTP_PORT/readyz")" = 200 ] || die "HAProxy does not answer /readyz with 200 after 30s"
    for n in "${instances[@]}"; do
        wait_lb_up "$n"
    done
    trap - EXIT INT TERM
    say "up: http://127.0.0.1:$HTTP_PORT/api/v1  https://127.0.0.1:$HTTPS_PORT/api/v1 (self-signed: curl -k)"
    say "HAProxy stats http://127.0.0.1:$STATS_PORT/  state, logs and the environment file in $state"
}

cmd_down() {
    if [ ! -d "$state" ]; then
        say "nothing to take down ($state does not exist)"
        return 0
    fi
    stop_process haproxy
    local n
    for n in "${instances[@]}"; do
        stop_process "instance-$n" &
    done
    wait
    if [ -f "$state/pg/data/postmaster.pid" ]; then
        "$state/pg/pg_ctl.sh" stop >/dev/null 2>&1 || "$state/pg/pg_ctl.sh" stop -m immediate >/dev/null 2>&1 || true
    fi
    rm -rf "$state"
    say "down"
}

cmd_status() {
    load_ports
    local n pid run code
    for n in "${instances[@]}"; do
        pid=$(pid_of "instance-$n")
        run=stopped
        ours "instance-$n" && run=running
        code=$(http_code "http://127.0.0.1:${inst_ports[n - 1]}/readyz")
        printf 'instance %s  pid %-7s %-8s http://127.0.0.1:%s  /readyz %s  in HAProxy: %s\n' \
            "$n" "${pid:--}" "$run" "${inst_ports[n - 1]}" "${code/000/-}" "$(lb_state "$n" || true)"
    done
    pid=$(pid_of haproxy)
    run=stopped
    ours haproxy && run=running
    printf 'haproxy     pid %-7s %-8s http://127.0.0.1:%s  https://127.0.0.1:%s  /readyz %s  stats http://127.0.0.1:%s/\n' \
        "${pid:--}" "$run" "$HTTP_PORT" "$HTTPS_PORT" "$(http_code "http://127.0.0.1:$HTTP_PORT/readyz")" "$STATS_PORT"
    run=stopped
    "$pg_bindir/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" -t 2 && run=running
    printf 'postgresql  port %-6s %s\n' "$PG_PORT" "$run"
}

instance_arg() {
    case "${1:-}" in
        1 | 2 | 3) ;;
        *) die "which instance? (1, 2 or 3)" ;;
    esac
}

cmd_kill() {
    local pid i
    pid=$(pid_of "instance-$1")
    ours "instance-$1" || die "instance $1 is not running"
    kill -KILL "$pid"
    for ((i = 0; i < 50; i++)); do
        alive "$pid" || break
        sleep 0.1
    done
    rm -f "$state/instance-$1.pid"
    say "instance $1 (pid $pid) killed with SIGKILL"
}

cmd_stop() {
    stop_process "instance-$1"
    say "instance $1 stopped"
}

cmd_start() {
    ! ours "instance-$1" || die "instance $1 is already running"
    start_instance "$1"
    wait_instance_ready "$1"
    wait_lb_up "$1"
    say "instance $1 started, ready and UP in HAProxy"
}

case "${1:-}" in
    up) cmd_up ;;
    down) cmd_down ;;
    status) cmd_status ;;
    kill | stop | start | restart)
        instance_arg "${2:-}"
        load_ports
        case $1 in
            kill) cmd_kill "$2" ;;
            stop) cmd_stop "$2" ;;
            start) cmd_start "$2" ;;
            restart)
                cmd_stop "$2"
                cmd_start "$2"
                ;;
        esac
        ;;
    db-stop)
        load_ports
        "$state/pg/pg_ctl.sh" stop >/dev/null
        say "PostgreSQL stopped"
        ;;
    db-start)
        load_ports
        start_db
        say "PostgreSQL started"
        ;;
    psql)
        load_ports
        shift
        pg_psql -d storefront "$@"
        ;;
    ports)
        load_ports
        cat "$state/cluster.ports"
        ;;
    -h | --help | help) usage ;;
    *)
        usage >&2
        exit 2
        ;;
esac
