#!/usr/bin/env bash
# The worst case of the PostgreSQL title index's pending list (issue 21, goal 4): never-repeated title
# filters that match nothing (each a miss of every cache), 100,000 products in the index's tree, with the
# pending list empty, then filled to 7 of its 8 pages (64 kB) by one-row inserts, then with the index as it
# was before session 17 (fastupdate off). A sequential keep-alive client sends 2,000 distinct filters per
# case through the server; prints p50, p99 and max. In a throw-away PostgreSQL 15 cluster
# (tests/pg/with_pg_cluster.sh, fsync on).
#
#   bench/run_title_filter_pg.sh [--server-bin PATH]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
server_bin=$repo/build/server/storefront
while [[ $# -gt 0 ]]; do
    case $1 in
        --server-bin) server_bin=$(realpath "$2"); shift 2 ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
[[ -x $server_bin ]] || { echo "no $server_bin (build the storefront target first)" >&2; exit 1; }
if [[ -z ${TEST_PG_DSN:-} ]]; then
    TEST_PG_FSYNC=on exec "$repo/tests/pg/with_pg_cluster.sh" "$0" --server-bin "$server_bin"
fi
psql -q "$TEST_PG_DSN" -c "CREATE DATABASE title_filter"
dsn="${TEST_PG_DSN%/*}/title_filter"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$server_bin" --address 127.0.0.1 --port "$port" --threads 1 --access-log false --generated-locations 1000 \
    --storage "$dsn" >/dev/null 2>&1 &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done

no_match() {  # TAG: 2,000 distinct title filters that match nothing
    python3 - "$port" "$1" <<'PY'
import http.client, sys, time
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
lat = []
for i in range(2000):
    t = time.perf_counter()
    c.request("GET", "/api/v1/products?title=zq%s%dxv&limit=10" % (sys.argv[2], i))
    r = c.getresponse(); body = r.read()
    lat.append(time.perf_counter() - t)
    assert r.status == 200 and body == b"[]", (r.status, body[:100])
lat.sort()
print("p50 %.2f ms, p99 %.2f ms, max %.2f ms" % (lat[1000] * 1e3, lat[1980] * 1e3, lat[-1] * 1e3))
PY
}
pending() { psql -Atq "$dsn" -c "SELECT pending_pages FROM pgstatginindex('products_by_title_trigram')"; }

psql -q "$dsn" -c "CREATE EXTENSION IF NOT EXISTS pgstattuple"
psql -q "$dsn" -c "INSERT INTO products (id, title, slug, price, description, category_id, images, created_at,
    updated_at) SELECT i, 'Bulk product number ' || i || ' of the big catalogue', 'bulk-' || i, i % 1000, 'd',
    1 + i % 5, '{https://x.com/y.png}', 1, 1 FROM generate_series(1000, 100999) i"
psql -q "$dsn" -c "VACUUM ANALYZE products"
echo "PostgreSQL $(psql -Atq "$dsn" -c "SHOW server_version"), $(psql -Atq "$dsn" -c "SELECT count(*) FROM products") products; $(nproc) cores"
echo "pending list empty ($(pending) pages): $(no_match a)"
i=200000
while [[ $(pending) -lt 7 ]]; do  # one-row inserts, as creates make them
    sql=""
    for _ in $(seq 1 10); do
        i=$((i + 1))
        sql+="INSERT INTO products (id, title, slug, price, description, category_id, images, created_at,
            updated_at) VALUES ($i, 'Pending product $i with a longer title than most', 'pend-$i', 5, 'd', 1,
            '{}', 1, 1);"
    done
    psql -q "$dsn" -c "$sql"
done
echo "pending list at $(pending) of 8 pages: $(no_match b)"
psql -q "$dsn" -c "ALTER INDEX products_by_title_trigram SET (fastupdate = off)" -c "VACUUM products"
echo "fastupdate off, as before session 17 ($(pending) pages): $(no_match c)"
