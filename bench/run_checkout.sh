#!/usr/bin/env bash
# Checkout benchmark (issues 42 and 46): paid checkouts per second with --connections (64) concurrent buyers
# through the real server, each buyer its own user, bearer token and keep-alive connection, buying in a loop:
# add one unit to the cart (POST /cart/items) → checkout (POST /orders) → pay with 4242424242424242
# (POST /orders/{id}/payments), against the same checkouts committed one by one in a plain loop on the same
# database at the same durability: one transaction per checkout with the SQL of its writes (decrement the
# stock, insert the order, its line and the payment, mark the order paid) on the server's own tables, by the
# sqlite3 CLI (SQLite, WAL, synchronous=FULL) and by pgbench -c1 (PostgreSQL 15, a throw-away cluster with
# fsync and synchronous_commit on, tests/pg/with_pg_cluster.sh). Median of --rounds (7) alternating rounds
# with min–max; loopback only; stops everything it started. Prints a markdown table.
#
#   bench/run_checkout.sh [--storage sqlite|postgresql|both] [--duration SECONDS] [--rounds N]
#                         [--connections BUYERS] [--threads N] [--build-dir DIR] [--server-bin PATH]
#                         [--no-build] [--no-install] [--driver wrk|buyers] [--driver-bin PATH]
#                         [--one-product]
#
# Once per backend, on a fresh database: --connections products with a stock of 1,000,000 (the most a product may have) (created through
# the API under the open write policy, so the run never runs out) and as many buyers (POST /users, then
# /auth/login; the access secret is fixed for the run so the tokens outlive restarts). Buyer N buys product
# N, so buyers wait for each other's commits and not for one product's row (--one-product, the worst case:
# every buyer and the loop buy product 1 of the run, so every checkout waits for that one row). Then each round: the server for
# --duration seconds under the buyers (--driver), stopped, its count of checkouts checked against the
# payments the database gained; then the loop on the
# same database for --duration seconds (checkouts committed ÷ time). SQLite runs with --storage-threads 64 (as
# bench/run_group_commit.sh), PostgreSQL with the default pool (4/4, the best in bench/run_group_commit_pg.sh) and
# --storage-threads 64 too: each change-feed append waits for its batch's commit on a storage thread, so with
# the default 4 threads at most 4 of the 64 buyers' events shared a commit (2026-11-28: 0.58x of the loop at
# 4 threads in 7 rounds; in 3 rounds 0.91x at 16 threads, 1.13x at 64; pool 8 with 64 threads no better).
# CHECKOUT_BASELINE_BIN=PATH in the environment: each round also runs the buyers against that build (before
# the one measured), and the table adds its row and each round's build ÷ baseline (a before/after in one run,
# which the disk's drift between runs cannot skew).
# --driver buyers (the default): bench/load/checkout_buyers.cpp, one thread with a keep-alive connection per
# buyer (built with the micro benchmarks unless --driver-bin names it). --driver wrk: wrk with one thread
# per buyer and bench/load/checkout.lua, the same steps and counts; its threads and per-request Lua took a
# third of the 2 cores (perf, 2026-11-29: 33 % of samples against the server's 52 %), which the loop it is
# compared with does not pay, so it measured the machine's room left after wrk (the tables until then).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
args=("$@")
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
driver=buyers
driver_bin=""
one_product=0
own_flag() {
    took=0
    case $1 in
        --driver) driver=$2; took=2 ;;
        --driver-bin) driver_bin=$(realpath "$2"); took=2 ;;
        --one-product) one_product=1; took=1 ;;
    esac
}
small_bench_setup run_checkout '2,34p' storage "$@"
case $driver in
    wrk) ;;
    buyers)
        if [[ -z $driver_bin ]]; then
            [[ $do_install == 0 ]] || install_tools /usr/include/benchmark/benchmark.h:libbenchmark-dev
            build_as_shipped "$build_dir" 1 checkout_buyers
            driver_bin=$build_dir/bench/checkout_buyers
        fi
        require_bin "$driver_bin"
        args+=(--driver-bin "$driver_bin")
        ;;
    *) echo "--driver must be wrk or buyers" >&2; exit 2 ;;
esac
storage=${storage:-both}
case $storage in
    sqlite) backends=(sqlite) ;;
    postgresql) backends=(postgresql) ;;
    both) backends=(sqlite postgresql) ;;
    *) echo "--storage must be sqlite, postgresql or both" >&2; exit 2 ;;
