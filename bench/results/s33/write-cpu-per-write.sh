#!/bin/bash
bin=$1
d=$(mktemp -d); export STOREFRONT_ACCESS_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))') STOREFRONT_REFRESH_SECRET=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
$bin --address 127.0.0.1 --port 18802 --threads 1 --storage sqlite:$d/e.db --write-policy open > $d/log 2>&1 & spid=$!
sleep 1
tid() { for t in /proc/$spid/task/*; do [ "$(cat $t/comm)" = "$1" ] && basename $t; done; }
W=$(tid sf-write/0); I=$(tid "sf-io:18802/0")
ticks() { echo "$(awk "{print \$1}" /proc/$spid/task/$1/schedstat) 0"; }
read wu0 ws0 < <(ticks $W); read iu0 is0 < <(ticks $I)
wrk -t1 -c1 -d5s -s /work/main/bench/load/write.lua "http://127.0.0.1:18802/api/v1/products" -- churn wl$RANDOM > $d/w.out 2>&1
read wu1 ws1 < <(ticks $W); read iu1 is1 < <(ticks $I)
n=$(grep -o 'created=[0-9]*' $d/w.out | head -1 | cut -d= -f2); r=$(awk '/^Requests/{print $2}' $d/w.out)
echo "$(basename $bin): writes(2xx)=$n req/s=$r write-lane cpu_us_per_write=$(( (wu1-wu0)/1000/n )) ticks; io_us_per_write=$(( (iu1-iu0)/1000/n )) ns on CPU"
kill $spid; wait $spid 2>/dev/null; rm -rf $d
