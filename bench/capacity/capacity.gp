# p99 latency per route against the load of the phase (requests answered per second, all routes), with the
# limit as a horizontal line. Called by bench/run_capacity.sh:
#   gnuplot -e "datafile='capacity.dat'; outfile='capacity.png'; limit=50" bench/capacity/capacity.gp
# The data file's first line names the columns: answered_rps, one p99 (ms) column per route, then the pools
# ("all_but_the_slow_routes" when the run had slow routes, "all_requests" last). NaN: no verdict (too few
# answers in that phase), a gap.
set terminal pngcairo size 1200,720 font "sans,10" noenhanced
set output outfile
header = system(sprintf("head -n 1 '%s'", datafile))
ncols = words(header)
npools = strstrt(header, "all_but_the_slow_routes") > 0 ? 2 : 1
last_route = ncols - npools
set title sprintf("storefront capacity: p99 per route under the mix (HAProxy, 3 instances, PostgreSQL 15); limit %g ms", limit)
set xlabel "load: requests answered per second in the phase (all routes)"
set ylabel "p99 latency, ms (log scale)"
set logscale y
set grid xtics ytics mytics
set key outside right top
set datafile missing "NaN"
set arrow from graph 0, first limit to graph 1, first limit nohead lw 2 dt 2 lc rgb "red"
set label sprintf("%g ms", limit) at graph 0.01, first limit offset 0, 0.6 tc rgb "red"
# gnuplot cycles 8 colours: the dash pattern and the point shape tell the routes beyond the eighth apart.
dash(c) = int((c - 2) / 8) + 1
plot for [c=2:last_route] datafile using 1:c with linespoints lc ((c - 2) % 8 + 1) dt dash(c) \
         pt ((c - 2) % 7 + 4) ps 0.8 lw 1.5 title columnheader(c), \
     for [c=last_route+1:ncols-1] datafile using 1:c with linespoints pt 9 ps 1.2 lw 3 lc rgb "gray40" \
         title columnheader(c), \
     datafile using 1:ncols with linespoints pt 5 ps 1.2 lw 3 lc rgb "black" title columnheader(ncols)