esac
buyers=$connections
baseline_bin=${CHECKOUT_BASELINE_BIN:-}
[[ -z $baseline_bin ]] || baseline_bin=$(realpath "$baseline_bin")
# PostgreSQL: run the whole script again inside a throw-away cluster (built and installed already).
if [[ $storage != sqlite && -z ${TEST_PG_DSN:-} ]]; then
    server_bin=$(realpath "$server_bin")
    TEST_PG_FSYNC=on exec "$repo/tests/pg/with_pg_cluster.sh" "$0" ${args[@]+"${args[@]}"} \
        --server-bin "$server_bin" --no-install
fi
install_tools sqlite3:sqlite3
pgbench=/usr/lib/postgresql/15/bin/pgbench
make_work storefront-checkout
export STOREFRONT_ACCESS_SECRET STOREFRONT_REFRESH_SECRET
STOREFRONT_ACCESS_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
STOREFRONT_REFRESH_SECRET=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')

storage_of() {
    case $1 in
        sqlite) echo "sqlite:$work/checkout.db" ;;
        postgresql) echo "${TEST_PG_DSN%/*}/checkout" ;;
    esac
}
server_flags_of() {
    case $1 in
        sqlite) echo "--storage-threads 64" ;;
        postgresql) echo "--storage-threads 64" ;;
    esac
}
start_backend() {
    # shellcheck disable=SC2046  # the flags are words
    start_server --storage "$(storage_of "$1")" --generated-locations 1000 $(server_flags_of "$1")
}
api() { curl -sf -H 'Content-Type: application/json' "$@"; }

# prepare BACKEND: the products and buyers of the run, in $work/BACKEND.products and $work/BACKEND.tokens.
prepare() {
    local b=$1 i id token
    [[ $b != postgresql ]] || psql -q "$TEST_PG_DSN" -c "CREATE DATABASE checkout"
    start_backend "$b"
    : >"$work/$b.products"
    : >"$work/$b.tokens"
    : >"$work/$b.users"
    for i in $(seq 1 "$buyers"); do
        id=$(api -d "{\"title\":\"Checkout Bench $i\",\"price\":12.5,\"description\":\"A benchmark product\",
            \"categoryId\":1,\"images\":[\"https://placehold.co/600x400\"],\"stock\":1000000}" \
            "http://127.0.0.1:$server_port/api/v1/products" | sed -n 's/^{"id":\([0-9]*\).*/\1/p')
        [[ -n $id ]] || { echo "could not create product $i" >&2; return 1; }
        echo "$id" >>"$work/$b.products"
        id=$(api -d "{\"name\":\"Buyer $i\",\"email\":\"buyer-$i@bench.example\",\"password\":\"secret123\",
            \"avatar\":\"https://placehold.co/200\"}" "http://127.0.0.1:$server_port/api/v1/users" |
            sed -n 's/^{"id":\([0-9]*\).*/\1/p')
        [[ -n $id ]] || { echo "could not create buyer $i" >&2; return 1; }
        echo "$id" >>"$work/$b.users"
        token=$(api -d "{\"email\":\"buyer-$i@bench.example\",\"password\":\"secret123\"}" \
            "http://127.0.0.1:$server_port/api/v1/auth/login" | sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p')
        [[ -n $token ]] || { echo "could not log buyer $i in" >&2; return 1; }
        echo "$token" >>"$work/$b.tokens"
    done
    chmod 600 "$work/$b.tokens"
    stop_server
    loop_input "$b"
    if ((one_product)); then  # every buyer's line names the run's first product
        sed -i "s/.*/$(head -1 "$work/$b.products")/" "$work/$b.products"
    fi
    log "$b: $buyers buyers and products ready"
}

# The loop's input: one checkout per transaction, buyer N's product and user id cycling, more than
# --duration seconds can commit (it is stopped by time). Buyer N's user and product; prices as the server writes them: 12.50 + 5.00
# shipping, in cents.
order_columns="user_id, status, subtotal, discount, shipping, total, coupon, name, line1, line2, city, postal_code,
    country, created_at, updated_at, expires_at"
payment_columns="order_id, user_id, amount, status, brand, last4, failure_code, next_action, created_at, updated_at"
loop_input() {
    local b=$1 first last first_user
    first=$(head -1 "$work/$b.products")
    last=$(tail -1 "$work/$b.products")
    first_user=$(head -1 "$work/$b.users")
    [[ $((last - first + 1)) == "$buyers" && $(($(tail -1 "$work/$b.users") - first_user + 1)) == "$buyers" ]] ||
        { echo "the ids of the products or the buyers are not contiguous" >&2; return 1; }
    if [[ $b == sqlite ]]; then
        {
            echo "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;"
            awk -v n=$((duration * 20000)) -v first="$first" -v one="$one_product" -v first_user="$first_user" -v buyers="$buyers" \
                -v oc="$order_columns" -v pc="$payment_columns" 'BEGIN {
                for (i = 0; i < n; i++) {
                    p = one ? first : first + i % buyers; u = first_user + i % buyers; t = 1767225600000 + i
                    printf "BEGIN IMMEDIATE; UPDATE products SET stock = stock - 1 WHERE id = %d AND stock >= 1;\n", p
                    printf "INSERT INTO shop_orders (%s) VALUES (%d, \x27pending_payment\x27, 1250, 0, 500, 1750, NULL, \x27Bench Buyer\x27, \x271 Main St\x27, NULL, \x27Springfield\x27, \x2712345\x27, \x27US\x27, %d, %d, %d);\n", oc, u, t, t, t + 1800000
                    print "INSERT INTO order_items VALUES ((SELECT max(id) FROM shop_orders), 0, " p ", \x27Checkout Bench\x27, 1250, 1, 1250);"
                    printf "INSERT INTO payments (%s) VALUES ((SELECT max(id) FROM shop_orders), %d, 1750, \x27succeeded\x27, \x27visa\x27, \x274242\x27, NULL, NULL, %d, %d);\n", pc, u, t, t
                    print "UPDATE shop_orders SET status = \x27paid\x27, updated_at = " t " WHERE id = (SELECT max(id) FROM shop_orders); COMMIT;"
                }
            }'
        } >"$work/loop.sql"
    else
        cat >"$work/loop_pg.sql" <<EOF
\\set k random(0, $((buyers - 1)))
\\set p $first + :k * $((1 - one_product))
\\set u $first_user + :k
BEGIN;
UPDATE products SET stock = stock - 1 WHERE id = :p AND stock >= 1;
INSERT INTO shop_orders ($order_columns) VALUES (:u, 'pending_payment', 1250, 0, 500, 1750, NULL, 'Bench Buyer', '1 Main St', NULL, 'Springfield', '12345', 'US', 1767225600000, 1767225600000, 1767227400000) RETURNING id AS order_id \\gset
INSERT INTO order_items VALUES (:order_id, 0, :p, 'Checkout Bench', 1250, 1, 1250);
INSERT INTO payments ($payment_columns) VALUES (:order_id, :u, 1750, 'succeeded', 'visa', '4242', NULL, NULL, 1767225600000, 1767225600000);
UPDATE shop_orders SET status = 'paid', updated_at = 1767225600001 WHERE id = :order_id;
COMMIT;
EOF
        chmod 644 "$work/loop_pg.sql"
    fi
}

