#!/usr/bin/env bash
# Before/after of two storefront builds on the rows a refactoring must not slow (issue 41): the products page,
# one product, and the page while one client creates and deletes products (bench/load/write.lua churn).
# SQLite in a temp dir, --threads 1, --write-policy open; wrk -t1 -c64 for 3 s per row; PAIRS alternating
# rounds (before, after, before, ...); prints one line per round (requests per second).
#   bench/run_before_after.sh PAIRS BEFORE_BIN AFTER_BIN
set -u
export STOREFRONT_ACCESS_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
export STOREFRONT_REFRESH_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
one() {
  local label=$1 bin=$2 d port=18791
  d=$(mktemp -d)
  $bin --address 127.0.0.1 --port $port --threads 1 --storage sqlite:$d/e.db --write-policy open > $d/server.log 2>&1 &
  local spid=$!
  for i in $(seq 200); do curl -sf -o /dev/null http://127.0.0.1:$port/api/v1/categories && break; sleep 0.1; done
  local page=$(wrk -t1 -c64 -d3s "http://127.0.0.1:$port/api/v1/products?offset=0&limit=10" | awk '/Requests\/sec/{print $2}')
  local item=$(wrk -t1 -c64 -d3s "http://127.0.0.1:$port/api/v1/products/1" | awk '/Requests\/sec/{print $2}')
  wrk -t1 -c1 -d4s -s $root/bench/load/write.lua "http://127.0.0.1:$port/api/v1/products" -- churn ab$RANDOM > $d/w.out 2>&1 &
  local wpid=$!
  sleep 0.5
  local under=$(wrk -t1 -c64 -d3s "http://127.0.0.1:$port/api/v1/products?offset=0&limit=10" | awk '/Requests\/sec/{print $2}')
  wait $wpid
  echo "$label page=$page item=$item page_under_writer=$under writes=$(grep -o 'created[^,]*' $d/w.out | head -1)"
  kill $spid; wait $spid 2>/dev/null; rm -rf $d
}
for i in $(seq $1); do one before $2; one after $3; done
