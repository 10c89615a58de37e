# The location index against a brute-force scan, CPU time per query against the number of points, both
# axes logarithmic. Input: bench/run_load.sh's location_index.dat (tab-separated: n, then µs per query of
# k-d 5 nearest, brute 5 nearest, k-d 5 nearest within 100 km, k-d within 100 km, brute within 100 km).
# Variables (gnuplot -e): datafile, outfile.
set datafile separator "\t"
set terminal pngcairo size 1000, 650 font "DejaVu Sans,10"
set output outfile
set title "Location index (bounding-box tree) vs brute force: uniform points on the sphere, CPU time per query"
set xlabel "number of points"
set ylabel "µs per query"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set grid xtics ytics mxtics mytics
set key top left
plot datafile using 1:3 with linespoints lw 2 pt 7 lc rgb "#d62728" title "brute force, 5 nearest", \
     '' using 1:6 with linespoints lw 2 pt 5 lc rgb "#ff7f0e" title "brute force, within 100 km", \
     '' using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "index, 5 nearest", \
     '' using 1:5 with linespoints lw 2 pt 5 lc rgb "#17becf" title "index, within 100 km", \
     '' using 1:4 with linespoints lw 2 pt 9 lc rgb "#2ca02c" title "index, 5 nearest within 100 km"