paid_payments() {
    local q="SELECT count(*) FROM payments WHERE status = 'succeeded'"
    case $1 in
        sqlite) sqlite3 "$work/checkout.db" "$q" ;;
        postgresql) psql -Atq "${TEST_PG_DSN%/*}/checkout" -c "$q" ;;
    esac
}

# server_round BACKEND [KEY BINARY]: the buyers through the server (BINARY, else the measured build) for
# $duration s; appends a RESULT row under KEY (sf).
server_round() {
    local b=$1 key=${2:-sf} measured=$server_bin line before created paid
    server_bin=${3:-$server_bin}
    before=$(paid_payments "$b")
    start_backend "$b"
    server_bin=$measured
    if [[ $driver == wrk ]]; then
        line=$(timeout $((duration + 30)) wrk -t"$buyers" -c"$buyers" -d"${duration}s" --timeout 5s \
            -s "$repo/bench/load/checkout.lua" "http://127.0.0.1:$server_port" -- "$work/$b.tokens" \
            "$work/$b.products" | grep '^RESULT') ||
            { echo "wrk failed on $b" >&2; tail -n 5 "$work/server.log" >&2; return 1; }
    else
        line=$(timeout $((duration + 30)) "$driver_bin" --port "$server_port" --tokens "$work/$b.tokens" \
            --products "$work/$b.products" --duration "$duration" | grep '^RESULT') ||
            { echo "checkout_buyers failed on $b" >&2; tail -n 5 "$work/server.log" >&2; return 1; }
    fi
    stop_server
    # The driver's count against the database's: every checkout it counted is a payment there, and at most
    # one more per buyer (answered after the driver stopped listening).
    created=$(sed -n 's/.* created=\([0-9]*\).*/\1/p' <<<"$line")
    paid=$(($(paid_payments "$b") - before))
    ((created <= paid && paid <= created + buyers)) ||
        { echo "$b: the driver counted $created checkouts, the database has $paid new payments" >&2; return 1; }
    : >"$work/server.log"  # the access log: one line per request, not needed after the round
    echo "$key|$b ${line#RESULT }" >>"$work/results"
    log "$b server ($key): ${line#RESULT }"
}

