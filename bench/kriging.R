# The R half of bench/kriging.sh: gstat's krige on the samples and grid that kriging_bench
# wrote into DIR, with the same model and nmax; prints "seconds max|Δpred| max|Δvar|".
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
suppressMessages({library(sp); library(gstat)})
s <- read.csv(file.path(dir, "samples.csv"))
g <- scan(file.path(dir, "grid.txt"), quiet = TRUE)
ox <- g[1]; oy <- g[2]; cell <- g[3]; rows <- g[4]; cols <- g[5]
model <- vgm(psill = g[7], model = "Sph", range = g[8], nugget = g[6])
nmax <- g[9]
coordinates(s) <- ~x+y
# cell centres, row-major from the north, as cadastre's Grid::values
xs <- ox + (seq_len(cols) - 0.5) * cell
ys <- oy - (seq_len(rows) - 0.5) * cell
nd <- data.frame(x = rep(xs, times = rows), y = rep(ys, each = cols))
coordinates(nd) <- ~x+y
secs <- system.time(k <- krige(z~1, s, nd, model, nmax = nmax, debug.level = 0))[["elapsed"]]
pred <- readBin(file.path(dir, "cpp_pred.bin"), "double", n = rows * cols)
var <- readBin(file.path(dir, "cpp_var.bin"), "double", n = rows * cols)
cat(sprintf("%.3f %.3e %.3e\n", secs, max(abs(k$var1.pred - pred)), max(abs(k$var1.var - var))))
