# Horizontal clustered bars from a tab-separated data file: one row per path, storefront (column col_a)
# beside nginx (column col_b), the row's label (column 1) on the y axis. Horizontal because the labels are
# long. Variables (gnuplot -e): datafile, outfile, plottitle, xlabel, col_a, col_b, logx (1: log x axis),
# and optionally name_a / name_b (legend texts, default storefront / nginx).
if (!exists("name_a")) name_a = "storefront"
if (!exists("name_b")) name_b = "nginx (same bytes, static file)"
if (!exists("logx")) logx = 0

set datafile separator "\t"
set datafile commentschars "#"
stats datafile using 0 nooutput
rows = STATS_records
stats datafile using (column(col_a) < column(col_b) ? column(col_a) : column(col_b)) nooutput
smallest = STATS_min

set terminal pngcairo size 1400, (160 + 34 * rows) font "DejaVu Sans,10"
set output outfile
set title plottitle
set xlabel xlabel
set key outside top center horizontal
set grid xtics
set yrange [rows - 0.5 : -0.5]
set ytics scale 0 noenhanced
set style fill solid 0.85 border -1
# Log axis: bars start one decade below the smallest value (a bar needs a left end; 0 has no logarithm).
xmin = 0
if (logx) {
    xmin = 10 ** floor(log10(smallest > 0 ? smallest : 1) - 1)
    set logscale x
    set xrange [xmin:*]
} else {
    set xrange [0:*]
}

# Row i: bar A from y = i - 0.4 to i, bar B from i to i + 0.4; the value is printed at the bar's end.
plot datafile using (column(col_a)/2 + xmin/2):0:(xmin):(column(col_a)):($0 - 0.4):($0):ytic(1) \
         with boxxyerror lc rgb "#1f77b4" title name_a, \
     '' using (column(col_b)/2 + xmin/2):0:(xmin):(column(col_b)):($0):($0 + 0.4) \
         with boxxyerror lc rgb "#ff7f0e" title name_b, \
     '' using (column(col_a)):($0 - 0.2):(sprintf(" %g", column(col_a))) with labels left font ",8" notitle, \
     '' using (column(col_b)):($0 + 0.2):(sprintf(" %g", column(col_b))) with labels left font ",8" notitle