# loop_round BACKEND: the plain loop on the same database for $duration s; appends a RESULT-like row.
loop_round() {
    local b=$1 before after start end
    before=$(paid_payments "$b")
    if [[ $b == sqlite ]]; then
        timed_sqlite_loop "$work/checkout.db" "$work/loop.sql"
    else
        start=$(date +%s%N)
        "$pgbench" -n -f "$work/loop_pg.sql" -c 1 -j 1 -T "$duration" "${TEST_PG_DSN%/*}/checkout" >/dev/null
        end=$(date +%s%N)
        loop_us=$(( (end - start) / 1000 ))
    fi
    after=$(paid_payments "$b")
    echo "loop|$b requests=$((after - before)) duration_us=$loop_us p50_us=0 p99_us=0" \
        "non2xx=0 created=$((after - before))" >>"$work/results"
    log "$b loop: $((after - before)) checkouts in $((loop_us / 1000)) ms"
}

for b in "${backends[@]}"; do prepare "$b"; done
for r in $(seq 1 "$rounds"); do
    log "round $r of $rounds"
    for b in "${backends[@]}"; do
        [[ -z $baseline_bin ]] || server_round "$b" base "$baseline_bin"
        server_round "$b"
        loop_round "$b"
    done
done

# --- report ------------------------------------------------------------------------------------------
# Each round's server ÷ the loop of the same round, min–max (with a second argument: each round's, in
# order): what the machine's other load shifts least.
# ratio_range BACKEND [list] [KEY ÷ KEY2]: sf ÷ loop by default.
ratio_range() {
    paste <(rounds_of "${3:-sf}|$1") <(rounds_of "${4:-loop}|$1") | awk -v list="${2:-}" '{
        c1 = d1 = c2 = d2 = 0; half = 0
        for (i = 1; i <= NF; i++) {
            if ($i ~ /^created=/) { if (half == 0) { c1 = substr($i, 9); half = 1 } else { c2 = substr($i, 9) } }
            if ($i ~ /^duration_us=/) { if (d1 == 0) { d1 = substr($i, 13) } else { d2 = substr($i, 13) } }
        }
        v = (c1 / d1) / (c2 / d2)
        if (list) { printf "%s%.2f", (NR == 1 ? "" : " "), v; next }
        if (NR == 1 || v < lo) { lo = v }
        if (NR == 1 || v > hi) { hi = v }
    } END { if (!list) printf "%.2f–%.2f", lo, hi }'
}
{
driver_text="wrk -t$buyers -c$buyers -d${duration}s, bench/load/checkout.lua"
[[ $driver == wrk ]] || driver_text="bench/load/checkout_buyers.cpp, one thread, ${duration}s"
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?'), --threads $threads, $buyers buyers" \
    "($driver_text: add to cart → POST /orders → pay), against" \
    "one transaction per checkout in a plain loop on the same database; files in $(df --output=source /tmp | tail -1)" \
    "($(stat -f -c %T /tmp)); median of $rounds alternating rounds (min–max); $(nproc) cores; uptime: $(uptime)"
echo
echo "| backend | run | checkouts/s | min–max | ÷ loop | ÷ loop per round | request p50 / p99 ms | non-2xx |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for b in "${backends[@]}"; do
    loop=$(created_per_s "loop|$b")
    row=$(row_of "sf|$b" created)
    case $b in
        sqlite) what="sqlite3 CLI: BEGIN IMMEDIATE; 5 statements; COMMIT (synchronous=FULL)" ;;
        postgresql) what="pgbench -c1: BEGIN; 5 statements; COMMIT (fsync, synchronous_commit on)" ;;
    esac
    echo "| $b | plain loop, $what | $loop | $(created_per_s_range "loop|$b") | 1.00× | – | – | – |"
    if [[ -n $baseline_bin ]]; then
        echo "| $b | server, baseline build | $(created_per_s "base|$b") | $(created_per_s_range "base|$b") |" \
            "$(awk -v a="$(created_per_s "base|$b")" -v b="$loop" 'BEGIN {printf "%.2f", a / b}')× |" \
            "$(ratio_range "$b" "" base)× | – | – |"
    fi
    echo "| $b | server, $buyers buyers | $(created_per_s "sf|$b") | $(created_per_s_range "sf|$b") |" \
        "**$(awk -v a="$(created_per_s "sf|$b")" -v b="$loop" 'BEGIN {printf "%.2f", a / b}')×** | $(ratio_range "$b")× |" \
        "$(fmt_ms "$(field "$row" p50_us)") / $(fmt_ms "$(field "$row" p99_us)") | $(field "$row" non2xx) |"
done
echo
for b in "${backends[@]}"; do
    echo "$b, server ÷ loop per round in order: $(ratio_range "$b" list)"
    [[ -z $baseline_bin ]] || echo "$b, server ÷ baseline build per round in order: $(ratio_range "$b" list sf base)"
done
}
