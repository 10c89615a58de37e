#!/usr/bin/env bash
# Single-item reads against nginx serving the same bytes: one product, one category, one user by id, and the
# product while another client keeps writing, on the default backend (SQLite, a fresh file in the temp dir)
# unless --storage says otherwise. Median of --rounds (7) alternating rounds with min–max; loopback only;
# stops everything it started. Prints a markdown table.
#
#   bench/run_items.sh [--storage SPEC] [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                      [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install]
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
small_bench_setup run_items '2,8p' storage "$@"

make_work storefront-items
storage=${storage:-sqlite:$work/items.db}
start_server --storage "$storage"
# Each list once, as any client's first page would, so the cached lists are loaded.
for list in '/api/v1/products?offset=0&limit=100' /api/v1/categories /api/v1/users; do
    curl -sf "http://127.0.0.1:$server_port$list" -o /dev/null
done
save_body /api/v1/products/7 product_7.json
save_body /api/v1/categories/2 category_2.json
save_body /api/v1/users/1 user_1.json
start_nginx
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port/api/v1/products/7" >/dev/null
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$nginx_port/product_7.json" >/dev/null

bench_pair 'products/7' /api/v1/products/7 product_7.json
bench_pair 'categories/2' /api/v1/categories/2 category_2.json
bench_pair 'users/1' /api/v1/users/1 user_1.json
# The worst case: a client keeps creating and deleting products, so the cached list is rarely current and
# most reads of products/7 ask the store (nothing here requests the list to reload it).
start_writer "$server_port"
bench_pair 'products/7 while a client writes' /api/v1/products/7 product_7.json
stop_writer
writes=$(wc -l <"$work/writes")

{
echo
echo "storefront $("$server_bin" --version 2>/dev/null | sed 's/^storefront //') ($server_bin) on ${storage%%:*} vs nginx" \
    "$("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///'): $threads server thread(s) / nginx worker(s);" \
    "wrk -t$wrk_threads -c$connections -d${duration}s, median of $rounds alternating rounds (min–max);" \
    "$(nproc) cores; uptime: $(uptime)"
echo
pair_table "$work/items.dat" "${labels[@]}"
echo
echo "The writer made $writes create+delete pairs during its row."
}
