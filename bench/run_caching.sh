#!/usr/bin/env bash
# Compression and revalidation benchmark (issue 22): storefront's gzip answers against nginx serving the same
# gzip bytes with gzip_static, and the CPU a 304 costs against the full page. Median of --rounds (7)
# alternating rounds with min–max; loopback only; stops everything it started. Prints a markdown table.
#
#   bench/run_caching.sh [--threads N] [--duration SECONDS] [--connections N] [--rounds N]
#                        [--build-dir DIR] [--server-bin PATH] [--no-build] [--no-install]
#
# Rows, typical case first, then the worst cases a client can cause:
#   - the first products page (10 items), identity and gzip;
#   - the whole list in one page (limit=100: the largest body a client can ask for, most bytes to compress);
#   - the gzip page while another client keeps writing (every write is a new revision, so the page is
#     compressed again after each one: the cold cache);
#   - If-None-Match with the page's current ETag (304, no body) against the full page, storefront alone.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/lib/common.sh
source "$repo/bench/lib/common.sh"
small_bench_setup run_caching '2,15p' - "$@"

make_work storefront-caching
start_server --storage memory
mkdir -p "$work/static/gz"
# save_gzip PATH FILE: storefront's identity and gzip answers for PATH as gz/FILE and gz/FILE.gz, the pair
# nginx's gzip_static serves from.
save_gzip() {
    curl -sf "http://127.0.0.1:$server_port$1" -o "$work/static/gz/$2"
    curl -sf -H 'Accept-Encoding: gzip' "http://127.0.0.1:$server_port$1" -o "$work/static/gz/$2.gz"
    gzip -t <"$work/static/gz/$2.gz" || { echo "storefront did not gzip $1" >&2; exit 1; }
}
page='/api/v1/products?offset=0&limit=10'
whole='/api/v1/products?offset=0&limit=100'
save_gzip "$page" page.json
save_gzip "$whole" whole.json
start_nginx
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$server_port$page" >/dev/null
wrk -t1 -c"$connections" -d1s "http://127.0.0.1:$nginx_port/gz/page.json" >/dev/null

bench_pair 'products page, identity' "$page" gz/page.json
wrk_headers=(-H 'Accept-Encoding: gzip')
bench_pair 'products page, gzip' "$page" gz/page.json
bench_pair 'whole list (limit=100), gzip' "$whole" gz/whole.json
start_writer "$server_port"
bench_pair 'products page, gzip, while a client writes' "$page" gz/page.json
stop_writer
wrk_headers=()
writes=$(wc -l <"$work/writes")

etag=$(curl -sfI "http://127.0.0.1:$server_port$page" | sed -n 's/^[Ee][Tt][Aa][Gg]: *\([^[:space:]]*\).*/\1/p')
[[ -n $etag ]] || { echo "no ETag on $page" >&2; exit 1; }
label_304='products page, If-None-Match → 304'
label_full='products page, full 200 (same rounds)'
for _ in $(seq 1 "$rounds"); do
    wrk_headers=(-H "If-None-Match: $etag")
    wrk_run "sf|$label_304" "http://127.0.0.1:$server_port$page" "$connections" "$wrk_threads"
    wrk_headers=()
    wrk_run "sf|$label_full" "http://127.0.0.1:$server_port$page" "$connections" "$wrk_threads"
done

cpu_us() { awk -v c="$(field "$1" cpu_ns)" -v r="$(field "$1" requests)" 'BEGIN {printf "%.2f", c / r / 1000}'; }
wire() { awk -v b="$(field "$1" bytes)" -v r="$(field "$1" requests)" 'BEGIN {printf "%.0f", b / r}'; }
{
echo
echo "storefront $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?') vs nginx $("$nginx_bin" -v 2>&1 |
    sed 's/.*nginx\///') (gzip_static on the same .gz bytes): $threads server thread(s) / nginx worker(s);" \
    "wrk -t$wrk_threads -c$connections -d${duration}s, median of $rounds alternating rounds (min–max);" \
    "$(nproc) cores; uptime: $(uptime)"
echo
pair_table "$work/caching.dat" "${labels[@]}"
echo
echo "gzip bytes: page $(stat -c %s "$work/static/gz/page.json.gz") of $(stat -c %s "$work/static/gz/page.json")," \
    "whole list $(stat -c %s "$work/static/gz/whole.json.gz") of $(stat -c %s "$work/static/gz/whole.json")" \
    "(body B is the identity size). The writer made $writes create+delete pairs during its rows."
revalidated=$(row_of "sf|$label_304")
full=$(row_of "sf|$label_full")
echo "304 vs full page (storefront alone, median rounds, alternating): $(rps_row "$revalidated")" \
    "($(rps_range "sf|$label_304")) vs $(rps_row "$full") ($(rps_range "sf|$label_full")) req/s;" \
    "CPU $(cpu_us "$revalidated") vs $(cpu_us "$full") µs/req; wire $(wire "$revalidated") vs $(wire "$full") B/resp."
}
